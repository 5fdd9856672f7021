"""Tippi Toppi (card game): the rules data — colours, numbers, copies, piles and their
neighbours, hand size, the task table and the task catalogue (data/default.json,
data/tasks.json, or a --rules file).

Rulebook: /work/shared/rulebooks/tippi-toppi-cards.de.txt. Cards are (colour index,
number) tuples; the two copies of a card are not told apart. A card written in a file is
a colour code and a number ("G3", "V7") or words ("green 3", "lila 7").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from models.tippi_toppi.tasks import Task, parse_task
from solver.errors import BadInput
from solver.io import expect, load_data, load_json, package_data, rgb_colour
from solver.io import field as json_field

Card = tuple[int, int]

#: How a sum or a comparison naming a group of piles reads when no pile of the group
#: lies: "as-worded" (the rulebook: "Aufgaben gelten nur, wenn sie exakt nach ihrem
#: Wortlaut erfüllt sind"; no green and no purple piles are "as many green piles as
#: purple piles", 0 = 0) or "present" (each group named must lie on a pile).
COMPARISONS = ("as-worded", "present")

#: What the rulebook's task table ("1 Spieler – Anfänger 12, ...") counts: every task
#: of the game, the open ones included ("total"), or the task pile alone, the open tasks
#: dealt on top of it ("pile").
TASK_COUNTS = ("total", "pile")


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
    comparisons: str = COMPARISONS[0]

    def with_comparisons(self, reading: str | None) -> Rules:
        """These rules with another reading of sums and comparisons (None: as they are)."""
        if reading is None or reading == self.comparisons:
            return self
        # made once per rules object: states and puzzles ask for it again and again
        other = self.__dict__.setdefault("_readings", {})
        if reading not in other:
            other[reading] = replace(self, comparisons=check_comparisons(reading,
                                                                         "--comparisons"))
            other[reading].__dict__["_readings"] = {self.comparisons: self}
        return other[reading]

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
        if key.isdecimal() and 1 <= int(key) <= len(self.difficulties):
            return int(key) - 1
        raise BadInput(f"{where}: unknown difficulty '{text}' "
                       f"({', '.join(self.difficulties)})")

    def task_count(self, players: int, difficulty: int) -> int:
        """Tasks in a game, from the rulebook's table (players x difficulty)."""
        if players not in self.task_counts:
            raise BadInput(f"the task table has no row for {players} players "
                           f"({', '.join(str(p) for p in sorted(self.task_counts))})")
        return self.task_counts[players][difficulty]

    def tasks_in_game(self, players: int, difficulty: int, task_count: str = "total") -> int:
        """Tasks a new game deals: the table's number, plus the open tasks when the table
        counts the task pile alone (`TASK_COUNTS`)."""
        n = self.task_count(players, difficulty)
        return n + self.open_tasks if task_count == "pile" else n

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


def load_rules(path: str | Path | None = None, comparisons: str | None = None) -> Rules:
    """The rules data (default: data/default.json) with the task catalogue (the rules
    file's "tasks" list if it has one, else data/tasks.json); `comparisons` replaces
    the file's reading of sums and comparisons (`COMPARISONS`)."""
    rules = load_data(path, "models.tippi_toppi", "default.json", rules_from_dict)
    return rules.with_comparisons(comparisons)


def check_comparisons(reading: Any, where: str) -> str:
    if reading not in COMPARISONS:
        raise BadInput(f"{where}: unknown reading of comparisons {reading!r} "
                       f"({' or '.join(COMPARISONS)})")
    return reading


def _count(value: int, where: str, low: int, high: int) -> int:
    """A whole number of a rules file within what a game (and a solver model) can hold."""
    if not low <= value <= high:
        raise BadInput(f"{where}: {value} is not from {low} to {high}")
    return value


def rules_from_dict(data: Any, where: str = "rules") -> Rules:
    expect(data, dict, where)
    colours = []
    for i, c in enumerate(json_field(data, "colours", list, where)):
        w = f"{where}.colours[{i}]"
        expect(c, dict, w)
        words = tuple(expect(x, str, f"{w}.words[{j}]")
                      for j, x in enumerate(json_field(c, "words", list, w, [])))
        colours.append(Colour(json_field(c, "name", str, w), json_field(c, "code", str, w),
                              rgb_colour(json_field(c, "rgb", str, w), f"{w}.rgb"), words))
    if not colours:
        raise BadInput(f"{where}.colours: at least one colour")
    numbers = tuple(_count(expect(n, int, f"{where}.numbers[{i}]"), f"{where}.numbers[{i}]",
                           1, 99)
                    for i, n in enumerate(json_field(data, "numbers", list, where)))
    if not numbers:
        raise BadInput(f"{where}.numbers: at least one number")
    piles = _count(json_field(data, "piles", int, where), f"{where}.piles", 1, 20)
    adjacent = []
    for i, pair in enumerate(json_field(data, "adjacent", list, where)):
        expect(pair, list, f"{where}.adjacent[{i}]")
        if len(pair) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                     and 0 <= x < piles for x in pair):
            raise BadInput(f"{where}.adjacent: {pair} is not a pair of piles 0-{piles - 1}")
        if pair[0] == pair[1]:  # neighbours are two piles (the relation is irreflexive)
            raise BadInput(f"{where}.adjacent[{i}]: pile {pair[0]} cannot be its own "
                           "neighbour")
        if tuple(pair) in adjacent or tuple(pair[::-1]) in adjacent:  # and symmetric
            raise BadInput(f"{where}.adjacent[{i}]: piles {pair[0]} and {pair[1]} are "
                           "neighbours already (each pair once, in either order)")
        adjacent.append(tuple(pair))
    difficulties = tuple(expect(d, str, f"{where}.difficulties[{i}]")
                         for i, d in enumerate(json_field(data, "difficulties", list, where)))
    if not difficulties:
        raise BadInput(f"{where}.difficulties: at least one difficulty")
    counts: dict[int, tuple[int, ...]] = {}
    for k, row in json_field(data, "task_counts", dict, where).items():
        w = f"{where}.task_counts.{k}"
        if not k.isdecimal() or not 1 <= int(k) <= 10:
            raise BadInput(f"{w}: the key is a number of players (1-10)")
        expect(row, list, w)
        if len(row) != len(difficulties):
            raise BadInput(f"{w}: one count per difficulty expected")
        counts[int(k)] = tuple(_count(expect(n, int, w), w, 0, 100) for n in row)
    if not counts:
        raise BadInput(f"{where}.task_counts: at least one number of players")
    if len({c.code.lower() for c in colours}) != len(colours):
        raise BadInput(f"{where}: colour codes must differ")
    comparisons = check_comparisons(json_field(data, "comparisons", str, where, COMPARISONS[0]),
                                    f"{where}.comparisons")
    rules = Rules(json_field(data, "name", str, where, "Tippi Toppi"), tuple(colours), numbers,
                  _count(json_field(data, "copies", int, where), f"{where}.copies", 1, 10),
                  piles, tuple(adjacent),  # type: ignore[arg-type]
                  _count(json_field(data, "hand_size", int, where), f"{where}.hand_size", 1, 20),
                  _count(json_field(data, "open_tasks", int, where), f"{where}.open_tasks",
                         0, 20),
                  difficulties, dict(json_field(data, "difficulty_words", dict, where, {})), counts,
                  comparisons=comparisons)
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
