"""Hippo's own verbs, declared once (solver/verbs.py): `best`, `plan`, `finish`, and its
puzzles. The shared verbs (show, moves, simulate, play) come from the game's
description (game.py); the verbs' functions are in answers.py, their pictures in
render.py. Declaring them imports no solver.
"""

from __future__ import annotations

from models.hippo.game import FOREIGN_FIRST_PARAM
from solver.params import Param, int_param, seconds_param
from solver.puzzles import PuzzleGame
from solver.verbs import Solving, Verb

#: The solo puzzle's solvers: CP-SAT and brute force.
PUZZLE_BACKENDS = ("cpsat", "brute")

VERBS = (
    Verb("best", "The best placement for the roll: most chips shed this turn (a bonus roll "
         "counted by its exact expectation over all 216 outcomes), ties broken by least "
         "exposure (own chips the other players can kick out next, weighed by the chance "
         "of their rolls).", "models.hippo.answers:best",
         params=(Param("roll_text", "text", None, "The dice, e.g. 6,4,2 (default: the "
                       "position file's roll).", flags=("--roll",)),
                 int_param("top", 10, 1, None, "Alternatives shown (JSON lists all).")),
         answer="models.hippo.answers:BestAnswer", show="models.hippo.render:show_best",
         svg=True, web="pool"),
    Verb("plan", "Solo puzzle: the placements for a known sequence of rolls (the board stays "
         "as you leave it) that empty the stock in the fewest own turns, or shed the most "
         "chips if it cannot be emptied. CP-SAT over all the rolls; the plan is replayed "
         "by the rules engine.", "models.hippo.answers:plan",
         params=(Param("rolls_text", "text", None, 'The rolls in the order thrown, bonus '
                       'rolls included: "6,4,2 5,5,1 ...".', flags=("--rolls",),
                       required=True),
                 Param("check", "flag", False, "Also solve by brute force (short "
                       "sequences) and compare.")),
         answer="models.hippo.answers:PlanAnswer", show="models.hippo.render:show_plan",
         solving=Solving(60.0), web="pool"),
    Verb("finish", "The exact chance that the player on turn empties the stock within N own "
         "turns if the others do not interfere (playing to maximise that chance), and the "
         "best case: the fewest turns in which the dice could let it happen. Three turns "
         "take about a second on the example positions; four take a second on an end game "
         "and 35-40 s in a crowded middle game (past the limit both bounds are given).",
         "models.hippo.answers:finish",
         params=(int_param("turns", 3, 1, 12, "Own turns (this one included): can I "
                           "finish by my next turns?"),
                 seconds_param("time_limit", 120.0, 0.1, "Seconds from the start before "
                               "giving up: exit 3 with the bounds known.")),
         answer="models.hippo.answers:FinishAnswer", show="models.hippo.render:show_finish",
         quiet=True, web="pool"),
)

# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs
# (generate takes --foreign-first; solve, check-unique and sheet pose each puzzle under
# the reading its file records, else the rules data's)
PUZZLES = PuzzleGame.from_module("models.hippo.puzzles", "hippo", PUZZLE_BACKENDS,
                                 generate_options=(FOREIGN_FIRST_PARAM,))
