"""One generator loop for the puzzles of every game (the way cspuz serves all its puzzle
types): propose a position, ask the solver for a solution, ask again for a second one,
keep the puzzle only when its solution is unique, and rate it from measured features.

A game supplies a `PuzzleKind`; this module owns the loop, the uniqueness verdict and
the rating, so every game's `generate`, `solve` and `check-unique` behave alike.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from solver.deadline import NO_DEADLINE, Deadline
from solver.errors import BadInput
from solver.executor import Batch, SharedTasks
from solver.puzzles import DIFFICULTIES, Verdict

P = TypeVar("P")  # a puzzle (position + what is asked)
S = TypeVar("S")  # a solution


#: The verdict of check-unique: "several" shows two solutions; "unknown" when the search
#: ran out of time before deciding.

#: What one generator attempt gave (only "found" keeps a puzzle).
Outcome = Literal["found", "not_unique", "undecided", "no_solution", "wrong_difficulty"]


@dataclass(frozen=True)
class Search(Generic[S]):
    """What a solver found for a puzzle: up to `limit` distinct solutions and whether
    the search was complete (no further solution exists beyond those listed)."""

    solutions: list[S]
    complete: bool
    effort: float  # seconds of solver time (depends on the machine and its load)
    work: float = 0.0  # the solver's own count (branches, conflicts): a rating feature


@dataclass(frozen=True)
class Uniqueness(Generic[S]):
    """The verdict of check-unique (see Verdict) and the solutions found (two at most)."""

    status: Verdict
    solutions: list[S]
    effort: float


class PuzzleKind(Protocol[P, S]):
    """What a game provides to the generator loop.

    propose: a candidate puzzle for a difficulty from the seeded generator.
    search: up to `limit` distinct solutions of a puzzle (the second one found by
        blocking the first), with a completeness flag.
    features: measured numbers of a puzzle and its solution (solution length, plausible
        first moves, solver effort, ...), from which `rating` rates it.
    rating: the feature weights and the thresholds between easy, medium and hard.
    any_difficulty (optional, default False): True when the proposals are shaped by the
        author (e.g. a plan's length, `--moves K`) rather than by the difficulty: a unique puzzle
        is then kept whatever its rating and labelled with the difficulty asked (its
        score is still measured and written).
    """

    rating: Rating

    def propose(self, rng: random.Random, difficulty: str) -> P: ...

    def search(self, puzzle: P, limit: int) -> Search[S]: ...

    def features(self, puzzle: P, solution: S, search: Search[S]) -> dict[str, float]: ...


@dataclass(frozen=True)
class Rating:
    """Difficulty = sum of weight * feature; below `medium` easy, below `hard` medium,
    else hard. Weights and thresholds are per game (and documented with it)."""

    weights: Mapping[str, float]
    medium: float
    hard: float

    def score(self, features: Mapping[str, float]) -> float:
        missing = [k for k in self.weights if k not in features]
        if missing:
            raise ValueError(f"features missing for the rating: {', '.join(missing)}")
        return round(sum(w * features[k] for k, w in self.weights.items()), 3)

    def difficulty(self, score: float) -> str:
        return "easy" if score < self.medium else "medium" if score < self.hard else "hard"


@dataclass
class Generated(Generic[P, S]):
    """A puzzle with its unique solution, its features, rating score and difficulty."""

    puzzle: P
    solution: S
    difficulty: str
    score: float
    features: dict[str, float]
    seed: int
    attempt: int
    attempts_used: int


@dataclass
class GenerationReport(Generic[P, S]):
    """Puzzles found and what the loop did to find them."""

    puzzles: list[Generated[P, S]] = field(default_factory=list)
    attempts: int = 0
    not_unique: int = 0
    no_solution: int = 0
    undecided: int = 0
    wrong_difficulty: int = 0
    duplicates: int = 0  # found, but a store held them already
    seconds: float = 0.0


def check_unique(kind: PuzzleKind[P, S], puzzle: P) -> Uniqueness[S]:
    """unique / several (two solutions shown) / none / unknown (search incomplete)."""
    found = kind.search(puzzle, 2)
    if len(found.solutions) >= 2:
        return Uniqueness("several", found.solutions[:2], found.effort)
    if not found.complete:
        return Uniqueness("unknown", found.solutions, found.effort)
    return Uniqueness("unique" if found.solutions else "none", found.solutions, found.effort)


def attempt_seed(seed: int, attempt: int) -> int:
    """Every attempt carries its own seed, so a run replays (and splits across workers)
    identically."""
    return random.Random(f"{seed}/{attempt}").randrange(2 ** 62)


@dataclass
class Attempt(Generic[P, S]):
    """What one generator attempt gave; puzzle, solution and rating only when found."""

    attempt: int
    outcome: Outcome
    puzzle: P | None = None
    solution: S | None = None
    score: float = 0.0
    features: dict[str, float] = field(default_factory=dict)


def try_attempt(kind: PuzzleKind[P, S], difficulty: str, seed: int, attempt: int
                ) -> Attempt[P, S]:
    """Attempt number `attempt` of a run with `seed`, alone: propose from
    random.Random(attempt_seed(seed, attempt)), search for two solutions, keep the
    puzzle when the search is complete with exactly one and its rating matches."""
    puzzle = kind.propose(random.Random(attempt_seed(seed, attempt)), difficulty)
    found = kind.search(puzzle, 2)
    if len(found.solutions) >= 2:
        return Attempt(attempt, "not_unique")
    if not found.complete:
        return Attempt(attempt, "undecided")
    if not found.solutions:
        return Attempt(attempt, "no_solution")
    solution = found.solutions[0]
    features = kind.features(puzzle, solution, found)
    score = kind.rating.score(features)
    if not getattr(kind, "any_difficulty", False) and kind.rating.difficulty(score) != difficulty:
        return Attempt(attempt, "wrong_difficulty")
    return Attempt(attempt, "found", puzzle, solution, score, features)


def generate(kind: PuzzleKind[P, S], difficulty: str, count: int, seed: int = 0,
             max_attempts: int | None = None,
             progress: Callable[[int, int], None] | None = None,
             deadline: Deadline = NO_DEADLINE, *, batch: Batch | None = None,
             task: tuple[Callable[..., Attempt[P, S]], tuple[Any, ...]] | None = None,
             keep: Callable[[Attempt[P, S]], bool] | None = None,
             resumed: Sequence[Generated[P, S]] = ()) -> GenerationReport[P, S]:
    """Propose puzzles until `count` unique ones of `difficulty` are found.

    Attempt i proposes from random.Random(attempt_seed(seed, i)); a puzzle is kept when
    its search is complete with exactly one solution and its rating matches. Stops after
    `max_attempts` (default 200 per wanted puzzle) or at `deadline`.

    The attempts are tasks of `batch` (default: in this process); their outcomes are
    taken in attempt order and the loop stops at the same attempt whichever executor
    ran them, so a seed gives the same puzzles everywhere.
    task: `(function, leading)`: attempt a is `function(*leading, difficulty, seed, a)`
        in a worker (default `try_attempt` on `kind`, which then never leaves this
        process); for a pool or a cluster, a function that builds the kind there.
    keep: asked for each puzzle found, in attempt order; False drops it as a duplicate
        (counted in `duplicates`).
    resumed: puzzles an earlier run with the same parameters found (from a store): they
        count towards `count`, and the attempts go on after the last of them.
    """
    if difficulty not in DIFFICULTIES:
        raise BadInput(f"unknown difficulty '{difficulty}' ({', '.join(DIFFICULTIES)})")
    if count < 1:
        raise BadInput("--count must be at least 1")
    limit = max_attempts if max_attempts is not None else 200 * count
    batch = batch if batch is not None else Batch(1)
    batch.deadline = deadline
    batch.progress = False  # the caller's bar counts puzzles found, not attempts
    function, leading = task if task is not None else (try_attempt, (kind,))
    report: GenerationReport[P, S] = GenerationReport(list(resumed[:count]))
    start = time.monotonic()
    first = report.puzzles[-1].attempt + 1 if report.puzzles else 0
    attempts = range(first, max(first, limit))
    waiting: dict[int, Attempt[P, S]] = {}
    next_attempt, since_last = first, 0
    if progress is not None:
        progress(len(report.puzzles), count)
    done = len(report.puzzles) >= count or deadline.passed()
    try:
        results = () if done else batch.run(
            function, SharedTasks((*leading, difficulty, seed), attempts), attempts,
            window=max(2, 2 * batch.jobs))
        for a, outcome in results:
            waiting[a] = outcome
            while next_attempt in waiting and len(report.puzzles) < count:
                got = waiting.pop(next_attempt)
                next_attempt += 1
                since_last += 1
                if got.outcome != "found":
                    setattr(report, got.outcome, getattr(report, got.outcome) + 1)
                    continue
                if keep is not None and not keep(got):
                    report.duplicates += 1
                    continue
                report.puzzles.append(Generated(got.puzzle, got.solution, difficulty,
                                                got.score, got.features, seed, got.attempt,
                                                since_last))
                since_last = 0
                if progress is not None:
                    progress(len(report.puzzles), count)
            if len(report.puzzles) >= count or deadline.passed():
                break
    except KeyboardInterrupt:
        batch.interrupted = True
    report.attempts = next_attempt
    report.seconds = round(time.monotonic() - start, 3)
    return report


def rating_work(search: Search[Any], same_backend: bool, redo: Callable[[], float]
                ) -> float:
    """The solver work a rating counts: that of a complete search for two solutions on
    the rating's own back-end (e.g. CaDiCaL conflicts, load-independent). The generator
    loop hands `features` such a search: its `work` is used when it ran on that back-end
    (`same_backend`) and was complete (a search cut at its limit counts less work);
    otherwise `redo()` runs one."""
    return search.work if same_backend and search.complete else redo()


def plausible(values: Sequence[float], best: float, within: float) -> int:
    """How many first moves are 'plausible': valued within `within` of the best (a
    rating feature that counts how many ways a solver is tempted at the start)."""
    return sum(1 for v in values if best - v <= within)


def as_features(**values: Any) -> dict[str, float]:
    """Feature dictionary with float values (booleans and ints converted)."""
    return {k: float(v) for k, v in values.items()}
