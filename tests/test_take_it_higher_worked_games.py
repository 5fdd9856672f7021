"""The four worked games of the Take it Higher! rulebook (Freddie, Jonathan, Oliver,
Hannah): their score sheets line by line, and every move the text narrates, replayed by
the rules engine from the boards in puzzles/take-it-higher/.

The rulebook shows the boards only as pictures; scripts/find_take_it_higher_examples.py
found boards that agree with everything its text says. Turns are counted from 1, as the
text counts tiles ("his 7th tile").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from models.take_it_higher.positions import Placement, load_position
from models.take_it_higher.rows import completed_rows
from models.take_it_higher.rules import load_rules
from models.take_it_higher.sheet import ScoreSheet, score_sheet
from models.take_it_higher.state import GameState, replay
from solver.cli import cli
from solver.errors import BadInput

R = load_rules()
PUZZLES = Path(__file__).resolve().parents[1] / "puzzles" / "take-it-higher"


class Worked:
    """A worked game's file: its placements and the game replayed up to any turn."""

    def __init__(self, name: str) -> None:
        self.position = load_position(R, PUZZLES / f"{name}.json")
        self.variant = self.position.variant
        self.placements = self.position.placements

    def turn(self, tile: str) -> int:
        """The turn (1-based) on which `tile` was placed."""
        return next(i for i, p in enumerate(self.placements, 1) if p.tile == tile)

    def before(self, k: int) -> GameState:
        """The game after k-1 tiles, with tile k called."""
        head = type(self.position)(R, self.placements[:k - 1], None, self.variant)
        state = replay(head, self.variant)
        return state.apply_action(R.tile_by_id[self.placements[k - 1].tile])

    def after(self, k: int) -> GameState:
        return self.before(k).apply_action(self.placements[k - 1])

    def completes(self, k: int) -> dict[str, str | None]:
        """Colours of the scoring rows tile k completes -> their stud (bonus row) or None."""
        p = self.placements[k - 1]
        board = self.before(k).board | {p.cell: R.tile_by_id[p.tile]}
        return {r.colour: r.stud for _, r in completed_rows(R, board, p.cell)}

    def options(self, k: int) -> set[tuple[str, ...]]:
        p = self.placements[k - 1]
        return set(self.before(k).legal_launches(R.tile_by_id[p.tile], p.cell))

    def sheet(self) -> ScoreSheet:
        return score_sheet(self.position, self.variant)


def printed(sheet: ScoreSheet, *names: str) -> list[tuple[int, int]]:
    """The sheet's lines as the rulebook prints them ("Reds | 8 | x 8 = 64"): (tiles,
    points) for each line named."""
    lines = {x.name: (x.tiles, x.points) for x in sheet.studs + sheet.colours}
    return [lines[name] for name in names]


def refused(state: GameState, move: Placement, reason: str) -> None:
    """The engine refuses `move` naming `reason`, and the state is unchanged."""
    before = (dict(state.board), dict(state.ships_on))
    with pytest.raises(BadInput, match=reason):
        state.apply_action(move)
    assert (dict(state.board), dict(state.ships_on)) == before


# ----------------------------------------------------------------- Freddie: basic game

FREDDIE = Worked("freddie-basic")


def test_freddie_score_sheet():
    sheet = FREDDIE.sheet()
    assert FREDDIE.variant.name == "basic" and sheet.complete
    assert printed(sheet, "red", "blue", "purple", "green", "pink") == [
        (8, 64), (6, 42), (11, 66), (7, 35), (10, 40)]
    assert sheet.studs == [] and sheet.take_it_higher_bonus is None
    assert sheet.total == 318


def test_freddie_three_purple_rows_of_4_4_and_3():
    purple = sorted(len(r.cells) for r in FREDDIE.sheet().rows if r.colour == "purple")
    assert purple == [3, 4, 4] and sum(purple) == 11


# ----------------------------------------------------------------- Jonathan: gold and silver

JONATHAN = Worked("jonathan-gold-silver")


def test_jonathan_score_sheet():
    sheet = JONATHAN.sheet()
    assert JONATHAN.variant.name == "gold-silver" and sheet.complete
    assert printed(sheet, "gold", "silver", "red", "blue", "purple", "green", "pink") == [
        (14, 140), (13, 117), (8, 64), (12, 84), (10, 60), (10, 50), (7, 28)]
    assert sheet.total == 596


def test_jonathan_five_gold_rows_of_14_and_four_silver_rows_of_13():
    rows = JONATHAN.sheet().rows
    gold = [len(r.cells) for r in rows if r.stud == "gold"]
    silver = [len(r.cells) for r in rows if r.stud == "silver"]
    assert (len(gold), sum(gold)) == (5, 14)
    assert (len(silver), sum(silver)) == (4, 13)


def test_jonathans_short_left_column_is_silver_o_and_a_and_no_bonus_row():
    board = JONATHAN.position.board
    assert {board["a3"].id, board["a4"].id} == {"SO", "SA"}
    colours = {board["a3"].stripes[0], board["a4"].stripes[0]}
    assert colours == {"white", "red"}  # part white, part red: no scoring row
    assert not any(set(r.cells) == {"a3", "a4"} for r in JONATHAN.sheet().rows)


# ----------------------------------------------------------------- Oliver: simple spaceships

OLIVER = Worked("oliver-simple")


def test_oliver_tile_order():
    tiles = [p.tile for p in OLIVER.placements]
    assert tiles[7 - 1] == "SP" and tiles[14 - 1] == "GH"
    assert tiles[15 - 1:] == ["SK", "SA", "GA", "GN", "GL", "GM", "SL", "GE", "SB", "SE"]
    assert len(tiles) == 24


def test_oliver_7th_tile_silver_p_launches_white_not_pink():
    k = OLIVER.turn("SP")
    assert k == 7
    assert set(OLIVER.completes(k)) == {"white", "pink"}
    assert OLIVER.options(k) == {(), ("white",)}
    p = OLIVER.placements[k - 1]
    state = OLIVER.before(k)
    assert state.launched == set()  # no ship before: the ring is on 0
    # pink may not launch yet: orange and yellow are still on the pad
    refused(state, Placement("SP", p.cell, ("pink",)),
            "next spaceship to launch is white")
    refused(state, Placement("SP", p.cell, ("white", "pink")),
            "next spaceship to launch is orange")
    assert p.launch == ("white",)
    assert OLIVER.after(k).bonus() == (20, "white")


def test_oliver_14th_tile_gold_h_launches_orange_yellow_and_pink():
    k = OLIVER.turn("GH")
    assert k == 14
    assert set(OLIVER.completes(k)) == {"orange", "yellow", "pink"}
    assert OLIVER.before(k).bonus() == (20, "white")  # nothing launched on tiles 8-13
    assert ("orange", "yellow", "pink") in OLIVER.options(k)
    assert OLIVER.placements[k - 1].launch == ("orange", "yellow", "pink")
    assert OLIVER.after(k).bonus() == (80, "pink")


@pytest.mark.parametrize("tile, ship", [("SA", "green"), ("GN", "purple"), ("GL", "blue")])
def test_oliver_launches_green_purple_and_blue(tile, ship):
    k = OLIVER.turn(tile)
    assert ship in OLIVER.completes(k)
    assert (ship,) in OLIVER.options(k)
    assert OLIVER.placements[k - 1].launch == (ship,)


def test_oliver_last_tile_silver_e_launches_red_and_silver():
    k = OLIVER.turn("SE")
    assert k == 24
    assert OLIVER.before(k).bonus() == (140, "blue")
    rows = OLIVER.completes(k)
    assert set(rows) == {"red", "purple"} and rows["purple"] == "silver"
    assert ("red", "silver") in OLIVER.options(k)
    assert OLIVER.placements[k - 1].launch == ("red", "silver")
    assert OLIVER.after(k).bonus() == (180, "silver")


def test_oliver_score_sheet():
    sheet = OLIVER.sheet()
    assert OLIVER.variant.name == "simple" and sheet.complete
    assert sheet.take_it_higher_bonus == 180 and sheet.ring_over == "silver"
    assert printed(sheet, "red", "blue", "purple", "green", "pink") == [
        (4, 32), (12, 84), (10, 60), (6, 30), (10, 40)]
    assert sheet.studs == []  # "not used in this example"
    assert sheet.total == 477


# ----------------------------------------------------------------- all four from the CLI

@pytest.mark.parametrize("name, total, bonus", [
    ("freddie-basic", 318, None),
    ("jonathan-gold-silver", 596, None),
    ("oliver-simple", 477, 180),
    ("hannah-advanced", 795, 160),
])
def test_cli_scores_the_worked_games(name, total, bonus):
    result = CliRunner().invoke(cli, ["take-it-higher", "score", str(PUZZLES / f"{name}.json"),
                                      "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["total"], data["take_it_higher_bonus"], data["complete"]) == (
        total, bonus, True)


# ----------------------------------------------------------------- Hannah: advanced spaceships

HANNAH = Worked("hannah-advanced")


def test_hannah_tile_order():
    assert [HANNAH.turn(t) for t in ("SF", "SI", "SG", "GP", "SE")] == [11, 12, 15, 17, 18]
    n = HANNAH.turn("SN")
    assert n > 18  # "now placed Silver N", then the next tiles Silver B, Gold N, Gold H
    assert [HANNAH.turn(t) for t in ("SB", "GN", "GH")] == [n + 1, n + 2, n + 3]


@pytest.mark.parametrize("tile, ship", [("SF", "purple"), ("SI", "blue")])
def test_hannah_11th_and_12th_tiles_launch_purple_and_blue(tile, ship):
    k = HANNAH.turn(tile)
    assert ship in HANNAH.completes(k)
    assert (ship,) in HANNAH.options(k)
    assert HANNAH.placements[k - 1].launch == (ship,)
    assert HANNAH.after(k).bonus() == (0, None)  # white still on the pad


def test_hannah_15th_tile_silver_g_cannot_launch_green():
    k = HANNAH.turn("SG")
    assert {"yellow", "green", "red"} <= set(HANNAH.completes(k))
    state = HANNAH.before(k)
    si = HANNAH.placements[HANNAH.turn("SI") - 1].cell
    assert state.ships_on[si] == ("blue",)
    cell = HANNAH.placements[k - 1].cell
    board = state.board | {cell: R.tile_by_id["SG"]}
    green = next(r for _, r in completed_rows(R, board, cell) if r.colour == "green")
    assert si in green.cells  # the blue spaceship on Silver I stands on the green row
    # the text offers yellow or red; on the board found, the yellow row is a silver bonus
    # row too (no board holds every fact of her game: docs/take-it-higher.md)
    assert HANNAH.options(k) == {(), ("yellow",), ("red",), ("silver",)}
    refused(state, Placement("SG", cell, ("green",)), "green row already carries")
    refused(state, Placement("SG", cell, ("yellow", "red")), "only one spaceship")
    assert HANNAH.placements[k - 1].launch == ("yellow",)


def test_hannah_17th_tile_gold_p_launches_orange():
    k = HANNAH.turn("GP")
    assert "orange" in HANNAH.completes(k) and ("orange",) in HANNAH.options(k)
    assert HANNAH.placements[k - 1].launch == ("orange",)


def test_hannah_18th_tile_silver_e_offers_green_red_or_silver():
    k = HANNAH.turn("SE")
    rows = HANNAH.completes(k)
    assert {"green", "red"} <= set(rows) and "silver" in rows.values()
    assert HANNAH.options(k) == {(), ("green",), ("red",), ("silver",)}
    assert HANNAH.placements[k - 1].launch == ("green",)


def test_hannah_silver_n_launches_white_and_the_ring_climbs_to_60():
    k = HANNAH.turn("SN")
    rows = HANNAH.completes(k)
    assert {"white", "orange", "pink"} <= set(rows) and "silver" in rows.values()
    assert "orange" in HANNAH.before(k).launched
    assert HANNAH.options(k) == {(), ("white",), ("pink",), ("silver",)}
    assert HANNAH.before(k).bonus() == (0, None)
    assert HANNAH.after(k).bonus() == (60, "yellow")  # pink is in the way
    # her last chance: no later tile completes a white row free of spaceships
    for j in range(k + 1, 25):
        assert all("white" not in o for o in HANNAH.options(j))


def test_hannah_silver_b_launches_pink_and_the_ring_climbs_to_140():
    k = HANNAH.turn("SB")
    assert "pink" in HANNAH.completes(k) and ("pink",) in HANNAH.options(k)
    assert HANNAH.after(k).bonus() == (140, "blue")  # red is in the way


def test_hannah_gold_n_launches_the_gold_spaceship():
    k = HANNAH.turn("GN")
    rows = HANNAH.completes(k)
    assert rows == {"purple": "gold", "pink": None}  # pink: one of the two facts given up
    assert {"purple", "pink"} <= HANNAH.before(k).launched
    assert HANNAH.options(k) == {(), ("gold",)}
    assert HANNAH.placements[k - 1].launch == ("gold",)
    assert HANNAH.after(k).bonus() == (140, "blue")  # gold is above red: no move


def test_hannah_gold_h_launches_red_and_the_bonus_is_160():
    k = HANNAH.turn("GH")
    assert "red" in HANNAH.completes(k) and ("red",) in HANNAH.options(k)
    assert HANNAH.after(k).bonus() == (160, "red")
    assert HANNAH.sheet().take_it_higher_bonus == 160  # silver never launched


def test_hannah_score_sheet():
    sheet = HANNAH.sheet()
    assert HANNAH.variant.name == "advanced+gold-silver" and sheet.complete
    assert printed(sheet, "gold", "silver", "red", "blue", "purple", "green", "pink") == [
        (10, 100), (21, 189), (12, 96), (12, 84), (6, 36), (6, 30), (10, 40)]
    assert printed(sheet, "yellow")[0][0] == 10  # the sheet prints the tiles, not the points
    assert sheet.take_it_higher_bonus == 160
    assert sheet.total == 795
