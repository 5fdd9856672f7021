"""Tippi Toppi described once for the shared commands and tests (solver.game).

- The players win or lose together: `returns` is 1.0 for every seat when every task is
  fulfilled, else 0.0 (kind "cooperative").
- A dealt game has the draw pile and the task pile in order, and a draw after a play is
  part of the play. A position whose draw pile is unordered (no `draw_pile` in the file)
  makes the draw a chance event: any unseen card, each distinct card with probability
  count / unseen cards. A task turned up from a pile of unknown tasks is a chance event
  too: any catalogue task not seen yet, alike.
- High Speed lets anyone play at any time. Here the players act one at a time: the
  player with the initiative (`turn`) plays one of their cards or passes the initiative
  on to the next player; after a play the next player has it. Every play of every
  player stays reachable (by passing), each player decides on what they see, and the
  game is lost when nobody can play. Passing is allowed when the player cannot play or
  another player holds a card; the hint policy passes only when it cannot play.
- A player sees the piles, the open and fulfilled tasks, the plays made, their own hand
  and how many cards every hand holds; other hands only with open hands (Kids); the
  draw pile as a count and the task pile as a number of unknown tasks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import click

from models.tippi_toppi.positions import format_play, parse_play, state_from_dict
from models.tippi_toppi.rules import COMPARISONS, TASK_COUNTS, Rules, load_rules
from models.tippi_toppi.state import (
    TURN_UP,
    Action,
    Draw,
    GameState,
    Pass,
    Play,
    TurnUp,
    Variant,
    deal,
    sample_hidden,
)
from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL, Game, Policy


@dataclass
class ShowResult:
    """`show --json`'s game part: the state as read, the top cards, the draw pile, the
    tasks left, the legal plays of the players who may play now, the status."""

    state: dict
    tops: list[str]
    draw_pile_cards: int
    draw_pile_known: bool
    tasks_left: int
    legal_plays: int
    status: str  # playing, won, lost


def _numbers(text: str, what: str) -> list[int]:
    try:
        out = [int(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        raise BadInput(f"{what}: expected numbers separated by commas, got '{text}'") from None
    return list(dict.fromkeys(out))


def status_of(state: GameState) -> str:
    return "won" if state.is_won() else "lost" if state.is_lost() else "playing"


class TippiToppiGame(Game[Rules, GameState, Action]):
    id = "tippi-toppi"
    title = "Tippi Toppi (card game)"
    kind = "cooperative"
    policy_names = ("hint", "random")
    # every command that judges tasks takes it (cli.py adds it to its own commands)
    data_options = (click.Option(
        ["--comparisons"], type=click.Choice(COMPARISONS), default=None,
        help="How a sum or comparison naming a group of piles reads when no pile of the "
             "group lies: as-worded (the rulebook; 0 green = 0 purple piles are 'as many') "
             "or present (each group named must lie). Default: the rules data's "
             "(as-worded)."),)
    setup_options = (
        click.Option(["--players"], default="1,2,3,4", show_default=True,
                     help="Player counts, comma separated."),
        click.Option(["--difficulty"], default="all", show_default=True,
                     help="Difficulties (beginner,normal,advanced,expert,champion or 1-5), "
                          "comma separated, or 'all'."),
        click.Option(["--high-speed"], is_flag=True,
                     help="High Speed: anyone may play (the player with the initiative "
                          "plays or passes it on; no timer)."),
        click.Option(["--open-hands-variant"], is_flag=True,
                     help="Open hands (Kids): every player sees every hand."),
        click.Option(["--task-count"], type=click.Choice(TASK_COUNTS), default="total",
                     show_default=True,
                     help="The rulebook's task table counts all tasks of the game, the "
                          "open ones included (total), or the task pile alone, the open "
                          "tasks on top (pile)."),
    )
    chance_option = click.Option(
        ["--chance"], default=None, metavar="CARD|TASK",
        help="When chance acts next: the card drawn (e.g. G3) or the task turned up "
             "(its text or catalogue id); the moves after it are listed.")

    # ------------------------------------------------------------------ data, positions

    def load_rules(self, path: str | None, **data: Any) -> Rules:
        return load_rules(path, data.get("comparisons"))

    def read(self, rules: Rules, data: Any, where: str) -> GameState:
        return state_from_dict(rules, data, where)

    def write(self, state: GameState) -> dict[str, Any]:
        return state.to_dict()

    def what_if(self, rules: Rules, state: GameState, **options: Any) -> GameState:
        """`moves` lists every play of the player on turn: their hand must be known."""
        if self.current_player(state) >= 0:
            from models.tippi_toppi.hint import check_hand_known
            check_hand_known(state, "moves")
        return state

    def setups(self, rules: Rules, players: str = "1,2,3,4", difficulty: str = "all",
               high_speed: bool = False, open_hands_variant: bool = False,
               task_count: str = "total", **options: Any) -> list[dict[str, Any]]:
        counts = _numbers(players, "--players")
        for p in counts:
            if p not in rules.task_counts:
                raise BadInput(f"--players: {p} players are not in the rules' task table "
                               f"({', '.join(str(k) for k in sorted(rules.task_counts))})")
        if str(difficulty).strip().lower() == "all":
            levels = list(range(len(rules.difficulties)))
        else:
            levels = list(dict.fromkeys(rules.parse_difficulty(d, "--difficulty")
                                        for d in str(difficulty).split(",") if d.strip()))
        if not counts or not levels:
            raise BadInput("--players and --difficulty need at least one value each")
        if task_count not in TASK_COUNTS:
            raise BadInput(f"--task-count: '{task_count}' is not one of "
                           f"{', '.join(TASK_COUNTS)}")
        catalogue = len(rules.catalogue)
        out = []
        for p in counts:
            for d in levels:
                need = rules.tasks_in_game(p, d, task_count)
                if need > catalogue:
                    raise BadInput(f"the catalogue has only {catalogue} tasks, {p} players "
                                   f"at {rules.difficulties[d]} need {need}")
                setup: dict[str, Any] = {"players": p, "difficulty": rules.difficulties[d]}
                if high_speed:
                    setup["high_speed"] = True
                if open_hands_variant:
                    setup["open_hands"] = True
                if task_count != "total":  # only when set: a default setup keeps its key in --store
                    setup["task_count"] = task_count
                out.append(setup)
        return out

    def new_game(self, rules: Rules, setup: dict[str, Any], rng: random.Random
                 ) -> GameState:
        variant = Variant(bool(setup.get("high_speed")), bool(setup.get("open_hands")))
        return deal(rules, setup["players"], rules.parse_difficulty(setup["difficulty"]),
                    rng, variant, task_count=setup.get("task_count", "total"))

    # ------------------------------------------------------------------ play

    def players(self, state: GameState) -> int:
        return state.players

    def current_player(self, state: GameState) -> int:
        if state.is_won():
            return TERMINAL
        if state.chance_due():
            return CHANCE
        if state.is_lost():
            return TERMINAL
        return state.turn

    def legal_actions(self, state: GameState) -> list[Action]:
        player = self.current_player(state)
        if player == CHANCE:
            return [a for a, _ in state.chance_outcomes()]
        if player == TERMINAL:
            return []
        return list(state.actions())

    def apply_action(self, state: GameState, action: Action) -> GameState:
        if isinstance(action, (Play, Pass)):
            if state.is_won():
                raise BadInput("the game is over: every task is fulfilled")
            if state.chance_due():
                raise BadInput(f"chance acts first: {state.chance_text()}")
            if action.player != state.turn:
                raise BadInput(f"player {action.player + 1} does not act now "
                               f"(player {state.turn + 1} does)")
            if isinstance(action, Pass) and state.is_lost():
                raise BadInput("the game is over: nobody can play")
        return state.apply_action(action)

    def chance_outcomes(self, state: GameState) -> list[tuple[Action, float]]:
        return list(state.chance_outcomes())

    def returns(self, state: GameState) -> list[float]:
        return [1.0 if state.is_won() else 0.0] * state.players

    def status(self, state: GameState) -> str:
        return status_of(state)

    # ------------------------------------------------------------------ information

    def observation(self, state: GameState, player: int) -> GameState:
        return state.seen_by(player)

    def determinize(self, observation: GameState, rng: random.Random) -> GameState:
        return sample_hidden(observation, rng, [t.task for t in observation.rules.catalogue])

    def unknown(self, state: GameState) -> list[str]:
        out = [f"{h.count(None)} card(s) in the hand of player {q + 1}"
               for q, h in enumerate(state.hands) if None in h]
        if state.draw_pile is None and state.draw_count:
            out.append(f"the order of the draw pile ({state.draw_count} cards)")
        if state.hidden_tasks:
            out.append(f"{state.hidden_tasks} face-down task(s) of the task pile")
        return out

    def knows(self, state: GameState) -> list[str]:
        out = ["the piles", "the open tasks", "the fulfilled tasks",
               "the number of cards in every hand"]
        out += [f"the hand of player {q + 1}" for q, h in enumerate(state.hands)
                if None not in h]
        out.append("the number of cards in the draw pile")
        if state.draw_pile is not None and state.draw_count:
            out.append("the order of the draw pile")
        out.append("the number of tasks in the task pile")
        if state.task_pile and not state.hidden_tasks:
            out.append("the task pile in order")
        return out

    # ------------------------------------------------------------------ words

    def action_text(self, state: GameState, action: Action) -> str:
        r = state.rules
        if isinstance(action, Play):
            return format_play(r, action, state.players)
        if isinstance(action, Pass):
            return f"p{action.player + 1}:pass" if state.players > 1 else "pass"
        if isinstance(action, Draw):
            return f"draw {r.card_name(action.card)}"
        if isinstance(action, TurnUp):
            return f"turn up: {action.task.text(r)}"
        raise BadInput(f"{action!r} is not a Tippi Toppi action")

    def parse_action(self, state: GameState, text: str) -> Action:
        words = text.strip()
        if state.chance_due() == TURN_UP:
            if words.lower().startswith("turn up:"):
                words = words[len("turn up:"):]
            return TurnUp(state.rules.parse_task(words.strip(), "task turned up"))
        if state.chance_due():
            if words.lower().startswith("draw"):
                words = words[len("draw"):]
            return Draw(state.rules.parse_card(words.strip(), "card drawn"))
        player, _, rest = words.rpartition(":")
        if rest.strip().lower() == "pass":
            who = player.strip().lower().removeprefix("p")
            if who and not who.isdigit():
                raise BadInput(f"'{text}' is not a pass (write pass or p2:pass)")
            return Pass(int(who) - 1 if who else state.turn)
        return parse_play(state, text)

    def action_json(self, state: GameState, action: Action) -> dict[str, Any]:
        out: dict[str, Any] = {"text": self.action_text(state, action)}
        r = state.rules
        if isinstance(action, (Play, Pass)):
            after = state.apply_action(action)
            out["fulfils"] = [t.text(r) for t in after.fulfilled[len(state.fulfilled):]]
        elif isinstance(action, Draw):
            out["card"] = r.card_name(action.card)
        else:
            out["task"] = action.task.text(r)
        return out

    # ------------------------------------------------------------------ pictures

    def show(self, state: GameState) -> ShowResult:
        r = state.rules
        return ShowResult(state.to_dict(), [r.card_name(c) for c in state.tops],
                          state.draw_count, state.draw_pile is not None,
                          state.tasks_left(), len(state.legal_plays()), status_of(state))

    def terminal(self, state: GameState) -> Any:
        from models.tippi_toppi.render import table_text
        return table_text(state)

    def picture(self, state: GameState, title: str) -> Any:
        from models.tippi_toppi.render import table_svg
        return table_svg(state, title)

    # ------------------------------------------------------------------ policies

    def policy(self, rules: Rules, name: str, options: dict[str, Any]) -> Policy[Action]:
        from models.tippi_toppi.hint import choose_hint, choose_random

        if name == "hint":
            return Policy("hint", choose_hint)
        if name == "random":
            return Policy("random", choose_random)
        raise BadInput(f"unknown policy '{name}' ({', '.join(self.policy_names)})")

    def measure(self, rules: Rules, setup: dict[str, Any], end: GameState,
                options: dict[str, Any]) -> dict[str, Any]:
        return {"tasks": rules.tasks_in_game(setup["players"],
                                             rules.parse_difficulty(setup["difficulty"]),
                                             setup.get("task_count", "total")),
                "plays": len(end.history), "fulfilled": len(end.fulfilled)}

    def summarise(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        n = len(records)
        return {"tasks": records[0]["tasks"],
                "mean_plays": round(sum(r["plays"] for r in records) / n, 2),
                "mean_fulfilled": round(sum(r["fulfilled"] for r in records) / n, 2)}

    def hint(self, rules: Rules, observation: GameState, options: dict[str, Any]) -> Any:
        from models.tippi_toppi.hint import hint
        from models.tippi_toppi.render import hint_table
        return hint_table(hint(observation))


GAME = TippiToppiGame()
