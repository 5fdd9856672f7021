"""The learned value of boards: its features held to the rules engine's scores, its
look-ahead to the exact values, its files, its honesty and its commands."""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace

import pytest

from models.take_it_higher.exact import exact_cells
from models.take_it_higher.game import GAME
from models.take_it_higher.learned.features import (
    board_keys,
    board_value,
    demand_totals,
    fit_key,
    moves,
    play_call,
    ship_chances,
)
from models.take_it_higher.learned.files import (
    builtin_values_path,
    load_values,
    values_digest,
    values_for,
)
from models.take_it_higher.learned.policy import (
    CALLS,
    cell_values,
    learned_cells,
    sample_futures,
)
from models.take_it_higher.learned.tables import LineValues
from models.take_it_higher.learned.td import _merge, _update, play, train
from models.take_it_higher.policies import learned_choice
from models.take_it_higher.positions import Placement, load_position
from models.take_it_higher.rows import board_score
from models.take_it_higher.rules import load_rules
from models.take_it_higher.state import GameState, dealt_game, game_draw, replay
from models.take_it_higher.variants import Variant, variant_from_name
from solver.errors import BadInput
from tests.cli_helpers import assert_one_line_error, game_runner, run_json
from tests.tih_small import (
    random_position,
    small_rules,
    small_rules_dict,
    small_ship_rules,
    small_ship_rules_dict,
)

run = game_runner("take-it-higher")


def _random_weights(values: LineValues, rng: random.Random) -> None:
    """Every table entry a board of the rules can reach, filled with noise, so that the
    incremental gains are checked against the whole sums on non-zero tables."""
    rules = values.rules
    for _ in range(30):
        state, _ = random_position(rules, Variant(values.gold_silver),
                                   rng.randrange(rules.board_size), rng.randrange(10 ** 6))
        b = values.board_of(state.board, state.unseen_tiles())
        for k in board_keys(values, b, len(b.empty)):
            values.weights.setdefault(k, rng.uniform(-20, 20))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("gold_silver", [False, True])
def test_cell_values_are_row_points_plus_the_whole_value_after_the_move(seed, gold_silver):
    """Each cell's value, found from the lines through the cell alone, equals the rules
    engine's score of the board after the move plus the value summed over every line
    (and, with the cells' fits or the colours' demand in the tables, over every empty
    cell or colour)."""
    rules = small_rules(seed, n_cells=6, n_tiles=9, n_dirs=3 + seed % 2) if seed % 3 else \
        load_rules()
    rng = random.Random(seed)
    values = LineValues(rules, gold_silver, fits=seed % 2 == 0, demand=seed in (1, 3, 4, 5))
    _random_weights(values, rng)
    k = rng.randrange(rules.board_size - 1)
    state, tile = random_position(rules, Variant(gold_silver), k, seed)
    called = state.apply_action(tile)
    unseen = called.unseen_tiles()
    got = {c.cell: c.value for c in cell_values(values, state.board, unseen, tile)}
    assert set(got) == set(state.empty_cells())
    for cell in state.empty_cells():
        board = {**state.board, cell: tile}
        after = values.board_of(board, unseen)
        want = board_score(rules, board, gold_silver) + board_value(values, after, len(after.empty))
        assert got[cell] == pytest.approx(want)


def _ship_game(rules, variant: Variant, k: int, rng: random.Random):
    """k random moves, launching whenever a launch is legal (the launch at random):
    the state after them, with the next tile called."""
    state = GameState(rules, variant)
    order = rng.sample(list(rules.tiles), rules.board_size)
    for tile in order[:k]:
        state = state.apply_action(tile)
        moves = state.legal_placements()
        launching = [m for m in moves if m.launch]
        state = state.apply_action(rng.choice(launching or moves))
    return state.apply_action(order[k])


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("ships", ["simple", "advanced"])
def test_ship_values_are_points_plus_ring_plus_the_whole_value_after_the_move(seed, ships):
    """With the ship rules in the tables: the moves valued (each cell with each launch
    set) are exactly the rules engine's legal moves, and each one's value, found from
    the lines through the cell (the whole board after a launch), equals the engine's
    score with the ring's bonus after the move plus the value summed over every line
    (and, with the ships' chances in the tables, over every ship on the pad)."""
    gold_silver = seed % 2 == 1
    rules = small_ship_rules(seed, n_cells=7, n_tiles=10) if seed % 4 else load_rules()
    variant = Variant(gold_silver, ships)
    rng = random.Random(seed)
    values = LineValues(rules, gold_silver, ships=ships, chances=seed % 4 != 3,
                        fits=seed % 3 == 0)
    for _ in range(30):
        state = _ship_game(rules, variant, rng.randrange(rules.board_size), rng)
        b = values.board_of(state.board, state.unseen_tiles(), state.ships_on)
        for key in board_keys(values, b, len(b.empty)):
            values.weights.setdefault(key, rng.uniform(-20, 20))
    checked = launched = 0
    for _ in range(300):
        if checked >= 6 and launched >= 2:
            break
        state = _ship_game(rules, variant, rng.randrange(rules.board_size), rng)
        if checked >= 6 and not any(m.launch for m in state.legal_placements()):
            continue
        checked += 1
        launched += any(m.launch for m in state.legal_placements())
        tile = state.called
        unseen = state.unseen_tiles()
        b = values.board_of(state.board, unseen, state.ships_on)
        pad = [s for s in rules.spaceships if s not in state.launched]
        assert b.rank == [pad.index(s) if s in pad else -1 for s in rules.spaceships]
        now = board_score(rules, state.board, gold_silver) + state.bonus()[0]
        base = board_value(values, b, len(b.empty) - 1)
        t = values.layout.tile_index[tile.id]
        ids = rules.spaceships
        got = {(rules.cell_ids[x], tuple(ids[s] for s in launch)): now + base + gain
               for gain, x, launch in moves(values, b, t)}
        assert set(got) == {(m.cell, m.launch) for m in state.legal_placements()}
        for m in state.legal_placements():
            after = state.apply_action(m)
            a = values.board_of(after.board, unseen, after.ships_on)
            want = board_score(rules, after.board, gold_silver) + after.bonus()[0] + \
                board_value(values, a, len(a.empty))
            assert got[m.cell, m.launch] == pytest.approx(want)
        best = cell_values(values, state.board, unseen, tile, 3, state.ships_on)
        assert len({c.cell for c in best}) == len(best) == len(state.empty_cells())
        assert all((c.cell, c.launch) in got for c in best)
        if len(best) > 1:  # three cells looked ahead, whatever their launches
            assert [c.deep for c in best] == [i < 3 for i in range(len(best))]
    assert launched >= 2  # the launches were checked too


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ships", ["simple", "advanced"])
def test_ship_chances_count_the_lines_that_may_still_launch_each_ship(seed, ships):
    """The ships' chances the values read, held to the rules: per ship on the pad, the
    lines with an empty cell whose tiles share the stripe of the ship's colour (any tile
    for an empty line of that direction) or, for a stud ship, one stripe and the ship's
    stud on every tile; under the advanced rules no ship may be on the line."""
    gold_silver = seed % 2 == 1
    rules = small_ship_rules(seed, n_cells=7, n_tiles=10) if seed % 3 else load_rules()
    variant = Variant(gold_silver, ships)
    rng = random.Random(seed)
    values = LineValues(rules, gold_silver, ships=ships)
    studs = set(rules.stud_bonus)
    seen = set()
    for _ in range(25):
        state = _ship_game(rules, variant, rng.randrange(rules.board_size), rng)
        b = values.board_of(state.board, state.unseen_tiles(), state.ships_on)
        want = {}
        for ship in rules.spaceships:
            if ship in state.launched:
                continue
            n = 0
            for d, cells in rules.lines:
                tiles = [state.board[c] for c in cells if c in state.board]
                if len(tiles) == len(cells) or len({t.stripes[d] for t in tiles}) > 1 or \
                        ships == "advanced" and any(state.ships_on.get(c) for c in cells):
                    continue
                if ship in studs:
                    n += all(t.stud == ship for t in tiles)
                elif ship in rules.directions[d].colours:
                    n += all(t.stripes[d] == ship for t in tiles)
            want[ship] = n
        got = dict(zip(rules.spaceships, ship_chances(values, b), strict=True))
        assert {s: got[s] for s in want} == want
        seen.add(tuple(sorted(want.values())))
    assert len(seen) > 5  # positions of many kinds


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("gold_silver", [False, True])
def test_cell_fits_count_the_unseen_tiles_that_fit_every_line(seed, gold_silver):
    """The cells' fits the values read, held to the rules: per empty cell crossed by at
    least two lines whose tiles share a stripe, the unseen tiles with those stripes (and,
    under the gold/silver rules, the stud of each such line whose tiles all carry one)."""
    rules = small_rules(seed, n_cells=7, n_tiles=10, n_dirs=3 + seed % 2) if seed % 3 \
        else load_rules()
    values = LineValues(rules, gold_silver, fits=True)
    rng = random.Random(seed)
    seen = set()
    for _ in range(25):
        state, _ = random_position(rules, Variant(gold_silver),
                                   rng.randrange(rules.board_size), rng.randrange(10 ** 6))
        unseen = state.unseen_tiles()
        b = values.board_of(state.board, unseen)
        left = len(b.empty)
        for cell in state.empty_cells():
            need = []  # (direction, stripe, stud or None) of each line that needs something
            for d, cells in rules.lines:
                tiles = [state.board[c] for c in cells if c in state.board]
                if cell not in cells or not tiles or len({t.stripes[d] for t in tiles}) > 1:
                    continue
                studs = {t.stud for t in tiles}
                stud = studs.pop() if gold_silver and len(studs) == 1 else None
                need.append((d, tiles[0].stripes[d], stud))
            fit = sum(all(t.stripes[d] == c and (s is None or t.stud == s)
                          for d, c, s in need) for t in unseen)
            key = fit_key(values, b, rules.cell_ids.index(cell), left, {}, {})
            if len(need) < 2:
                assert key is None
            else:
                assert key is not None and key[3] == min(fit, 3)
                seen.add((len(need), key[3]))
    assert len(seen) >= 4  # cells of many kinds


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("gold_silver", [False, True])
def test_looking_one_call_ahead_with_two_cells_left_is_exact(seed, gold_silver):
    """Two empty cells: after the move one call is left, and its tile's best cell is
    the last one, so the look-ahead value is the exact expectation whatever the tables."""
    rules = small_rules(seed, n_cells=5, n_tiles=8)
    values = LineValues(rules, gold_silver)
    _random_weights(values, random.Random(seed))
    state, tile = random_position(rules, Variant(gold_silver), rules.board_size - 2, seed)
    unseen = state.apply_action(tile).unseen_tiles()
    got = cell_values(values, state.board, unseen, tile, lookahead=5)
    assert all(c.deep for c in got)
    exact = exact_cells(state, tile)
    assert {c.cell: pytest.approx(c.value) for c in got} == \
        {c.cell: c.value for c in exact.cells}


def _values_alone(values: LineValues, state: GameState) -> GameState:
    """The called tile on its cell of best value, no look-ahead (with its launch)."""
    best = cell_values(values, state.board, state.unseen_tiles(), state.called, 0,
                       state.ships_on if values.ships else None)[0]
    return state.apply_action(Placement(state.called.id, best.cell, best.launch))


def _points(values: LineValues, state: GameState) -> float:
    """The rules engine's points of the state (rows and ring) plus the learned value of
    its board if tiles are still to come."""
    points = board_score(values.rules, state.board, values.gold_silver) + \
        (state.bonus()[0] if values.ships else 0)
    if state.empty_cells():
        b = values.board_of(state.board, state.unseen_tiles(),
                            state.ships_on if values.ships else None)
        points += board_value(values, b, len(b.empty))
    return points


@pytest.mark.parametrize("seed", range(8))
def test_sampled_futures_are_games_of_the_rules_engine(seed):
    """Each move looked ahead on sampled futures is worth the mean over those futures
    of the rules engine's game: the move, then each future's tiles called and placed by
    the values alone (launches and ring too with ship values), then the learned value
    of the board; its standard error is that of those games."""
    ships = [None, "simple", "advanced"][seed % 3]
    gold_silver = seed % 2 == 1
    rng = random.Random(seed)
    if ships:
        rules = small_ship_rules(seed, n_cells=8, n_tiles=11)
        variant = Variant(gold_silver, ships)
        state = _ship_game(rules, variant, rng.randrange(3), rng)
    else:
        rules = small_rules(seed, n_cells=8, n_tiles=11)
        variant = Variant(gold_silver)
        start, tile = random_position(rules, variant, rng.randrange(3), seed)
        state = start.apply_action(tile)
    values = LineValues(rules, gold_silver, ships=ships)
    _random_weights(values, rng)
    unseen = state.unseen_tiles()
    calls = 1 + seed % 3
    got = cell_values(values, state.board, unseen, state.called, 3,
                      state.ships_on if ships else None, 5, calls, seed)
    idx = values.layout.tile_index
    futures = sample_futures([idx[t.id] for t in unseen],
                             min(calls, len(state.empty_cells()) - 1), 5, seed)
    tiles = {idx[t.id]: t for t in unseen}
    sampled = [c for c in got if c.futures]
    assert len(sampled) == 3 and got[:3] == sampled
    for c in sampled:
        after = state.apply_action(Placement(state.called.id, c.cell, c.launch))
        games = []
        for future in futures:
            end = after
            for u in future:
                end = _values_alone(values, end.apply_action(tiles[u]))
            games.append(_points(values, end))
        mean = sum(games) / len(games)
        assert c.value == pytest.approx(mean)
        error = (sum((g - mean) ** 2 for g in games) / (len(games) - 1) / len(games)) ** .5
        assert c.error == pytest.approx(error) and c.futures == 5


def test_sampled_futures_replay_from_their_seed_and_ignore_the_dealt_order():
    """The same seed gives the same futures; the pool is sorted first, so the order of
    the unseen tiles given (a dealt game knows its order) changes nothing."""
    coming = list(range(30))
    a = sample_futures(coming, 4, 10, 7)
    assert a == sample_futures(list(reversed(coming)), 4, 10, 7)
    assert a != sample_futures(coming, 4, 10, 8)
    assert all(len(set(f)) == 4 and set(f) <= set(coming) for f in a)
    rules = load_rules()
    state = dealt_game(rules, Variant(), game_draw(rules, 3))
    state = state.apply_action(learned_choice(futures=0)(state, state.legal_placements(),
                                                         random.Random(0)))
    x = learned_cells(state, state.called, futures=8, seed=5)
    y = learned_cells(replace(state, to_call=None), state.called, futures=8, seed=5)
    assert x == y and x.futures == 8 and x.calls == CALLS
    assert x.cells[0].error > 0


@pytest.mark.parametrize("name", ["basic", "advanced"])
def test_the_features_use_no_more_than_the_player_sees(name):
    """A dealt game knows its order; the values read the board, the ships and the
    unseen tiles only, so the position with the order forgotten gets the same answer."""
    rules = load_rules()
    variant = variant_from_name(name)
    values = values_for(rules, variant)
    state = dealt_game(rules, variant, game_draw(rules, 5))
    for _ in range(7):
        state = state.apply_action(learned_choice(futures=0)(
            state, state.legal_placements(), random.Random(0)))
    forgotten = replace(state, to_call=None)
    a = learned_cells(state, state.called)
    b = learned_cells(forgotten, state.called)
    assert a == b and a.looked_ahead == 6
    assert values.games > 0


def test_learning_raises_the_score_and_replays_from_its_seed(tmp_path):
    """On a small board: 3,000 games of self-play score more on 300 fixed draws than
    the empty tables; the same seed learns the same tables; the file round-trips."""
    rules = small_rules(3, n_cells=6, n_tiles=10)
    draws = [random.Random(g).sample(range(len(rules.tiles)), rules.board_size)
             for g in range(300)]
    empty = LineValues(rules, False)
    before = sum(play(empty, d) for d in draws)
    learned = train(rules, Variant(), 3000, seed=2)
    after = sum(play(learned, d) for d in draws)
    assert after > before * 1.15
    again = train(rules, Variant(), 3000, seed=2)
    assert again.weights == learned.weights and again.games == 3000
    for name in ("v.json", "v.json.gz"):
        learned.save(tmp_path / name)
        back = load_values(tmp_path / name, rules, Variant())
        assert back.games == 3000
        assert sum(play(back, d) for d in draws) == after


def test_td_lambda_moves_each_board_toward_its_discounted_points_to_come():
    """From empty tables every board is worth 0 during the game, so TD(lambda) moves
    the board after the t-th call by alpha * sum_k lambda^k r_(t+1+k) (the points of
    the later calls, the k-th weighed lambda^k), shared among its table entries; the
    boards and points are those of the same game played without learning."""
    rules = small_rules(3, n_cells=6, n_tiles=10)
    draw = random.Random(5).sample(range(len(rules.tiles)), rules.board_size)
    plain = LineValues(rules, False)
    b = plain.new_board()
    boards, points = [], []
    for t in draw:
        points.append(play_call(plain, b, t))
        boards.append(board_keys(plain, b, len(b.empty)))
    assert sum(points) > 0
    lam, alpha = 0.5, 0.3
    expected: dict[tuple, float] = {}
    for i, keys in enumerate(boards):
        target = sum(lam ** k * r for k, r in enumerate(points[i + 1:]))
        for key in keys:
            expected[key] = expected.get(key, 0.0) + alpha * target / len(keys)
    learned = LineValues(rules, False)
    assert play(learned, draw, alpha, lam) == sum(points)
    assert set(learned.weights) == set(expected)
    for key, w in expected.items():
        assert learned.weights[key] == pytest.approx(w)
    # TD(0) learns during the game instead: other tables
    td0 = LineValues(rules, False)
    play(td0, draw, alpha)
    assert td0.weights != learned.weights


def test_values_of_other_rules_or_rows_are_refused(tmp_path):
    rules = small_rules(3, n_cells=6, n_tiles=10)
    path = tmp_path / "v.json"
    train(rules, Variant(), 10, seed=1).save(path)
    with pytest.raises(BadInput, match="other rules"):
        load_values(path, small_rules(4, n_cells=6, n_tiles=10), Variant())
    with pytest.raises(BadInput, match="gold/silver"):
        load_values(path, rules, Variant(True))
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(BadInput, match="not a values file"):
        load_values(tmp_path / "bad.json", rules, Variant())
    with pytest.raises(BadInput, match="no learned values for these rules"):
        values_for(rules, Variant())


@pytest.mark.parametrize("name", ["basic", "gold-silver", "simple", "advanced",
                                  "advanced+gold-silver", "simple+gold-silver"])
def test_the_builtin_values_are_for_the_builtin_board(name):
    """Each variant has the built-in board's values of its own, those of the spaceship
    variants learned with their spaceship rules."""
    rules = load_rules()
    variant = variant_from_name(name)
    values = values_for(rules, variant)
    assert values.games >= 100_000 and values.gold_silver == variant.gold_silver
    assert builtin_values_path(variant).name == f"learned-{name}.json.gz"
    assert values.ships == variant.ships


def test_learned_policy_beats_greedy_on_the_builtin_board():
    """Twelve seeded basic games, the same draws: the learned values alone (no look-ahead,
    no exact endgame) against greedy (checked: 313.9 against 287.3 a game)."""
    from models.take_it_higher.policies import greedy_choice
    from models.take_it_higher.sheet import state_sheet

    rules = load_rules()
    policies = {"learned": learned_choice(0, endgame=0), "greedy": greedy_choice}
    means = {}
    for name, choose in policies.items():
        total = 0
        for g in range(12):
            state = dealt_game(rules, Variant(), game_draw(rules, g))
            rng = random.Random(g)
            while not state.is_terminal():
                state = state.apply_action(choose(state, state.legal_placements(), rng))
            total += state_sheet(state).total
        means[name] = total / 12
    assert means["learned"] > means["greedy"] + 15


def _learn(tmp_path, rules_data: dict, out: str, *options: str):
    """A rules file and values learned on it by `learn OPTIONS` (checked to succeed):
    (rules file, values file, the command's result)."""
    rules_file = tmp_path / "rules.json"
    rules_file.write_text(json.dumps(rules_data))
    res = run("learn", "--rules", str(rules_file), *options, "--out", str(tmp_path / out))
    assert res.exit_code == 0, res.output
    return rules_file, tmp_path / out, res


def test_commands(tmp_path):
    rules_file, out, res = _learn(tmp_path, small_rules_dict(3, n_cells=6, n_tiles=10),
                                  "v.json.gz", "--games", "300", "--seed", "4")
    assert "300 games learned" in res.stderr
    rules = small_rules(3, n_cells=6, n_tiles=10)
    values = load_values(out, rules, Variant())
    train(rules, Variant(), 300, seed=4).save(tmp_path / "same.json.gz")
    assert out.read_bytes() == (tmp_path / "same.json.gz").read_bytes()
    state, tile = random_position(rules, Variant(), 2, 9)
    pos = tmp_path / "p.json"
    pos.write_text(json.dumps(GAME.write(state.apply_action(tile))))
    data = run_json(run, "hint", str(pos), "--learned", "--values", str(out),
                    "--rules", str(rules_file), "--lookahead", "0", "--json")
    want = learned_cells(state, tile, 0, out)  # a small board: the exact endgame
    assert want.exact and data["exact"]
    assert [(c["cell"], c["value"]) for c in data["cells"]] == \
        [(c.cell, pytest.approx(c.value)) for c in want.cells]
    assert values.games == 300
    assert data["all_seeing"] is False
    text = run("hint", str(pos), "--learned", "--values", str(out), "--rules",
               str(rules_file))
    assert text.exit_code == 0 and "the best play" in text.stdout
    early = tmp_path / "early.json"  # the built-in board, its built-in values
    early.write_text(json.dumps({"placements": ["GA@" + load_rules().cell_ids[0]],
                                 "called": "SB"}))
    text = run("hint", str(early), "--learned")
    assert text.exit_code == 0 and "learned value" in text.stdout, text.output
    assert "built-in values" in text.stdout
    assert "sampled futures" in text.stdout and "32 futures" in text.stdout
    data = run_json(run, "hint", str(early), "--learned", "--futures", "4", "--calls", "1",
                    "--seed", "3", "--json")
    state = replay(load_position(load_rules(), str(early)), Variant())
    want = learned_cells(state, state.called, futures=4, calls=1, seed=3)
    assert (data["futures"], data["calls"]) == (4, 1) and want.futures == 4
    assert [(c["cell"], c["value"], c["error"]) for c in data["cells"]] == \
        [(c.cell, pytest.approx(c.value), pytest.approx(c.error)) for c in want.cells]
    sim = run_json(run, "simulate", "--rules", str(rules_file), "--policy", "learned",
                   "--values", str(out), "--games", "2", "--no-optimum", "--jobs", "1",
                   "--json")
    assert len(sim["records"]) == 2
    # bad input: one line, exit 2
    assert_one_line_error(run("hint", str(pos), "--learned", "--rules", str(rules_file)),
                          "no learned values")
    # a learned option asks for the learned method
    assert_one_line_error(run("hint", str(pos), "--futures", "3", "--rules", str(rules_file)),
                          "no learned values")
    assert_one_line_error(run("hint", str(pos), "--learned", "--exact", "--values",
                              str(out), "--rules", str(rules_file)), "choose one")
    assert_one_line_error(run("learn", "--games", "1", "--out", str(tmp_path / "x.json"),
                              "--resume", str(rules_file)), "not a values file")


def test_lambda_command(tmp_path):
    """`learn --lambda L` writes the bytes of `train(lam=L)`, other tables than TD(0);
    a lambda of 1 or more is refused in one line."""
    rules_file, out, _ = _learn(tmp_path, small_rules_dict(3, n_cells=6, n_tiles=10),
                                "l.json", "--games", "200", "--lambda", "0.7")
    rules = small_rules(3, n_cells=6, n_tiles=10)
    train(rules, Variant(), 200, lam=0.7).save(tmp_path / "same.json")
    assert out.read_bytes() == (tmp_path / "same.json").read_bytes()
    train(rules, Variant(), 200).save(tmp_path / "td0.json")
    assert out.read_bytes() != (tmp_path / "td0.json").read_bytes()
    assert_one_line_error(run("learn", "--rules", str(rules_file), "--games", "1",
                              "--lambda", "1", "--out", str(tmp_path / "x.json")),
                          "--lambda")


def test_cell_fits_command(tmp_path):
    """`learn --cell-fits` writes tables with the cells' fits, the same bytes as
    `train(fits=True)`; resumed tables keep them unless told otherwise, and a file
    without them plays as before."""
    rules_file, out, _ = _learn(tmp_path, small_rules_dict(2, n_cells=7, n_tiles=10),
                                "f.json", "--games", "60", "--gold-silver", "--cell-fits")
    rules = small_rules(2, n_cells=7, n_tiles=10)
    data = json.loads(out.read_text())
    assert data["fits"] is True and any(k[0] == "F" for k, _ in data["weights"])
    train(rules, Variant(True), 60, fits=True).save(tmp_path / "same.json")
    assert out.read_bytes() == (tmp_path / "same.json").read_bytes()
    assert load_values(out, rules, Variant(True)).fits
    for flag, fits in (((), True), (("--no-cell-fits",), False)):
        more = tmp_path / "more.json"
        assert run("learn", "--rules", str(rules_file), "--gold-silver", "--games", "20",
                   "--resume", str(out), *flag, "--out", str(more)).exit_code == 0
        assert json.loads(more.read_text()).get("fits", False) is fits
    plain = tmp_path / "plain.json"
    assert run("learn", "--rules", str(rules_file), "--games", "20", "--out",
               str(plain)).exit_code == 0
    assert "fits" not in json.loads(plain.read_text())
    assert not any(k[0] == "F" for k, _ in json.loads(plain.read_text())["weights"])



def test_colour_demand_counts_the_lines_waiting_for_each_colour():
    """The demand entries count, per direction and colour, the lines with a tile of
    that colour only and an empty cell, and those lines' empty cells (brute force
    over the board's lines), and read the unseen tiles of that colour."""
    rules = load_rules()
    values = LineValues(rules, False, demand=True)
    for seed in range(8):
        state, _ = random_position(rules, Variant(), 4 + seed, seed)
        b = values.board_of(state.board, state.unseen_tiles())
        want: dict[tuple[int, int], tuple[int, int]] = {}
        for d, line in rules.lines:
            colours = {state.board[c].stripes[d] for c in line if c in state.board}
            empties = sum(c not in state.board for c in line)
            if len(colours) == 1 and empties:
                key = (d, rules.directions[d].colours.index(colours.pop()))
                n, e = want.get(key, (0, 0))
                want[key] = (n + 1, e + empties)
        assert demand_totals(values, b) == want
        unseen = state.unseen_tiles()
        for key in board_keys(values, b, len(b.empty)):
            if key[0] == "D":
                _, d, c, n, e, supply, _ = key
                colour = rules.directions[d].colours[c]
                assert supply == min(99, sum(t.stripes[d] == colour for t in unseen))
                assert (n, e) == tuple(min(x, cap) for x, cap in zip(want[d, c], (4, 12), strict=True))


def test_colour_demand_command(tmp_path):
    """`learn --colour-demand` writes tables with the demand entries, the same bytes as
    `train(demand=True)`; resumed tables keep them, and they play."""
    rules_file, out, _ = _learn(tmp_path, small_rules_dict(3, n_cells=6, n_tiles=10),
                                "d.json", "--games", "200", "--colour-demand")
    rules = small_rules(3, n_cells=6, n_tiles=10)
    data = json.loads(out.read_text())
    assert data["demand"] is True and any(k[0] == "D" for k, _ in data["weights"])
    train(rules, Variant(), 200, demand=True).save(tmp_path / "same.json")
    assert out.read_bytes() == (tmp_path / "same.json").read_bytes()
    more = tmp_path / "more.json"
    assert run("learn", "--rules", str(rules_file), "--games", "20", "--resume", str(out),
               "--out", str(more)).exit_code == 0
    assert json.loads(more.read_text())["demand"] is True
    plain = tmp_path / "plain.json"
    assert run("learn", "--rules", str(rules_file), "--games", "20", "--out",
               str(plain)).exit_code == 0
    assert "demand" not in json.loads(plain.read_text())


def test_learning_on_several_processes_merges_the_mean_change(tmp_path):
    """`learn --jobs 2`: the same seed, games and jobs write the same bytes; the games
    are those of the run (each drawn from the seed and its number), so two processes
    learn other tables than one, and as well: both beat the empty tables by as much on
    fixed draws. A merge moves each entry by the mean of the changes that name it."""
    weights = {("a",): 1.0, ("b",): 2.0}
    news = _merge(weights, [{("a",): 0.5, ("c",): 1.0}, {("a",): -0.25}])
    assert news == {("a",): 1.125, ("c",): 1.0} and weights == {
        ("a",): 1.125, ("b",): 2.0, ("c",): 1.0}
    rules_file, out, _ = _learn(tmp_path, small_rules_dict(3, n_cells=6, n_tiles=10),
                                "j.json", "--games", "3000", "--jobs", "2", "--seed", "2")
    rules = small_rules(3, n_cells=6, n_tiles=10)
    _learn(tmp_path, small_rules_dict(3, n_cells=6, n_tiles=10), "again.json", "--games",
           "3000", "--jobs", "2", "--seed", "2")
    assert out.read_bytes() == (tmp_path / "again.json").read_bytes()
    two = load_values(out, rules, Variant())
    one = train(rules, Variant(), 3000, seed=2)
    assert two.games == 3000 and two.weights != one.weights
    draws = [random.Random(g).sample(range(len(rules.tiles)), rules.board_size)
             for g in range(300)]
    before = sum(play(LineValues(rules, False), d) for d in draws)
    for learned in (one, two):
        assert sum(play(learned, d) for d in draws) > before * 1.15


def test_coherence_slows_an_entry_whose_errors_cancel():
    """Temporal coherence: an entry's first step is the whole step; after errors of
    +1 and -1 (summed 0) it stops moving; after +1 and +1 it moves at full rate."""
    rules = small_rules(3, n_cells=6, n_tiles=10)
    values = LineValues(rules, False)
    values.coherence = {}
    key = [("p", 0, 0)]
    for delta, weight in ((1.0, 1.0), (-1.0, 0.0), (0.5, 0.0)):
        _update(values, key, delta)
        assert values.weights[key[0]] == pytest.approx(weight)
    values.coherence = {}
    values.weights = {}
    for delta, weight in ((1.0, 1.0), (1.0, 2.0), (-1.0, 1.0)):
        _update(values, key, delta)
        assert values.weights[key[0]] == pytest.approx(weight)
    assert train(rules, Variant(), 50, coherence=True).coherence is not None

def test_ship_commands(tmp_path):
    """Values learned with spaceship rules: a hint names each cell's launch, and the
    values serve only their own rules."""
    rules_file, out, _ = _learn(tmp_path, small_ship_rules_dict(5, n_cells=7, n_tiles=10),
                                "adv.json", "--variant", "advanced", "--games", "200")
    assert json.loads(out.read_text())["ships"] == "advanced"
    assert json.loads(out.read_text())["chances"] is True  # new ship tables read them
    rules = small_ship_rules(5, n_cells=7, n_tiles=10)
    # tables without the chances go on without them, unless asked; their entries then
    # start, and only then
    old = tmp_path / "old.json"
    assert run("learn", "--rules", str(rules_file), "--variant", "advanced", "--games", "30",
               "--no-ship-chances", "--out", str(old)).exit_code == 0
    for flag, chances in (((), False), (("--ship-chances",), True)):
        more = tmp_path / "more.json"
        assert run("learn", "--rules", str(rules_file), "--variant", "advanced", "--games",
                   "30", "--resume", str(old), *flag, "--out", str(more)).exit_code == 0
        data = json.loads(more.read_text())
        assert data.get("chances", False) is chances
        assert any(k[0] == "A" for k, _ in data["weights"]) is chances
    assert not any(k[0] == "A" for k, _ in json.loads(old.read_text())["weights"])
    rng = random.Random(2)
    for _ in range(200):  # a position where the hint launches a ship from some cell
        state = _ship_game(rules, Variant(False, "advanced"), rng.randrange(5), rng)
        if any(m.launch for m in state.legal_placements()):
            want = learned_cells(state, state.called, path=out)
            if any(c.launch for c in want.cells):
                break
    pos = tmp_path / "p.json"
    pos.write_text(json.dumps(GAME.write(state)))
    data = run_json(run, "hint", str(pos), "--learned", "--values", str(out), "--rules",
                    str(rules_file), "--variant", "advanced", "--json")
    assert want.ships and data["ships"]
    assert [(c["cell"], tuple(c["launch"])) for c in data["cells"]] == \
        [(c.cell, c.launch) for c in want.cells]
    assert any(c.launch for c in want.cells)
    text = run("hint", str(pos), "--learned", "--values", str(out), "--rules",
               str(rules_file), "--variant", "advanced")
    assert text.exit_code == 0 and "launch" in text.stdout and "ring" in text.stdout
    # the store tells games of other values apart (the same options otherwise)
    other = tmp_path / "adv2.json"
    assert run("learn", "--rules", str(rules_file), "--variant", "advanced", "--games", "50",
               "--out", str(other)).exit_code == 0
    store = tmp_path / "s.sqlite"
    for values in (out, other, out):
        sim = run_json(run, "simulate", "--rules", str(rules_file), "--variant", "advanced",
                       "--policy", "learned", "--values", str(values), "--games", "2",
                       "--no-optimum", "--jobs", "1", "--store", str(store), "--resume",
                       "--json")
        assert len(sim["records"]) == 2
    with sqlite3.connect(store) as db:
        data = [json.loads(p)["policy_data"]["learned"]
                for (p,) in db.execute("SELECT parameters FROM games")]
    variant = Variant(False, "advanced")
    assert sorted(data) == sorted([values_digest(rules, variant, out)] * 2
                                  + [values_digest(rules, variant, other)] * 2)
    assert_one_line_error(run("hint", str(pos), "--learned", "--values", str(out), "--rules",
                              str(rules_file), "--variant", "simple"),
                          "values learned for the advanced spaceship rules")
    # --values alone asks for the learned method
    alone = run_json(run, "hint", str(pos), "--values", str(out), "--rules", str(rules_file))
    assert alone["method"] == "learned" and alone["chosen"] == "--values"


def test_the_endgame_is_played_by_exact_values():
    """Once the rest of the game is small, the cells are the exact values (best play);
    with the endgame off, the learned ones."""
    rules = load_rules()
    state, tile = random_position(rules, Variant(), rules.board_size - 3, 4)
    got = learned_cells(state, tile)
    assert got.exact and got.looked_ahead == 0
    assert [(c.cell, c.value) for c in got.cells] == \
        [(c.cell, pytest.approx(c.value)) for c in exact_cells(state, tile).cells]
    off = learned_cells(state, tile, endgame=0)
    assert not off.exact and {c.cell for c in off.cells} == {c.cell for c in got.cells}


def test_rows_values_play_a_spaceship_game_with_the_greedy_launch():
    """Values of the rows alone (the built-in gold/silver file) in a simple + gold/silver
    game: one call ahead, no launches of their own, and the policy's move is a cell
    they rank with `greedy_launch`'s launch there, every move legal to the end."""
    from models.take_it_higher.heuristics import greedy_launch

    rules = load_rules()
    variant = variant_from_name("simple+gold-silver")
    rows = str(builtin_values_path(Variant(True)))
    state = dealt_game(rules, variant, game_draw(rules, 2))
    choose = learned_choice(path=rows, endgame=0)
    launched = 0
    while not state.is_terminal():
        result = learned_cells(state, state.called, path=rows, endgame=0)
        assert not result.ships and result.futures == 0
        move = choose(state, state.legal_placements(), random.Random(0))
        assert move in state.legal_placements()
        assert move.cell in {c.cell for c in result.cells}
        assert move.launch == greedy_launch(state, state.called, move.cell)
        launched += len(move.launch)
        state = state.apply_action(move)
    assert launched > 0
