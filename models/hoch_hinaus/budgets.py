"""The work the searching verbs do by default, in deterministic units (SAT conflicts,
search positions, sampled games), never in seconds: with these an answer is a function
of the position, the options and the seed, on an idle machine as on a busy one; a time
limit only caps the work (and the answer says so). Light to import: the verbs'
declarations name these defaults."""

from __future__ import annotations

#: SAT conflicts per check of the hint's look-ahead (a hint must stay fast), and the
#: candidates it checks (those of the `hint` policy measured in simulate; about the time
#: the time-limited look-ahead took before)
HINT_CONFLICTS = 4000
HINT_TOP = 4

#: `achievable`: SAT conflicts in all (PySAT: the model, then the deletion checks of the
#: core), or CP-SAT's deterministic seconds in all (one worker)
ACHIEVABLE_CONFLICTS = 300_000
ACHIEVABLE_WORK = 40.0

#: `reachable` with everything known: positions the searches may visit (rollout turns and
#: depth-first positions, shared out by `reachable.search_plan`), the conflicts of the
#: SAT model of the rest of the game, and of the search's SAT check near the end
REACHABLE_NODES = 4000
REACHABLE_CONFLICTS = 300_000
PLAN_CONFLICTS = 20_000
#: `reachable` from a player's view: sampled games (each decision's work counted too)
REACHABLE_SAMPLES = 16
