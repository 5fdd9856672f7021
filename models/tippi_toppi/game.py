"""Tippi Toppi described once for the shared commands and tests (solver.game).

- The players win or lose together: `returns` is 1.0 for every seat when every task is
  fulfilled, else 0.0 (kind "cooperative").
- A dealt game has the draw pile and the task pile in order, and a draw after a play is
  part of the play. A position whose draw pile is unordered (no `draw_pile` in the file)
  makes the draw a chance event: any unseen card, each distinct card with probability
  count / unseen cards. A task turned up from a pile of unknown tasks is a chance event
  too: any catalogue task not seen yet, alike.
- High Speed lets anyone play at any time. Here the players act one at a time: the
  player with the initiative (`on_turn`) plays one of their cards or passes the initiative
  on to the next player; after a play the next player has it. Every play of every
  player stays reachable (by passing), each player decides on what they see, and the
  game is lost when nobody can play. Passing is allowed when the player cannot play or
  another player holds a card; the hint policy passes only when it cannot play.
- A player sees the piles, the open and fulfilled tasks, the plays made, their own hand
  and how many cards every hand holds; other hands only with open hands (Kids); the
  draw pile as a count and the task pile as a number of unknown tasks.

Every `toppi tippi-toppi` command imports this module (also for `--help`): the hint,
the queries and the pictures are imported by the methods that use them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from models.tippi_toppi.positions import format_play, parse_play, state_from_dict, state_to_dict
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
from solver.params import Param, choice_param, flag_param

if TYPE_CHECKING:
    from models.tippi_toppi.queries import ShowResult

# every verb that judges tasks takes it (as a data option), and so does `generate`
COMPARISONS_PARAM = choice_param(
    "comparisons", COMPARISONS, None,
    "How a sum or comparison naming a group of piles reads when no pile of the group "
    "lies: as-worded (the rulebook; 0 green = 0 purple piles are 'as many') or present "
    "(each group named must lie). Default: the rules data's (as-worded).")


#: A card nobody at the table sees (drawn into a hidden hand), as position files write it.
UNSEEN = "?"


def _numbers(text: str, what: str) -> list[int]:
    try:
        out = [int(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        raise BadInput(f"{what}: expected numbers separated by commas, got '{text}'") from None
    return list(dict.fromkeys(out))


class TippiToppiGame(Game[Rules, GameState, Action]):
    id = "tippi-toppi"
    notation = (
        "A card is a colour code (G green, P pink, O orange, V purple) and its number, "
        "e.g. G3; a play is CARD>PILE, e.g. G3>2 (piles 1-4), with p2: before it for the "
        "second player in a game of several.")
    kind = "cooperative"
    policy_names = ("hint", "random")
    data_options = (COMPARISONS_PARAM,)
    setup_options = (
        Param("players", "text", "1,2,3,4", "Player counts, comma separated.",
              show_default=True),
        Param("difficulty", "text", "all", "Difficulties (beginner,normal,advanced,expert,"
              "champion or 1-5), comma separated, or 'all'.", show_default=True),
        flag_param("high_speed", "High Speed: anyone may play (the player with the "
                   "initiative plays or passes it on; no timer)."),
        flag_param("open_hands_variant", "Open hands (Kids): every player sees every hand."),
        choice_param("task_count", TASK_COUNTS, "total",
                     "The rulebook's task table counts all tasks of the game, the open "
                     "ones included (total), or the task pile alone, the open tasks on top "
                     "(pile)."),
    )
    play_setup = {"players": "2", "difficulty": "normal"}
    chance_option = Param(
        "chance", "text", None, "When chance acts next: the card drawn (e.g. G3) or the "
        "task turned up (its text or catalogue id); the moves after it are listed.",
        metavar="CARD|TASK")
    show_answer = "models.tippi_toppi.queries:ShowResult"

    # ------------------------------------------------------------------ data, positions

    def load_rules(self, path: str | None, **data: Any) -> Rules:
        return load_rules(path, data.get("comparisons"))

    def read(self, rules: Rules, data: Any, where: str) -> GameState:
        return state_from_dict(rules, data, where)

    def write(self, state: GameState) -> dict[str, Any]:
        return state_to_dict(state)

    def what_if(self, rules: Rules, state: GameState, **options: Any) -> GameState:
        """`moves` lists every play of the player on turn (of a hidden card: every card
        not seen anywhere, on each pile it fits)."""
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
        return state.act(action)

    def chance_outcomes(self, state: GameState) -> list[tuple[Action, float]]:
        return list(state.chance_outcomes())

    def returns(self, state: GameState) -> list[float]:
        return [1.0 if state.is_won() else 0.0] * state.players

    def status(self, state: GameState) -> str:
        return state.status()

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

    # ------------------------------------------------------------------ action catalogue

    hides_information = True  # the other hands, the draw pile, the task pile

    def action_space(self, rules: Rules, setup: dict[str, Any]) -> list[Action]:
        """Every card (colour and number) on every pile by every player, and the passes."""
        seats = range(setup["players"])
        cards = list(dict.fromkeys(rules.deck))
        return [*(Play(p, card, pile) for p in seats for card in cards
                  for pile in range(rules.piles)), *(Pass(p) for p in seats)]

    # ------------------------------------------------------------------ words

    def action_text(self, state: GameState, action: Action) -> str:
        r = state.rules
        if isinstance(action, Play):
            return format_play(r, action, state.players)
        if isinstance(action, Pass):
            return f"p{action.player + 1}:pass" if state.players > 1 else "pass"
        if isinstance(action, Draw):
            return f"draw {UNSEEN if action.card is None else r.card_name(action.card)}"
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
            if words.strip() == UNSEEN:
                return Draw(None)
            return Draw(state.rules.parse_card(words.strip(), "card drawn"))
        player, _, rest = words.rpartition(":")
        if rest.strip().lower() == "pass":
            who = player.strip().lower().removeprefix("p")
            if who and not who.isdecimal():
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
            out["card"] = UNSEEN if action.card is None else r.card_name(action.card)
        else:
            out["task"] = action.task.text(r)
        return out

    # ------------------------------------------------------------------ pictures

    def show(self, state: GameState) -> ShowResult:
        from models.tippi_toppi.queries import show

        return show(state)

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


GAME = TippiToppiGame()
