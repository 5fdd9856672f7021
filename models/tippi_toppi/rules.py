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
from solver.io import field as jfield

Card = tuple[int, int]
UNKNOWN = None  # a card nobody at the table may see (a hidden hand card)


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
    for i, c in enumerate(jfield(data, "colours", list, where)):
        w = f"{where}.colours[{i}]"
        expect(c, dict, w)
        colours.append(Colour(jfield(c, "name", str, w), jfield(c, "code", str, w),
                              jfield(c, "rgb", str, w),
                              tuple(jfield(c, "words", list, w, []))))
    numbers = tuple(expect(n, int, f"{where}.numbers") for n in jfield(data, "numbers", list, where))
    piles = jfield(data, "piles", int, where)
    adjacent = tuple(tuple(p) for p in jfield(data, "adjacent", list, where))
    for p in adjacent:
        if len(p) != 2 or not all(isinstance(x, int) and 0 <= x < piles for x in p):
            raise BadInput(f"{where}.adjacent: {list(p)} is not a pair of piles 0-{piles - 1}")
    difficulties = tuple(jfield(data, "difficulties", list, where))
    counts: dict[int, tuple[int, ...]] = {}
    for k, row in jfield(data, "task_counts", dict, where).items():
        expect(row, list, f"{where}.task_counts.{k}")
        if len(row) != len(difficulties):
            raise BadInput(f"{where}.task_counts.{k}: one count per difficulty expected")
        counts[int(k)] = tuple(row)
    if len({c.code.lower() for c in colours}) != len(colours):
        raise BadInput(f"{where}: colour codes must differ")
    rules = Rules(jfield(data, "name", str, where, "Tippi Toppi"), tuple(colours), numbers,
                  jfield(data, "copies", int, where), piles, adjacent,  # type: ignore[arg-type]
                  jfield(data, "hand_size", int, where), jfield(data, "open_tasks", int, where),
                  difficulties, dict(jfield(data, "difficulty_words", dict, where, {})), counts)
    tasks = data.get("tasks")
    if tasks is None:
        tasks = load_json(default_tasks_path(), "task catalogue")["tasks"]
    cat = []
    for i, t in enumerate(expect(tasks, list, f"{where}.tasks")):
        w = f"task catalogue entry {i + 1}"
        expect(t, dict, w)
        cat.append(CatalogueTask(jfield(t, "id", str, w),
                                 parse_task(jfield(t, "text", str, w), rules),
                                 jfield(t, "level", int, w, 1)))
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


@dataclass
class GameState:
    """A game in progress. Hidden parts: hand cards given as None, a draw pile whose
    order is unknown (`draw_pile` None, `draw_count` cards), and `hidden_tasks` task
    cards below the known `task_pile` (not turned up by the engine: unknown)."""

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
                         list(self.history))

    def tasks_left(self) -> int:
        return len(self.open_tasks) + len(self.task_pile) + self.hidden_tasks

    def is_won(self) -> bool:
        return self.tasks_left() == 0

    def movers(self) -> list[int]:
        """Who may play now: the player on turn, or everybody in High Speed."""
        return list(range(self.players)) if self.variant.high_speed else [self.turn]

    def legal_actions(self) -> list[Play]:
        """Every legal play with a known card (no play once the game is won)."""
        if self.is_won():
            return []
        out = []
        tops = self.tops
        for player in self.movers():
            for card in sorted({c for c in self.hands[player] if c is not None}):
                for p, top in enumerate(tops):
                    if card[0] == top[0] or card[1] == top[1]:
                        out.append(Play(player, card, p))
        return out

    def is_lost(self) -> bool:
        """Nobody who may play can play. Unknown hand cards are not judged: a hand with
        hidden cards is never called stuck."""
        if self.is_won():
            return False
        if self.legal_actions():
            return False
        return all(None not in self.hands[p] for p in self.movers())

    def is_terminal(self) -> bool:
        return self.is_won() or self.is_lost()

    def holds(self, task: Task) -> bool:
        return task.holds(self.tops, self.rules)

    def check_play(self, play: Play) -> None:
        """BadInput naming why a play is not legal here."""
        r = self.rules
        if self.is_won():
            raise BadInput("the game is already won")
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

    def apply_action(self, play: Play) -> list[Task]:
        """Play a card; returns the tasks fulfilled by it (including turned-up tasks
        that held at once). Draws for the player if cards remain."""
        self.check_play(play)
        self.hands[play.player].remove(play.card)
        self.piles[play.pile].append(play.card)
        self.history.append(play)
        done = self.settle_tasks()
        if self.draw_count > 0:
            card = self.draw_pile.pop(0) if self.draw_pile is not None else None
            self.draw_count -= 1
            self.hands[play.player].append(card)
        self.turn = (play.player + 1) % self.players
        return done

    def settle_tasks(self) -> list[Task]:
        """Fulfilled open tasks leave; turn up new ones until four lie open, and those
        that hold at once leave too (rulebook: 'gilt sie sofort als erledigt')."""
        tops = self.tops
        done = [t for t in self.open_tasks if t.holds(tops, self.rules)]
        self.open_tasks = [t for t in self.open_tasks if not t.holds(tops, self.rules)]
        while len(self.open_tasks) < self.rules.open_tasks and self.task_pile:
            t = self.task_pile.pop(0)
            if t.holds(tops, self.rules):
                done.append(t)
            else:
                self.open_tasks.append(t)
        # hidden tasks are unknown: they cannot be turned up by the engine
        self.fulfilled.extend(done)
        return done

    def after(self, play: Play) -> GameState:
        s = self.copy()
        s.apply_action(play)
        return s

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
        return d


# --------------------------------------------------------------------------- loading

def load_state(rules: Rules, path: str | Path) -> GameState:
    return state_from_dict(rules, load_json(path, "game file"), f"game file {path}")


def state_from_dict(rules: Rules, data: Any, where: str = "game") -> GameState:
    """A game state from JSON (format in docs/tippi-toppi.md), checked: known cards, no
    more copies than the deck has, hands no larger than allowed, no open task that
    already holds (it would have been fulfilled)."""
    expect(data, dict, where)
    game = data.get("game", "tippi-toppi")
    if game != "tippi-toppi":
        raise BadInput(f"{where}: this is a '{game}' file, not tippi-toppi")
    piles_raw = jfield(data, "piles", list, where)
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
    hands_raw = jfield(data, "hands", list, where)
    players = jfield(data, "players", int, where, len(hands_raw))
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
    turn = jfield(data, "turn", int, where, 1) - 1
    if not 0 <= turn < players:
        raise BadInput(f"{where}.turn: player {turn + 1} does not exist (1-{players})")
    v = jfield(data, "variant", dict, where, {})
    variant = Variant(bool(v.get("high_speed", False)), bool(v.get("open_hands", False)))
    draw_raw = jfield(data, "draw_pile", list, where, None) if "draw_pile" in data else None
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
                        for i, t in enumerate(jfield(data, "open_tasks", list, where))]
    if len(state.open_tasks) > rules.open_tasks:
        raise BadInput(f"{where}.open_tasks: at most {rules.open_tasks} tasks lie open")
    pile = jfield(data, "task_pile", (list, int), where, 0)
    if isinstance(pile, int):
        if pile < 0:
            raise BadInput(f"{where}.task_pile: a negative number of tasks")
        state.hidden_tasks = pile
    else:
        state.task_pile = [rules.parse_task(t, f"{where}.task_pile[{i + 1}]")
                           for i, t in enumerate(pile)]
    if (state.task_pile or state.hidden_tasks) and len(state.open_tasks) < rules.open_tasks:
        raise BadInput(f"{where}: only {len(state.open_tasks)} open tasks while the task "
                       f"pile still has cards ({rules.open_tasks} lie open)")
    state.fulfilled = [rules.parse_task(t, f"{where}.fulfilled_tasks[{i + 1}]")
                       for i, t in enumerate(jfield(data, "fulfilled_tasks", list, where, []))]
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

def new_game(rules: Rules, players: int, difficulty: int, seed: int,
             variant: Variant = Variant(), max_level: int | None = None) -> GameState:
    """A shuffled game: four piles with one card each, hands of `hand_size`, the number
    of tasks from the rulebook's table drawn from the catalogue, four turned up (tasks
    that already hold when turned up at the start are fulfilled at once, as in play)."""
    rng = random.Random(seed)
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


def sample_hidden(state: GameState, rng: random.Random, pool: Sequence[Task] = ()
                  ) -> GameState:
    """A full-information state consistent with what is known: hidden hand cards and an
    unknown draw pile dealt from the unseen cards, hidden tasks from `pool` (catalogue
    tasks not seen yet)."""
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
    return s
