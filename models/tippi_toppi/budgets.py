"""The work Tippi Toppi's searching verbs do by default, in deterministic units (sampled
deals, search positions, SAT conflicts, CP-SAT's deterministic seconds), never in
seconds: with these an answer is a function of the position, the options and the seed,
on an idle machine as on a busy one; `--time-limit` only caps the work (and the answer
says so). Light to import: the verbs' declarations name these defaults. The figures
behind each default are in docs/tippi-toppi.md and docs/notes/tippi-toppi.md."""

from __future__ import annotations

#: `reachable` from a player's view: deals of the hidden cards played out
REACHABLE_SAMPLES = 200
#: `reachable` with everything known: positions the searches may make (rollout plays,
#: the beam's children, the depth-first search's positions)
REACHABLE_NODES = 100_000
#: ... and the conflicts of the SAT model of the rest of the game (a short rest)
REACHABLE_CONFLICTS = 40_000

#: `achievable`: SAT conflicts in all (the model, then the deletion checks of the core)
ACHIEVABLE_CONFLICTS = 300_000
#: `achievable --backend cpsat`: CP-SAT's deterministic seconds in all (one worker)
ACHIEVABLE_WORK = 40.0
