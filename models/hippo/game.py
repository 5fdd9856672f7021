"""Hippo described to solver/ once (solver.game.Game): positions, the dice as chance,
placements as moves, the policies of simulated games.

Hippo hides nothing: every player sees the pool, Mr. Hippo's lane and every stock, so
an observation is the whole state and the policies read it all. Chance is the dice: a
state whose `roll` is None waits for them (`current_player` is CHANCE), and the
outcomes are the distinct rolls, highest die first, each with its share of the
faces**dice ordered throws (56 rolls of 216 throws for three dice).

Every `toppi hippo` command imports this module (also for `--help`): the ranking of
placements, the queries and the pictures are imported by the methods that use them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict
from functools import cache
from typing import TYPE_CHECKING, Any

from models.hippo.dice import Roll, all_rolls, sorted_roll
from models.hippo.notation import format_move, parse_move, parse_roll
from models.hippo.positions import state_from_dict, state_to_dict
from models.hippo.rules import FOREIGN_FIRST, Rules, load_rules
from models.hippo.state import GameState, Move, new_game, outcomes
from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL, Game, Policy
from solver.params import Param, choice_param, int_param

if TYPE_CHECKING:
    from models.hippo.queries import ShowResult

Action = Roll | Move  # a roll at a chance node, a placement sequence after it

# every verb that reads rules takes it (as a data option), and so does `generate`
FOREIGN_FIRST_PARAM = choice_param(
    "foreign_first", FOREIGN_FIRST, None,
    "When foreign chips taken by a penalty must be placed first: from the player's next "
    "turn on (the rulebook; the default of the rules data) or at once, also on the rest "
    "of the roll and the bonus roll.")


def _roll_text(roll: Roll) -> str:
    return ",".join(map(str, roll))


class HippoGame(Game[Rules, GameState, Action]):
    id = "hippo"
    notation = (
        "A move places the roll's chips, one 'LANE COLOUR' each, e.g. '2 red, 10 red' "
        "(lanes 1-12, the hippo's lane is 7); a roll is its dice, e.g. 6,4,2.")
    kind = "competitive"
    policy_names = ("best", "greedy", "random")
    setup_options = (
        int_param("players", 4, 1, None, "Players; seat 1 begins, the seats take the "
                  "rules' colours in order (red, green, violet, yellow)."),)
    chance_option = Param("roll", "text", None, "The dice, e.g. 6,4,2: the moves after "
                          "this roll (without it, the rolls and their chances).",
                          metavar="A,B,C")
    data_options = (FOREIGN_FIRST_PARAM,)
    show_answer = "models.hippo.queries:ShowResult"
    # a game still running after 2000 turns (two rolls at most each) counts unfinished
    max_actions = 4000

    # ------------------------------------------------------------------ data, positions

    def load_rules(self, path: str | None, foreign_first: str | None = None,
                   **data: Any) -> Rules:
        return load_rules(path, foreign_first)

    def read(self, rules: Rules, data: Any, where: str) -> GameState:
        return state_from_dict(rules, data, where)

    def write(self, state: GameState) -> dict[str, Any]:
        return state_to_dict(state)

    def setups(self, rules: Rules, players: int = 4, **options: Any) -> list[dict[str, Any]]:
        if not rules.min_players <= players <= rules.max_players:
            raise BadInput(f"--players: {players}; Hippo is for "
                           f"{rules.min_players}-{rules.max_players} players")
        return [{"players": players}]

    def new_game(self, rules: Rules, setup: dict[str, Any], rng: random.Random
                 ) -> GameState:
        # the start holds no secret: nothing is drawn from the deal's stream
        return new_game(rules, rules.colour_names[:setup["players"]])

    # ------------------------------------------------------------------ play

    def players(self, state: GameState) -> int:
        return state.players

    def current_player(self, state: GameState) -> int:
        if state.is_terminal():
            return TERMINAL
        return CHANCE if state.roll is None else state.to_move

    def legal_actions(self, state: GameState) -> list[Action]:
        player = self.current_player(state)
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [roll for roll, _ in _outcomes(state.rules)]
        return state.legal_actions(state.roll)

    def chance_outcomes(self, state: GameState) -> list[tuple[Action, float]]:
        if self.current_player(state) != CHANCE:
            return []
        return list(_outcomes(state.rules))

    def sample_chance(self, state: GameState, rng: random.Random) -> Roll:
        """One die after the other from `rng` (the stream the policies' tie-breaks
        share), so seeded games replay exactly."""
        rules = state.rules
        return sorted_roll([rng.randint(1, rules.faces) for _ in range(rules.dice)])

    def apply_action(self, state: GameState, action: Action) -> GameState:
        player = self.current_player(state)
        if player == TERMINAL:
            raise BadInput(f"the game is over: {state.colours[state.winner() or 0]} has "
                           "no chips left")
        if player == CHANCE:
            if not _is_hashable(action) or action not in _roll_set(state.rules):
                raise BadInput(f"'{self._text_or_repr(state, action)}' is not a roll of "
                               f"{state.rules.dice} dice, highest first")
            return state.rolled(action)
        after = state.after(state.roll, action)
        if after is None:
            raise BadInput(f"'{self._text_or_repr(state, action)}' is not an option of the "
                           f"roll {_roll_text(state.roll)}")
        return after

    def returns(self, state: GameState) -> list[float]:
        won = state.winner()
        return [1.0 if p == won else 0.0 for p in range(state.players)]

    def status(self, state: GameState) -> str:
        won = state.winner()
        me = state.colours[state.to_move]
        if won is not None:
            return f"{state.colours[won]} won"
        if state.roll is None:
            return f"{me} to throw {'the bonus roll' if state.bonus else 'the dice'}"
        return f"{me} to place {'the bonus roll ' if state.bonus else ''}" + \
            _roll_text(state.roll)

    # ------------------------------------------------------------------ information

    def knows(self, state: GameState) -> list[str]:
        """Everything at the table is in view (the pool, Mr. Hippo's lane, every stock);
        the dice once thrown. Dice not yet thrown are chance, not hidden: no position
        holds them, and `best` averages over every outcome."""
        out = ["the lanes", "Mr. Hippo's lane"]
        out += [f"the stock of {c}" for c in state.colours]
        out.append("the player on turn and whether it is the bonus roll")
        if state.fresh:
            out.append("the chips taken this turn")
        if state.roll is not None:
            out.append("the dice thrown")
        return out

    # ------------------------------------------------------------------ action catalogue

    def action_space(self, rules: Rules, setup: dict[str, Any]) -> list[tuple[int, int]]:
        """A roll's placements are taken one chip at a time: (lane, colour index)."""
        return [(lane, c) for lane in range(1, rules.lanes + 1)
                for c in range(len(rules.colours))]

    def action_parts(self, state: GameState, action: Action) -> tuple[tuple[int, int], ...]:
        return tuple(action)  # type: ignore[arg-type]

    def max_parts(self, rules: Rules, setup: dict[str, Any]) -> int:
        return rules.dice  # one chip per group of dice

    def part_text(self, state: GameState, part: Any) -> str:
        lane, colour = part
        return f"{lane} {state.colours[colour]}"

    def chance_space(self, rules: Rules, setup: dict[str, Any]) -> list[Roll]:
        return [roll for roll, _ in _outcomes(rules)]

    # ------------------------------------------------------------------ words

    def action_text(self, state: GameState, action: Action) -> str:
        if self.current_player(state) == CHANCE:
            return _roll_text(action)  # type: ignore[arg-type]
        return format_move(state, action)  # type: ignore[arg-type]

    def parse_action(self, state: GameState, text: str) -> Action:
        player = self.current_player(state)
        if player == CHANCE:
            return sorted_roll(parse_roll(state.rules, text))
        if player == TERMINAL:
            raise BadInput("the game is over: no move to make")
        move = parse_move(state, text)
        if not state.is_legal(state.roll, move):
            raise BadInput(f"'{text}' is not an option of the roll {_roll_text(state.roll)}")
        return move

    def matching_actions(self, state: GameState, text: str) -> list[Action]:
        """A move in full ('2 red, 10 red') or only its lanes in order ('2 10')."""
        words = text.replace(",", " ").split()
        if words and all(w.isdecimal() for w in words):
            lanes = [int(w) for w in words]
            return [m for m in self.legal_actions(state) if [lane for lane, _ in m] == lanes]
        return [self.parse_action(state, text)]

    def action_json(self, state: GameState, action: Action) -> dict[str, Any]:
        if self.current_player(state) == CHANCE:
            return {"text": _roll_text(action), "roll": list(action)}
        return _move_json(state, action)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ pictures

    def show(self, state: GameState) -> ShowResult:
        from models.hippo.queries import show

        return show(state)

    # ------------------------------------------------------------------ policies

    def policy(self, rules: Rules, name: str, options: dict[str, Any]) -> Policy[Action]:
        choose = _POLICIES.get(name)
        if choose is None:
            raise BadInput(f"unknown policy '{name}' ({', '.join(self.policy_names)})")
        return Policy(name, choose)

    def measure(self, rules: Rules, setup: dict[str, Any], end: GameState,
                options: dict[str, Any]) -> dict[str, Any]:
        """The game's length in turns of all players (a turn is a roll and its bonus
        roll), and the players, which make turns into rounds."""
        return {"turns": end.turns, "players": end.players}

    def summarise(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Game lengths: turns (mean, median, quartiles, extremes) and the mean number
        of rounds (turns per player)."""
        from solver.stats import summarise

        turns = [r["turns"] for r in records]
        # a plain dict (not the Summary) so the terminal table shows it readably
        return {"turns": asdict(summarise(turns)),
                "rounds_mean": round(sum(turns) / len(turns) / records[0]["players"], 3)}


# --------------------------------------------------------------------------- chance

@cache
def _outcomes(rules: Rules) -> tuple[tuple[Roll, float], ...]:
    """The distinct rolls (highest die first, in sorted order) with their chance."""
    throws = rules.faces ** rules.dice
    return tuple(sorted((sorted_roll(dice), count / throws)
                        for dice, count in all_rolls(rules)))


@cache
def _roll_set(rules: Rules) -> frozenset[Roll]:
    return frozenset(roll for roll, _ in _outcomes(rules))


def _is_hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


# --------------------------------------------------------------------------- moves

def _move_json(state: GameState, move: Move) -> dict[str, Any]:
    """A placement sequence and what it does: chips shed, kick-outs, the penalty, a
    bonus roll earned, a win; `result` numbers the distinct results of the roll (in
    the order of their first move) and `orders` counts the sequences reaching it."""
    me = state.to_move
    after, events = state.play(move)
    results = _results(state)
    number, orders = results[after.key()]
    names = state.colours
    return {"text": format_move(state, move),
            "placements": [f"{lane} {names[c]}" for lane, c in move],
            "shed": state.stock_size(me) - after.stock_size(me),
            "bonus_roll": after.bonus and after.to_move == me,
            "won": after.is_terminal(),
            "kicked_out": [names[k] for _, k, t in events if k is not None and not t],
            "penalty_taken": [names[c] for _, _, t in events for c in t],
            "result": number, "orders": orders}


_last_results: list[Any] = [None, {}]  # (state, its results): every move's JSON asks


def _results(state: GameState) -> dict[tuple, tuple[int, int]]:
    """Per distinct result of the state's roll: (its number from 1, in the order of
    the first sequence reaching it; how many placement sequences reach it)."""
    if _last_results[0] is not state:
        _last_results[:] = [state, {o.state.key(): (n, o.orders) for n, o in
                                    enumerate(outcomes(state, state.roll), 1)}]
    return _last_results[1]


# --------------------------------------------------------------------------- policies
# Each draws from `rng` exactly as the simulations always have (the dice and the
# tie-breaks share one stream), so the published figures replay.

def _choose_best(state: GameState, legal: list[Action], rng: random.Random) -> Move:
    """`best`'s ranking (most chips shed this turn, the bonus roll by its exact
    expectation, then least exposure); exact ties drawn at random."""
    from models.hippo.best import best_options

    options = best_options(state, state.roll)
    first = (options[0].value_num, options[0].exposure_num)
    top = [o for o in options if (o.value_num, o.exposure_num) == first]
    return (top[rng.randrange(len(top))] if len(top) > 1 else top[0]).move


def _choose_greedy(state: GameState, legal: list[Action], rng: random.Random) -> Move:
    """Most chips shed by this roll's placements (the bonus roll and exposure
    ignored); ties drawn at random."""
    from models.hippo.best import roll_results

    results = roll_results(state.rules, state, state.roll)
    me = state.to_move
    least = min(sum(r[2][me]) for r in results)
    top = [r for r in results if sum(r[2][me]) == least]
    return top[rng.randrange(len(top))][-1]


def _choose_random(state: GameState, legal: list[Action], rng: random.Random) -> Move:
    """Any distinct result of the roll, each as likely."""
    from models.hippo.best import roll_results

    results = roll_results(state.rules, state, state.roll)
    return results[rng.randrange(len(results))][-1]


_POLICIES = {"best": _choose_best, "greedy": _choose_greedy, "random": _choose_random}

GAME = HippoGame()
