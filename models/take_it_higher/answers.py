"""The answers of Take it Higher!'s own verbs (declared in verbs.py): each verb's
function, from what the layer read (a `Call`) to a plain dataclass, the `--json`
document. `max`'s are in answers_max.py (its answer types come with the solvers)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from models.take_it_higher.exact import ExactResult
from models.take_it_higher.hint import HintResult
from models.take_it_higher.learned.policy import LearnedResult
from models.take_it_higher.positions import Position, position_from_dict
from models.take_it_higher.queries import TileSet
from models.take_it_higher.rules import Tile
from models.take_it_higher.sheet import ScoreSheet
from models.take_it_higher.state import GameState, replay
from models.take_it_higher.variants import Variant, parse_variant
from solver.answers import Capped, Seen, extend, seen
from solver.errors import BadInput

if TYPE_CHECKING:
    from solver.verbs import Call


@dataclass(kw_only=True)
class OnBoard:
    """The position the answer is about, kept for its picture (not in the JSON)."""

    state: GameState = field(metadata={"json_skip": True}, repr=False)


@dataclass
class ScoreAnswer(Seen, OnBoard, ScoreSheet):
    """`score --json`: the score sheet of the file's board under the chosen rules."""


@dataclass(kw_only=True)
class Method:
    """How a hint was worked out: `method` ("learned", "exact" or "sampled") and why
    that one (`chosen`: the default for the board, or the option that asked for it)."""

    method: str
    chosen: str


@dataclass
class HintAnswer(Capped, Method, Seen, OnBoard, HintResult):
    """`hint --method sampled --json`: the cells ranked over sampled futures (the last
    tile: exactly)."""


@dataclass
class ExactAnswer(Capped, Method, Seen, OnBoard, ExactResult):
    """`hint --exact --json`: each cell's exact expected final score."""


@dataclass
class LearnedAnswer(Capped, Method, Seen, OnBoard, LearnedResult):
    """`hint --json` (the default on the built-in board), `hint --learned --json`: the
    cells ranked by the learned value of boards."""


@dataclass
class LearnAnswer:
    """`learn`: the values file written, its games and table entries."""

    out: str
    games: int
    entries: int


def chosen_variant(position: Position, name: str | None, gold_silver: bool) -> Variant:
    """--variant if given, else the file's (basic if it names none); --gold-silver adds
    the bonus rows."""
    if name is not None:
        return parse_variant(name, gold_silver)
    variant = position.variant or Variant()
    return replace(variant, gold_silver=True) if gold_silver else variant


def position_of(call: Call) -> Position:
    """The file's position as recorded (its launches are checked when it is replayed
    under the chosen rules, which may not be the file's)."""
    return position_from_dict(call.rules(), call.data(), call.where)


def score(call: Call, variant: str | None, gold_silver: bool) -> ScoreAnswer:
    """The score sheet of the file's board; launches replayed under the chosen rules."""
    from models.take_it_higher import queries

    position = position_of(call)
    chosen = chosen_variant(position, variant, gold_silver)
    sheet = queries.score(position, chosen)
    state = replay(position, chosen)
    if call.svg_path:
        from models.take_it_higher.render import board_svg

        call.save_svg(board_svg(call.rules(), state.board, state.ships_on,
                                title=f"{sheet.total} points"))
    return extend(sheet, ScoreAnswer, **seen(call.game, state, False), state=state)


def called_tile(state: GameState, tile_text: str | None) -> Tile:
    """--tile if given (it must be the file's called tile, if the file calls one), else
    the file's called tile."""
    if tile_text is not None:
        tile = state.rules.parse_tile(tile_text, "--tile")
        if state.called is not None and state.called != tile:
            raise BadInput(f"--tile {tile.id}: the file calls {state.called.id}")
        return tile
    if state.called is not None:
        return state.called
    raise BadInput("--tile: give the called tile (the file calls none)")


def hint(call: Call, tile_text: str | None, variant: str | None, gold_silver: bool,
         method: str, samples: int | None, seed: int, time_limit: float | None,
         exact: bool, learned: bool, values_path: str | None, lookahead: int | None,
         futures: int | None, calls: int | None
         ) -> HintAnswer | ExactAnswer | LearnedAnswer:
    """Where to put the called tile: by the default method for the board (named in the
    answer) or the one asked for; the time limit caps the work."""
    from models.take_it_higher.advice import HINT_CAP, advise, resolve_method
    from models.take_it_higher.hint import CLOCK_SECONDS
    from solver.deadline import Deadline

    position = position_of(call)
    state = replay(position, chosen_variant(position, variant, gold_silver))
    tile = called_tile(state, tile_text)
    learned_options = any(o is not None for o in (lookahead, futures, calls))
    name, chosen = resolve_method(state, tile, method, exact, learned, samples,
                                  values_path, learned_options)
    # the whole command within the limit, counted from its start: with --samples 0 the
    # clock's budget, else a cap
    limit = time_limit if time_limit is not None else (
        CLOCK_SECONDS if samples == 0 else HINT_CAP)
    deadline = Deadline.from_start(limit)
    advice = advise(state, tile, name, samples=samples, seed=seed, deadline=deadline,
                    time_limit=max(0.05, deadline.left() or 0.0) if samples == 0 else None,
                    values=values_path, lookahead=lookahead, futures=futures,
                    calls=calls, chosen=chosen)
    # the player's view: the board, the ships, the called tile (and the tiles the file
    # knows to come); the tiles to come are sampled or averaged, their order never read
    used = state if state.called is not None else state.apply_action(tile)
    known = {**seen(call.game, used, False), "state": state, "method": name,
             "chosen": chosen, "cut_by_time": advice.cut}
    answer = {"learned": LearnedAnswer, "exact": ExactAnswer}.get(name, HintAnswer)
    return extend(advice.result, answer, **known)


def learn(call: Call, variant: str, gold_silver: bool, games: int, seed: int, out: str,
          resume: str | None, step: float, chances: bool | None, fits: bool | None,
          demand: bool | None, coherence: bool, jobs: int, lam: float) -> LearnAnswer:
    """Learn the values by self-play and write them to --out; says first how many games
    it plays and about how long they take, then shows a bar with the time left."""
    from pathlib import Path

    from models.take_it_higher.learned.files import load_values
    from models.take_it_higher.learned.td import seconds_per_game, train
    from solver.progress import is_quiet, progress_bar
    from solver.render import stderr

    rules = call.rules()
    scoring = parse_variant(variant, gold_silver)
    start = load_values(Path(resume), rules, scoring) if resume else None
    before = start.games if start else 0
    if not is_quiet() and stderr.is_terminal:  # a word for the person waiting
        about = games * seconds_per_game(rules, scoring, min(30, games)) / jobs
        stderr.print(f"learn: {games:,} game{'s' if games > 1 else ''} of self-play, about "
                     f"{about_time(about)} here (--games to change)", highlight=False)
    with progress_bar("learn (games)") as update:
        values = train(rules, scoring, games, seed, alpha=step, values=start,
                       progress=lambda n, mean: update(n - before, games),
                       chances=chances, fits=fits, lam=lam, demand=demand, jobs=jobs,
                       coherence=coherence)
    values.save(Path(out))
    return LearnAnswer(out, values.games, len(values.weights))


def about_time(seconds: float) -> str:
    """A rough duration in words: '40 seconds', '8 minutes', '2.5 hours'."""
    if seconds < 1.5:
        return "a second"
    if seconds < 90:
        return f"{round(seconds)} seconds"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} minutes"
    return f"{seconds / 3600:.1f} hours"


def tiles(call: Call) -> TileSet:
    """The tile set of the rules."""
    from models.take_it_higher import queries

    return queries.tile_set(call.rules())
