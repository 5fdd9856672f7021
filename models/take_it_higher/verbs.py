"""Take it Higher!'s own verbs, declared once (solver/verbs.py): `score`, `max`, `hint`,
`learn`, `tiles`, and its puzzles. The shared verbs (show, moves, simulate, play) come
from the game's description (game.py); the verbs' functions are in answers.py (`max`'s
in answers_max.py, which imports the solvers), their pictures in render.py. Declaring
them imports no solver.
"""

from __future__ import annotations

from models.take_it_higher.advice import HINT_CAP, METHODS
from models.take_it_higher.encode import BACKENDS
from models.take_it_higher.game import GOLD_SILVER_PARAM, variant_param
from models.take_it_higher.hint import CLOCK_SECONDS
from models.take_it_higher.learned.policy import CALLS, FUTURES, LOOKAHEAD
from models.take_it_higher.learned.td import ALPHA
from solver.params import (
    Param,
    choice_param,
    count_param,
    flag_param,
    int_param,
    seconds_param,
    seed_param,
)
from solver.puzzles import PuzzleGame
from solver.verbs import Solving, Verb

#: `max --backend`: the race of both back-ends (auto.py), or one
MAX_BACKENDS = ("auto", *BACKENDS)

ANSWERS = "models.take_it_higher.answers"
RENDER = "models.take_it_higher.render"

SCORE = Verb(
    "score", "The score sheet of the board in FILE; spaceship launches are replayed in the "
    "recorded order and checked against the chosen rules.", f"{ANSWERS}:score",
    params=(variant_param(None), GOLD_SILVER_PARAM),
    answer=f"{ANSWERS}:ScoreAnswer", show=f"{RENDER}:show_score", svg=True, web="thread")

MAX = Verb(
    "max", "The highest score and a board that reaches it, proven by the solver.\n\n"
    "Without --draw: over every choice of tiles. With --draw: every called tile must be "
    "placed (the best a player could have done with those tiles). With FILE: the best "
    "score from that board (its tiles stay; the called tile, the tiles the file knows to "
    "come and --draw's are placed; the other tiles are chosen freely; basic and "
    "gold/silver rules; an empty board: the game's maximum in the file's variant). With --draws N: the hindsight optima of N random draws, each a "
    "task (--jobs / --scheduler / --store). --time-limit: seconds for the whole answer, "
    "counted from the command's start (with --draws: per draw).",
    "models.take_it_higher.answers_max:max_",
    params=(
        variant_param(None), GOLD_SILVER_PARAM,
        Param("draw", "text", None, "Tiles that must all be placed, in call order (e.g. "
              "GJ,SA,...)."),
        choice_param("backend", MAX_BACKENDS, "auto", "auto: CP-SAT and PySAT RC2 MaxSAT "
                     "race in two processes, the first proof wins (--workers N: MaxSAT "
                     "takes one, CP-SAT N-1); cpsat or maxsat: that back-end alone. With "
                     "--draws, auto picks one back-end for all draws (docs)."),
        count_param("draws", None, "The distribution of hindsight optima over N random "
                    "draws (draw i is dealt from --seed*1000003+i, like simulate's game "
                    "i); --time-limit per draw.")),
    answer=("models.take_it_higher.answers_max:MaxAnswer"
            "|models.take_it_higher.answers_max:AutoMaxAnswer"
            "|models.take_it_higher.answers_max:DrawsAnswer"),
    show=f"{RENDER}:show_max", reads="position?", svg=True, solving=Solving(120.0),
    batch=True, web="pool")

HINT = Verb(
    "hint", "Where to put the called tile on the board in FILE: the cells ranked by "
    "expected final score (the tiles still to come are unknown). By default the best "
    "method for the board, named in the answer: learned values where toppi has them (the "
    "built-in board), else exact values once the rest of the game is small, else sampled "
    "futures completed by CP-SAT. Every method counts its work (futures, positions, "
    "solver work), so the answer is the same on a busy machine; --time-limit only caps "
    "it, and a cut answer says so.",
    f"{ANSWERS}:hint",
    params=(
        Param("tile_text", "text", None, "The called tile, e.g. GJ (default: the file's "
              "called tile).", flags=("--tile",)),
        variant_param(None), GOLD_SILVER_PARAM,
        choice_param("method", METHODS, "auto", "auto: the best method for the board "
                     "(learned values, else exact on small positions, else sampled); "
                     "learned, exact or sampled: that one."),
        int_param("samples", None, 0, 1000, "Sampled method: the futures, each completion "
                  "a fixed amount of CP-SAT work [default: 8; 4 with gold/silver or "
                  "spaceships] (0: as many as fit in --time-limit, by the clock: not "
                  "reproducible). Given alone, it asks for the sampled method."),
        seed_param(0, "Seed of the sampled futures."),
        seconds_param("time_limit", None, 0.05, "Seconds for the whole hint at most (a "
                      f"cap; the work is counted) [default: {HINT_CAP:g}; with --samples "
                      f"0 the clock's budget: {CLOCK_SECONDS:g}]."),
        flag_param("exact", "Exact values (--method exact): each cell's exact expected "
                   "final score under the best play, every set of tiles to come averaged "
                   "(no sample; basic and gold/silver rules; small boards and endgames: "
                   "too many positions is an error)."),
        flag_param("learned", "Learned values (--method learned; the default on the "
                   "built-in board): the cells ranked by the learned value of boards (an "
                   "honest player's expected points, learned by self-play; with "
                   "spaceships each cell's launch and the ring too when the values were "
                   "learned with the game's spaceship rules)."),
        Param("values_path", "file", None, "Learned method: a values file of 'toppi "
              "take-it-higher learn' (default: the built-in board's).", flags=("--values",),
              web=False),
        int_param("lookahead", None, 0, 1000, "Learned method: the best cells valued one "
                  f"call deeper [default: {LOOKAHEAD}]."),
        int_param("futures", None, 0, 100_000, "Learned method: those cells valued on "
                  "this many sampled futures, the same for each, from --seed (0: one call "
                  f"ahead, exactly) [default: {FUTURES}]."),
        int_param("calls", None, 1, 1000, "Learned method: the calls each sampled future "
                  f"plays on before the learned value of its board [default: {CALLS}].")),
    answer=(f"{ANSWERS}:HintAnswer|{ANSWERS}:ExactAnswer|{ANSWERS}:LearnedAnswer"),
    show=f"{RENDER}:show_hint", quiet=True, web="pool")

LEARN = Verb(
    "learn", "Learn a value of boards by self-play (temporal differences), for the learned "
    "policy and `hint --learned`; the same seed and games give the same file. With "
    "spaceship rules the values count the ring's bonus and the launches too (the rows' "
    "values serve every spaceship game as well, launching greedily).", f"{ANSWERS}:learn",
    params=(
        variant_param("basic"), GOLD_SILVER_PARAM,
        int_param("games", 200_000, 1, 10 ** 8, "Games of self-play."),
        seed_param(0, "Seed of the draws."),
        Param("out", "out", None, "The values file to write (.json, or .json.gz "
              "compressed).", required=True, web=False),
        Param("resume", "file", None, "Go on learning from this values file.", web=False),
        Param("step", "float", ALPHA, "The step size of the first half of the games (a "
              "third of it after).", minimum=0, maximum=1, min_open=True,
              show_default=True),
        Param("chances", "switch", None, "Ship tables read the ships' chances (the lines "
              "that may still launch each ship). Default: new ship tables do, resumed ones "
              "as learned.", flags=("--ship-chances", "--no-ship-chances")),
        Param("fits", "switch", None, "The tables read each empty cell's fits (how many "
              "unseen tiles suit every line through it). Default: as the resumed tables, "
              "else off.", flags=("--cell-fits", "--no-cell-fits")),
        Param("demand", "switch", None, "The tables read each colour's demand (the lines "
              "waiting for a colour, their empty cells, against the unseen tiles that carry "
              "it). Default: as the resumed tables, else off.",
              flags=("--colour-demand", "--no-colour-demand")),
        Param("coherence", "flag", False, "Temporal coherence: each table entry's step "
              "falls as its errors start to cancel (--step is then the step of every game; "
              "the rates start afresh when resumed)."),
        Param("jobs", "int", 1, "Processes learning at once, each on its own games, "
              "their tables merged every 1,000 games (the same seed, games and jobs give "
              "the same file).", minimum=1, maximum=64, show_default=True, web=False),
        Param("lam", "float", 0.0, "TD(lambda): each game's boards move toward their "
              "lambda-returns after the game (0: TD(0), learning during the game).",
              flags=("--lambda",), minimum=0, maximum=1, max_open=True, show_default=True)),
    answer=f"{ANSWERS}:LearnAnswer", show=f"{RENDER}:show_learn", reads="nothing",
    json=False, quiet=True)

TILES = Verb(
    "tiles", "The tile set: each tile's stripes and stud.", f"{ANSWERS}:tiles",
    answer="models.take_it_higher.queries:TileSet", show=f"{RENDER}:show_tiles",
    reads="nothing")

VERBS = (SCORE, MAX, HINT, LEARN, TILES)

# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs
PUZZLES = PuzzleGame.from_module("models.take_it_higher.puzzles", "take-it-higher",
                                 BACKENDS)
