"""Options and outcomes common to every back-end."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SolverOptions:
    """How long and how a solver may run.

    time_limit: seconds, or None for no limit.
    seed: random seed, so runs are reproducible.
    workers: parallel workers (CP-SAT); ignored by single-threaded back-ends.
    log: print the solver's own log on stderr.
    deterministic_time: CP-SAT's load-independent work limit (its "deterministic
    seconds"); with one worker the result then does not depend on the machine's load,
    which reproducible simulations need.
    """

    time_limit: float | None = None
    seed: int = 0
    workers: int = 2
    log: bool = False
    deterministic_time: float | None = None


@dataclass
class SolveOutcome:
    """What a solve proved, honestly.

    status: "optimal" (value proven), "feasible" (best found; `bound` limits the
    optimum), "infeasible" (proven no solution) or "unknown" (nothing found in time).
    """

    status: str
    objective: int | None
    bound: int | None
    wall_time: float
    backend: str

    @property
    def has_solution(self) -> bool:
        return self.status in ("optimal", "feasible")

    @property
    def proven(self) -> bool:
        return self.status in ("optimal", "infeasible")
