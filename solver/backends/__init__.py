"""Solver back-ends shared by every game: CP-SAT and PySAT (SAT / MaxSAT)."""

from solver.backends.common import SolveOutcome, SolverOptions

__all__ = ["SolveOutcome", "SolverOptions"]
