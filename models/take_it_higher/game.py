"""Take it Higher! described once for the shared commands and tests (`solver.game.Game`).

One player; each turn a tile is called from the face-down bag and placed. A dealt game
knows the order of the bag and calls the next tile as part of the placement; a
position file or what the player sees does not, and there the call is a chance event
(`--tile` names it on the command line). Actions are a `Placement` (the player) or a
`Tile` (the call).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from models.take_it_higher.hint import CLOCK_SECONDS
from models.take_it_higher.learned.policy import CALLS, FUTURES, LOOKAHEAD
from models.take_it_higher.policies import DECISION_CAP
from models.take_it_higher.positions import (
    Placement,
    Position,
    format_placement,
    parse_launch,
    parse_placement,
    position_from_dict,
)
from models.take_it_higher.rows import completed_rows
from models.take_it_higher.rules import Rules, Tile, load_rules
from models.take_it_higher.sheet import state_sheet
from models.take_it_higher.state import GameState, deal, dealt_game, replay
from models.take_it_higher.variants import (
    VARIANT_CHOICES,
    Variant,
    parse_variant,
    variant_from_name,
)
from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL, Game, Policy
from solver.params import (
    Param,
    choice_param,
    flag_param,
    int_param,
    seconds_param,
)

if TYPE_CHECKING:
    from models.take_it_higher.queries import ShowResult

Action = Placement | Tile

# what the hindsight optimum of a simulated game knows, in its JSON
OPTIMUM_KNOWS = "everything: hindsight, every tile of the draw and its order (all-seeing)"
# the hindsight optimum's time, when --optimum-time is not given
SIMULATED_OPTIMUM_TIME = 10.0
PLAYED_OPTIMUM_TIME = 30.0


def variant_param(default: str | None) -> Param:
    """--variant: the game's setup (default basic), or a verb reading a position file
    (default None: the file's variant)."""
    more = "" if default else " Default: the file's variant, else basic."
    return choice_param("variant", VARIANT_CHOICES, default, "basic; gold-silver bonus "
                        "rows; simple or advanced spaceship rules." + more,
                        case_sensitive=False)


GOLD_SILVER_PARAM = flag_param("gold_silver",
                               "Add the gold/silver bonus to a spaceship variant.")


class TakeItHigherGame(Game[Rules, GameState, Action]):
    id = "take-it-higher"
    notation = (
        "A tile is its stud (G gold, S silver) and its letter, e.g. GA ('tiles' lists "
        "the letters' stripes); a move puts the called tile on a cell: a cell (e.g. c3: "
        "column a-f, row 1-6) or TILE@CELL, with +SHIP after it to launch spaceships "
        "(spaceship variants), e.g. GA@c3+white.")
    kind = "score"
    policy_names = ("greedy", "hint", "learned", "random")
    setup_options = (variant_param("basic"), GOLD_SILVER_PARAM)
    play_options = (
        int_param("samples", None, 0, None, "Hint policy (sampled futures completed by "
                  "CP-SAT): the futures per decision, each completion a fixed amount of "
                  "solver work, so games replay from --seed [default: 8; 4 with "
                  "gold/silver or spaceships] (0: as many as fit in --hint-time, by the "
                  "clock: not reproducible)."),
        seconds_param("hint_time", None, 0.01, "Hint and learned policies: seconds a "
                      f"decision may take at most (a cap; the work is counted) [default: "
                      f"{DECISION_CAP:g}; with --samples 0 the hint's budget: "
                      f"{CLOCK_SECONDS:g}]."),
        Param("values", "file", None, "Learned values for the learned policy (a file of "
              "'toppi take-it-higher learn'; default: the built-in board's).", web=False),
        int_param("lookahead", LOOKAHEAD, 0, None,
                  "Learned policy: the best cells valued one call deeper."),
        int_param("futures", FUTURES, 0, None, "Learned policy: those cells valued on this "
                  "many sampled futures (0: one call ahead, exactly)."),
        int_param("calls", CALLS, 1, None,
                  "Learned policy: calls each sampled future plays on."),
        seconds_param("optimum_time", None, 0.01, "Seconds for the hindsight optimum of a "
                      f"game's draw (default: {SIMULATED_OPTIMUM_TIME:g} per simulated "
                      f"game, {PLAYED_OPTIMUM_TIME:g} at the end of play)."),
        flag_param("no_optimum", "Skip the hindsight optimum."),
    )
    chance_option = Param("tile", "text", None, "The called tile (e.g. GJ) when the "
                          "position calls none: list its placements.", metavar="TILE")
    show_answer = "models.take_it_higher.queries:ShowResult"

    # ------------------------------------------------------------------ data, positions

    def load_rules(self, path: str | None, **data: Any) -> Rules:
        return load_rules(path)

    def read(self, rules: Rules, data: Any, where: str) -> GameState:
        position = position_from_dict(rules, data, where)
        try:
            return replay(position, position.variant or Variant())
        except BadInput as exc:
            raise BadInput(f"{where}: {exc}") from None

    def write(self, state: GameState) -> dict[str, Any]:
        called = state.called.id if state.called is not None else None
        return Position(state.rules, list(state.placements), called, state.variant,
                        tuple(t.id for t in state.coming)).to_dict()

    def setups(self, rules: Rules, **options: Any) -> list[dict[str, Any]]:
        variant = parse_variant(options.get("variant", "basic"),
                                options.get("gold_silver", False))
        return [{"variant": variant.name}]

    def new_game(self, rules: Rules, setup: dict[str, Any], rng: random.Random
                 ) -> GameState:
        return dealt_game(rules, variant_from_name(setup.get("variant", "basic")),
                          deal(rules, rng))

    def streams(self, seed: int) -> tuple[random.Random, random.Random]:
        # the deal and the policies' choices use separate generators, so a policy
        # that draws more or fewer numbers meets the same tiles
        return random.Random(seed), random.Random(f"policy-{seed}")

    # ------------------------------------------------------------------ play

    def players(self, state: GameState) -> int:
        return 1

    def current_player(self, state: GameState) -> int:
        if state.is_terminal():
            return TERMINAL
        return CHANCE if state.called is None else 0

    def legal_actions(self, state: GameState) -> list[Action]:
        if state.called is None:
            return list(state.call_outcomes())
        return list(state.legal_placements())

    def apply_action(self, state: GameState, action: Action) -> GameState:
        return state.apply_action(action)

    def chance_outcomes(self, state: GameState) -> list[tuple[Action, float]]:
        return list(state.call_chances())

    def returns(self, state: GameState) -> list[float]:
        return [float(state_sheet(state).total)]

    # ------------------------------------------------------------------ information

    def observation(self, state: GameState, player: int) -> GameState:
        if state.to_call is None:
            return state
        return GameState(state.rules, state.variant, state.placements, state.board,
                         state.ships_on, state.called, None, state.coming)

    def determinize(self, observation: GameState, rng: random.Random) -> GameState:
        if observation.to_call is not None:
            return observation
        unseen = observation.unseen_tiles()
        n = observation.calls_to_come()
        if observation.coming:  # the known tiles and a sample of the others, shuffled
            others = [t for t in unseen if t not in observation.coming]
            order = [*observation.coming, *rng.sample(others, n - len(observation.coming))]
            rng.shuffle(order)
        else:
            order = rng.sample(unseen, n)
        return GameState(observation.rules, observation.variant, observation.placements,
                         observation.board, observation.ships_on, observation.called,
                         tuple(order), observation.coming)

    def unknown(self, state: GameState) -> list[str]:
        n = state.calls_to_come()
        if state.to_call is not None or n == 0:
            return []
        k = len(state.coming)
        if k == n:
            return [f"the order of the {n} tile(s) still to be called"]
        unseen = len(state.unseen_tiles())
        if k:
            return [f"the order of the {n} tile(s) still to be called, and {n - k} of "
                    f"them: any {n - k} of the {unseen - k} tiles neither placed, called "
                    "nor known to come"]
        return [f"the {n} tile(s) still to be called and their order: any {n} of the "
                f"{unseen} tiles neither placed nor called"]

    def knows(self, state: GameState) -> list[str]:
        """The board (and the ships), the called tile, how many tiles are still to be
        called; which ones and their order only where the state holds them (a dealt
        game; a position file's `to_come`), never in what the player sees of a game."""
        out = ["the board"]
        if state.variant.ships is not None:
            out.append("the spaceships launched")
        if state.called is not None:
            out.append("the called tile")
        n = state.calls_to_come()
        if n:
            out.append("the number of tiles still to be called")
            if state.to_call is not None or len(state.coming) == n:
                out.append("which tiles are still to be called")
            elif state.coming:
                out.append(f"{len(state.coming)} of the tiles still to be called")
            if state.to_call is not None:
                out.append("the order of the tiles still to be called")
        return out

    # ------------------------------------------------------------------ action catalogue

    # The bag hides its order from everyone: chance (`chance_state`), not a secret.

    def chance_state(self, state: GameState) -> GameState:
        """The order of the bag forgotten (no position file holds it): each call is
        chance, any tile not placed or called yet, each as likely."""
        return self.observation(state, 0)

    def chance_space(self, rules: Rules, setup: dict[str, Any]) -> list[Tile]:
        return list(rules.tiles)

    def action_space(self, rules: Rules, setup: dict[str, Any]) -> list[tuple[str, str]]:
        """A placement is taken as the cell of the called tile, then each spaceship it
        launches (spaceship variants)."""
        return [*(("cell", c) for c in rules.cell_ids),
                *(("launch", ship) for ship in rules.spaceships)]

    def action_parts(self, state: GameState, action: Action) -> tuple[tuple[str, str], ...]:
        assert isinstance(action, Placement)
        return (("cell", action.cell), *(("launch", ship) for ship in action.launch))

    def max_parts(self, rules: Rules, setup: dict[str, Any]) -> int:
        return 1 + len(rules.spaceships)

    def part_text(self, state: GameState, part: Any) -> str:
        kind, value = part
        return value if kind == "cell" else f"+{value}"

    def utility_range(self, rules: Rules, setup: dict[str, Any]) -> tuple[float, float]:
        """At most every tile in a scoring row of every direction at the highest colour
        value and stud bonus, and the top of the bonus ring."""
        per_tile = max(rules.colour_values.values()) + max(rules.stud_bonus.values(), default=0)
        return 0.0, float(len(rules.cells) * len(rules.directions) * per_tile
                          + max(rules.buttons, default=0))

    # ------------------------------------------------------------------ words

    def action_text(self, state: GameState, action: Action) -> str:
        return action.id if isinstance(action, Tile) else format_placement(action)

    def parse_action(self, state: GameState, text: str) -> Action:
        rules = state.rules
        if state.is_terminal():
            raise BadInput("the game is over: the board is full")
        if state.called is None:
            return rules.parse_tile(text, "tile")
        head, *launch = [s.strip() for s in text.strip().split("+")]
        if "@" in head:
            return parse_placement(rules, text.strip(), "move")
        return Placement(state.called.id, rules.parse_cell(head, "move"),
                         parse_launch(rules, launch, "move"))

    def matching_actions(self, state: GameState, text: str) -> list[Action]:
        """A cell alone (`c3`) means the called tile on it, with any legal launch; a
        cell or placement with launches (`c3+white`) means that move."""
        if state.called is None or state.is_terminal():
            return [self.parse_action(state, text)]
        head = text.strip().split("+")[0].strip()
        if "@" not in head:
            cell = head.lower()
            empty = ", ".join(state.empty_cells())
            if cell not in state.rules.cell_by_id:
                raise BadInput(f"'{head}' is not a cell of this board (empty cells: {empty})")
            if cell in state.board:
                raise BadInput(f"cell {cell} is occupied by {state.board[cell].id} "
                               f"(empty cells: {empty})")
            if "+" not in text:
                return [p for p in state.legal_placements() if p.cell == cell]
        move = self.parse_action(state, text)
        assert isinstance(move, Placement)
        for p in state.legal_placements():  # launches in any order
            if (p.tile, p.cell, set(p.launch)) == (move.tile, move.cell, set(move.launch)):
                return [p]
        state.apply_action(move)  # BadInput: why the move is not legal
        return [move]

    def action_json(self, state: GameState, action: Action) -> dict[str, Any]:
        if isinstance(action, Tile):
            return {"text": action.id, "tile": action.id}
        tile = state.rules.tile_by_id[action.tile]
        board = {**state.board, action.cell: tile}
        rows = [row.colour for _, row in completed_rows(state.rules, board, action.cell)]
        return {"text": format_placement(action), "tile": action.tile, "cell": action.cell,
                "launch": list(action.launch), "rows_completed": rows}

    # ------------------------------------------------------------------ pictures

    def show(self, state: GameState) -> ShowResult:
        from models.take_it_higher.queries import show

        return show(state)

    # ------------------------------------------------------------------ policies

    def policy(self, rules: Rules, name: str, options: dict[str, Any]) -> Policy[Action]:
        from models.take_it_higher import policies

        if name == "greedy":
            return Policy("greedy", policies.greedy_choice)
        if name == "random":
            return Policy("random", policies.random_choice)
        if name == "hint":
            return Policy("hint", policies.hint_choice(options.get("samples"),
                                                       options.get("hint_time")))
        if name == "learned":
            return Policy("learned", policies.learned_choice(
                options.get("lookahead", LOOKAHEAD), options.get("values"),
                futures=options.get("futures", FUTURES), calls=options.get("calls", CALLS),
                time_limit=options.get("hint_time")))
        raise BadInput(f"unknown policy '{name}' ({', '.join(self.policy_names)})")

    def policy_data(self, rules: Rules, name: str, setup: dict[str, Any],
                    options: dict[str, Any]) -> str | None:
        """The learned policy: a digest of the values file it plays the variant from."""
        if name != "learned":
            return None
        from models.take_it_higher.learned.files import values_digest

        return values_digest(rules, variant_from_name(setup.get("variant", "basic")),
                             options.get("values"))

    def measure(self, rules: Rules, setup: dict[str, Any], end: GameState,
                options: dict[str, Any]) -> dict[str, Any]:
        """The score sheet's total, the moves, and (unless --no-optimum) the hindsight
        optimum of the same draw on one CP-SAT worker (the batch fills the cores)."""
        out: dict[str, Any] = {"score": state_sheet(end).total,
                               "placements": [format_placement(p) for p in end.placements]}
        if not options.get("no_optimum"):
            from models.take_it_higher.draws import hindsight_optimum

            draw = [rules.tile_by_id[p.tile] for p in end.placements]
            out["optimum"], out["optimum_proven"] = hindsight_optimum(
                rules, end.variant, draw,
                options.get("optimum_time") or SIMULATED_OPTIMUM_TIME, workers=1)
        return out

    def summarise(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The optimum's figures (simulate adds the decisions a cap cut, if any)."""
        return self.optimum_summary(records)

    def optimum_summary(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The mean hindsight optimum, whether all were proven, and the mean score over
        it (None when some optimum was not found in time). The optimum is all-seeing
        (every tile of the draw and its order known in advance), whatever the policy
        saw: `optimum_knows` says so."""
        import statistics  # here: it imports fractions and decimal

        if not records or not any("optimum" in r for r in records):
            return {}
        optima = [r.get("optimum") for r in records]
        if any(o is None for o in optima):
            return {"optimum_mean": None, "optimum_all_proven": None, "ratio": None,
                    "optimum_knows": OPTIMUM_KNOWS}
        mean = round(statistics.fmean(r["score"] for r in records), 3)
        optimum_mean = statistics.fmean(optima)
        return {"optimum_mean": round(optimum_mean, 3),
                "optimum_all_proven": all(bool(r["optimum_proven"]) for r in records),
                "ratio": round(mean / optimum_mean, 4) if optimum_mean else None,
                "optimum_knows": OPTIMUM_KNOWS}


GAME = TakeItHigherGame()
