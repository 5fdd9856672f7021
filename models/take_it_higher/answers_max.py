"""The answer of `max` (declared in verbs.py): the proven maximal score, over every
choice of tiles, for one draw, or over many random draws. Apart from answers.py
because its answer types come with the solvers (OR-Tools, PySAT): the other verbs do
not import them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from models.take_it_higher.auto import AutoMaxResult
from models.take_it_higher.draws import DrawsResult
from models.take_it_higher.maximum import MaxResult
from models.take_it_higher.positions import Position, parse_draw
from models.take_it_higher.rules import Rules, Tile
from models.take_it_higher.state import GameState, dealt_game, game_draw, replay
from models.take_it_higher.variants import Variant, parse_variant
from solver.answers import Capped, Seen, extend, seen
from solver.errors import BadInput
from solver.game import task_seed

if TYPE_CHECKING:
    from solver.verbs import Call

HINDSIGHT = ("hindsight, all-seeing: every tile of the draw and its call order known in "
             "advance (no player knows them; an upper reference for what a player scores)")
FROM_BOARD = ("all-seeing: the best finish of the board, the tiles still to come chosen "
              "freely (no player chooses them; the upper bound of the score from here)")
HINDSIGHT_BOARD = ("hindsight, all-seeing: the best finish of the board with every tile "
                   "still to come known (no player knows them in advance)")
FREE_CHOICE = ("all-seeing: the best board over every choice of tiles and order (no game a "
               "player plays; the upper bound of the score)")


@dataclass(kw_only=True)
class Reading(Seen):
    """Seen, and how the answer reads the game (hindsight, or the tiles chosen freely:
    both see what no player can)."""

    reading: str


@dataclass
class MaxAnswer(Capped, Reading, MaxResult):
    """`max --json` with one back-end (--backend cpsat or maxsat)."""


@dataclass
class AutoMaxAnswer(Capped, Reading, AutoMaxResult):
    """`max --json` with the back-ends racing (--backend auto, the default)."""


@dataclass
class DrawsAnswer(Capped, Reading, DrawsResult):
    """`max --draws N --json`: the hindsight optima of N random draws."""

    asked: int = field(default=0, metadata={"json_skip": True})  # N, of which `draws` ran

    def exit_with(self, store_path: str | None) -> tuple[int, str] | None:
        """After an interrupted run: exit 130, saying what was kept (None: it was
        complete)."""
        from solver.executor import interruption

        return ((130, interruption(len(self.records), self.asked, store_path))
                if self.interrupted else None)


def max_(call: Call, variant: str | None, gold_silver: bool, draw: str | None,
         backend: str, draws: int | None) -> MaxAnswer | AutoMaxAnswer | DrawsAnswer:
    """The highest score and a board reaching it, from an empty board or the board of
    FILE (or, with --draws N, the distribution of the hindsight optima of N draws)."""
    from models.take_it_higher.answers import chosen_variant, position_of

    rules = call.rules()
    if call.file is not None:
        if draws is not None:
            raise BadInput("--draws cannot be combined with a position FILE")
        position = position_of(call)
        if position.placements or position.called or position.coming:
            return from_board(call, position, variant, gold_silver, draw, backend)
        # an empty board: the game's maximum, in the file's variant
        chosen = chosen_variant(position, variant, gold_silver)
    else:
        chosen = parse_variant(variant or "basic", gold_silver)
    if draws is not None:
        if draw or call.svg_path:
            raise BadInput("--draws cannot be combined with --draw or --svg")
        return many_draws(call, rules, chosen, backend, draws)
    assert call.batch is not None and call.solver is not None
    if call.store_path or call.resume or call.batch.scheduler:
        raise BadInput("--store, --resume and --scheduler need --draws N")
    tiles = parse_draw(rules, draw) if draw else None
    result = _maximise(call, chosen, tiles, backend)
    answer = AutoMaxAnswer if isinstance(result, AutoMaxResult) else MaxAnswer
    if tiles is not None and len(tiles) == rules.board_size:
        return extend(result, answer, reading=HINDSIGHT, cut_by_time=result.cut, **seen(
            call.game, dealt_game(rules, chosen, tiles), True, hide_unknown=True))
    more = ["the tiles of --draw and their call order"] if tiles else []
    return extend(result, answer, reading=FREE_CHOICE, cut_by_time=result.cut, **seen(
        call.game, GameState(rules, chosen), True,
        [*more, "the other tiles to be called: chosen freely"], hide_unknown=True))


def _maximise(call: Call, chosen: Variant, tiles: list[Tile] | None, backend: str,
              fixed: tuple[tuple[str, Tile], ...] = ()) -> MaxResult:
    """The maximum by the back-end asked for (auto: the race), its board drawn to --svg."""
    rules = call.rules()
    if backend == "auto":
        from models.take_it_higher.auto import maximise_auto

        result: MaxResult = maximise_auto(rules, chosen, tiles, call.solver, fixed=fixed)
    else:
        from models.take_it_higher.maximum import maximise

        result = maximise(rules, chosen, tiles, backend, call.solver, fixed=fixed)
    if call.svg_path:
        from models.take_it_higher.render import board_svg

        board = {c: rules.tile_by_id[t] for c, t in result.board.items()}
        call.save_svg(board_svg(rules, board, title=f"{result.score} points "
                                                    f"({result.status})"))
    return result


def from_board(call: Call, position: Position, variant: str | None, gold_silver: bool,
               draw: str | None, backend: str) -> MaxAnswer | AutoMaxAnswer:
    """`max FILE`: the best score from the file's board. Its tiles stay where they are;
    the called tile, the tiles the file knows to come and those of --draw must be
    placed; the other tiles to come are chosen freely (the upper bound of what the
    player can still score)."""
    from models.take_it_higher.answers import chosen_variant

    assert call.batch is not None and call.solver is not None
    if call.store_path or call.resume or call.batch.scheduler:
        raise BadInput("--store, --resume and --scheduler need --draws N")
    rules = call.rules()
    chosen = chosen_variant(position, variant, gold_silver)
    if chosen.ships is not None:
        raise BadInput(f"{call.where}: the best score from a board is modelled for the "
                       f"basic and gold/silver rules only, not with spaceships "
                       f"({chosen.name})")
    state = replay(position, chosen)
    tiles = ([state.called] if state.called is not None else []) + list(state.coming)
    for tile in parse_draw(rules, draw) if draw else []:
        if tile in state.board.values():
            raise BadInput(f"--draw: tile {tile.id} is on the board already")
        if tile not in tiles:
            tiles.append(tile)
    fixed = tuple(state.board.items())
    result = _maximise(call, chosen, tiles or None, backend, fixed)
    answer = AutoMaxAnswer if isinstance(result, AutoMaxResult) else MaxAnswer
    if len(fixed) + len(tiles) == rules.board_size:
        reading, more = HINDSIGHT_BOARD, ["every tile still to come"]
    else:
        reading, more = FROM_BOARD, ["the other tiles to be called: chosen freely"]
    return extend(result, answer, reading=reading, cut_by_time=result.cut,
                  **seen(call.game, state, True, more, hide_unknown=True))


def many_draws(call: Call, rules: Rules, variant: Variant, backend: str, draws: int
               ) -> DrawsAnswer:
    """`max --draws N`: each draw a task of the batch."""
    from models.take_it_higher.draws import draws_batch
    from solver.store import store_at

    assert call.batch is not None and call.solver is not None
    seed = call.solver.seed
    with store_at(call.store_path) as store:
        many = draws_batch(rules, variant, draws, seed, backend, call.solver.time_limit,
                           call.batch, store, call.resume)
    # every draw is a dealt game: its tiles and their order known (draw 0 shown)
    dealt = dealt_game(rules, variant, game_draw(rules, task_seed(seed, 0)))
    return extend(many, DrawsAnswer, reading=HINDSIGHT, asked=draws,
                  cut_by_time=any(r.cut_by_time for r in many.records),
                  **seen(call.game, dealt, True, hide_unknown=True))
