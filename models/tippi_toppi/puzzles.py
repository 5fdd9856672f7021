"""Tippi Toppi puzzles: four piles, a hand, a known draw order and open tasks; find the
one line of plays (card onto pile) that fulfils every task within K plays (solo).

Definition (docs/puzzles.md):
- One player plays a card from the hand on a pile whose top card matches it by colour
  or number, then draws the next card of the draw pile (known order, if any is left).
  A task is fulfilled when it holds on the four top cards after some play (it then
  leaves the table, so the tasks need not hold at the same time). The game is won after
  the play that fulfils the last task: a solution is a sequence of L <= K plays
  (card, pile) that wins exactly at play L (nothing is played after the win).
- The order counts: two plays that could be swapped are two solutions, and such a
  puzzle is not unique. The two copies of a card are not told apart: "G3 on pile 2" is
  one play whichever copy it is.
- A puzzle is posed under one reading of sums and comparisons (`Rules.comparisons`):
  the file records it (`"comparisons"`), and a file that does not is read under the
  rules data's reading.

Search: the K-play model of model.py on the question of encode.py ("known" cards, one
player), every open task demanded after some play. A model's plays are re-played by the
rules engine and cut after the play that fulfils the last task; that line is blocked by
a clause "one of plays 1..L differs (card or pile)", which also blocks every model that
merely continues it, and the model is solved again, until `limit` lines are found or the
model is infeasible (the search is then complete). Back-ends: PySAT/CaDiCaL and CP-SAT
(one worker); the rating's effort is CaDiCaL's conflicts of the search (independent of
the machine's load), so a puzzle's rating is the same with either back-end.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from dataclasses import dataclass
from typing import Any

from models.tippi_toppi.encode import PlanProblem, plan_problem
from models.tippi_toppi.positions import format_play, parse_play
from models.tippi_toppi.rules import Card, Rules, check_comparisons
from models.tippi_toppi.state import GameState, Play
from models.tippi_toppi.tasks import PLACEHOLDER, Task
from solver.backends.common import SolverOptions
from solver.errors import BadInput
from solver.generate import Rating, Search, as_features, rating_work
from solver.io import expect
from solver.io import field as json_field
from solver.store import smallest_form

BACKENDS = ("sat", "cpsat")
MAX_WITHIN = 8
MAX_TASKS = 4
REFINE = 30  # other lines looked at when the next task is chosen
STACK_ON_LAST = 0.9  # share of a proposed line's plays laid on the pile played last
# plays K per difficulty where proposals start (the rating decides)
WITHIN = {"easy": (1, 2), "medium": (3, 4), "hard": (4, 6)}
# difficulty = 2 x plays + plausible first plays / 2 + conflicts / 200; easy below 6
# (one play, or two with few tempting first plays), hard from 10 (five plays, or four
# with several tempting first plays or much search); thresholds from the features of
# 120 proposals (50 unique), docs/puzzles.md
RATING = Rating({"plays": 2.0, "plausible_first": 0.5, "hundred_conflicts": 0.5},
                medium=6.0, hard=10.0)

Solution = tuple[tuple[Card, int], ...]  # (card, pile 0-based) per play


@dataclass(frozen=True)
class Puzzle:
    """The top cards of the four piles, the hand, the draw pile (top first), the open
    tasks and the number of plays K allowed."""

    tops: tuple[Card, ...]
    hand: tuple[Card, ...]
    draw: tuple[Card, ...]
    tasks: tuple[Task, ...]
    within: int
    comparisons: str | None = None  # the reading it is posed under; None: the rules'

    def state(self, rules: Rules) -> GameState:
        """The solo game the puzzle poses (no task pile), under its reading."""
        rules = rules.with_comparisons(self.comparisons)
        return GameState(rules, [[c] for c in self.tops], [list(self.hand)], 0,
                         list(self.tasks), [], list(self.draw), len(self.draw))


def solution_text(rules: Rules, solution: Solution) -> str:
    return " ".join(f"{rules.card_name(c)}>{p + 1}" for c, p in solution)


def replay(rules: Rules, puzzle: Puzzle, moves: list[tuple[Card, int]] | Solution
           ) -> Solution | None:
    """The rules engine's verdict on a line of plays: the line cut after the play that
    fulfils the last task (a solution), or None when it does not fulfil every task.
    Raises BadInput when a play is illegal."""
    s = puzzle.state(rules)
    for k, (card, pile) in enumerate(moves, 1):
        s = s.apply_action(Play(0, card, pile))
        if s.is_won():
            return tuple(moves[:k])
    return None


def task_pool(rules: Rules) -> list[Task]:
    """The tasks a proposal may pose: the catalogue, then precise counts and sums
    written in the task language ("the sum of the green piles is 9", "exactly 2 piles
    showing 4", "exactly 1 orange pile"), which single out fewer lines of play."""
    out = [c.task for c in rules.catalogue]
    texts = []
    top = max(rules.numbers)
    for colour in rules.colours:
        texts += [f"the sum of the {colour.name} piles is {s}"
                  for s in range(1, rules.piles * top + 1)]
        texts += [f"exactly {n} {colour.name} piles" for n in range(1, rules.piles + 1)]
    texts += [f"the sum of all piles is {s}" for s in range(rules.piles, rules.piles * top + 1)]
    texts += [f"exactly {n} piles showing {v}" for n in range(1, rules.piles)
              for v in rules.numbers]
    for text in texts:
        task = rules.parse_task(text)
        if task not in out:
            out.append(task)
    return out


# --------------------------------------------------------------------------- search

@dataclass
class _Found:
    solutions: list[Solution]
    complete: bool
    effort: int  # CaDiCaL conflicts (SAT) or CP-SAT branches


class TippiToppiPuzzles:
    """The PuzzleKind of Tippi Toppi for solver.generate."""

    rating = RATING

    def __init__(self, rules: Rules, backend: str = "sat", time_limit: float = 20.0) -> None:
        if backend not in BACKENDS:
            raise BadInput(f"unknown backend '{backend}' ({', '.join(BACKENDS)})")
        self.rules = rules
        self.backend = backend
        self.time_limit = time_limit
        self.pool = task_pool(rules)

    def rules_of(self, puzzle: Puzzle) -> Rules:
        """The rules a puzzle is judged by: the kind's, under the puzzle's reading."""
        return self.rules.with_comparisons(puzzle.comparisons)

    def options(self) -> SolverOptions:
        # one worker: the solutions and the branch count do not depend on the load
        return SolverOptions(time_limit=self.time_limit, workers=1)

    def problem(self, puzzle: Puzzle) -> PlanProblem:
        state = puzzle.state(self.rules)
        return plan_problem(state, list(puzzle.tasks), puzzle.within, "known",
                            len(puzzle.tasks))

    def search(self, puzzle: Puzzle, limit: int) -> Search[Solution]:
        """Up to `limit` solutions, each later one found with the earlier ones blocked;
        complete when the model ended infeasible."""
        start = time.perf_counter()
        found = self._search(puzzle, limit, self.backend)
        return Search(found.solutions, found.complete, round(time.perf_counter() - start, 3),
                      work=found.effort)

    def _search(self, puzzle: Puzzle, limit: int, backend: str) -> _Found:
        from models.tippi_toppi.encode_logic import block_line, decode_moves, encode_plan
        from solver.backends.sat import CnfBuilder
        from solver.logic import CnfLogic, CpLogic, enumerate_solutions

        problem = self.problem(puzzle)
        logic = CnfLogic(CnfBuilder()) if backend == "sat" else CpLogic()
        plan = encode_plan(logic, problem, self.rules_of(puzzle))
        for s in plan.switches:
            logic.clause([s])
        found = enumerate_solutions(
            logic, lambda value: self._cut(puzzle, decode_moves(value, plan, problem)),
            lambda line: block_line(logic, plan, problem, line), limit, self.options())
        return _Found(found.solutions, found.complete, found.work)

    def _cut(self, puzzle: Puzzle, moves: list[tuple[Card, int]]) -> Solution:
        """The model's plays re-played by the engine, cut after the winning play."""
        try:
            line = replay(self.rules_of(puzzle), puzzle, moves)
        except BadInput as exc:  # an illegal play in a model is a bug, not bad input
            raise RuntimeError(f"a model's play is illegal (encoding bug): {exc}") from None
        if line is None:
            raise RuntimeError("a model's plays do not fulfil every task (encoding bug)")
        return line

    # ---- features and rating
    def features(self, puzzle: Puzzle, solution: Solution, search: Search[Solution]
                 ) -> dict[str, float]:
        """Plays of the solution; plausible first plays (legal first plays after which
        every task left can still be fulfilled on its own in the remaining plays);
        CaDiCaL conflicts of the search (two solutions asked), in hundreds."""
        return as_features(plays=len(solution),
                           plausible_first=self.plausible_first(puzzle),
                           hundred_conflicts=rating_work(
                               search, self.backend == "sat",
                               lambda: self._search(puzzle, 2, "sat").effort) / 100)

    def plausible_first(self, puzzle: Puzzle) -> int:
        """How many first plays keep every task achievable on its own (a relaxation: a
        solver is tempted by each of them)."""
        from models.tippi_toppi.encode_logic import encode_plan
        from solver.backends.sat import CnfBuilder, IncrementalSat
        from solver.logic import CnfLogic

        state = puzzle.state(self.rules)
        firsts = sorted({(p.card, p.pile) for p in state.legal_plays()})
        count = 0
        for card, pile in firsts:
            after = state.apply_action(Play(0, card, pile))
            left = list(after.open_tasks)
            if not left:
                count += 1
                continue
            if puzzle.within <= 1:
                continue
            problem = plan_problem(after, left, puzzle.within - 1, "known", len(left))
            logic = CnfLogic(CnfBuilder())
            plan = encode_plan(logic, problem, self.rules_of(puzzle))
            with IncrementalSat(logic.b) as sat:
                if all(sat.solve([s]) is not None for s in plan.switches):
                    count += 1
        return count

    # ---- proposals
    def propose(self, rng: random.Random, difficulty: str) -> Puzzle:
        """Random piles, hand and draw pile, a random line of K plays from them, and
        tasks of the catalogue that this line fulfils (none holding now), added one by
        one (each one false along the most of the other solutions found so far) until
        the line is the only solution or four tasks are set."""
        lo, hi = WITHIN[difficulty]
        k = rng.randint(lo, hi)
        while True:  # a dead end deals again from the same rng
            dealt = self._deal(rng, k)
            if dealt is not None:
                puzzle = self._refine(rng, k, *dealt)
                if puzzle is not None:
                    return puzzle

    def _deal(self, rng: random.Random, k: int
              ) -> tuple[Puzzle, list[tuple[Card, int]], list[tuple[Card, ...]]] | None:
        r = self.rules
        deck = list(r.deck)
        rng.shuffle(deck)
        tops = tuple(deck.pop() for _ in range(r.piles))
        hand = tuple(deck.pop() for _ in range(r.hand_size))
        draw = tuple(deck.pop() for _ in range(max(0, k - 3)))
        bare = Puzzle(tops, hand, draw, (), k)
        # a placeholder keeps the engine from calling the game won
        s = bare.state(r).but(open_tasks=[PLACEHOLDER])
        line: list[tuple[Card, int]] = []
        seen = []
        for _ in range(k):
            options = sorted({(p.card, p.pile) for p in s.legal_plays()})
            if not options:
                return None
            if line and rng.random() < STACK_ON_LAST:  # on the last pile: order counts
                options = [o for o in options if o[1] == line[-1][1]] or options
            card, pile = rng.choice(options)
            s = s.apply_action(Play(0, card, pile))
            line.append((card, pile))
            seen.append(s.tops)
        return bare, line, seen

    def _refine(self, rng: random.Random, k: int, bare: Puzzle,
                line: list[tuple[Card, int]], seen: list[tuple[Card, ...]]) -> Puzzle | None:
        r = self.rules
        start = bare.tops

        def first_hold(task: Task, tops_seq: list[tuple[Card, ...]]) -> int | None:
            for t, tops in enumerate(tops_seq, 1):
                if task.holds(tops, r):
                    return t
            return None

        pool = [t for t in self.pool if not t.holds(start, r)]
        fulfilled = [(task, first_hold(task, seen)) for task in pool]
        useful = [(task, t) for task, t in fulfilled if t is not None]
        last = [task for task, t in useful if t == k]
        if not last:  # nothing first holds at play K: a dead end, deal again
            return None
        tasks = [rng.choice(last)]
        while len(tasks) < MAX_TASKS:
            puzzle = Puzzle(bare.tops, bare.hand, bare.draw, tuple(tasks), k)
            others = [s for s in self._search(puzzle, REFINE, "sat").solutions
                      if s != tuple(line)]
            if not others:
                return puzzle
            candidates = [task for task, _ in useful if task not in tasks]
            if not candidates:
                return puzzle
            scores = []
            for task in candidates:
                killed = sum(1 for o in others
                             if first_hold(task, self._tops_along(bare, o)) is None)
                scores.append(killed)
            best = max(scores)
            if best == 0:
                return puzzle
            tasks.append(rng.choice([t for t, s in zip(candidates, scores, strict=True)
                                     if s == best]))
        return Puzzle(bare.tops, bare.hand, bare.draw, tuple(tasks), k)

    def _tops_along(self, bare: Puzzle, moves: Solution) -> list[tuple[Card, ...]]:
        tops = list(bare.tops)
        out = []
        for card, pile in moves:
            tops[pile] = card
            out.append(tuple(tops))
        return out


# --------------------------------------------------------------------------- files

def puzzle_to_dict(rules: Rules, puzzle: Puzzle, solution: Solution | None = None,
                   rating: dict[str, Any] | None = None) -> dict[str, Any]:
    """The puzzle file: top cards, hand, draw pile (top first), tasks, K, the reading of
    sums and comparisons it is posed under, and optionally the solution and the
    rating."""
    data: dict[str, Any] = {
        "game": "tippi-toppi",
        "puzzle": "plays",
        "piles": [rules.card_name(c) for c in puzzle.tops],
        "hand": [rules.card_name(c) for c in puzzle.hand],
        "draw_pile": [rules.card_name(c) for c in puzzle.draw],
        "tasks": [t.text(rules) for t in puzzle.tasks],
        "within": puzzle.within,
        "comparisons": puzzle.comparisons or rules.comparisons,
    }
    if solution is not None:
        data["solution"] = solution_text(rules, solution).split()
    if rating is not None:
        data["rating"] = rating
    return data


def puzzle_from_dict(rules: Rules, data: Any, where: str) -> tuple[Puzzle, Any]:
    """A puzzle and its stated solution (the raw list, or None), checked with one-line
    errors; judged under the file's reading of comparisons, if it records one."""
    expect(data, dict, where)
    if data.get("game", "tippi-toppi") != "tippi-toppi":
        raise BadInput(f"{where}: a puzzle of '{data.get('game')}', not of tippi-toppi")
    if data.get("puzzle", "plays") != "plays":
        raise BadInput(f"{where}: unknown kind of puzzle '{data.get('puzzle')}' (plays)")
    piles = json_field(data, "piles", list, where)
    if len(piles) != rules.piles:
        raise BadInput(f"{where}: {rules.piles} piles expected (their top cards), got "
                       f"{len(piles)}")
    comparisons = None
    if "comparisons" in data:
        comparisons = check_comparisons(data["comparisons"], f"{where}: comparisons")
        rules = rules.with_comparisons(comparisons)
    tops = tuple(rules.parse_card(c, f"{where}: piles[{i + 1}]") for i, c in enumerate(piles))
    hand_raw = json_field(data, "hand", list, where)
    if not 1 <= len(hand_raw) <= rules.hand_size:
        raise BadInput(f"{where}: a hand holds 1-{rules.hand_size} cards, got {len(hand_raw)}")
    hand = tuple(rules.parse_card(c, f"{where}: hand[{i + 1}]") for i, c in enumerate(hand_raw))
    draw = tuple(rules.parse_card(c, f"{where}: draw_pile[{i + 1}]")
                 for i, c in enumerate(json_field(data, "draw_pile", list, where, [])))
    counts: dict[Card, int] = {}
    for c in tops + hand + draw:
        counts[c] = counts.get(c, 0) + 1
    for c in sorted(counts):
        if counts[c] > rules.copies:
            raise BadInput(f"{where}: {rules.card_name(c)} appears {counts[c]} times, the "
                           f"deck has {rules.copies}")
    tasks_raw = json_field(data, "tasks", list, where)
    if not 1 <= len(tasks_raw) <= rules.open_tasks:
        raise BadInput(f"{where}: 1-{rules.open_tasks} open tasks expected, got "
                       f"{len(tasks_raw)}")
    tasks = tuple(rules.parse_task(t, f"{where}: tasks[{i + 1}]")
                  for i, t in enumerate(tasks_raw))
    for i, t in enumerate(tasks):
        if t.holds(tops, rules):
            raise BadInput(f"{where}: tasks[{i + 1}] '{t.text(rules)}' already holds on "
                           "these piles")
        if t in tasks[:i]:
            raise BadInput(f"{where}: tasks[{i + 1}] '{t.text(rules)}' is given twice")
    within = json_field(data, "within", int, where)
    if not 1 <= within <= MAX_WITHIN:
        raise BadInput(f"{where}: within must be 1-{MAX_WITHIN} plays, got {within}")
    return Puzzle(tops, hand, draw, tasks, within, comparisons), data.get("solution")


def parse_solution(rules: Rules, puzzle: Puzzle, items: Any, where: str) -> Solution:
    """A solution `["G3>2", ...]`, checked by the engine: legal plays, at most K, winning
    exactly at the last play."""
    expect(items, list, where)
    rules = rules.with_comparisons(puzzle.comparisons)
    state = puzzle.state(rules)
    moves = []
    for i, item in enumerate(items):
        play = parse_play(state, expect(item, str, f"{where}[{i + 1}]"), f"{where}[{i + 1}]")
        moves.append((play.card, play.pile))
    if not 1 <= len(moves) <= puzzle.within:
        raise BadInput(f"{where}: 1-{puzzle.within} plays expected, got {len(moves)}")
    try:
        line = replay(rules, puzzle, moves)
    except BadInput as exc:
        raise BadInput(f"{where}: {exc}") from None
    if line is None:
        raise BadInput(f"{where}: the plays do not fulfil every task")
    if len(line) != len(moves):
        raise BadInput(f"{where}: every task is fulfilled after play {len(line)}; "
                       "nothing is played after the win")
    return line


# --------------------------------------------------------------------------- commands

def _make_kind(rules_path: str | None, backend: str, time_limit: float,
               comparisons: str | None = None) -> TippiToppiPuzzles:
    from models.tippi_toppi.rules import load_rules
    return TippiToppiPuzzles(load_rules(rules_path, comparisons), backend, time_limit)


def _read(kind: TippiToppiPuzzles, data: Any, where: str) -> tuple[Puzzle, Solution | None]:
    puzzle, stated = puzzle_from_dict(kind.rules, data, where)
    if stated is None:
        return puzzle, None
    return puzzle, parse_solution(kind.rules, puzzle, stated, f"{where}: solution")


def _write(kind: TippiToppiPuzzles, puzzle: Puzzle, solution: Solution | None,
           rating: dict[str, Any] | None) -> dict[str, Any]:
    return puzzle_to_dict(kind.rules, puzzle, solution, rating)


def _solution_text(kind: TippiToppiPuzzles, puzzle: Puzzle, solution: Solution) -> str:
    return f"{solution_text(kind.rules, solution)} ({len(solution)} of {puzzle.within} plays)"


def _draw_text(rules: Rules, puzzle: Puzzle) -> str:
    if not puzzle.draw:
        return "no draw pile"
    return "draw pile (top first): " + " ".join(rules.card_name(c) for c in puzzle.draw)


def _picture(kind: TippiToppiPuzzles, puzzle: Puzzle, solution: Solution,
             reveal: bool) -> Any:
    from models.tippi_toppi.render import table_svg
    r = kind.rules
    if reveal:
        title = "solution: " + solution_text(r, solution)
    else:
        title = f"within {puzzle.within} plays; {_draw_text(r, puzzle)}"
    return table_svg(puzzle.state(r), title=title)


def _terminal(kind: TippiToppiPuzzles, puzzle: Puzzle, solution: Solution,
              reveal: bool) -> Any:
    from rich.console import Group
    from rich.text import Text

    from models.tippi_toppi.render import table_text
    r = kind.rules
    lines: list[Any] = [table_text(puzzle.state(r)), Text(_draw_text(r, puzzle))]
    if reveal:
        lines.append(Text("plays: " + solution_text(r, solution)))
    else:
        lines.append(Text(f"fulfil every task within {puzzle.within} plays"))
    return Group(*lines)


def pile_symmetries(rules: Rules) -> list[tuple[int, ...]]:
    """The rearrangements of the piles that keep which piles are neighbours (the rules'
    `adjacent`; in a row: as is and reversed). Identity first."""
    n = rules.piles
    out = []
    for perm in itertools.permutations(range(n)):
        if {(perm[i], perm[j]) for i, j in rules.neighbours} == set(rules.neighbours):
            out.append(perm)
    return out


def mapped_puzzle(puzzle: Puzzle, perm: tuple[int, ...]) -> Puzzle:
    """The same puzzle with pile i moved to place perm[i] (its tasks must not read the
    piles' order: `Task.reads_order`)."""
    tops = [puzzle.tops[0]] * len(puzzle.tops)
    for i, card in enumerate(puzzle.tops):
        tops[perm[i]] = card
    return dataclasses.replace(puzzle, tops=tuple(tops))


def canonical_puzzle(kind: Any, puzzle: Puzzle) -> str:
    """The puzzle's canonical form for the store's de-duplication: the smallest JSON of
    (piles, hand as a multiset, draw pile in order, tasks as a set, K) over the pile
    rearrangements that keep neighbours (`pile_symmetries`), unless a task reads the
    left-to-right order."""
    rules = kind.rules
    perms = pile_symmetries(rules)
    if any(t.reads_order for t in puzzle.tasks):
        perms = perms[:1]
    return smallest_form((puzzle_to_dict(rules, mapped_puzzle(puzzle, perm)) for perm in perms),
                         unordered=("hand", "tasks"))


class PuzzleSteps:
    """A puzzle solved play by play on the web page (solver.puzzles.PuzzleSteps): each
    play judged by the rules engine, the next card of the draw pile drawn after it."""

    open = False  # a step is one play: never half made

    def __init__(self, kind: TippiToppiPuzzles, puzzle: Puzzle, solution: Solution) -> None:
        self.rules = kind.rules.with_comparisons(puzzle.comparisons)
        self.puzzle = puzzle
        self.state = puzzle.state(self.rules)
        self.plays: list[str] = []

    def step(self, step: Any) -> None:
        r, s = self.rules, self.state
        if s.is_won():
            raise BadInput("every task is fulfilled already: nothing is played after the win")
        if len(self.plays) == self.puzzle.within:
            raise BadInput(f"the puzzle allows {self.puzzle.within} "
                           f"play{'s' if self.puzzle.within != 1 else ''}, no more")
        if not isinstance(step, str):
            raise BadInput("a play is written CARD>PILE, e.g. G3>2")
        play = parse_play(s, step, "play")
        if play.card not in s.hands[0]:
            raise BadInput(f"{r.card_name(play.card)} is not in the hand")
        self.state = s.apply_action(Play(0, play.card, play.pile))
        self.plays.append(format_play(r, play))

    def picture(self) -> Any:
        from models.tippi_toppi.render import table_svg

        done = " ".join(self.plays)
        title = (f"within {self.puzzle.within} plays: {done}" if done else
                 f"within {self.puzzle.within} plays; {_draw_text(self.rules, self.puzzle)}")
        return table_svg(self.state, title=title)

    def prompt(self) -> str:
        if self.state.is_won():
            return "Every task is fulfilled: check your answer."
        left = self.puzzle.within - len(self.plays)
        if not left:
            return "No play left and a task still open: undo a play."
        return (f"Play a card from the hand onto a pile ({left} play{'s' if left != 1 else ''} "
                "left).")


def puzzle_game() -> Any:
    """The shared puzzle commands' description of Tippi Toppi puzzles."""
    from solver.puzzles import PuzzleGame
    return PuzzleGame("tippi-toppi", BACKENDS, _make_kind, _read, _write, _solution_text,
                      _picture, _terminal, canonical=canonical_puzzle, knowledge=_knowledge,
                      stepper=PuzzleSteps)


def _knowledge(kind: Any, puzzle: Puzzle) -> dict[str, Any]:
    """What solving a puzzle knows: the draw pile in order besides the table and the
    hand (at the table it lies face down: a puzzle is all-seeing by nature)."""
    return {"knows": ["the top cards of the piles", "the hand", "the draw pile in order",
                      "the open tasks", "the number of plays"], "unknown": [],
            "all_seeing": True}
