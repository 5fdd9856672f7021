"""The worked examples of the Hoch Hinaus rulebook (/work/shared/rulebooks/
hoch-hinaus.en.txt) that the other test files do not already check, with the rulebook's
own numbers: the setup, the placement rules' remaining examples, the gap filler's
options, tasks on the visible spaces (judged by the rules engine and by both encodings),
drawing, and the end of the game. docs/hoch-hinaus.md lists every example with its
test."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from ortools.sat.python import cp_model

from models.hoch_hinaus.board import Action, Board
from models.hoch_hinaus.encode import CnfLogic, CpLogic, StepModel
from models.hoch_hinaus.game import GAME, GameData
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.state import Bonus, GameState, new_game
from models.hoch_hinaus.tasks import holds, load_catalogue, parse_task
from solver.backends.common import SolverOptions
from solver.backends.cpsat import make_solver
from solver.backends.sat import IncrementalSat
from solver.errors import BadInput

R = load_rules()
CAT = load_catalogue(R)
S = R.space_index
ORANGE, PINK, GREEN, PURPLE = (R.colour_names.index(c)
                               for c in ("orange", "pink", "green", "purple"))


def judged(texts: list[str], visible: list) -> list[bool]:
    """Each task judged on the visible spaces by the rules engine, checked equal to the
    SAT and the CP-SAT model's literal 'holds at time 0' with those spaces fixed."""
    tasks = [parse_task(R, t) for t in texts]
    got = [holds(R, t, visible) for t in tasks]
    top = max(h for _, h in visible) + 1
    for logic in (CnfLogic(), CpLogic()):
        model = StepModel(R, logic, 0, [], False, top)
        fixed = []
        for s, (face, h) in enumerate(visible):
            fixed.append(model.height_is[0][s][h])
            fixed.append(model.face_is[0][s][model.empty if face is None
                                             else model.faces.index(face)])
        lits = [model.holds(t, 0) for t in tasks]
        if isinstance(logic, CnfLogic):
            with IncrementalSat(logic.b) as sat:
                model_says = [sat.solve([*fixed, lit]) is not None for lit in lits]
        else:
            for x in fixed:
                logic.clause([x])
            solver = make_solver(SolverOptions(workers=1))
            assert solver.solve(logic.m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
            model_says = [bool(solver.boolean_value(lit)) for lit in lits]
        assert model_says == got, (type(logic).__name__, texts)
    return got


def spaces(*placed: tuple[str, str, int], rest=(None, 0)) -> list:
    """A visible board: (space, face, height) for the spaces named, `rest` elsewhere."""
    vis = [rest] * R.n_spaces
    for space, face, h in placed:
        vis[S[space]] = (R.parse_face(face, "test"), h)
    return vis


# --------------------------------------------------------------------------- components, setup

def test_components_and_setup_as_the_rulebook_counts_them():
    """55 task cards, 32 tiles of two spaces (1-4 in four colours), 10 gap fillers (black
    0); 4 bonus tasks with 2, 2, 3 and 3 gap fillers, 4 open tasks, a draw pile of 16 at
    normal difficulty, 3 tiles in each hand, the rest as the reserve."""
    assert len(CAT.tasks) >= 55 and len(R.tiles) == 32
    assert {f for t in R.tiles for f in t.faces} == {(c, n) for c in range(4)
                                                     for n in (1, 2, 3, 4)}
    assert R.fillers == 10 and R.filler_face == (R.colour_names.index("black"), 0)
    g = new_game(R, CAT, 3, "normal", random.Random(7))
    assert [b.fillers for b in g.bonus] == [2, 2, 3, 3] and g.fillers_left == 10
    assert len(g.open) == 4 and len(g.draw_pile) == 16
    assert [len(h) for h in g.hands] == [3, 3, 3] and len(g.reserve) == 32 - 9
    assert len(set(g.open) | set(g.draw_pile) | {b.task for b in g.bonus}) == 24


@pytest.mark.parametrize("difficulty, pile", [("first", 14), ("normal", 16),
                                              ("advanced", 18), ("pros", 20),
                                              ("champions", 22)])
def test_the_difficulty_table_is_the_draw_pile(difficulty, pile):
    """'count out tasks and form a face-down draw pile with them: 14 16 18 20 22' — the
    draw pile alone (default, --task-count pile); --task-count total reads the number
    as the open tasks and the draw pile together."""
    data = GameData(R, CAT)
    setup, = GAME.setups(data, difficulty=difficulty)
    assert "task_count" not in setup  # the rulebook's reading: setups as they always were
    g = GAME.new_game(data, setup, random.Random(1))
    assert len(g.draw_pile) == pile and len(g.open) == 4 and len(g.bonus) == 4
    setup, = GAME.setups(data, difficulty=difficulty, task_count="total")
    assert setup["task_count"] == "total"
    g = GAME.new_game(data, setup, random.Random(1))
    assert len(g.draw_pile) + len(g.open) == pile and len(g.open) == 4


def test_the_task_count_switch_is_checked():
    data = GameData(R, CAT)
    with pytest.raises(BadInput, match="--task-count: 'deck'"):
        GAME.setups(data, task_count="deck")
    same = new_game(R, CAT, 2, "pros", random.Random(3))
    again = new_game(R, CAT, 2, "pros", random.Random(3), task_count="pile")
    assert same.draw_pile == again.draw_pile and same.open == again.open


def test_the_example_setups_open_tasks():
    """The example setup's open tasks judged on a board: 'There is NO PURPLE on the
    EDGE', 'PINK is in THREE different HEIGHTS', 'Exactly FIVE GREEN', 'Exactly ONE
    GREEN', 'Exactly FIVE ORANGE'."""
    texts = ["There is NO PURPLE on the EDGE", "PINK is in THREE different HEIGHTS",
             "Exactly FIVE GREEN", "Exactly ONE GREEN", "Exactly FIVE ORANGE"]
    assert all(CAT.id_of(parse_task(R, t)) for t in texts)  # all in the catalogue
    board = spaces(("B2", "V1", 1), ("A1", "P1", 1), ("B1", "P2", 2), ("C1", "P3", 3),
                   ("A2", "G1", 1), *((s, "O2", 1) for s in ("A3", "B3", "C3", "A4", "B4")))
    assert judged(texts, board) == [True, True, False, True, True]
    board[S["C4"]] = ((PURPLE, 4), 1)  # purple in a corner: on the edge
    board[S["C2"]] = ((ORANGE, 4), 1)  # a sixth orange
    assert judged(texts, board) == [False, True, False, True, False]


# --------------------------------------------------------------------------- placing

def test_a_tile_may_be_rotated_as_you_like():
    """'You may rotate your tile as you like (so the numbers on it may also be upside
    down)': each tile lies on a pair of spaces both ways round, across and along."""
    acts = Board(R).placements(["T07"], False, False)
    pairs = {(a.first, a.second) for a in acts}
    assert len(acts) == 2 * len(R.pairs) == 34
    assert all((b, a) in pairs for a, b in pairs)
    assert (S["A1"], S["B1"]) in pairs and (S["A2"], S["A1"]) in pairs


def test_the_gap_filler_goes_on_any_space_and_the_tile_need_not_cover_it():
    """'Before you place your tile, you may play exactly 1 gap filler. You may place it
    on any space.' ... 'You can place your tile on the gap filler, but you do not have
    to.' 'In your turn you must play 1 tile': no action is a gap filler alone."""
    board = Board(R)
    board.place_tile(R.tile_by_id["T01"], S["A1"], S["B1"])  # a tile under one filler
    acts = board.placements(["T07"], False, True)
    assert {a.filler for a in acts} == {None, *range(R.n_spaces)}
    on_tile = [a for a in acts if a.filler == S["A1"]]
    assert on_tile and all(a.tile == "T07" for a in acts)
    elsewhere = [a for a in acts if a.filler == S["C4"] and S["C4"] not in (a.first, a.second)]
    on_it = [a for a in acts if a.filler == S["C4"] and S["C4"] in (a.first, a.second)]
    assert elsewhere and not on_it  # C4 raised to 1 next to empty spaces: nothing flat
    g = GameState(R, board, [parse_task(R, "Exactly TWELVE GREEN")], [],
                  [Bonus(parse_task(R, "NO GREEN"), 2)], [["T07", "T20"]], ["T30"])
    after = g.apply_action(Action("T07", S["A3"], S["B3"], S["A1"]))  # filler, tile elsewhere
    assert after.board.height(S["A1"]) == 2 and after.board.height(S["A3"]) == 1
    assert after.bonus[0].fillers == 1 and after.fillers_left == 1


def test_a_bonus_task_released_in_the_supposed_last_turn_keeps_the_game_going():
    """'Make sure that by placing a gap filler you can receive an additional task even
    in the supposedly last turn!' One open task left, the draw pile empty: the last
    gap filler of a bonus task brings that task face up (fewer than 4 are open), so
    fulfilling the open task does not win yet; without the filler the turn wins."""
    last = parse_task(R, "ONE ORANGE")
    extra = parse_task(R, "Exactly TWELVE GREEN")
    g = GameState(R, Board(R), [last], [], [Bonus(extra, 1)], [["T01", "T20"]], ["T30"])
    tile_only = g.apply_action(Action("T01", S["A1"], S["B1"]))  # O1-O2
    assert tile_only.status == "won" and tile_only.completed == [last]
    with_filler = g.apply_action(Action("T01", S["A1"], S["B1"], S["C4"]))
    assert with_filler.completed == [last] and with_filler.open == [extra]
    assert with_filler.status == "playing" and with_filler.fillers_left == 0


# --------------------------------------------------------------------------- tasks

def test_tasks_read_the_twelve_visible_spaces_from_above():
    """'Tasks always refer to the 12 visible spaces as seen from above. Height
    differences therefore play no role!' A green face covered by a pink one no longer
    counts; a green at height 3 counts like one at height 1; exactly 4 catalogue tasks
    name heights (the rulebook's 'Exception: 4 tasks refer explicitly to height')."""
    board = Board(R)
    board.place_tile(R.tile_by_id["T11"], S["A1"], S["B1"])  # G3-G4
    board.place_tile(R.tile_by_id["T09"], S["A2"], S["B2"])  # G1-G2
    texts = ["Exactly FOUR GREEN", "Exactly TWO GREEN", "NO PINK"]
    assert judged(texts, board.visible()) == [True, False, True]
    assert board.why_not(S["A1"], S["A2"], R.tile_by_id["T05"].faces) is None
    board.place_tile(R.tile_by_id["T05"], S["A1"], S["A2"])  # P1-P2 covers two greens
    assert [R.face_text(board.top(s)) for s in (S["A1"], S["B1"], S["A2"], S["B2"])] == \
        ["P1", "G4", "P2", "G2"]
    assert judged(texts, board.visible()) == [False, True, False]
    low = spaces(("A1", "G1", 1), ("B1", "G2", 1))
    high = spaces(("A1", "G1", 3), ("B1", "G2", 1))
    assert judged(["Exactly TWO GREEN"], low) == judged(["Exactly TWO GREEN"], high) == [True]
    assert sum(1 for t in CAT.tasks if t.uses_height) == 4


def test_rows_columns_and_the_edge():
    """'The short rows of 3 spaces from left to right are the rows, the long rows of 4
    spaces from top to bottom are the columns. The 10 outer number spaces form the
    edge.'"""
    assert [len(r) for r in R.row_lines] == [3, 3, 3, 3]
    assert [len(c) for c in R.column_lines] == [4, 4, 4]
    assert len(R.edge) == 10 and sorted(R.centre) == [S["B2"], S["B3"]]
    row = spaces(*((s, "P2", 1) for s in ("A2", "B2", "C2")))
    column = spaces(*((s, "P2", 1) for s in ("B1", "B2", "B3")))
    texts = ["THREE PINK in a ROW", "THREE PINK in a COLUMN", "THREE PINK on the EDGE"]
    assert judged(texts, row) == [True, False, False]
    assert judged(texts, column) == [False, True, False]


def test_the_rulebook_task_examples_through_the_encodings():
    """'THREE PINK in a ROW or COLUMN' holds with at least 3 (other pink may show);
    'Exactly FIVE GREEN' not with 4 or 6; the 0 is even and black: the rules engine
    and both encodings."""
    three = "THREE PINK in a ROW or COLUMN"
    assert judged([three], spaces(*((s, "P1", 1) for s in ("A1", "A2", "A3", "A4", "C4")))) \
        == [True]
    assert judged([three], spaces(*((s, "P1", 1) for s in ("A1", "B2", "C3")))) == [False]
    greens = ("A1", "B1", "C1", "A2", "B2", "C2")
    for n, expected in ((4, False), (5, True), (6, False)):
        assert judged(["Exactly FIVE GREEN"], spaces(*((s, "G2", 1) for s in greens[:n]))) \
            == [expected]
    filler = spaces(("A1", "K0", 1))
    assert judged(["Exactly ONE EVEN", "ONE BLACK", "ONE GREEN"], filler) == [True, True, False]


def test_more_green_than_pink_reads_as_worded():
    """'More GREEN than PINK' (the task language's comparison) holds with green spaces
    and no pink one, as worded: an absent colour counts 0, as in Tippi Toppi's default
    reading of comparisons (Hoch Hinaus has no other)."""
    texts = ["More GREEN than PINK", "More PINK than GREEN", "More GREEN than PINK on the EDGE"]
    assert judged(texts, spaces(("B2", "G1", 1))) == [True, False, False]
    assert judged(texts, spaces(("A1", "G1", 1), ("B1", "P1", 1))) == [False, False, False]
    assert judged(texts, spaces(("A1", "G1", 1), ("B1", "G3", 1), ("B2", "P1", 1))) == \
        [True, False, True]


# --------------------------------------------------------------------------- turns, end

def test_a_turn_draws_back_to_three_and_the_next_player_is_on():
    """'At the end of your turn, draw a tile so that you have 3 tiles in hand again.'
    'Then the person to your left takes their turn.'"""
    g = new_game(R, CAT, 3, "normal", random.Random(5))
    hand = list(g.hands[0])
    action = g.legal_actions()[0]
    after = g.apply_action(action)
    assert len(after.hands[0]) == 3 and action.tile not in after.hands[0]
    assert after.hands[0][:2] == [t for t in hand if t != action.tile]
    assert after.hands[0][2] == g.reserve[0] and after.reserve == g.reserve[1:]
    assert after.on_turn == 1 and after.turns == 1


def test_lost_with_an_empty_hand():
    """'You lose if a person is on turn and cannot place a tile any more (because they
    have none in hand ...)': the reserve ran out, the next player's hand is empty."""
    g = GameState(R, Board(R), [parse_task(R, "Exactly TWELVE GREEN")], [], [],
                  [["T01", "T20"], []], [])
    after = g.apply_action(Action("T01", S["A1"], S["B1"]))
    assert after.on_turn == 1 and after.hands[1] == [] and after.status == "lost"
    assert Counter(GAME.returns(after)) == Counter({0.0: 2})


def test_simulate_takes_the_task_count_reading():
    from tests.cli_helpers import assert_one_line_error, game_runner, run_json
    run = game_runner("hoch-hinaus")
    doc = run_json(run, "simulate", "--games", "1", "--difficulty", "first", "--policy",
                   "random", "--jobs", "1", "--task-count", "total")
    assert doc["cells"][0]["setup"] == {"players": 2, "difficulty": "first", "pros": False,
                                        "side": "blue", "task_count": "total"}
    assert_one_line_error(run("simulate", "--games", "1", "--task-count", "half"),
                          "--task-count")


def test_pros_gap_fillers_may_go_on_any_space():
    """Variant for Pros: 'The gap fillers serve as jokers here: they may be placed on any
    space, and any tile may be placed on a gap filler.'"""
    board = Board(R)
    board.place_tile(R.tile_by_id["T01"], S["A1"], S["B1"])  # O1-O2
    acts = board.placements(["T15"], True, True)
    assert {a.filler for a in acts} == {None, *range(R.n_spaces)}
    v3_v4 = R.tile_by_id["T15"].faces  # V4 matches neither O2 nor G2
    joker = board.copy()
    joker.place_filler(S["C1"])  # level with B1
    assert joker.why_not(S["C1"], S["B1"], v3_v4, pros=True) is None
    plain = board.copy()
    plain.place_tile(R.tile_by_id["T10"], S["C1"], S["C2"])  # G2 on C1 instead of the 0
    assert "Pros" in plain.why_not(S["C1"], S["B1"], v3_v4, pros=True)
    assert plain.why_not(S["C1"], S["B1"], v3_v4, pros=False) is None


def test_the_purple_side_has_printed_gap_fillers():
    """'You can play ... on the purple reverse side of the board. Some gap fillers are
    already printed there': they show black 0 at height 0 (A2 and C3, a data setting)
    and count for tasks like a gap filler."""
    purple = Board(R, "purple")
    vis = purple.visible()
    assert [R.spaces[s] for s, (face, _) in enumerate(vis) if face is not None] == ["A2", "C3"]
    assert vis[S["A2"]] == (R.filler_face, 0)
    assert judged(["Exactly TWO GAP FILLERS", "Exactly TWO EVEN"], vis) == [True, True]
    assert purple.why_not(S["A2"], S["B2"], R.tile_by_id["T01"].faces) is None
    assert judged(["Exactly TWO GAP FILLERS"], Board(R).visible()) == [False]

