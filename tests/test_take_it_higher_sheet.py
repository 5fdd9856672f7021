"""Score sheet, gold/silver bonus rows and spaceships checked against the rulebook
(/work/shared/rulebooks/take-it-higher.en.txt), on partial boards built by hand.

Only full lines score, so a partial board isolates the rows under test. Cells are named
column a-f from the left + row 1-6 from the bottom; vertical = white/red, horizontal =
orange/blue, diagonal-up "/" = pink/green, diagonal-down "\\" = yellow/purple.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from models.take_it_higher.positions import (
    Placement,
    load_position,
    parse_placement,
    position_from_dict,
)
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import default_rules_path, load_rules
from models.take_it_higher.sheet import score_sheet
from models.take_it_higher.state import GameState, replay
from models.take_it_higher.variants import parse_variant
from solver.cli import cli
from solver.errors import BadInput

R = load_rules()
PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "take-it-higher"
BASIC = parse_variant("basic")
GOLD_SILVER = parse_variant("gold-silver")
SIMPLE = parse_variant("simple")
ADVANCED = parse_variant("advanced")


def position(*placements: str):
    return position_from_dict(R, {"game": "take-it-higher", "placements": list(placements)})


def sheet_of(variant, *placements: str):
    return score_sheet(position(*placements), variant)


def colour_lines(sheet) -> dict[str, tuple[int, int, int]]:
    """Non-empty colour lines of the sheet: name -> (tiles, value, points)."""
    return {x.name: (x.tiles, x.value, x.points) for x in sheet.colours if x.tiles}


def stud_lines(sheet) -> dict[str, tuple[int, int, int]]:
    return {x.name: (x.tiles, x.value, x.points) for x in sheet.studs}


def state_after(variant, placements: list[str]) -> GameState:
    return replay(position(*placements), variant)


def place(state: GameState, move: Placement) -> GameState:
    """The state after `move`'s tile is called and placed (BadInput if illegal)."""
    return state.apply_action(R.tile_by_id[move.tile]).apply_action(move)


def launches_for(state: GameState, tile: str, cell: str) -> set[tuple[str, ...]]:
    return set(state.legal_launches(R.tile_by_id[tile], cell))


def cell_of(placement: str) -> str:
    return parse_placement(R, placement, "test").cell


def puzzle(name: str) -> list[str]:
    return json.loads((PUZZLES / name).read_text())["placements"]


# ----------------------------------------------------------------- the tile letters

@pytest.mark.parametrize("tile, stripes", [
    # the rulebook names J outright: White (1), Blue (7), Pink (4), Purple (6)
    ("GJ", ("white", "blue", "pink", "purple")),
    ("SJ", ("white", "blue", "pink", "purple")),
    # the others follow from the rows the example tiles complete
    ("SP", ("white", "orange", "pink", "yellow")),
    ("GH", ("red", "orange", "pink", "yellow")),
    ("SE", ("red", "orange", "green", "purple")),
    ("SG", ("red", "orange", "green", "yellow")),
    ("SN", ("white", "orange", "pink", "purple")),
])
def test_tile_stripes_from_the_rulebook(tile, stripes):
    assert [d.name for d in R.directions] == ["vertical", "horizontal", "diagonal-up",
                                              "diagonal-down"]
    assert R.tile_by_id[tile].stripes == stripes


# ----------------------------------------------------------------- 1. row examples

ROW_EXAMPLES = [
    # rulebook example, placements, colour, tiles, points
    ("four white-striped tiles in a vertical row",
     ["GI@b2", "SJ@b3", "GO@b4", "SP@b5"], "white", 4, 4),
    ("six red-striped tiles in a vertical row",
     ["GA@c1", "SB@c2", "GE@c3", "SF@c4", "GH@c5", "SC@c6"], "red", 6, 48),
    ("six orange-striped tiles in a horizontal row",
     ["GE@a3", "SF@b3", "GM@c3", "SN@d3", "GO@e3", "SP@f3"], "orange", 6, 12),
    ("six blue-striped tiles in a horizontal row",
     ["GA@a4", "SB@b4", "GI@c4", "SJ@d4", "GK@e4", "SL@f4"], "blue", 6, 42),
    ("two orange-striped tiles in a horizontal row",
     ["GE@c1", "SP@d1"], "orange", 2, 4),
    ("three green-striped tiles in a diagonal row",
     ["GA@a4", "SK@b5", "GO@c6"], "green", 3, 15),
    ("four pink-striped tiles in a diagonal row",
     ["GB@a3", "SJ@b4", "GH@c5", "SN@d6"], "pink", 4, 16),
    ("three yellow-striped tiles in a diagonal row",
     ["GC@c1", "SL@b2", "GP@a3"], "yellow", 3, 9),
    ("four purple-striped tiles in a diagonal row",
     ["GA@d1", "SE@c2", "GJ@b3", "SN@a4"], "purple", 4, 24),
]


@pytest.mark.parametrize("text, placements, colour, tiles, points", ROW_EXAMPLES,
                         ids=[x[0] for x in ROW_EXAMPLES])
def test_rulebook_row_examples(text, placements, colour, tiles, points):
    sheet = sheet_of(BASIC, *placements)
    assert len(sheet.rows) == 1  # the partial board isolates the row
    row = sheet.rows[0]
    assert (row.colour, len(row.cells), row.points) == (colour, tiles, points)
    assert colour_lines(sheet) == {colour: (tiles, R.colour_values[colour], points)}
    assert sheet.total == points
    assert sheet.studs == [] and sheet.take_it_higher_bonus is None
    assert board_score(R, position(*placements).board) == points


def test_sheet_adds_the_lengths_of_all_rows_of_a_colour():
    # Freddie's sheet: three purple rows of 4, 4 and 3 tiles -> 11 x 6 = 66
    sheet = sheet_of(BASIC, "GA@d1", "SE@c2", "GJ@b3", "SN@a4",
                     "GB@f3", "SF@e4", "GI@d5", "SM@c6",
                     "GN@e3", "SJ@d4", "GE@c5")
    assert sorted(len(r.cells) for r in sheet.rows) == [3, 4, 4]
    assert colour_lines(sheet) == {"purple": (11, 6, 66)}
    assert sheet.total == 66


def test_sheet_lines_run_from_red_to_white_and_total_them():
    sheet = sheet_of(BASIC, "GA@c1", "SB@c2", "GE@c3", "SF@c4", "GH@c5", "SC@c6",  # red 48
                     "GM@a3", "SP@a4")  # a white column of 2 (c-tiles: no full rows)
    assert [x.name for x in sheet.colours] == ["red", "blue", "purple", "green", "pink",
                                               "yellow", "orange", "white"]
    assert colour_lines(sheet) == {"red": (6, 8, 48), "white": (2, 1, 2)}
    assert sheet.total == 50


def test_a_row_with_one_other_colour_does_not_score():
    sheet = sheet_of(BASIC, "GA@c1", "SB@c2", "GE@c3", "SF@c4", "GH@c5", "SI@c6")
    assert sheet.rows == [] and sheet.total == 0


# ----------------------------------------------------------------- 2. gold and silver

BLUE_ROW_GOLD = ["GA@a4", "GB@b4", "GC@c4", "GD@d4", "GI@e4", "GJ@f4"]
BLUE_ROW_SILVER = ["SA@a4", "SB@b4", "SC@c4", "SD@d4", "SI@e4", "SJ@f4"]


def test_gold_bonus_row_adds_ten_per_tile():
    sheet = sheet_of(GOLD_SILVER, *BLUE_ROW_GOLD)
    assert sheet.rows[0].stud == "gold"
    assert stud_lines(sheet) == {"gold": (6, 10, 60), "silver": (0, 9, 0)}
    assert colour_lines(sheet) == {"blue": (6, 7, 42)}
    assert sheet.total == 102
    assert board_score(R, position(*BLUE_ROW_GOLD).board, gold_silver=True) == 102


def test_silver_bonus_row_adds_nine_per_tile():
    sheet = sheet_of(GOLD_SILVER, *BLUE_ROW_SILVER)
    assert stud_lines(sheet) == {"gold": (0, 10, 0), "silver": (6, 9, 54)}
    assert sheet.total == 96


@pytest.mark.parametrize("placements", [BLUE_ROW_GOLD, BLUE_ROW_SILVER])
def test_stud_bonus_only_under_the_gold_silver_variant(placements):
    for variant in (BASIC, SIMPLE, ADVANCED):
        sheet = sheet_of(variant, *placements)
        assert sheet.studs == [] and sheet.total == 42
    assert board_score(R, position(*placements).board) == 42
    assert sheet_of(parse_variant("simple", gold_silver=True), *placements).total > 42


def test_mixed_studs_give_no_bonus():
    sheet = sheet_of(GOLD_SILVER, "GA@a4", "SB@b4", "GC@c4", "GD@d4", "GI@e4", "GJ@f4")
    assert stud_lines(sheet) == {"gold": (0, 10, 0), "silver": (0, 9, 0)}
    assert sheet.total == 42


def test_jonathans_short_column_is_not_a_silver_bonus_row():
    # Silver O over Silver A on the left: all silver, but part white, part red
    sheet = sheet_of(GOLD_SILVER, "SO@a3", "SA@a4")
    assert sheet.rows == []
    assert stud_lines(sheet) == {"gold": (0, 10, 0), "silver": (0, 9, 0)}
    assert sheet.total == 0
    # the same two cells as a white scoring row are a silver bonus row: 2 + 2 x 9
    sheet = sheet_of(GOLD_SILVER, "SO@a3", "SP@a4")
    assert colour_lines(sheet) == {"white": (2, 1, 2)}
    assert stud_lines(sheet)["silver"] == (2, 9, 18)
    assert sheet.total == 20


# ----------------------------------------------------------------- 3. simple spaceships
# Oliver's worked game is replayed move by move in test_take_it_higher_worked_games.py;
# these check the rules on it that the text does not narrate.

OLIVER = puzzle("oliver-simple.json")
OLIVER_SP = next(i for i, p in enumerate(OLIVER) if p.startswith("SP@"))  # his 7th tile
OLIVER_GH = next(i for i, p in enumerate(OLIVER) if p.startswith("GH@"))  # his 14th


@pytest.mark.parametrize("launch", [("pink",), ("white", "pink"), ("orange",)])
def test_simple_out_of_order_launch_is_rejected(launch):
    state = state_after(SIMPLE, OLIVER[:OLIVER_SP])
    cell = cell_of(OLIVER[OLIVER_SP])
    bad = "+".join([f"SP@{cell}", *launch])
    with pytest.raises(BadInput, match=r"placement 7 \(" + bad.replace("+", r"\+")):
        place(state, parse_placement(R, bad, "placement 7"))
    assert cell not in state.board  # nothing applied


def test_simple_next_three_ships_on_one_tile_in_order_only():
    state = state_after(SIMPLE, OLIVER[:OLIVER_GH])
    cell = cell_of(OLIVER[OLIVER_GH])
    assert launches_for(state, "GH", cell) == {
        (), ("orange",), ("orange", "yellow"), ("orange", "yellow", "pink")}
    with pytest.raises(BadInput, match=r"placement 14 .*next spaceship to launch is orange"):
        place(state, Placement("GH", cell, ("yellow", "pink")))


def test_simple_silver_alone_before_red_is_rejected():
    state = state_after(SIMPLE, OLIVER[:-1])
    cell = cell_of(OLIVER[-1])
    assert launches_for(state, "SE", cell) == {(), ("red",), ("red", "silver")}
    with pytest.raises(BadInput, match="placement 24"):
        place(state, Placement("SE", cell, ("silver",)))  # red first


def test_simple_allows_the_stud_ship_without_the_gold_silver_scoring():
    sheet = score_sheet(position(*OLIVER), SIMPLE)  # no gold-silver, silver still launched
    assert sheet.studs == [] and "silver" in sheet.launches[-1]


def test_simple_rules_reject_a_launch_out_of_order_in_a_file():
    # Hannah's advanced game launches purple first: not allowed under the simple rules
    with pytest.raises(BadInput, match=r"placement 11 \(SF@\w+\+purple\)"):
        replay(position(*puzzle("hannah-advanced.json")), SIMPLE)


def test_spaceships_not_used_in_the_basic_game():
    with pytest.raises(BadInput, match="placement 7"):
        score_sheet(position(*OLIVER[:OLIVER_SP + 1]), BASIC)
    cell = cell_of(OLIVER[OLIVER_SP])
    assert state_after(BASIC, OLIVER[:OLIVER_SP]).legal_launches(R.tile_by_id["SP"], cell) == [()]


# ----------------------------------------------------------------- 4. advanced spaceships
# Hannah's worked game is replayed move by move in test_take_it_higher_worked_games.py.

HANNAH = puzzle("hannah-advanced.json")
SG_AT = next(i for i, p in enumerate(HANNAH) if p.startswith("SG@"))  # her 15th tile


def test_advanced_choice_only_among_ships_still_on_the_pad():
    state = state_after(ADVANCED, HANNAH[:SG_AT])
    cell = cell_of(HANNAH[SG_AT])
    assert launches_for(state, "SG", cell) >= {("yellow",), ("red",)}
    # with yellow gone already (on a tile off these rows), red is the only choice left
    off = next(c for c in R.cell_ids if c != cell and c not in state.ships_on
               and all(c not in line for _, line in R.lines_through[cell]))
    state = replace(state, ships_on={**state.ships_on, off: ("yellow",)})
    assert ("yellow",) not in launches_for(state, "SG", cell)
    assert ("red",) in launches_for(state, "SG", cell)


def test_advanced_simple_style_multi_launch_is_rejected():
    with pytest.raises(BadInput, match=r"placement 14 \(GH@\w+\+orange\+yellow\+pink\)"):
        replay(position(*OLIVER), ADVANCED)


@pytest.mark.parametrize("launched, bonus", [
    ((), 0),
    (("orange", "yellow", "pink", "green", "purple", "blue", "red", "silver", "gold"), 0),
    (("white",), 20),
    (("white", "yellow", "pink"), 20),
    (("white", "orange", "yellow"), 60),
    (("white", "orange", "yellow", "pink", "green", "blue"), 100),
    (("white", "orange", "yellow", "pink", "green", "purple", "blue"), 140),
    (("white", "orange", "yellow", "pink", "green", "purple", "blue", "red", "silver",
      "gold"), 200),
])
def test_ring_stops_below_the_lowest_ship_on_the_pad(launched, bonus):
    for variant in (SIMPLE, ADVANCED):
        ships_on = {cell: (ship,) for cell, ship in zip(R.cell_ids, launched, strict=False)}
        state = GameState(R, variant, ships_on=ships_on)
        assert state.bonus()[0] == bonus


# ----------------------------------------------------------------- 5. full boards

def independent_score(placements: list[str], gold_silver: bool) -> int:
    """Row points straight from the rules file, without rules.py's row code."""
    data = json.loads(default_rules_path().read_text())
    tiles = {t["id"]: t for t in data["tiles"]}
    board = {p.split("+")[0].split("@")[1]: tiles[p.split("@")[0]] for p in placements}
    total = 0
    for direction in data["directions"]:
        for line in direction["lines"]:
            if not all(c in board for c in line):
                continue
            colours = {board[c]["stripes"][direction["name"]] for c in line}
            if len(colours) == 1:
                total += len(line) * data["colours"][colours.pop()]["value"]
                studs = {board[c]["stud"] for c in line}
                if gold_silver and len(studs) == 1:
                    total += len(line) * data["studs"][studs.pop()]["bonus"]
    return total


@pytest.mark.parametrize("name, variant, gold_silver, total, bonus", [
    ("example-board.json", "basic", False, 440, None),
    ("example-board.json", "gold-silver", False, 896, None),
    ("oliver-simple.json", "simple", False, 477, 180),
    ("oliver-simple.json", "simple", True, 611, 180),
    ("hannah-advanced.json", "advanced", False, 506, 160),
    ("hannah-advanced.json", "advanced", True, 795, 160),
])
def test_full_board_sheet(name, variant, gold_silver, total, bonus):
    pos = load_position(R, PUZZLES / name)
    assert pos.complete
    v = parse_variant(variant, gold_silver)
    sheet = score_sheet(pos, v)
    assert sheet.complete
    assert sheet.total == (sum(x.points for x in sheet.colours)
                           + sum(x.points for x in sheet.studs) + (bonus or 0))
    assert all(x.points == x.tiles * x.value for x in sheet.colours + sheet.studs)
    assert sheet.take_it_higher_bonus == bonus
    rows_total = board_score(R, pos.board, v.gold_silver)
    assert rows_total == independent_score([f"{p.tile}@{p.cell}" for p in pos.placements],
                                           v.gold_silver)
    assert sheet.total == rows_total + (bonus or 0) == total
    # every tile of a full board lies on one line per direction
    assert sum(x.tiles for x in sheet.colours) == sum(len(r.cells) for r in sheet.rows)


def test_example_board_every_line_scores():
    sheet = score_sheet(load_position(R, PUZZLES / "example-board.json"), GOLD_SILVER)
    assert len(sheet.rows) == len(R.lines)
    assert stud_lines(sheet) == {"gold": (24, 10, 240), "silver": (24, 9, 216)}


# ----------------------------------------------------------------- CLI

@pytest.mark.parametrize("name, args, total, bonus", [
    ("oliver-simple.json", ["--variant", "simple"], 477, 180),
    ("oliver-simple.json", ["--variant", "simple", "--gold-silver"], 611, 180),
    ("hannah-advanced.json", ["--variant", "advanced"], 506, 160),
    ("hannah-advanced.json", ["--variant", "advanced", "--gold-silver"], 795, 160),
    ("example-board.json", ["--variant", "basic"], 440, None),
    ("example-board.json", ["--variant", "gold-silver"], 896, None),
])
def test_cli_score_json(name, args, total, bonus):
    result = CliRunner().invoke(cli, ["take-it-higher", "score", str(PUZZLES / name), *args,
                                      "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["complete"] is True
    assert data["total"] == total
    assert data["take_it_higher_bonus"] == bonus


def test_cli_score_rejects_an_illegal_launch(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text(json.dumps({"game": "take-it-higher", "placements": OLIVER}))
    result = CliRunner().invoke(cli, ["take-it-higher", "score", str(f), "--variant",
                                      "advanced", "--json"])
    assert result.exit_code == 2
    assert "placement 14" in result.output + str(result.exception or "")
