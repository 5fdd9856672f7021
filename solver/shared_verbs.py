"""The verbs every game shares, declared once from its `Game` description: `show`,
`moves`, `simulate`, `play`; and for a game with puzzles (its `PuzzleGame`) `generate`,
`solve`, `check-unique` and `sheet`.

Their functions live in solver/play.py and solver/puzzles.py, their pictures in
solver/play_view.py and solver/puzzle_view.py; declaring them imports neither.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from solver.params import (
    Param,
    choice_param,
    count_param,
    int_param,
    seconds_param,
    seed_param,
)
from solver.puzzles import DIFFICULTIES
from solver.verbs import Verb

if TYPE_CHECKING:
    from solver.game import Game
    from solver.puzzles import PuzzleGame
    from solver.registry import GameEntry



def play_verbs(entry: GameEntry) -> tuple[Verb, ...]:
    """show, moves, simulate and play of a game."""
    game = entry.game()
    chance = (game.chance_option,) if game.chance_option is not None else ()
    policies = ", ".join(game.policy_names)
    return (
        Verb("show", "Draw the position in FILE and say who acts next and what is unknown.",
             "solver.play:show", answer=(game.show_answer or "solver.play:NoShow",
                                         "solver.play:ShownPosition"),
             show="solver.play_view:show",
             svg=True, web="thread"),
        Verb("moves", "Every legal move of the player to act in FILE (at a chance node: the "
             "chance outcomes, or the moves after the outcome given).", "solver.play:moves",
             params=(*chance, *game.what_if_options),
             answer=("solver.play:MovesResult",
                     *((f"?{game.moves_notes_answer}",) if game.moves_notes_answer else ())),
             show="solver.play_view:moves", web="thread"),
        Verb("simulate", "Play seeded games with the policies; win rates (Wilson 95% "
             "intervals) or scores, per setup and policy. Each game is a task: --jobs / "
             "--scheduler spread them, --store keeps them, --resume finishes an "
             "interrupted run.", "solver.play:simulate",
             params=(
                 count_param("games", 100, "Games per cell (setup x policies)."),
                 Param("policy_specs", "text", (), f"{policies}: one for every seat, or "
                       "one per seat separated by commas; repeat to compare several on "
                       f"the same deals. Default: {game.policy_names[0]}.",
                       flags=("--policy",), multiple=True, metavar="P[,P...]"),
                 Param("rotate", "flag", False, "Move the policies on by one seat every "
                       "game (fair comparison)."),
                 Param("open_hands", "flag", False, "Every policy sees the whole state, "
                       "what the rules hide included (other hands, face-down piles in "
                       "order, in games that hide them): an all-seeing reference, not a "
                       "player's game."),
                 seed_param(help="Game g is dealt and played from seed*1000003+g (any "
                            "executor)."),
                 *game.setup_options, *game.play_options),
             answer="solver.simulate:SimulationResult", show="solver.play_view:simulation",
             reads="nothing", batch=True),
        Verb("play", "Play a game in the terminal against the policies: type a move (or "
             "its number from 'moves'), 'hint' for advice, 'quit' to stop. FILE: start from "
             "a position (what it leaves unknown is drawn at random).", "solver.play:play",
             params=(
                 int_param("seat", 1, 1, None, "The seat you play."),
                 Param("policy_spec", "text", None, "The other seats' policy (one, or one "
                       f"per seat). Default: {game.policy_names[0]}.", flags=("--policy",),
                       metavar="P[,P...]"),
                 seed_param(None, "Seed of the deal and of chance (random if omitted; "
                            "printed so the game can be replayed)."),
                 *play_setup_options(game), *game.play_options),
             reads="position?", json=False, quiet=True),
    )


def puzzle_verbs(puzzles: PuzzleGame) -> tuple[Verb, ...]:
    """generate, solve, check-unique and sheet of a game's puzzles."""
    backend = choice_param("backend", puzzles.backends, puzzles.backends[0],
                           "Solver used for solutions and the uniqueness check.")
    time_limit = seconds_param("time_limit", 20.0, 0.1, "Seconds per solver call; a "
                               "search cut short is never called unique.")
    verdict = dict(run="solver.puzzles:solve", params=(backend, time_limit),
                   answer=("solver.puzzles:SolveResult", "?solver.puzzles:PuzzleKnowledge"),
                   show="solver.puzzle_view:verdict", reads="puzzle", quiet=True, data=False,
                   file_name="puzzle")
    return (
        Verb("generate", "Generate puzzles with exactly one solution, rated easy / medium "
             "/ hard from measured features (see the game's docs). The attempts run as "
             "parallel tasks on all cores (--jobs N, or a Dask cluster with --scheduler); "
             "the same puzzles for the same --seed whichever ran them.",
             "solver.puzzles:generate",
             params=(*puzzles.generate_options,
                     choice_param("difficulty", DIFFICULTIES, "medium"),
                     count_param("count", 1),
                     seed_param(help="Every attempt is seeded from this, so a run "
                                "replays exactly."),
                     int_param("max_attempts", None, 1, None, "Give up after this many "
                               "proposals (default 200 per puzzle)."),
                     seconds_param("max_seconds", None, 0.1, "Stop proposing after this "
                                   "many seconds (what was found is kept)."),
                     Param("out_dir", "folder", None, "Write each puzzle (with solution "
                           "and rating) to a file here.", flags=("--out",), web=False),
                     backend, time_limit),
             answer="solver.puzzles:GenerateResult", show="solver.puzzle_view:generated",
             reads="nothing", batch=True, data=False),
        Verb("solve", "Solve a puzzle file; says whether the solution is unique.",
             web="pool", **verdict),
        Verb("check-unique", "For hand-made puzzles: unique, several (two shown) or none.",
             **verdict),
        Verb("sheet", "A printable sheet: the puzzles drawn, then their solutions on the "
             "next page(s). A puzzle file without its solution is solved first (it must "
             "be unique).", "solver.puzzles:sheet",
             params=(
                 Param("out", "out", None, "Output: FILE.svg (one SVG per page: FILE, "
                       "FILE-2, ...) or FILE.html (one printable document).",
                       flags=("--svg",), required=True, web=False),
                 Param("title", "text", None, "Heading of the sheet."),
                 int_param("columns", 2, 1, 4),
                 backend, time_limit),
             answer="solver.puzzles:SheetResult", show="solver.puzzle_view:sheet",
             reads="puzzles", json=False, quiet=True, data=False, file_name="puzzles"),
    )


def play_setup_options(game: Game) -> tuple[Param, ...]:
    """The setup options of `play`: simulate's, with the game's `play_setup` defaults."""
    return tuple(replace(p, default=game.play_setup[p.name]) if p.name in game.play_setup
                 else p for p in game.setup_options)
