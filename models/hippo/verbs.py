"""Hippo's own verbs, declared once (solver/verbs.py): `best`, `plan`, `finish`, and its
puzzles. The shared verbs (show, moves, simulate, play) come from the game's
description (game.py); the verbs' functions are in answers.py, their pictures in
render.py. Declaring them imports no solver.
"""

from __future__ import annotations

from models.hippo.game import FOREIGN_FIRST_PARAM
from solver.params import Param, int_param, seconds_param, work_param
from solver.puzzles import PuzzleGame
from solver.verbs import Solving, Verb

#: The solo puzzle's solvers: CP-SAT and brute force.
PUZZLE_BACKENDS = ("cpsat", "brute")
#: `plan`'s work by default: CP-SAT's deterministic seconds with one worker (the
#: examples' plans over 18 rolls are proven within 0.6; 10 are 20-50 s of CPU)
PLAN_WORK = 10.0
#: `finish`'s steps by default (positions and rolls valued, tables of rooms made; about
#: 80,000 a second): `--turns 3` on any example takes at most 0.11 million, `--turns 4`
#: on the crowded middle game 3.8 million (45 s)
FINISH_STEPS = 6_000_000

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
         "chips if it cannot be emptied. CP-SAT over all the rolls, one worker with a "
         "fixed amount of work (--work), so the same plan every time; the plan is "
         "replayed by the rules engine.", "models.hippo.answers:plan",
         params=(Param("rolls_text", "text", None, 'The rolls in the order thrown, bonus '
                       'rolls included: "6,4,2 5,5,1 ...".', flags=("--rolls",),
                       required=True),
                 work_param(PLAN_WORK, "CP-SAT's work: deterministic seconds "
                       "(load-independent, on one worker). Past it "
                       "the best plan found with its bound (the greedy plan if CP-SAT "
                       "found none).", minimum=0.001),
                 Param("check", "flag", False, "Also solve by brute force (short "
                       "sequences) and compare.")),
         answer="models.hippo.answers:PlanAnswer", show="models.hippo.render:show_plan",
         solving=Solving(300.0, workers=False), web="pool"),
    Verb("finish", "The exact chance that the player on turn empties the stock within N own "
         "turns if the others do not interfere (playing to maximise that chance), and the "
         "best case: the fewest turns in which the dice could let it happen. The work is "
         "counted in steps (--steps), so the answer is the same every time; three turns "
         "take about a second on the example positions, four 1-45 s. Stopped by --steps "
         "or --time-limit, it gives the two proven bounds.",
         "models.hippo.answers:finish",
         params=(int_param("turns", 3, 1, 12, "Own turns (this one included): can I "
                           "finish by my next turns?"),
                 int_param("steps", FINISH_STEPS, 1, 10 ** 12, "The DP's work: positions "
                           "and rolls valued (about 80,000 a second). Past it: the two "
                           "bounds proven by then."),
                 seconds_param("time_limit", 300.0, 0.01, "A cap: seconds from the "
                               "start; past it the two bounds proven by then (cut by the "
                               "time limit).")),
         answer="models.hippo.answers:FinishAnswer", show="models.hippo.render:show_finish",
         quiet=True, web="pool"),
)

# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs
# (generate takes --foreign-first; solve, check-unique and sheet pose each puzzle under
# the reading its file records, else the rules data's)
PUZZLES = PuzzleGame.from_module("models.hippo.puzzles", "hippo", PUZZLE_BACKENDS,
                                 generate_options=(FOREIGN_FIRST_PARAM,))
