"""Tippi Toppi's own verbs, declared once (solver/verbs.py): `achievable`, `hint`,
`reachable`, `tasks`, and its puzzles. The shared verbs (show, moves, simulate, play)
come from the game's description (game.py); the verbs' functions are in answers.py,
their pictures in render.py. Declaring them imports no solver.
"""

from __future__ import annotations

from models.tippi_toppi.achievable import BACKENDS
from models.tippi_toppi.budgets import (
    ACHIEVABLE_CONFLICTS,
    ACHIEVABLE_WORK,
    REACHABLE_CONFLICTS,
    REACHABLE_NODES,
    REACHABLE_SAMPLES,
)
from models.tippi_toppi.encode import CARD_MODES
from models.tippi_toppi.game import COMPARISONS_PARAM
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
    Verb("achievable", "Can the open tasks (or each --task) all be fulfilled within K "
         "plays? Yes with a line of plays (re-checked by the rules engine), or no with the "
         "smallest set of the tasks that blocks it. The work is counted (--conflicts, "
         "--work), so the answer is the same on any machine; --time-limit only caps it.",
         "models.tippi_toppi.answers:achievable",
         params=(Param("task_texts", "text", (), "A task to fulfil instead of the open tasks "
                       "(repeatable).", flags=("--task",), multiple=True),
                 int_param("within", 6, 0, 40, "Number of plays K."),
                 choice_param("cards", CARD_MODES, "known", "hand: the player's own cards; "
                              "hands: all hands (open play); known: all hands and the draw "
                              "pile in order."),
                 choice_param("backend", BACKENDS, "sat", "PySAT (Glucose, incremental, "
                              "cores) or CP-SAT (one worker)."),
                 conflicts_param(ACHIEVABLE_CONFLICTS, "PySAT: conflicts "
                           "the SAT calls may use in all (their work: the answer is the "
                           "same on any machine)."),
                 work_param(ACHIEVABLE_WORK, "CP-SAT: deterministic seconds "
                       "the solves may use in all (its load-independent work unit).")),
         answer="models.tippi_toppi.answers:AchievableAnswer",
         show="models.tippi_toppi.render:show_achievable",
         solving=Solving(120.0, workers=False),
         web="pool"),
    Verb("hint", "Which card on which pile for the player on turn: every legal play ranked, "
         "with its reasons (tasks fulfilled now, tasks kept within reach, piles kept "
         "playable for the others). It reads only what that player sees at the table (own "
         "hand, piles, tasks, counts), even when the file gives every hand, unless "
         "--open-hands.", "models.tippi_toppi.answers:hint", params=(OPEN_HANDS,),
         answer="models.tippi_toppi.answers:HintAnswer",
         show="models.tippi_toppi.render:show_hint", web="pool"),
    Verb("reachable", "Can the game still be won? From what the player on turn may know: "
         "the hint policy's win rate over sampled hidden cards with a 95 % Wilson interval. "
         "With --open-hands and full information (all hands, the draw pile and the task "
         "pile known): exact. The work is counted (deals, positions, SAT conflicts), so "
         "the answer is the same on any machine; --time-limit only caps it.",
         "models.tippi_toppi.answers:reachable",
         params=(int_param("samples", REACHABLE_SAMPLES, 1, 100000, "Deals of the hidden cards (when "
                           "not everything is known)."),
                 seed_param(help="Seed of the deals, and of the exact search (its "
                            "rollouts and the beam's ties)."),
                 nodes_param(REACHABLE_NODES, "Exact: positions the searches may "
                           "make (rollout plays, beam children, depth-first positions)."),
                 conflicts_param(REACHABLE_CONFLICTS, "Exact: conflicts of the SAT "
                           "model of the rest of the game (at most 24 plays left)."),
                 seconds_param("time_limit", 120.0, 0.01, "A cap on the whole command: "
                               "sampling cut by it answers over the deals played (said "
                               "so, exit 0); an exact search cut by it before an answer "
                               "exits 3. Within it, it changes nothing."),
                 OPEN_HANDS),
         answer="models.tippi_toppi.answers:ReachableAnswer",
         show="models.tippi_toppi.render:show_reachable", quiet=True, web="pool"),
    Verb("tasks", "The task catalogue (modelled on the rulebook; the real cards are "
         "unpublished).", "models.tippi_toppi.answers:tasks",
         answer="models.tippi_toppi.answers:TasksAnswer",
         show="models.tippi_toppi.render:show_tasks", reads="nothing", data=False),
)

# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs;
# a puzzle is solved by the plan encoding on the back-ends of `achievable`. generate
# takes --comparisons and writes the reading into each puzzle file; solve, check-unique
# and sheet solve a file under the reading it records (or the rules data's).
PUZZLES = PuzzleGame.from_module("models.tippi_toppi.puzzles", "tippi-toppi", BACKENDS,
                                 generate_options=(COMPARISONS_PARAM,))
