"""Topito's own verbs, declared once (solver/verbs.py): `plan`, `reachable`, `race`,
`hint`, `deck`, and its puzzles. The shared verbs (show, moves, simulate, play) come from
the game's description (game.py); the verbs' functions are in answers.py, their
pictures in render.py. Declaring them imports no solver.
"""

from __future__ import annotations

from models.topito.game import ORDER_CARDS_PARAM, REVERSAL_PARAM
from models.topito.work import (
    HINT_CONFLICTS,
    HINT_NODES,
    PLAN_CONFLICTS,
    PLAN_NODES,
    RACE_BFS_NODES,
    RACE_NODES,
)
from solver.params import (
    OPEN_HANDS,
    Param,
    choice_param,
    conflicts_param,
    int_param,
    nodes_param,
)
from solver.puzzles import PuzzleGame
from solver.verbs import Solving, Verb

#: The back-ends of hint and generate (they assume a first move or count plans).
BACKENDS = ("sat", "bfs")
#: The back-ends of plan and reachable.
PLAN_BACKENDS = ("auto", "astar", "sat", "bfs")
#: The back-ends of race.
RACE_BACKENDS = ("astar", "bfs")

# --card / --cards / --any / --all: the goal of plan and reachable
CARDS = (
    Param("card_texts", "text", (), "A card: 'podium red: Bear Cat Duck', 'Cat on Bear', "
          "'order Bear Cat Duck' (as printed; see --order-cards), 'order Bear < Cat < Duck' "
          "(bottom to top), 'rank 2: Cat'. Repeatable.", flags=("--card",), multiple=True),
    Param("cards_text", "text", (), "Several cards separated by ';'.", flags=("--cards",),
          multiple=True),
    Param("mode", "flag", "any", "Meet any one of the cards (default).", flags=("--any",),
          flag_value="any"),
    Param("mode", "flag", None, "Meet all the cards at the same time.", flags=("--all",),
          flag_value="all"),
)

def budget_help(what: str) -> str:
    return f"Work budget: {what} (the same answer on any machine; --time-limit only caps it)."


def topito_nodes(default: int | None, what: str) -> Param:
    return nodes_param(default, budget_help(what), high=10 ** 10)


def topito_conflicts(default: int, what: str) -> Param:
    return conflicts_param(default, budget_help(what), high=10 ** 12)


PLAN_WORK = (topito_nodes(PLAN_NODES, "positions A* or BFS may generate"),
             topito_conflicts(PLAN_CONFLICTS, "conflicts the SAT solver may meet"))
PLAN_BACKEND = choice_param(
    "backend", PLAN_BACKENDS, "auto",
    "auto: A* ordered by a proven lower bound, taking turns with SAT (its horizon "
    "starting at what A* ruled out) when the bound is far from the plan, the turns "
    "counted in positions and conflicts; or one of A*, the SAT planning encoding, "
    "breadth-first search.")

VERBS = (
    Verb("plan", "The fewest moves that make the stacks in FILE meet the card (any or all "
         "of several), with the moves; proven minimal by either back-end.",
         "models.topito.answers:plan",
         params=(*CARDS, PLAN_BACKEND,
                 int_param("max_moves", 12, 0, 60, "Longest plan searched; beyond it the "
                           "answer is 'no plan within N moves'."),
                 *PLAN_WORK, REVERSAL_PARAM),
         answer="models.topito.answers:PlanAnswer", show="models.topito.render:show_plan",
         svg=True, solving=Solving(60.0), web="pool"),
    Verb("reachable", "Can the card be met within K moves from FILE? Yes with a plan, or "
         "no with proof.", "models.topito.answers:reachable",
         params=(*CARDS,
                 int_param("within", None, 0, 60, "At most this many moves.", required=True),
                 PLAN_BACKEND, *PLAN_WORK, REVERSAL_PARAM),
         answer="models.topito.answers:ReachableAnswer",
         show="models.topito.render:show_reachable", solving=Solving(60.0), web="pool"),
    Verb("race", "With every hand and the deck in order known (all-seeing): the fewest "
         "moves, made by the players in turn, after which the seat has played 7 cards, "
         "the game not won before; without --player, the fewest moves to the end of the "
         "game by a win and who can be the winners. Proven minimal by either "
         "back-end.", "models.topito.answers:race",
         params=(int_param("player", None, 1, 5, "The seat (from 1) whose 7th card is "
                           "raced for (default: the end of the game by anyone's win, and "
                           "who can be the winners)."),
                 int_param("within", None, 0, 60, "Answer yes (with a line) or no (with "
                           "the proof): at most this many moves."),
                 choice_param("backend", RACE_BACKENDS, "astar", "Best-first search with "
                              "a proven lower bound, or breadth-first search over whole "
                              "game states through the engine."),
                 int_param("max_moves", 12, 0, 60, "Longest line searched; beyond it the "
                           "answer is 'not within N moves'."),
                 nodes_param(None, f"Work budget: moves the search may make (default "
                             f"{RACE_NODES:,} with astar, {RACE_BFS_NODES:,} with bfs; the "
                             "same answer on any machine; --time-limit only caps it).",
                             high=10 ** 10),
                 REVERSAL_PARAM),
         answer="models.topito.answers:RaceAnswer", show="models.topito.render:show_race",
         solving=Solving(60.0), web="pool"),
    Verb("hint", "The best move for the player on turn: a card met now if possible, "
         "otherwise the move that brings the nearest card closest; every move ranked with "
         "its distances and its chance of meeting the next player's unknown cards. Uses "
         "only what the player on turn may know (own hand, blocks, played cards, counts), "
         "unless --open-hands.", "models.topito.answers:hint",
         params=(Param("hand", "text", None, "The player's cards separated by ';' "
                       "(default: the hand of the player on turn in FILE)."),
                 choice_param("backend", BACKENDS, "sat", "SAT planning encoding "
                              "(incremental, growing horizon) or breadth-first search."),
                 int_param("max_moves", 8, 1, 30, "Distances beyond this are shown as "
                           "'>N'."),
                 topito_conflicts(HINT_CONFLICTS, "SAT conflicts for all the distances"),
                 topito_nodes(HINT_NODES, "positions BFS may generate for all the "
                             "distances"),
                 OPEN_HANDS, REVERSAL_PARAM),
         answer="models.topito.answers:HintAnswer", show="models.topito.render:show_hint",
         solving=Solving(60.0), web="pool"),
    Verb("deck", "The deck in use, by kind (order cards written as they read under "
         "--order-cards).", "models.topito.answers:deck",
         answer="models.topito.answers:DeckAnswer", show="models.topito.render:show_deck",
         reads="nothing"),
)

# generate, solve, check-unique, sheet over puzzles.py, imported when one of them runs;
# generate's own options go to its puzzle kind (the deeper types: docs/topito.md,
# "Generate"; defaults None: the kind's own)
PUZZLES = PuzzleGame.from_module(
    "models.topito.puzzles", "topito", BACKENDS,
    generate_options=(
        int_param("moves", None, 1, 20, "Exactly this many moves in the unique shortest "
                  "plan, whatever the difficulty (default: easy 1, medium 2, hard 3)."),
        ORDER_CARDS_PARAM,
        choice_param("puzzle_type", ("card", "all", "hand"), None, "card: one card "
                     "(default); all: 2-3 cards met at once; hand: photo time for a hand "
                     "of four, each card met at some moment. all/hand: easy 3, medium 4, "
                     "hard 5 moves unless --moves.", flags=("--type",)),
        int_param("bans", None, 0, 2, "Name this many blocks that may not be moved (chosen "
                  "to leave one plan)."),
    ))
