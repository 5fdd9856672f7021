"""Hoch Hinaus!'s own verbs, declared once (solver/verbs.py): `achievable`, `hint`,
`reachable`, and its puzzles. The shared verbs (show, moves, simulate, play) come from
the game's description (game.py); the verbs' functions are in answers.py, their
pictures in render.py. Declaring them imports no solver.
"""

from __future__ import annotations

from models.hoch_hinaus.achievable import BACKENDS, TILE_MODES
from models.hoch_hinaus.budgets import (
    ACHIEVABLE_CONFLICTS,
    ACHIEVABLE_WORK,
    HINT_CONFLICTS,
    HINT_TOP,
    REACHABLE_CONFLICTS,
    REACHABLE_NODES,
    REACHABLE_SAMPLES,
)
from models.hoch_hinaus.game import GAME
from solver.params import (
    OPEN_HANDS,
    Param,
    choice_param,
    conflicts_param,
    int_param,
    nodes_param,
    seconds_param,
    seed_param,
    work_param,
)
from solver.puzzles import PuzzleGame
from solver.verbs import Solving, Verb

VERBS = (
    Verb("achievable", "Can the tasks be fulfilled within K placements? Yes with a witness "
         "line, or no with proof and the smallest set of tasks that block each other.",
         "models.hoch_hinaus.answers:achievable",
         params=(Param("task_texts", "text", (), 'A task text or catalogue id, e.g. '
                       '"Exactly FIVE GREEN"; repeatable. Default: all open tasks of FILE '
                       'together.', flags=("--task",), multiple=True),
                 int_param("k", 3, 1, 12, "Placements (turns) allowed.", flags=("--within",)),
                 choice_param("mode", TILE_MODES, "hand", "hand: the hands as they are; "
                              "known: plus the draws from the reserve in its known order; "
                              "any: any tile not on the board.", flags=("--tiles",)),
                 choice_param("backend", BACKENDS, "sat",
                              "PySAT (Glucose, incremental) or CP-SAT (one worker)."),
                 conflicts_param(ACHIEVABLE_CONFLICTS, "PySAT: conflicts "
                           "the SAT solver may use in all (its work: the answer is the "
                           "same on any machine)."),
                 work_param(ACHIEVABLE_WORK, "CP-SAT: deterministic seconds "
                       "the solves may use in all (its load-independent work unit).")),
         answer="models.hoch_hinaus.answers:AchievableAnswer",
         show="models.hoch_hinaus.render:show_achievable",
         solving=Solving(60.0, workers=False),
         web="pool"),
    Verb("hint", "The best placement for the player on turn in FILE, with ranked "
         "alternatives, from what that player may know: their own hand, the board, the open "
         "tasks, the gap fillers and how many tiles and tasks are unseen (the rest is drawn "
         "--samples times).", "models.hoch_hinaus.answers:hint",
         params=(int_param("horizon", 2, 0, 4, "Placements the SAT look-ahead checks the "
                           "other open tasks over (0: off)."),
                 int_param("top", HINT_TOP, 1, 100, "Candidates checked by the SAT look-ahead."),
                 int_param("shown", 8, 1, 1000, "Alternatives listed.", flags=("--show",)),
                 conflicts_param(HINT_CONFLICTS, "SAT conflicts each check of "
                           "the look-ahead may use (its work; the answer is the same on "
                           "any machine)."),
                 seconds_param("time_limit", 30.0, 0.1, "A cap on the whole command: the "
                               "look-ahead stops there (the answer then says 'cut by the "
                               "time limit'); within it, it changes nothing."),
                 int_param("samples", 16, 1, 10000, "Draws of what the player cannot see "
                           "(other hands, the reserve's order, face-down tasks), the same "
                           "for every placement."),
                 seed_param(0, "Seed of the draws."),
                 OPEN_HANDS),
         answer="models.hoch_hinaus.answers:HintAnswer",
         show="models.hoch_hinaus.render:show_hint", svg=True, quiet=True, web="pool"),
    Verb("reachable", "Can the game in FILE still be won? From what the player on turn may "
         "know: the win probability of a policy over sampled completions of the unknowns, "
         "with its 95% Wilson interval, each player of the sampled games judging from their "
         "own view. With --open-hands and everything known (reserve order, every task): an "
         "exact search with a winning line.", "models.hoch_hinaus.answers:reachable",
         params=(int_param("samples", REACHABLE_SAMPLES, 1, 100000, "Sampled completions "
                           "of the unknown information (games played)."),
                 choice_param("policy", GAME.policy_names, "hint", "How the sampled games "
                              "are played (greedy: the hint without its SAT look-ahead)."),
                 seed_param(0, ""),
                 nodes_param(REACHABLE_NODES, "Exact: positions the "
                           "searches may visit (rollout turns and search positions)."),
                 conflicts_param(REACHABLE_CONFLICTS, "Exact: conflicts "
                           "of the SAT model of the rest of the game (and as many for its "
                           "relaxed model first, with more than 20 placements left)."),
                 seconds_param("time_limit", 300.0, 0.1, "A cap on the whole command: a "
                               "sampled rate cut by it is the rate over the games played "
                               "(said so, exit 0); an exact search cut by it has no answer "
                               "(exit 3). Within it, it changes nothing."),
                 OPEN_HANDS),
         answer="models.hoch_hinaus.answers:ReachableAnswer",
         show="models.hoch_hinaus.render:show_reachable", quiet=True, web="pool"),
)

# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs
PUZZLES = PuzzleGame.from_module("models.hoch_hinaus.puzzles", "hoch-hinaus", BACKENDS)
