"""The SAT model of the rest of a Hoch Hinaus! game (exact.py) against the rules engine
and the depth-first search, and `reachable --open-hands` on it."""

import json
import random
from collections import Counter

import pytest

from models.hoch_hinaus.board import Action, Board
from models.hoch_hinaus.exact import encode_game, placements_left, solve
from models.hoch_hinaus.game import GAME
from models.hoch_hinaus.positions import position_json
from models.hoch_hinaus.reachable import dfs, exact
from models.hoch_hinaus.state import Bonus, GameState, new_game
from models.hoch_hinaus.tasks import holds, parse_task
from solver.backends.sat import IncrementalSat
from tests.cli_helpers import game_runner

DATA = GAME.load_rules(None)
R, CAT = DATA.rules, DATA.catalogue
run = game_runner("hoch-hinaus")


def small_end_game(seed: int) -> GameState:
    """A seeded deal played some random turns on, cut down to an end game of at most
    three placements: few open and pile tasks (half the time ones that a random line of
    placements fulfils, so that wins are common), none to two bonus tasks one or two gap
    fillers release (every way a task comes up is in play; the search finishes fast)."""
    rng = random.Random(seed)
    g = new_game(R, CAT, 1 + seed % 2, "first", rng)
    for _ in range(rng.randrange(2, 7)):
        acts = [a for a in g.legal_actions() if a.filler is None]
        if g.status != "playing" or not acts:
            break
        g = g.apply_action(rng.choice(acts))
    g = g.but(reserve=g.reserve[:rng.randrange(0, 2)])
    g = g.but(hands=[h[:1 if len(g.hands) == 2 else 2] for h in g.hands])
    tasks = list(CAT.tasks)
    rng.shuffle(tasks)
    if rng.random() < 0.5:  # tasks a random line of placements fulfils
        b = g.board.copy()
        for tile in rng.sample(g.hands[g.on_turn], len(g.hands[g.on_turn])):
            acts = b.placements([tile], g.pros, False)
            if acts:
                b.apply(rng.choice(acts))
        now, after = g.board.visible(), b.visible()
        tasks = [t for t in tasks if holds(R, t, after) and not holds(R, t, now)] + tasks
    g = g.but(open=[tasks.pop(0) for _ in range(rng.choice((1, 2, 4)))])
    g = g.but(draw_pile=[tasks.pop(0) for _ in range(rng.randrange(0, 3))])
    g = g.but(bonus=[Bonus(tasks.pop(), rng.choice((1, 2)))
                     for _ in range(rng.randrange(0, 3))])
    return g.but(completed=[], status="playing").judged()


def end_games(n: int) -> list[GameState]:
    out, seed = [], 0
    while len(out) < n:
        g = small_end_game(seed)
        seed += 1
        if g.status == "playing":
            out.append(g)
    return out


def brute_force(g: GameState) -> bool:
    """Can some line of placements win? Every legal line, played by the engine."""
    if g.status != "playing":
        return g.status == "won"
    return any(brute_force(g.apply_action(a)) for a in g.legal_actions())


def replays_to_a_win(game: GameState, line) -> bool:
    g = game
    for a in line:
        g = g.apply_action(a)
    return g.status == "won"


def test_the_model_equals_the_depth_first_search_on_small_end_games():
    answers = Counter()
    for g in end_games(6):
        got = solve(g)
        ref = dfs(g, 10**6)
        assert ref.answer in ("won", "lost")  # the reference finished
        assert got.answer == ref.answer, position_json(g)
        if got.answer == "won":  # a line the engine plays to a win
            assert got.line and replays_to_a_win(g, got.line)
        answers[got.answer] += 1
    assert answers["won"] >= 2 and answers["lost"] >= 2  # both answers tested


def test_the_model_equals_every_line_of_play_without_gap_fillers():
    """The second method without the search's SAT pruning: every line by the engine."""
    answers = Counter()
    for g in end_games(30):
        if g.fillers_left == 0 and placements_left(g) <= 2:
            got = solve(g).answer
            assert got == ("won" if brute_force(g) else "lost"), position_json(g)
            answers[got] += 1
    assert answers["won"] >= 1 and answers["lost"] >= 1


def random_line(g: GameState, rng: random.Random, longest: int, fill_chance: float
                ) -> tuple[list[Action], list[GameState]]:
    """A random legal line from g of at most `longest` placements, one with a gap filler
    with chance `fill_chance` where any is legal: the placements and the states (g
    first)."""
    line, states = [], [g]
    while g.status == "playing" and len(line) < longest:
        acts = g.legal_actions()
        fill = [a for a in acts if a.filler is not None]
        a = rng.choice(fill if fill and rng.random() < fill_chance else acts)
        line.append(a)
        g = g.apply_action(a)
        states.append(g)
    return line, states


def action_lits(model, t, a):
    """The literals that fix step t+1 of the model to placement a."""
    steps = model.steps
    e = R.pairs.index((min(a.first, a.second), max(a.first, a.second)))
    o = 0 if a.first < a.second else 1
    lits = [-steps.idle[t], steps.use[t][a.tile], steps.pos[t][e][o]]
    lits += [x if s == a.filler else -x for s, x in enumerate(steps.fill[t])]
    return lits


@pytest.mark.parametrize("seed", range(4))
def test_tasks_turn_up_and_are_fulfilled_as_the_engine_does(seed):
    """Random lines rich in gap fillers (bonus tasks released onto a full or an empty
    draw pile, cascades) fixed in the model: its done and up tasks after every step are
    the engine's (the model's task literals are determined by the placements)."""
    rng = random.Random(100 + seed)
    g = new_game(R, CAT, 1 + seed % 3, "first", rng)
    if seed % 2:  # a short pile, so bonus tasks also go straight to the open ones
        g = g.but(draw_pile=g.draw_pile[:1])
    line, states = random_line(g, rng, 7, 0.7)
    g = states[-1]
    start = states[0]
    model = encode_game(start, horizon=len(line))
    fixed = [lit for t, a in enumerate(line) for lit in action_lits(model, t, a)]
    with IncrementalSat(model.builder) as sat:
        sol = sat.solve(fixed)
    assert sol is not None
    n0 = len(start.completed)
    for t, s in enumerate(states):
        done = Counter(x for i, x in enumerate(model.tasks) if _value(sol, model.done[i][t]))
        up = Counter(x for i, x in enumerate(model.tasks) if _value(sol, model.up[i][t]))
        assert done == Counter(s.completed[n0:]), t
        assert up == Counter(s.completed[n0:]) + Counter(s.open), t
    assert sum(b.fillers == 0 for b in g.bonus) > sum(b.fillers == 0 for b in start.bonus)


def _value(sol, lit):
    return (lit in sol) if lit > 0 else (-lit not in sol)


def test_a_loss_and_a_win_on_tiny_games():
    # one player, two tiles, no reserve, no gap filler: 4 of 12 spaces can be covered
    g = GameState(R, Board(R), [parse_task(R, "NO EMPTY spaces")], [], [], [["T01", "T09"]],
                  [])
    assert solve(g).answer == "lost" == dfs(g).answer
    g = GameState(R, Board(R), [parse_task(R, "TWO GREEN")], [], [], [["T01", "T09"]], [])
    got = solve(g)
    assert got.answer == "won" and replays_to_a_win(g, got.line)
    # a gap filler would release a bonus task no tile can fulfil: won without it
    g = GameState(R, Board(R), [parse_task(R, "ONE GREEN")], [],
                  [Bonus(parse_task(R, "TEN PINK"), 1)], [["T01", "T09"]], [])
    got = solve(g)
    assert got.answer == "won" and all(a.filler is None for a in got.line)


def test_exact_reachable_answers_with_the_model_after_the_search(monkeypatch):
    import models.hoch_hinaus.reachable as reachable

    monkeypatch.setattr(reachable, "search_plan", lambda left: [])  # no search
    monkeypatch.setattr(reachable, "impossible_tasks", lambda g: [])  # nor relaxation
    for g in end_games(5):
        res = exact(g)
        assert res.by == "sat" and not res.cut_by_time and res.conflicts > 0
        assert res.answer == dfs(g, 10**6).answer
        if res.answer == "won":  # the line as the engine plays it, to the win
            assert res.line and res.line[0].player == g.on_turn + 1
            assert "decided by the SAT model" in res.note


def _file(tmp_path, g):
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(position_json(g)))
    return str(p)


def test_cli_text_and_json(tmp_path):
    won = end_games(1)[0]  # (won: held equal to the search above)
    data = json.loads(run("reachable", _file(tmp_path, won), "--open-hands", "--json").output)
    assert data["method"] == "exact" and data["answer"] == "won" and data["proven"]
    assert data["line"] and data["by"] in ("search", "sat")
    lost = GameState(R, Board(R), [parse_task(R, "NO EMPTY spaces")], [], [],
                     [["T01", "T09"]], [])
    res = run("reachable", _file(tmp_path, lost), "--open-hands")
    assert res.exit_code == 0 and "LOST" in res.output


def _one_line(res):
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in res.output, res.output
    return lines[0]


def test_cli_exact_without_an_answer_exits_3_with_one_line(tmp_path):
    # out of work (no position searched, one conflict of the model): not decided
    path = "puzzles/hoch-hinaus/endgame-known.json"
    res = run("reachable", path, "--open-hands", "--json", "--nodes", "1",
              "--conflicts", "1")
    assert res.exit_code == 3
    line = _one_line(res)
    assert "not proven either way" in line and "--conflicts 1" in line
    # (a cut by the clock: test_exact_search_cut_by_time_has_no_answer, off the clock)
    g = new_game(R, CAT, 2, "normal", random.Random(1))
    # a fresh deal whose last pile task cannot hold (13 of 12 spaces): lost at once, by the relaxation
    path = _file(tmp_path, g.but(draw_pile=[*g.draw_pile, parse_task(R, "13 GREEN")]))
    res = run("reachable", path, "--open-hands", "--time-limit", "0.1", "--json")
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert out["answer"] == "lost" and out["proven"] and "13 GREEN" in out["note"]


def test_exact_search_cut_by_time_has_no_answer():
    from tests.cli_helpers import EventDeadline

    g = new_game(R, CAT, 2, "normal", random.Random(1))
    cut = EventDeadline()
    cut.event.set()
    res = exact(g, deadline=cut)
    assert res.answer == "unknown" and res.cut_by_time and not res.proven


def _replay_steps(game: GameState, line) -> GameState:
    g = game
    for step in line:
        p = step.placement
        assert g.on_turn + 1 == step.player
        g = g.apply_action(Action(p["tile"], R.space_index[p["on"][0]],
                                  R.space_index[p["on"][1]],
                                  None if p["filler"] is None else R.space_index[p["filler"]]))
    return g


def test_a_fresh_deal_is_won_with_a_line_the_engine_replays():
    g = new_game(R, CAT, 4, "normal", random.Random(3))
    res = exact(g)
    assert res.answer == "won" and res.proven and res.by in ("rollout", "search")
    assert _replay_steps(g, res.line).status == "won"
