"""The rules engine against the rulebook's examples, a brute-force placement generator,
the task language on the rulebook's task examples, turns, win and loss, bad input."""

import random

import pytest

from models.hoch_hinaus.board import Action, Board
from models.hoch_hinaus.positions import read_position
from models.hoch_hinaus.rules import load_rules
from models.hoch_hinaus.state import Bonus, GameState
from models.hoch_hinaus.tasks import canonical_text, holds, load_catalogue, parse_task
from solver.errors import BadInput

R = load_rules()
CAT = load_catalogue(R)
S = R.space_index
G = R.colour_names.index("green")
P = R.colour_names.index("pink")
V = R.colour_names.index("purple")


def tile_with(a, b):
    return R.tiles_with_faces(R.parse_face(a, "t"), R.parse_face(b, "t"))[0]


def board_of(*placements, side="blue"):
    b = Board(R, side)
    for p in placements:
        if isinstance(p, str):
            b.place_filler(S[p])
        else:
            tid, s1, s2 = p
            b.place_tile(R.tile_by_id[tid], S[s1], S[s2])
    return b


def test_default_set_every_face_four_times_no_double_faces():
    from collections import Counter
    faces = Counter(f for t in R.tiles for f in t.faces)
    assert len(R.tiles) == 32 and len(faces) == 16 and set(faces.values()) == {4}
    assert all(t.faces[0] != t.faces[1] for t in R.tiles)
    assert len(R.edge) == 10 and len(R.centre) == 2 and len(R.corners) == 4
    assert R.difficulty == {"first": 14, "normal": 16, "advanced": 18, "pros": 20,
                            "champions": 22}


def test_congruent_placement_refused_both_ways_round():
    b = board_of(("T01", "A1", "B1"))
    faces = R.tile_by_id["T02"].faces
    assert "congruent" in b.why_not(S["A1"], S["B1"], faces)
    assert "congruent" in b.why_not(S["B1"], S["A1"], faces)
    # on two different tiles of equal height it may lie
    b = board_of(("T01", "A1", "B1"), ("T05", "A2", "B2"))
    assert b.why_not(S["A1"], S["A2"], faces) is None


def test_overhanging_and_non_neighbouring_refused():
    b = Board(R)
    faces = R.tile_by_id["T02"].faces
    assert "neighbouring" in b.why_not(S["C1"], S["A2"], faces)  # would wrap round
    assert "neighbouring" in b.why_not(S["A1"], S["C1"], faces)
    with pytest.raises(BadInput, match="not a space"):
        read_position(R, {"pieces": [{"tile": "T02", "on": ["C1", "D1"]}]}, "f", False, CAT)


def test_not_flat_refused():
    b = board_of(("T01", "A1", "B1"))
    assert "flat" in b.why_not(S["B1"], S["C1"], R.tile_by_id["T02"].faces)
    b = board_of(("T01", "A1", "B1"), "C1")  # a gap filler levels it
    assert b.why_not(S["B1"], S["C1"], R.tile_by_id["T02"].faces) is None


def _corner_gap_game():
    """The rulebook's gap filler example: a single gap in the upper left corner."""
    board = board_of(("T01", "B1", "C1"), ("T05", "A2", "B2"), ("T09", "A3", "A4"),
                     ("T13", "B3", "C3"), ("T17", "C2", "C3"))
    open_ = [parse_task(R, t) for t in ("Exactly TWELVE GREEN", "Exactly ELEVEN GREEN",
                                        "Exactly TEN GREEN", "Exactly NINE GREEN")]
    bonus = [Bonus(parse_task(R, "Exactly EIGHT GREEN"), 1),
             Bonus(parse_task(R, "Exactly SEVEN GREEN"), 2)]
    pile = [parse_task(R, "Exactly SIX GREEN")]
    return GameState(R, board, open_, pile, bonus, [["T20", "T21", "T22"]], ["T30"])


def test_gap_filler_example_in_the_corner():
    g = _corner_gap_game()
    assert g.board.height(S["A1"]) == 0 and g.board.height(S["B1"]) == 1 \
        and g.board.height(S["A2"]) == 1
    plain = g.board.placements(g.hands[0], False, False)
    assert plain and all(S["A1"] not in (a.first, a.second) for a in plain)
    acts = [a for a in g.legal_actions() if a.filler == S["A1"]
            and {a.first, a.second} == {S["A1"], S["B1"]}]
    assert acts, "a gap filler in the corner lets a tile lie on the 0 and its neighbour"
    before = g
    g = g.apply_action(acts[0])
    assert before.board.height(S["A1"]) == 0 and before.fillers_left == 3  # unchanged
    assert g.board.height(S["A1"]) == 2 and g.board.height(S["B1"]) == 2
    # the first bonus task lost its last filler: face down on top of the draw pile
    assert g.bonus[0].fillers == 0 and g.draw_pile[0] == parse_task(R, "Exactly EIGHT GREEN")
    assert g.fillers_left == 2
    # the next filler comes from the 2nd bonus task
    g = g.filler_taken()
    assert g.bonus[1].fillers == 1


def _snapshot(g):
    return (g.board.key(), len(g.board.pieces), [(b.task, b.fillers) for b in g.bonus],
            g.fillers_left, list(g.open), list(g.draw_pile), [list(h) for h in g.hands],
            list(g.reserve), g.on_turn, g.turns, g.status)


def test_an_illegal_placement_with_a_gap_filler_changes_nothing():
    """The filler is taken only once the tile is known to fit: a placement refused after
    its gap filler leaves the fillers, the bonus tasks and the board as they were, step
    by step as through apply_action, and the error names why."""
    from models.hoch_hinaus.game import GAME
    g = _corner_gap_game()
    before = _snapshot(g)
    assert before[3] == 3 and [b.fillers for b in g.bonus] == [1, 2]
    # a filler in C4, then a tile on A1 (height 0) and B1 (height 1): not flat
    bad = Action("T20", S["A1"], S["B1"], S["C4"])
    for attempt in (g.placed, g.turn, g.apply_action,
                    lambda a: GAME.apply_action(g, a)):
        with pytest.raises(BadInput, match="illegal placement filler C4 .*would not lie "
                                           "flat \\(A1 has height 0, B1 height 1\\)"):
            attempt(bad)
        assert _snapshot(g) == before
    # no gap filler left: refused before anything is laid
    g = g.but(bonus=[Bonus(b.task, 0) for b in g.bonus])
    empty = _snapshot(g)
    with pytest.raises(BadInput, match="no gap filler is left"):
        g.placed(Action("T20", S["A1"], S["B1"], S["A1"]))
    assert _snapshot(g) == empty
    # the same placement with its filler where it fits: the filler is used
    g = _corner_gap_game()
    g = g.placed(Action("T20", S["A1"], S["B1"], S["A1"]))
    assert g.fillers_left == 2 and g.board.height(S["A1"]) == 2


def test_a_state_is_never_changed_by_its_methods():
    """Frozen: every step, check and view gives a new state or nothing, and the state it
    was asked of stays as it was, its fields cannot be set."""
    import dataclasses

    g = _corner_gap_game()
    before = _snapshot(g)
    a = Action("T20", S["A1"], S["B1"], S["A1"])
    placed = g.placed(a)
    assert placed.fulfilled()[0].drawn().turns == 1 and g.turn(a)[0].turns == 1
    assert g.before_draw(a)[0].fillers_left == placed.fillers_left == 2
    g.filler_taken(), g.judged(), g.observation(0), g.determinise(random.Random(0))
    g.check_move(a), g.legal_actions(), g.tiles_to_place().clear()
    assert _snapshot(g) == before
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.status = "lost"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.bonus[0].fillers = 0  # type: ignore[misc]


def test_bonus_task_face_up_when_fewer_than_four_open():
    g = _corner_gap_game()
    g = g.but(open=g.open[:2], draw_pile=[])
    g = g.filler_taken()
    assert g.open[-1] == parse_task(R, "Exactly EIGHT GREEN") and not g.draw_pile


def test_pros_rule_and_gap_fillers_as_jokers():
    # O1-O2 on A1-B1 and G3-G4 on A2-B2, then a tile across B1-B2
    b = board_of(("T01", "A1", "B1"), ("T11", "A2", "B2"))
    below = (b.top(S["B1"]), b.top(S["B2"]))
    assert below == (R.parse_face("O2", "t"), R.parse_face("G4", "t"))
    no_match = tile_with("P1", "V3")  # neither pink 1 vs O2 nor purple 3 vs G4 match
    assert b.why_not(S["B1"], S["B2"], no_match.faces, pros=False) is None
    assert "Pros" in b.why_not(S["B1"], S["B2"], no_match.faces, pros=True)
    match_number = tile_with("V2", "V3")  # 2 on the orange 2: same number
    assert b.why_not(S["B1"], S["B2"], match_number.faces, pros=True) is None
    assert "Pros" in b.why_not(S["B2"], S["B1"], match_number.faces, pros=True)
    match_colour = tile_with("G4", "V1")  # green on green (V1 on B1 does not match O2)
    assert b.why_not(S["B2"], S["B1"], match_colour.faces, pros=True) is None
    # a gap filler is a joker: any tile may lie on it (A1 raised, then A1-... )
    b2 = board_of(("T01", "A1", "B1"), ("T11", "A2", "B2"), "C1", "C2")
    assert b2.why_not(S["C1"], S["C2"], no_match.faces, pros=True) is None
    # on the board itself the Pros rule asks nothing
    assert Board(R).why_not(S["A1"], S["B1"], no_match.faces, pros=True) is None


def brute_placements(board, tiles, pros):
    """Independent check of the placement rules from the stacks themselves."""
    out = set()
    for s1 in range(R.n_spaces):
        for s2 in range(R.n_spaces):
            (r1, c1), (r2, c2) = R.rc(s1), R.rc(s2)
            if abs(r1 - r2) + abs(c1 - c2) != 1:
                continue
            st1, st2 = board.stacks[s1], board.stacks[s2]
            if len(st1) != len(st2):
                continue
            if st1 and st1[-1][0] == st2[-1][0]:
                continue
            for t in tiles:
                f1, f2 = R.tile_by_id[t].faces
                if pros and st1:
                    def ok(below, f):
                        return below[0] in (f[0], R.black) or below[1] == f[1]
                    if not (ok(st1[-1][1], f1) or ok(st2[-1][1], f2)):
                        continue
                out.add((t, s1, s2))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_placements_equal_brute_force_on_random_stacked_boards(seed):
    rng = random.Random(seed)
    pros = seed % 2 == 1
    board = Board(R)
    tiles = [t.id for t in R.tiles]
    rng.shuffle(tiles)
    for _ in range(rng.randint(3, 14)):
        acts = board.placements(tiles[:3], pros, rng.random() < 0.3)
        if not acts:
            break
        a = rng.choice(acts)
        board.apply(a)
        tiles.remove(a.tile)
    hand = tiles[:3]
    for fillers in (False, True):
        assert board.can_place(hand, pros, fillers) == bool(board.placements(hand, pros,
                                                                             fillers))
    got = {(a.tile, a.first, a.second) for a in board.placements(hand, pros, False)}
    assert got == brute_placements(board, hand, pros)
    for f in range(R.n_spaces):
        b = board.copy()
        b.place_filler(f)
        got = {(a.tile, a.first, a.second) for a in board.placements(hand, pros, True)
               if a.filler == f}
        assert got == brute_placements(b, hand, pros)


# --------------------------------------------------------------------------- tasks

def visible_with(colour_counts, number=1, height=1):
    """A visible board with the given colours (colour index -> count), rest empty."""
    vis = []
    for c, n in colour_counts:
        vis += [((c, number), height)] * n
    return vis + [(None, 0)] * (R.n_spaces - len(vis))


def test_exactly_five_green_false_with_four_or_six():
    t = parse_task(R, "Exactly FIVE GREEN")
    assert holds(R, t, visible_with([(G, 5), (P, 7)]))
    assert not holds(R, t, visible_with([(G, 4), (P, 8)]))
    assert not holds(R, t, visible_with([(G, 6), (P, 6)]))


def test_three_pink_in_a_row_or_column_true_with_more():
    t = parse_task(R, "THREE PINK in a ROW or COLUMN")
    pink, green = ((P, 2), 1), ((G, 2), 1)
    vis = [green] * 12
    for s in R.column_lines[0]:  # four pink in column A
        vis[s] = pink
    vis[S["C4"]] = pink
    assert holds(R, t, vis)
    vis = [green] * 12
    for s in R.row_lines[1]:  # exactly a full row
        vis[s] = pink
    assert holds(R, t, vis)
    vis = [green] * 12  # three pink, but never three in one line
    for s in ("A1", "B2", "C3"):
        vis[S[s]] = pink
    assert not holds(R, t, vis)


def test_no_purple_on_the_edge_and_three_heights():
    t = parse_task(R, "There is NO PURPLE on the EDGE")
    vis = [((G, 1), 1)] * 12
    vis[S["B2"]] = ((V, 1), 1)  # centre
    assert holds(R, t, vis)
    vis[S["A1"]] = ((V, 1), 1)
    assert not holds(R, t, vis)
    h = parse_task(R, "PINK is in THREE different HEIGHTS")
    vis = [((G, 1), 1)] * 12
    vis[0], vis[1], vis[2] = ((P, 1), 1), ((P, 2), 2), ((P, 3), 2)
    assert not holds(R, h, vis)
    vis[3] = ((P, 4), 3)
    assert holds(R, h, vis)


def test_gap_filler_zero_is_even_and_black():
    even = parse_task(R, "Exactly ONE EVEN")
    black = parse_task(R, "ONE BLACK")
    vis = [(None, 0)] * 12
    vis[0] = (R.filler_face, 1)
    assert holds(R, even, vis) and holds(R, black, vis)
    assert not holds(R, parse_task(R, "ONE GREEN"), vis)


def test_catalogue_round_trips_and_covers_the_rulebook_examples():
    assert len(CAT.tasks) >= 55 and "not the real task cards" in CAT.note.lower().replace(
        "not the real", "not the real")
    for t in CAT.tasks:
        assert parse_task(R, canonical_text(t, R)) == t
    texts = {t.source for t in CAT.tasks}
    for example in ("Exactly FIVE GREEN", "There is NO PURPLE on the EDGE",
                    "PINK is in THREE different HEIGHTS", "THREE PINK in a ROW or COLUMN",
                    "Exactly ONE GREEN", "Exactly FIVE ORANGE"):
        assert example in texts
    assert sum(1 for t in CAT.tasks if t.uses_height) == 4


@pytest.mark.parametrize("text,message", [
    ("FIVE BLUE", "cannot read 'blue'"), ("Exactly", "expected a count"),
    ("THREE PINK in ROW 9", "region"), ("", "empty task"),
    ("Exactly TWO GREEN PINK", "two colours"), ("More GREEN", "than"),
])
def test_unparseable_tasks(text, message):
    with pytest.raises(BadInput, match=message):
        parse_task(R, text)


def test_counts_and_regions_read_right():
    t = parse_task(R, "At most TWO ODD in EVERY COLUMN")
    assert t.count.op == "at most" and t.count.k == 2 and t.region.quant == "every"
    assert parse_task(R, "more than 2 green").count.k == 3
    assert parse_task(R, "NO 1 in the CENTRE").count.k == 0
    assert parse_task(R, "THREE GREEN in COLUMN B") == parse_task(R, "3 green in column 2")


# --------------------------------------------------------------------------- turns

def test_newly_turned_up_task_fulfilled_at_once_and_win():
    board = Board(R)
    tasks = [parse_task(R, t) for t in ("ONE ORANGE", "NO PURPLE", "NO PINK", "NO 3s",
                                        "ONE 1s", "NO EMPTY spaces")]
    start = GameState(R, board, tasks[:4], tasks[4:], [], [["T01", "T20"]], [])
    g, done = start.turn(Action("T01", S["A1"], S["B1"]))  # O1-O2
    # all four open fulfilled, 'ONE 1s' turned up and fulfilled at once, then NO EMPTY
    assert done == tasks[:5] and g.completed == tasks[:5]
    assert g.open == [tasks[5]] and g.status == "playing"
    assert g.hands == [["T20"]]  # empty reserve: no draw
    assert start.open == tasks[:4] and start.hands == [["T01", "T20"]]  # unchanged
    with pytest.raises(BadInput, match="not in the hand"):
        g.apply_action(Action("T01", S["A2"], S["B2"]))  # placed: not in the hand
    g2 = GameState(R, Board(R), [parse_task(R, "ONE ORANGE")], [], [], [["T01"]], [])
    assert g2.apply_action(Action("T01", S["A1"], S["B1"])).status == "won"


def test_lost_when_player_on_turn_cannot_place():
    g = GameState(R, Board(R), [parse_task(R, "Exactly TWELVE GREEN")], [], [],
                  [["T01"], []], [])
    g = g.apply_action(Action("T01", S["A1"], S["B1"]))
    assert g.status == "lost" and g.on_turn == 1
    # gap fillers in a checkerboard: no two neighbours of equal height, so no tile can
    # lie anywhere; lost at once unless a gap filler is left to level a pair
    state = {"pieces": [{"filler": x} for x in ("A1", "C1", "B2", "A3", "C3", "B4")],
             "open": ["Exactly TWELVE GREEN"], "hands": [["T08"]], "reserve": [],
             "bonus": []}
    assert read_position(R, state, "f", False, CAT).status == "lost"
    assert not read_position(R, state, "f", False, CAT).board.can_place(["T08"], False, False)
    state["bonus"] = [{"task": "NO GREEN", "fillers": 1}]
    g = read_position(R, state, "f", False, CAT)
    assert g.status == "playing" and all(a.filler is not None for a in g.legal_actions())


# --------------------------------------------------------------------------- bad input

def test_floating_tile_and_copies_and_reuse_are_refused():
    with pytest.raises(BadInput, match="floats over an empty space"):
        read_position(R, {"pieces": [{"tile": "T01", "on": ["A1", "B1"], "level": 2}]}, "f",
                   False, CAT)
    with pytest.raises(BadInput, match="does not lie flat|not lie flat"):
        read_position(R, {"pieces": [{"tile": "T01", "on": ["A1", "B1"]},
                                  {"tile": "T02", "on": ["B1", "C1"]}]}, "f", False, CAT)
    with pytest.raises(BadInput, match="more copies of tile O2-O1 than the set has"):
        read_position(R, {"pieces": [{"tile": "O1-O2", "on": ["A1", "B1"]},
                                  {"tile": "O2-O1", "on": ["A2", "B2"]}]}, "f", False, CAT)
    with pytest.raises(BadInput, match="used twice"):
        read_position(R, {"pieces": [{"tile": "T01", "on": ["A1", "B1"]}],
                       "hands": [["T01"]]}, "f", False, CAT)
    with pytest.raises(BadInput, match="gap fillers"):
        read_position(R, {"pieces": [{"filler": "A1"}] * 11}, "f", False, CAT)
    with pytest.raises(BadInput, match="congruent"):
        read_position(R, {"pieces": [{"tile": "T01", "on": ["A1", "B1"]},
                                  {"tile": "T02", "on": ["B1", "A1"]}]}, "f", False, CAT)


# --------------------------------------------------------------------------- round trip

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from models.hoch_hinaus.tasks import Pred, Region, Task  # noqa: E402
from solver.counting import Count  # noqa: E402

preds = st.builds(
    Pred, colour=st.one_of(st.none(), st.integers(0, 4)),
    number=st.one_of(st.none(), st.integers(0, 4)),
    parity=st.sampled_from([None, "even", "odd"]), empty=st.just(False),
    height=st.one_of(st.none(), st.integers(1, 6)), height_or_more=st.booleans(),
).filter(lambda p: (p.colour, p.number, p.parity, p.height) != (None,) * 4
         and (p.height is not None or not p.height_or_more))
regions = st.one_of(
    st.sampled_from([Region(), Region("edge"), Region("centre"), Region("corners")]),
    st.builds(Region, st.just("row"), st.integers(0, 3)),
    st.builds(Region, st.just("column"), st.integers(0, 2)),
    st.builds(Region, st.sampled_from(["rows", "columns", "lines"]), st.just(None),
              st.sampled_from(["any", "every"])))
counts = st.builds(Count, st.sampled_from(["exactly", "at least", "at most"]),
                   st.integers(0, 12)).filter(lambda c: c.k > 0 or c.op == "exactly")
tasks = st.one_of(
    st.builds(Task, st.just("count"), counts, preds, regions),
    st.builds(Task, st.just("heights"), counts, preds),
    st.builds(lambda c, r, w: Task("distinct", c, Pred(), r, what=w), counts, regions,
              st.sampled_from(["colours", "numbers"])),
    st.builds(lambda a, b, r: Task("more", None, a, r, b), preds, preds, regions))


@settings(max_examples=150, deadline=None)
@given(tasks)
def test_any_task_reads_back_from_its_text(task):
    text = canonical_text(task, R)
    assert parse_task(R, text) == task, text
