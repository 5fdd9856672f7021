"""Tippi Toppi – Hoch Hinaus! described to solver/ (`solver.game.Game`): positions,
turns, chance (a tile drawn from a reserve whose order nobody knows, a face-down task
turned up), what each player may see, and the policies.

A turn is one action: the placement (an optional gap filler, then a tile); the fulfil
and draw steps follow by themselves. In a dealt game every pile is in order, so a turn
never waits for chance. In a position that leaves the reserve's order or a face-down
task unknown, the draw and the turning up are chance actions: a tile id (any unseen tile,
with equal chance) or a task (any catalogue task not seen yet, by its count).

Hidden by the rulebook: the other players' tiles ("You may not name the number values
and colours on your tiles"), the face-down reserve, the face-down draw pile and the
bonus tasks under the gap fillers.

The description draws nothing: the pictures and `play`'s hint are render.py's `VIEW`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from models.hoch_hinaus.board import Action, action_json, action_text
from models.hoch_hinaus.positions import position_json, read_position
from models.hoch_hinaus.rules import Rules, load_rules
from models.hoch_hinaus.state import TASK_COUNTS, UNSEEN, Bonus, GameState, new_game
from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL, Game, Policy
from solver.params import Param, choice_param, int_param, seconds_param

if TYPE_CHECKING:
    from models.hoch_hinaus.queries import ShowResult
    from models.hoch_hinaus.tasks import Catalogue

DIFFICULTIES = ("first", "normal", "advanced", "pros", "champions")


@dataclass(frozen=True)
class GameData:
    """The rules data a game is played with: the rules, the task catalogue (`--tasks`)
    and the Pros rule forced on or off (`--pros/--basic`; None: each position file's
    own variant, and a new game without it)."""

    rules: Rules
    catalogue: Catalogue
    pros: bool | None = None

    @property
    def name(self) -> str:
        return self.rules.name


def _random_choice(observation: Any, legal: list, rng: random.Random) -> Any:
    return rng.choice(legal)


class HochHinausGame(Game[GameData, GameState, Any]):
    id = "hoch-hinaus"
    notation = (
        "A face is a colour letter (O orange, P pink, G green, V purple; K black, a gap "
        "filler's) and a number, e.g. G3; a tile has two, T07(O1-O2). A placement lays "
        "each face of a tile on a space (column letter, row number): 'T07 O1:A1 O2:B1', "
        "after 'filler A1 + ' when a gap filler is laid first. On the board, h2 is a "
        "space's height.")
    kind = "cooperative"
    policy_names = ("hint", "greedy", "random")
    data_options = (
        Param("tasks_path", "file", None, "Task catalogue file replacing the built-in one.",
              flags=("--tasks",), web=False),
        Param("pros", "switch", None, "Force the Pros placement rule on or off (default: "
              "the file's 'variant'; a new game: off).", flags=("--pros", "--basic")),
    )
    setup_options = (
        int_param("players", 2, 1, 4),
        choice_param("difficulty", DIFFICULTIES, "normal", "Size of the draw pile (rules "
                     "data)."),
        choice_param("side", ("blue", "purple"), "blue"),
        choice_param("task_count", TASK_COUNTS, "pile", "The rulebook's difficulty table "
                     "counts the draw pile alone, the 4 open tasks besides (pile), or the "
                     "open tasks and the draw pile together (total). The bonus tasks come on "
                     "top either way."),
    )
    play_options = (
        seconds_param("hint_time", 0.0, 0, "A cap in seconds on the hint policy's "
                      "look-ahead per move; 0 (the default): no clock, its SAT conflict "
                      "budget alone (games replay exactly anywhere)."),
        int_param("samples", 16, 1, 1000, "Draws of what a player cannot see, per decision "
                  "of the hint and greedy policies."),
    )
    chance_option = Param("chance", "text", None, "At a chance event, the outcome to apply "
                          "first: the tile drawn (T07 or G3-O1) or the task turned up (its "
                          "text or catalogue id).", metavar="OUTCOME")
    what_if_options = (
        Param("tiles", "text", (), "A tile to place (id T07 or faces G3-O1); repeatable. "
              "Default: the hand of the player on turn (a board file: every tile not on the "
              "board).", flags=("--tile",), multiple=True),
        Param("fillers", "switch", None, "Also list placements with a gap filler first "
              "(default: if one is left).", flags=("--fillers", "--no-fillers")),
    )
    show_answer = "models.hoch_hinaus.queries:ShowResult"

    # ------------------------------------------------------------------ data, positions

    def load_rules(self, path: str | None, **data: Any) -> GameData:
        from models.hoch_hinaus.tasks import load_catalogue

        rules = load_rules(path)
        return GameData(rules, load_catalogue(rules, data.get("tasks_path")),
                        data.get("pros"))

    def read(self, rules: GameData, data: Any, where: str) -> GameState:
        return read_position(rules.rules, data, where, rules.pros, rules.catalogue)

    def write(self, state: GameState) -> dict[str, Any]:
        return position_json(state)

    def what_if(self, rules: GameData, state: GameState, **options: Any) -> GameState:
        """`moves --tile`: the player on turn holds these tiles instead (a board file:
        only these are placed); `--fillers`/`--no-fillers`: a gap filler is at hand, or
        none is."""
        tiles, fillers = options.get("tiles") or (), options.get("fillers")
        if not tiles and fillers is None:
            return state
        g = _held_instead(state, tiles) if tiles else state
        if fillers is False:
            g = g.but(bonus=[Bonus(b.task, 0) for b in g.bonus], spare_fillers=0)
        elif fillers and g.fillers_left == 0:
            g = g.but(spare_fillers=1)
        if g.hands and g.status != "won":
            g = g.but(status="playing").judged()
        return g

    def setups(self, rules: GameData, **options: Any) -> list[dict[str, Any]]:
        setup = {"players": options.get("players", 2),
                 "difficulty": options.get("difficulty", "normal"),
                 "pros": bool(rules.pros), "side": options.get("side", "blue")}
        task_count = options.get("task_count") or "pile"
        if task_count not in TASK_COUNTS:
            raise BadInput(f"--task-count: '{task_count}' is not one of "
                           f"{', '.join(TASK_COUNTS)}")
        if task_count != "pile":  # only when set: a default setup keeps its key in --store
            setup["task_count"] = task_count
        return [setup]

    def new_game(self, rules: GameData, setup: dict[str, Any], rng: random.Random
                 ) -> GameState:
        return new_game(rules.rules, rules.catalogue, setup["players"], setup["difficulty"],
                        rng, setup["side"], setup["pros"], setup.get("task_count", "pile"))

    # ------------------------------------------------------------------ play

    def players(self, state: GameState) -> int:
        return max(state.players, 1)

    def current_player(self, state: GameState) -> int:
        if state.status != "playing":
            return TERMINAL
        if state.chance_due:
            return CHANCE
        if state.board_only:
            return TERMINAL if state.is_terminal() else 0
        return state.on_turn

    def legal_actions(self, state: GameState) -> list:
        p = self.current_player(state)
        if p == TERMINAL:
            return []
        if p == CHANCE:
            return [o for o, _ in state.chance_outcomes()]
        return state.legal_actions(unseen=True)

    def apply_action(self, state: GameState, action: Any) -> GameState:
        return state.apply_action(action)

    def chance_outcomes(self, state: GameState) -> list[tuple[Any, float]]:
        return state.chance_outcomes()

    def returns(self, state: GameState) -> list[float]:
        return [1.0 if state.status == "won" else 0.0] * self.players(state)

    def status(self, state: GameState) -> str:
        return state.status

    # ------------------------------------------------------------------ information

    def observation(self, state: GameState, player: int) -> GameState:
        return state.observation(player)

    def determinize(self, observation: GameState, rng: random.Random) -> GameState:
        return observation.determinise(rng)

    def unknown(self, state: GameState) -> list[str]:
        out = [f"{n} tile(s) in the hand of player {s + 1}"
               for s, h in enumerate(state.hands) if (n := sum(t is None for t in h))]
        if not state.reserve_known and state.reserve and not state.board_only:
            out.append(f"the order of the reserve ({len(state.reserve)} tiles)")
        if n := sum(t is None for t in state.draw_pile):
            out.append(f"{n} task(s) of the draw pile")
        out += [f"the task of bonus task {i + 1} (under {b.fillers} gap filler(s))"
                for i, b in enumerate(state.bonus) if b.task is None and b.fillers > 0]
        if state.task_due:
            out.append("the task being turned up")
        return out

    def knows(self, state: GameState) -> list[str]:
        out = ["the board", "the open tasks", "the completed tasks", "the gap fillers left"]
        out += [f"the hand of player {s + 1}" for s, h in enumerate(state.hands)
                if None not in h]
        if state.reserve:
            out.append("the number of tiles in the reserve")
            if state.reserve_known:
                out.append("the order of the reserve")
        if state.draw_pile:
            out.append("the number of tasks in the draw pile")
            if None not in state.draw_pile:
                out.append("the draw pile in order")
        if any(b.task is not None and b.fillers for b in state.bonus):
            out.append("the bonus tasks under the gap fillers")
        return out

    # ------------------------------------------------------------------ action catalogue

    hides_information = True  # the other hands, the reserve, the task piles

    def action_space(self, rules: GameData, setup: dict[str, Any]) -> list[tuple[str, Any]]:
        """A placement is taken in four decisions: the tile, the gap filler's space (or
        none), the space of the tile's first face, the space of its second."""
        spaces = range(rules.rules.n_spaces)
        return [*(("tile", t.id) for t in rules.rules.tiles),
                *(("filler", s) for s in (None, *spaces)),
                *(("first", s) for s in spaces), *(("second", s) for s in spaces)]

    def action_parts(self, state: GameState, action: Any) -> tuple[tuple[str, Any], ...]:
        return (("tile", action.tile), ("filler", action.filler), ("first", action.first),
                ("second", action.second))

    def max_parts(self, rules: GameData, setup: dict[str, Any]) -> int:
        return 4

    def part_text(self, state: GameState, part: Any) -> str:
        r = state.rules
        kind, value = part
        if kind == "tile":
            return r.tile_text(value)
        if kind == "filler":
            return "no filler" if value is None else f"filler {r.spaces[value]}"
        return f"{kind} face on {r.spaces[value]}"

    # ------------------------------------------------------------------ words

    def action_text(self, state: GameState, action: Any) -> str:
        r = state.rules
        if isinstance(action, Action):
            return action_text(r, action)
        if isinstance(action, str):
            return f"draw {UNSEEN if action == UNSEEN else r.tile_text(action)}"
        return f"turn up {action.text(r)}"

    def parse_action(self, state: GameState, text: str) -> Any:
        if state.draw_due:
            word = text.strip()
            word = word[4:] if word.lower().startswith("draw") else word
            word = word.split("(")[0].strip()
            if word == UNSEEN:
                return UNSEEN
            tile, _ = state.rules.parse_tile(word, "--chance")
            return tile.id
        if state.task_due:
            if state.catalogue is None:
                raise BadInput("no task catalogue to turn a task up from")
            word = text.strip()
            word = word[7:] if word.lower().startswith("turn up") else word
            return state.catalogue.parse(word.strip(), "--chance")
        matches = self.matching_actions(state, text)
        if len(matches) != 1:
            raise BadInput(f"'{text}' is not one legal placement here ({len(matches)} "
                           "match)")
        return matches[0]

    def matching_actions(self, state: GameState, text: str) -> list:
        """The placements meant by `text`: its exact text, or a tile (T07 or G3-O1)
        with the spaces it covers in order, and 'filler A1' for a gap filler first
        (none without it)."""
        legal = state.legal_actions(unseen=True)
        key = text.strip().lower()
        exact = [a for a in legal if action_text(state.rules, a).lower() == key]
        if exact:
            return exact
        r = state.rules
        tile = filler = None
        spaces: list[int] = []
        words = key.replace("+", " ").replace(",", " ").split()
        i = 0
        while i < len(words):
            w = words[i]
            if w == "filler" and i + 1 < len(words):
                filler = r.parse_space(words[i + 1], "move")
                i += 2
                continue
            if w.upper() in r.space_index:
                spaces.append(r.space_index[w.upper()])
            elif ":" in w and w.split(":")[1].upper() in r.space_index:
                spaces.append(r.space_index[w.split(":")[1].upper()])
            else:
                tile = r.parse_tile(w, "move")[0].id
            i += 1
        return [a for a in legal if (tile is None or a.tile == tile)
                and a.filler == filler and [a.first, a.second][:len(spaces)] == spaces]

    def action_json(self, state: GameState, action: Any) -> dict[str, Any]:
        r = state.rules
        if isinstance(action, Action):
            _, done = state.turn(action)
            return {**action_json(r, action), "fulfils": [t.text(r) for t in done]}
        if isinstance(action, str):
            return {"text": self.action_text(state, action), "tile": action}
        cat = state.catalogue
        return {"text": self.action_text(state, action), "task": action.text(r),
                "id": cat.id_of(action) if cat is not None else None}

    # ------------------------------------------------------------------ show

    def show(self, state: GameState) -> ShowResult:
        from models.hoch_hinaus.queries import show
        return show(state)

    # ------------------------------------------------------------------ policies

    def policy(self, rules: GameData, name: str, options: dict[str, Any]) -> Policy:
        """random: a legal placement at random; greedy: the hint's ranking without its
        SAT look-ahead; hint: with it. Each judges from what it is handed: the player's
        observation (the unknowns drawn `--samples` times), or with simulate's
        --open-hands the whole state."""
        if name == "random":
            return Policy("random", _random_choice)
        if name not in ("hint", "greedy"):
            raise BadInput(f"unknown policy '{name}' ({', '.join(self.policy_names)})")
        hint_time = options.get("hint_time") or None
        samples = options.get("samples") or 16

        def choose(state: GameState, legal: list, rng: random.Random) -> Any:
            from models.hoch_hinaus.hint import policy_action
            return policy_action(state, rng, name, hint_time, legal, samples)

        return Policy(name, choose)

    def measure(self, rules: GameData, setup: dict[str, Any], end: GameState,
                options: dict[str, Any]) -> dict[str, Any]:
        return {"tasks_completed": len(end.completed), "turns": end.turns}

    def summarise(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        from statistics import mean  # here: it imports fractions and decimal

        return {"mean_tasks_completed": round(mean(r["tasks_completed"] for r in records), 2),
                "mean_turns": round(mean(r["turns"] for r in records), 2)}


def _held_instead(g: GameState, tiles: Sequence[str]) -> GameState:
    """The state with the player on turn holding `tiles` instead of the hand (taken
    from wherever they were); a board file becomes a one-player position with that
    hand."""
    r = g.rules
    on_board = set(g.board.tiles_used())
    unseen = set(g.unseen_tiles())
    ids: list[str] = []
    for text in tiles:
        tile, _ = r.parse_tile(text, "--tile")
        if tile.id in on_board:
            raise BadInput(f"--tile: {tile.id} already lies on the board")
        ids.append(tile.id)
    ids = list(dict.fromkeys(ids))
    if g.board_only:
        return g.but(hands=[list(ids)], reserve=[], reserve_known=True, on_turn=0)
    hands: list[list[str | None]] = [[t for t in h if t not in ids] for h in g.hands]
    hands[g.on_turn] = list(ids)
    if g.reserve_known:
        reserve = [t for t in g.reserve if t not in ids]
    else:
        taken = sum(1 for t in ids if t in unseen)
        reserve = g.reserve[:max(0, len(g.reserve) - taken)]
    return g.but(hands=hands, reserve=reserve)


GAME = HochHinausGame()
