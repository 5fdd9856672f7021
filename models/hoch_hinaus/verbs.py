"""Hoch Hinaus!'s own verbs, declared once (solver/verbs.py): `achievable`, `hint`,
`reachable`, and its puzzles. The shared verbs (show, moves, simulate, play) come from
the game's description (game.py); the verbs' functions are in answers.py, their
pictures in render.py. Declaring them imports no solver.
"""

from __future__ import annotations

from models.hoch_hinaus.achievable import BACKENDS, TILE_MODES
from models.hoch_hinaus.game import GAME
from solver.params import (
    OPEN_HANDS,
    Param,
    choice_param,
    int_param,
    seconds_param,
    seed_param,
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
                              "PySAT (CaDiCaL, incremental) or CP-SAT.")),
         answer="models.hoch_hinaus.answers:AchievableAnswer",
         show="models.hoch_hinaus.render:show_achievable", solving=Solving(60.0),
         web="pool"),
    Verb("hint", "The best placement for the player on turn in FILE, with ranked "
         "alternatives, from what that player may know: their own hand, the board, the open "
         "tasks, the gap fillers and how many tiles and tasks are unseen (the rest is drawn "
         "--samples times).", "models.hoch_hinaus.answers:hint",
         params=(int_param("horizon", 2, 0, 4, "Placements the SAT look-ahead checks the "
                           "other open tasks over (0: off)."),
                 int_param("top", 8, 1, 100, "Candidates checked by the SAT look-ahead."),
                 int_param("shown", 8, 1, 1000, "Alternatives listed.", flags=("--show",)),
                 seconds_param("time_limit", 1.3, 0.1, "Seconds for the look-ahead."),
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
         params=(int_param("samples", 40, 1, 100000, "Sampled completions of the unknown "
                           "information."),
                 choice_param("policy", GAME.policy_names, "hint", "How the sampled games "
                              "are played (greedy: the hint without its SAT look-ahead)."),
                 seed_param(0, ""),
                 seconds_param("time_limit", 60.0, 0.1, "Seconds for the search or the "
                               "sampling (cut by it: the answer over the samples played, "
                               "exit 3)."),
                 OPEN_HANDS),
         answer="models.hoch_hinaus.answers:ReachableAnswer",
         show="models.hoch_hinaus.render:show_reachable", quiet=True, web="pool"),
)

# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs
PUZZLES = PuzzleGame.from_module("models.hoch_hinaus.puzzles", "hoch-hinaus", BACKENDS)
