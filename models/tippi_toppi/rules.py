"""Tippi Toppi (card game): rules data, game states, legal plays — the reference engine.

Rulebook: /work/shared/rulebooks/tippi-toppi-cards.de.txt. A card may go on a pile whose
top card has the same colour or the same number. After a play, fulfilled open tasks leave
and new ones are turned up until four lie open; a task that holds as it is turned up is
fulfilled at once. Then the player draws a card if any remain. The game is won when every
task is fulfilled and lost when the player on turn cannot play (High Speed: nobody can).

Cards are (colour index, number) tuples; the two copies of a card are not told apart.
A card written in a file is a colour code and a number ("G3", "V7") or words
("green 3", "lila 7").
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from models.tippi_toppi.tasks import Task, Tops, parse_task
from solver.errors import BadInput
from solver.io import expect, load_data, load_json, package_data
from solver.io import field as json_field

Card = tuple[int, int]


@dataclass(frozen=True)
class Colour:
    name: str
    code: str
    rgb: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Rules:
    """The deck, the table and the task-count table (data/default.json)."""

    name: str
    colours: tuple[Colour, ...]
    numbers: tuple[int, ...]
    copies: int
    piles: int
    adjacent: tuple[tuple[int, int], ...]
    hand_size: int
    open_tasks: int
    difficulties: tuple[str, ...]
    difficulty_words: dict[str, str]
    task_counts: dict[int, tuple[int, ...]]
    catalogue: tuple[CatalogueTask, ...] = ()

    @cached_property
    def colour_word(self) -> dict[str, int]:
        out = {}
        for i, c in enumerate(self.colours):
            for w in (c.name, *c.words):
                out[w.lower()] = i
        return out

    @cached_property
    def neighbours(self) -> frozenset[tuple[int, int]]:
        """Ordered pairs of neighbouring piles (both directions)."""
        return frozenset(self.adjacent) | frozenset((j, i) for i, j in self.adjacent)

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """The distinct cards (each exists `copies` times)."""
        return tuple((c, n) for c in range(len(self.colours)) for n in self.numbers)

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards for _ in range(self.copies))

    def card_name(self, card: Card | None) -> str:
        return "?" if card is None else f"{self.colours[card[0]].code}{card[1]}"

    def card_words(self, card: Card) -> str:
        return f"{self.colours[card[0]].name} {card[1]}"

    def parse_card(self, text: Any, where: str = "card") -> Card:
        """'G3', 'g3', 'green 3', 'grün-3' -> (colour, number); BadInput otherwise."""
        if not isinstance(text, str):
            raise BadInput(f"{where}: expected a card like 'G3', got {text!r}")
        m = re.fullmatch(r"\s*([^\W\d_]+)[\s\-_]*(\d+)\s*", text)
        if m:
            word, num = m.group(1).lower(), int(m.group(2))
            colour = next((i for i, c in enumerate(self.colours) if c.code.lower() == word),
                          self.colour_word.get(word))
            if colour is not None and num in self.numbers:
                return (colour, num)
        codes = ", ".join(c.code for c in self.colours)
        raise BadInput(f"{where}: unknown card '{text}' (cards are a colour code {codes} "
                       f"and a number {self.numbers[0]}-{self.numbers[-1]}, e.g. "
                       f"'{self.colours[0].code}{self.numbers[-1]}')")

    def parse_difficulty(self, text: str, where: str = "difficulty") -> int:
        key = str(text).strip().lower()
        key = self.difficulty_words.get(key, key)
        if key in self.difficulties:
            return self.difficulties.index(key)
        if key.isdigit() and 1 <= int(key) <= len(self.difficulties):
            return int(key) - 1
        raise BadInput(f"{where}: unknown difficulty '{text}' "
                       f"({', '.join(self.difficulties)})")

    def task_count(self, players: int, difficulty: int) -> int:
        """Tasks in a game, from the rulebook's table (players x difficulty)."""
        if players not in self.task_counts:
            raise BadInput(f"the task table has no row for {players} players "
                           f"({', '.join(str(p) for p in sorted(self.task_counts))})")
        return self.task_counts[players][difficulty]

    def parse_task(self, text: Any, where: str = "task") -> Task:
        if not isinstance(text, str):
            raise BadInput(f"{where}: expected the text of a task, got {text!r}")
        by_id = {t.id.lower(): t.task for t in self.catalogue}
        if text.strip().lower() in by_id:
            return by_id[text.strip().lower()]
        try:
            return parse_task(text, self)
        except BadInput as exc:
            raise BadInput(f"{where}: {exc}") from None

    def task_name(self, task: Task) -> str:
        return task.text(self)


@dataclass(frozen=True)
class CatalogueTask:
    """A task of the shipped catalogue (modelled on the rulebook, not the real cards)."""

    id: str
    task: Task
    level: int


def default_rules_path() -> Path:
    return package_data("models.tippi_toppi", "default.json")


def default_tasks_path() -> Path:
    return package_data("models.tippi_toppi", "tasks.json")


def load_rules(path: str | Path | None = None) -> Rules:
    """The rules data (default: data/default.json) with the task catalogue (the rules
    file's "tasks" list if it has one, else data/tasks.json)."""
    return load_data(path, "models.tippi_toppi", "default.json", rules_from_dict)


def rules_from_dict(data: Any, where: str = "rules") -> Rules:
    expect(data, dict, where)
    colours = []
    for i, c in enumerate(json_field(data, "colours", list, where)):
        w = f"{where}.colours[{i}]"
        expect(c, dict, w)
        colours.append(Colour(json_field(c, "name", str, w), json_field(c, "code", str, w),
                              json_field(c, "rgb", str, w),
                              tuple(json_field(c, "words", list, w, []))))
    numbers = tuple(expect(n, int, f"{where}.numbers") for n in json_field(data, "numbers", list, where))
    piles = json_field(data, "piles", int, where)
    adjacent = tuple(tuple(p) for p in json_field(data, "adjacent", list, where))
    for p in adjacent:
        if len(p) != 2 or not all(isinstance(x, int) and 0 <= x < piles for x in p):
            raise BadInput(f"{where}.adjacent: {list(p)} is not a pair of piles 0-{piles - 1}")
    difficulties = tuple(json_field(data, "difficulties", list, where))
    counts: dict[int, tuple[int, ...]] = {}
    for k, row in json_field(data, "task_counts", dict, where).items():
        expect(row, list, f"{where}.task_counts.{k}")
        if len(row) != len(difficulties):
            raise BadInput(f"{where}.task_counts.{k}: one count per difficulty expected")
        counts[int(k)] = tuple(row)
    if len({c.code.lower() for c in colours}) != len(colours):
        raise BadInput(f"{where}: colour codes must differ")
    rules = Rules(json_field(data, "name", str, where, "Tippi Toppi"), tuple(colours), numbers,
                  json_field(data, "copies", int, where), piles, adjacent,  # type: ignore[arg-type]
                  json_field(data, "hand_size", int, where), json_field(data, "open_tasks", int, where),
                  difficulties, dict(json_field(data, "difficulty_words", dict, where, {})), counts)
    tasks = data.get("tasks")
    if tasks is None:
        tasks = load_json(default_tasks_path(), "task catalogue")["tasks"]
    cat = []
    for i, t in enumerate(expect(tasks, list, f"{where}.tasks")):
        w = f"task catalogue entry {i + 1}"
        expect(t, dict, w)
        cat.append(CatalogueTask(json_field(t, "id", str, w),
                                 parse_task(json_field(t, "text", str, w), rules),
                                 json_field(t, "level", int, w, 1)))
    object.__setattr__(rules, "catalogue", tuple(cat))
    return rules


# --------------------------------------------------------------------------- game state

@dataclass(frozen=True)
class Variant:
    """Rule switches: High Speed (no turn order, anyone may play), open hands (Kids)."""

    high_speed: bool = False
    open_hands: bool = False


@dataclass(frozen=True)
class Play:
    """`player` puts `card` on pile `pile` (0-based)."""

    player: int
    card: Card
    pile: int


@dataclass(frozen=True)
class Pass:
    """High Speed: `player`, who has the initiative, hands it on to the next player."""

    player: int


@dataclass(frozen=True)
class Draw:
    """Chance: `card` is drawn from a draw pile whose order is unknown."""

    card: Card


@dataclass(frozen=True)
class TurnUp:
    """Chance: `task` is turned up from a task pile whose tasks are unknown."""

    task: Task


Action = Play | Pass | Draw | TurnUp
DRAW, TURN_UP = "draw", "turn up"  # the chance events


@dataclass
class GameState:
    """A game in progress. Hidden parts: hand cards given as None, a draw pile whose
    order is unknown (`draw_pile` None, `draw_count` cards), and `hidden_tasks` task
    cards below the known `task_pile` whose tasks are unknown.

    `turn` is the player on turn; in High Speed anyone may play, and `turn` is the
    player who has the initiative (who acts next, one at a time, in the game's
    description: solver.game). `drawer` is the player who still draws a card from a
    draw pile of unknown order (a chance event); a task to turn up from an unknown task
    pile is due when fewer tasks lie open than the rules ask and hidden tasks remain.

    `apply_action` returns a new state; the `*_in_place` methods change this one (for
    searches and rollouts that play many moves on one copy)."""

    rules: Rules
    piles: list[list[Card]]
    hands: list[list[Card | None]]
    turn: int
    open_tasks: list[Task]
    task_pile: list[Task]
    draw_pile: list[Card] | None
    draw_count: int
    variant: Variant = Variant()
    hidden_tasks: int = 0
    fulfilled: list[Task] = field(default_factory=list)
    history: list[Play] = field(default_factory=list)
    drawer: int | None = None

    # -- views
    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def tops(self) -> Tops:
        return tuple(p[-1] for p in self.piles)

    def copy(self) -> GameState:
        return GameState(self.rules, [list(p) for p in self.piles], [list(h) for h in self.hands],
                         self.turn, list(self.open_tasks), list(self.task_pile),
                         None if self.draw_pile is None else list(self.draw_pile),
                         self.draw_count, self.variant, self.hidden_tasks, list(self.fulfilled),
                         list(self.history), self.drawer)

    def tasks_left(self) -> int:
        return len(self.open_tasks) + len(self.task_pile) + self.hidden_tasks

    def is_won(self) -> bool:
        return self.tasks_left() == 0

    def chance_due(self) -> str | None:
        """TURN_UP when a task of unknown text is turned up next, DRAW when `drawer`
        draws a card of unknown order next, None when no chance event is due."""
        if self.hidden_tasks and len(self.open_tasks) < self.rules.open_tasks:
            return TURN_UP
        if self.drawer is not None:
            return DRAW
        return None

    def movers(self) -> list[int]:
        """Who may play now by the rules: the player on turn, or everybody in High Speed."""
        return list(range(self.players)) if self.variant.high_speed else [self.turn]

    def plays_of(self, player: int) -> list[Play]:
        """The legal plays of `player` with the cards known in their hand (by card, then
        pile), whether or not it is their turn."""
        out = []
        tops = self.tops
        for card in sorted({c for c in self.hands[player] if c is not None}):
            for p, top in enumerate(tops):
                if card[0] == top[0] or card[1] == top[1]:
                    out.append(Play(player, card, p))
        return out

    def legal_plays(self) -> list[Play]:
        """Every legal play of the players who may play now (none once the game is won
        or while a chance event is due)."""
        if self.is_won() or self.chance_due():
            return []
        return [play for player in self.movers() for play in self.plays_of(player)]

    def is_lost(self) -> bool:
        """Nobody who may play can play. Unknown hand cards are not judged: a hand with
        hidden cards is never called stuck."""
        if self.is_won() or self.chance_due():
            return False
        if self.legal_plays():
            return False
        return all(None not in self.hands[p] for p in self.movers())

    def is_terminal(self) -> bool:
        return self.is_won() or self.is_lost()

    def may_pass(self) -> bool:
        """High Speed: the player with the initiative may hand it on when they cannot
        play or another player holds a card (hand sizes are seen by all)."""
        if not self.variant.high_speed or self.players == 1 or self.is_terminal():
            return False
        return (not self.plays_of(self.turn)
                or any(self.hands[q] for q in range(self.players) if q != self.turn))

    def actions(self) -> list[Play | Pass]:
        """What the player on turn (High Speed: with the initiative) may do: their legal
        plays, and in High Speed passing the initiative on."""
        if self.is_won() or self.chance_due():
            return []
        out: list[Play | Pass] = list(self.plays_of(self.turn))
        if self.may_pass():
            out.append(Pass(self.turn))
        return out

    def holds(self, task: Task) -> bool:
        return task.holds(self.tops, self.rules)

    # -- chance
    def unseen_tasks(self) -> list[Task]:
        """The catalogue tasks not seen yet: what a task of unknown text may be."""
        seen = set(self.open_tasks) | set(self.task_pile) | set(self.fulfilled)
        return [t.task for t in self.rules.catalogue if t.task not in seen]

    def chance_outcomes(self) -> list[tuple[Draw | TurnUp, float]]:
        """The outcomes of the chance event due and their probabilities: every unseen
        catalogue task alike; every distinct unseen card by its count (a card drawn from
        a pile nobody has seen in order is any unseen card with equal chance)."""
        due = self.chance_due()
        if due == TURN_UP:
            tasks = self.unseen_tasks()
            return [(TurnUp(t), 1 / len(tasks)) for t in tasks]
        if due == DRAW:
            unseen = Counter(self.unseen_cards())
            total = sum(unseen.values())
            return [(Draw(c), k / total) for c, k in sorted(unseen.items())]
        return []

    # -- moves
    def check_play(self, play: Play) -> None:
        """BadInput naming why a play is not legal here."""
        r = self.rules
        if self.is_won():
            raise BadInput("the game is already won")
        if self.chance_due():
            raise BadInput(f"chance acts first: {self.chance_text()}")
        if not 0 <= play.player < self.players:
            raise BadInput(f"there is no player {play.player + 1}")
        if play.player not in self.movers():
            raise BadInput(f"player {play.player + 1} is not on turn "
                           f"(player {self.turn + 1} is)")
        if play.card not in self.hands[play.player]:
            raise BadInput(f"player {play.player + 1} has no {r.card_name(play.card)}")
        if not 0 <= play.pile < r.piles:
            raise BadInput(f"there is no pile {play.pile + 1}")
        top = self.piles[play.pile][-1]
        if play.card[0] != top[0] and play.card[1] != top[1]:
            raise BadInput(f"{r.card_name(play.card)} matches neither colour nor number of "
                           f"pile {play.pile + 1} ({r.card_name(top)})")

    def chance_text(self) -> str:
        """The chance event due, in words."""
        due = self.chance_due()
        if due == TURN_UP:
            return "a task is turned up"
        if due == DRAW:
            return f"player {self.drawer + 1} draws a card"  # type: ignore[operator]
        return "nothing"

    def apply_action(self, action: Action) -> GameState:
        """The state after `action` (a new state; BadInput naming why it is not legal)."""
        s = self.copy()
        s.act_in_place(action)
        return s

    def act_in_place(self, action: Action) -> list[Task]:
        """Apply `action` to this state; returns the tasks it fulfilled."""
        if isinstance(action, Play):
            return self.play_in_place(action)
        if isinstance(action, Pass):
            self.pass_in_place(action.player)
            return []
        if isinstance(action, Draw):
            self.draw_in_place(action.card)
            return []
        if isinstance(action, TurnUp):
            return self.turn_up_in_place(action.task)
        raise BadInput(f"{action!r} is not a Tippi Toppi action")

    def play_in_place(self, play: Play) -> list[Task]:
        """Play a card; returns the tasks fulfilled by it (including turned-up tasks
        that held at once). The player draws if cards remain: the top card of a known
        draw pile at once; from a pile of unknown order the draw is a chance event."""
        self.check_play(play)
        self.hands[play.player].remove(play.card)
        self.piles[play.pile].append(play.card)
        self.history.append(play)
        done = self.settle_tasks()
        if self.draw_count > 0:
            if self.draw_pile is not None:
                self.hands[play.player].append(self.draw_pile.pop(0))
                self.draw_count -= 1
            else:
                self.drawer = play.player
        self.turn = (play.player + 1) % self.players
        return done

    def pass_in_place(self, player: int) -> None:
        if not self.variant.high_speed:
            raise BadInput("only High Speed lets a player pass")
        if player != self.turn:
            raise BadInput(f"player {player + 1} does not have the initiative "
                           f"(player {self.turn + 1} has)")
        if not self.may_pass():
            raise BadInput(f"player {player + 1} cannot pass here")
        self.turn = (player + 1) % self.players

    def draw_in_place(self, card: Card) -> None:
        if self.chance_due() != DRAW:
            raise BadInput("no card is to be drawn now")
        if card not in self.unseen_cards():
            raise BadInput(f"{self.rules.card_name(card)} cannot be drawn: every copy "
                           "is seen elsewhere")
        self.hands[self.drawer].append(card)  # type: ignore[index]
        self.draw_count -= 1
        self.drawer = None

    def turn_up_in_place(self, task: Task) -> list[Task]:
        """Turn up `task` from the unknown task pile; it is fulfilled at once if it
        holds."""
        if self.chance_due() != TURN_UP:
            raise BadInput("no task is to be turned up now")
        if task not in self.unseen_tasks():
            raise BadInput(f"'{task.text(self.rules)}' is not an unseen task of the "
                           "catalogue")
        self.hidden_tasks -= 1
        if self.holds(task):
            self.fulfilled.append(task)
            return [task]
        self.open_tasks.append(task)
        return []

    def settle_tasks(self) -> list[Task]:
        """Fulfilled open tasks leave; turn up new ones from the known task pile until
        four lie open, and those that hold at once leave too (rulebook: 'gilt sie sofort
        als erledigt'). Tasks of unknown text are turned up by chance events."""
        tops = self.tops
        done = [t for t in self.open_tasks if t.holds(tops, self.rules)]
        self.open_tasks = [t for t in self.open_tasks if not t.holds(tops, self.rules)]
        while len(self.open_tasks) < self.rules.open_tasks and self.task_pile:
            t = self.task_pile.pop(0)
            if t.holds(tops, self.rules):
                done.append(t)
            else:
                self.open_tasks.append(t)
        self.fulfilled.extend(done)
        return done

    # -- what is known
    def known_cards(self) -> Counter:
        """Cards whose place is known: piles, visible hand cards, a known draw pile."""
        seen = Counter(c for p in self.piles for c in p)
        seen.update(c for h in self.hands for c in h if c is not None)
        if self.draw_pile is not None:
            seen.update(self.draw_pile)
        return seen

    def unseen_cards(self) -> list[Card]:
        """The cards of the deck not known anywhere (hidden hand cards and an unknown
        draw pile are made of these)."""
        left = Counter(self.rules.deck)
        left.subtract(self.known_cards())
        return sorted(left.elements())

    def fully_known(self) -> bool:
        return (self.draw_pile is not None and self.hidden_tasks == 0
                and all(c is not None for h in self.hands for c in h))

    def seen_by(self, player: int) -> GameState:
        """What `player` may know at the table: the piles, the open and fulfilled tasks,
        the plays made, their own hand and every hand's size; the other hands only with
        open hands (Kids); the draw pile as a count (its order unknown) and the task
        pile as a number of unknown tasks."""
        s = self.copy()
        if not self.variant.open_hands:
            s.hands = [h if q == player else [None] * len(h) for q, h in enumerate(s.hands)]
        s.draw_pile = None
        s.hidden_tasks += len(s.task_pile)
        s.task_pile = []
        return s

    def to_dict(self) -> dict[str, Any]:
        r = self.rules
        d: dict[str, Any] = {
            "game": "tippi-toppi", "players": self.players,
            "variant": {"high_speed": self.variant.high_speed,
                        "open_hands": self.variant.open_hands},
            "piles": [[r.card_name(c) for c in p] for p in self.piles],
            "hands": [[r.card_name(c) for c in h] for h in self.hands],
            "turn": self.turn + 1,
            "open_tasks": [t.text(r) for t in self.open_tasks],
            "task_pile": ([t.text(r) for t in self.task_pile] if not self.hidden_tasks
                          else len(self.task_pile) + self.hidden_tasks),
            "fulfilled_tasks": [t.text(r) for t in self.fulfilled],
        }
        if self.draw_pile is not None:
            d["draw_pile"] = [r.card_name(c) for c in self.draw_pile]
        if self.drawer is not None:
            d["to_draw"] = self.drawer + 1
        return d


# --------------------------------------------------------------------------- loading

def load_state(rules: Rules, path: str | Path) -> GameState:
    return state_from_dict(rules, load_json(path, "game file"), f"game file {path}")


def state_from_dict(rules: Rules, data: Any, where: str = "game") -> GameState:
    """A game state from JSON (format in docs/tippi-toppi.md), checked: known cards, no
    more copies than the deck has, hands no larger than allowed, no open task that
    already holds (it would have been fulfilled). What the file's reader does not know
    may be left out: hand cards as "?", the draw pile (its cards are then the unseen
    ones, order unknown), the task pile as a number of unknown tasks; `to_draw` names a
    player who still draws from such a draw pile."""
    expect(data, dict, where)
    game = data.get("game", "tippi-toppi")
    if game != "tippi-toppi":
        raise BadInput(f"{where}: this is a '{game}' file, not tippi-toppi")
    piles_raw = json_field(data, "piles", list, where)
    if len(piles_raw) != rules.piles:
        raise BadInput(f"{where}.piles: {rules.piles} piles expected, got {len(piles_raw)}")
    piles: list[list[Card]] = []
    for i, p in enumerate(piles_raw):
        w = f"{where}.piles[{i + 1}]"
        if isinstance(p, str):
            p = [p]
        expect(p, list, w)
        if not p:
            raise BadInput(f"{w}: a pile has at least its starting card")
        piles.append([rules.parse_card(c, w) for c in p])
    hands_raw = json_field(data, "hands", list, where)
    players = json_field(data, "players", int, where, len(hands_raw))
    if players != len(hands_raw):
        raise BadInput(f"{where}: {players} players but {len(hands_raw)} hands")
    if players not in rules.task_counts:
        raise BadInput(f"{where}.players: {players} players are not in the rules "
                       f"({min(rules.task_counts)}-{max(rules.task_counts)})")
    hands: list[list[Card | None]] = []
    for i, h in enumerate(hands_raw):
        w = f"{where}.hands[{i + 1}]"
        expect(h, list, w)
        if len(h) > rules.hand_size:
            raise BadInput(f"{w}: {len(h)} cards, a hand holds at most {rules.hand_size}")
        hands.append([None if c == "?" else rules.parse_card(c, w) for c in h])
    turn = json_field(data, "turn", int, where, 1) - 1
    if not 0 <= turn < players:
        raise BadInput(f"{where}.turn: player {turn + 1} does not exist (1-{players})")
    v = json_field(data, "variant", dict, where, {})
    variant = Variant(bool(v.get("high_speed", False)), bool(v.get("open_hands", False)))
    draw_raw = json_field(data, "draw_pile", list, where, None) if "draw_pile" in data else None
    draw = None if draw_raw is None else \
        [rules.parse_card(c, f"{where}.draw_pile") for c in draw_raw]
    state = GameState(rules, piles, hands, turn, [], [], draw, 0, variant)
    counts = state.known_cards()
    for card, n in sorted(counts.items()):
        if n > rules.copies:
            raise BadInput(f"{where}: {rules.card_name(card)} appears {n} times, the deck "
                           f"has {rules.copies}")
    hidden_hand = sum(1 for h in hands for c in h if c is None)
    unseen = len(rules.deck) - sum(counts.values())
    if draw is None:
        state.draw_count = unseen - hidden_hand
        if state.draw_count < 0:
            raise BadInput(f"{where}: {hidden_hand} hidden hand cards but only {unseen} "
                           "cards are unaccounted for")
    else:
        state.draw_count = len(draw)
        if unseen != hidden_hand:
            raise BadInput(f"{where}: with a known draw pile every card must be placed: "
                           f"{unseen} cards of the deck are missing and {hidden_hand} hand "
                           "cards are hidden")
    state.open_tasks = [rules.parse_task(t, f"{where}.open_tasks[{i + 1}]")
                        for i, t in enumerate(json_field(data, "open_tasks", list, where))]
    if len(state.open_tasks) > rules.open_tasks:
        raise BadInput(f"{where}.open_tasks: at most {rules.open_tasks} tasks lie open")
    pile = json_field(data, "task_pile", (list, int), where, 0)
    if isinstance(pile, int):
        if pile < 0:
            raise BadInput(f"{where}.task_pile: a negative number of tasks")
        state.hidden_tasks = pile
    else:
        state.task_pile = [rules.parse_task(t, f"{where}.task_pile[{i + 1}]")
                           for i, t in enumerate(pile)]
    if state.task_pile and len(state.open_tasks) < rules.open_tasks:
        raise BadInput(f"{where}: only {len(state.open_tasks)} open tasks while the task "
                       f"pile still has cards ({rules.open_tasks} lie open)")
    state.fulfilled = [rules.parse_task(t, f"{where}.fulfilled_tasks[{i + 1}]")
                       for i, t in enumerate(json_field(data, "fulfilled_tasks", list, where, []))]
    if state.hidden_tasks > len(state.unseen_tasks()):
        raise BadInput(f"{where}.task_pile: {state.hidden_tasks} unknown tasks but only "
                       f"{len(state.unseen_tasks())} tasks of the catalogue are unseen")
    if "to_draw" in data:
        drawer = json_field(data, "to_draw", int, where) - 1
        if not 0 <= drawer < players:
            raise BadInput(f"{where}.to_draw: player {drawer + 1} does not exist "
                           f"(1-{players})")
        if draw is not None:
            raise BadInput(f"{where}.to_draw: with a known draw pile the draw is part of "
                           "the play (give no draw_pile to leave the card to chance)")
        if state.draw_count == 0:
            raise BadInput(f"{where}.to_draw: the draw pile is empty")
        state.drawer = drawer
    for i, t in enumerate(state.open_tasks):
        if state.holds(t):
            raise BadInput(f"{where}.open_tasks[{i + 1}]: '{t.text(rules)}' already holds "
                           "on these piles; it would have been fulfilled")
    return state


def parse_play(state: GameState, text: str, where: str = "play") -> Play:
    """'G3>2' or 'G3 on 2' (card on pile 2), optionally 'p2:G3>2' for player 2."""
    m = re.fullmatch(r"\s*(?:p(\d+)\s*:\s*)?(.+?)\s*(?:>|\bon\b|@)\s*(\d+)\s*", text, re.I)
    if not m:
        raise BadInput(f"{where}: '{text}' is not a play (write CARD>PILE, e.g. G3>2)")
    player = int(m.group(1)) - 1 if m.group(1) else state.turn
    return Play(player, state.rules.parse_card(m.group(2), where), int(m.group(3)) - 1)


def format_play(rules: Rules, play: Play, players: int = 1) -> str:
    who = f"p{play.player + 1}:" if players > 1 else ""
    return f"{who}{rules.card_name(play.card)}>{play.pile + 1}"


# --------------------------------------------------------------------------- new games

def deal(rules: Rules, players: int, difficulty: int, rng: random.Random,
         variant: Variant = Variant(), max_level: int | None = None) -> GameState:
    """A game dealt from `rng`: four piles with one card each, hands of `hand_size`, the
    number of tasks from the rulebook's table drawn from the catalogue, four turned up
    (tasks that already hold when turned up at the start are fulfilled at once, as in
    play); the draw pile and the task pile in order (a full state)."""
    deck = list(rules.deck)
    rng.shuffle(deck)
    piles = [[deck.pop()] for _ in range(rules.piles)]
    hands: list[list[Card | None]] = [[deck.pop() for _ in range(rules.hand_size)]
                                      for _ in range(players)]
    pool = [t.task for t in rules.catalogue if max_level is None or t.level <= max_level]
    n = rules.task_count(players, difficulty)
    if n > len(pool):
        raise BadInput(f"the catalogue has only {len(pool)} tasks, the game needs {n}")
    tasks = rng.sample(pool, n)
    state = GameState(rules, piles, hands, 0, [], tasks, deck, len(deck), variant)
    state.settle_tasks()
    return state


def new_game(rules: Rules, players: int, difficulty: int, seed: int,
             variant: Variant = Variant(), max_level: int | None = None) -> GameState:
    """The game dealt from random.Random(seed)."""
    return deal(rules, players, difficulty, random.Random(seed), variant, max_level)


def sample_hidden(state: GameState, rng: random.Random, pool: Sequence[Task] = ()
                  ) -> GameState:
    """A full-information state consistent with what is known, drawn uniformly: hidden
    hand cards and an unknown draw pile dealt from the unseen cards, hidden tasks from
    `pool` (catalogue tasks not seen yet). A chance event that was due is resolved from
    the dealt piles (the drawer draws their top card; tasks are turned up)."""
    s = state.copy()
    unseen = s.unseen_cards()
    rng.shuffle(unseen)
    for h in s.hands:
        for i, c in enumerate(h):
            if c is None:
                h[i] = unseen.pop()
    if s.draw_pile is None:
        s.draw_pile = unseen[:s.draw_count]
    if s.hidden_tasks:
        seen = set(s.open_tasks) | set(s.task_pile) | set(s.fulfilled)
        candidates = [t for t in pool if t not in seen]
        if len(candidates) < s.hidden_tasks:
            raise BadInput(f"{s.hidden_tasks} hidden tasks but only {len(candidates)} "
                           "unseen tasks in the catalogue")
        s.task_pile = s.task_pile + rng.sample(candidates, s.hidden_tasks)
        s.hidden_tasks = 0
        if len(s.open_tasks) < s.rules.open_tasks:
            s.settle_tasks()
    if s.drawer is not None:
        s.hands[s.drawer].append(s.draw_pile.pop(0))
        s.draw_count -= 1
        s.drawer = None
    return s
