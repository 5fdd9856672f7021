"""toppi's default hint policy against OpenSpiel's bots, on the same seeded deals.

    python scripts/bench_openspiel.py --games 10 --sims 50 --seed 1 --out table.md

Each game's default setup (two players where it has players) is dealt from
`task_seed(seed, g)` for g < --games (the deals of `toppi <game> simulate --seed`), and
played by toppi's hint policy (the game's `hint`, else its default policy) and by
OpenSpiel's information-set MCTS (`ISMCTSBot`, games hiding something) or MCTS (games of
chance only: `MCTSBot`, its tree over the chance outcomes), each with a random-rollout
evaluator and --sims simulations per decision:

- competitive games (Topito, Hippo): hint against the bot, seats rotated game by game;
  the win rate of each side;
- cooperative games (both Tippi Toppi games): the all-hint team and the all-bot team
  on the same deals; the success rate of each;
- Take it Higher!: the mean score of each.

A decision is a player's turn (the bot's: every decision the turn is split into); the
table gives the median seconds of both sides. Writes a markdown table (stdout, --out).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import solver.openspiel as so  # noqa: E402
from solver.game import CHANCE, TERMINAL, task_seed  # noqa: E402
from solver.registry import games  # noqa: E402

# the setup each game is measured on (OpenSpiel parameters; the rest: play's defaults)
SETUPS: dict[str, dict[str, Any]] = {"take-it-higher": {}, "hoch-hinaus": {"players": 2},
                                     "tippi-toppi": {"players": 2}, "topito": {"players": 2},
                                     "hippo": {"players": 2}}


def bot_for(os_game: Any, sims: int, seed: int, rollout: int) -> tuple[str, Any]:
    """ISMCTS where the game hides something, MCTS where it has chance only."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng,
                                            max_length=rollout)
    info = os_game.get_type().information
    if info == so.pyspiel.GameType.Information.IMPERFECT_INFORMATION:
        return "ISMCTS", ismcts.ISMCTSBot(os_game, evaluator, 2.0, sims, random_state=rng,
                                          allow_inconsistent_action_sets=True)
    return "MCTS", mcts.MCTSBot(os_game, 2.0, sims, evaluator, solve=False, random_state=rng)


def play(os_game: Any, k: int, sides: list[str], hint: Any, bot: Any,
         times: dict[str, list[float]]) -> list[float]:
    """Deal k played to its end, seat p by `sides[p]` ("hint" or "bot"): the returns."""
    root = os_game.new_initial_state()
    spec = root.spec
    game = spec.game
    deal, rng = game.streams(task_seed(spec.seed, k))
    referee = game.new_game(spec.rules, spec.setup, deal)
    os_state = root
    os_state.apply_action(k)
    turns = 0
    while game.current_player(referee) != TERMINAL and turns < game.max_actions:
        player = game.current_player(referee)
        if player == CHANCE:
            action = game.sample_chance(referee, rng)
            os_state.apply_action(spec.chance_id[action])
        elif sides[player] == "hint":
            start = time.perf_counter()
            action = hint.choose(game.observation(referee, player),
                                 game.legal_actions(referee), rng)
            times["hint"].append(time.perf_counter() - start)
            for i in so.decisions_of(os_state, action):
                os_state.apply_action(i)
            turns += 1
        else:
            table = os_state._world.table(spec)
            start = time.perf_counter()
            ids: list[int] = []
            while True:
                i = bot.step(os_state)
                os_state.apply_action(i)
                ids.append(i)
                if not os_state.decisions:
                    break
            times["bot"].append(time.perf_counter() - start)
            action = table[tuple(i for i in ids if i != spec.end)]
            turns += 1
        referee = game.apply_action(referee, action)
        so.follow(os_state, referee)
    return game.returns(referee)


def bench(gid: str, n: int, sims: int, seed: int, rollout: int) -> dict[str, Any]:
    os_game = so.load(gid, seed=seed, **SETUPS[gid])
    spec = os_game.new_initial_state().spec
    game = spec.game
    name = "hint" if "hint" in game.policy_names else game.policy_names[0]
    hint = game.policy(spec.rules, name, {})
    bot_name, bot = bot_for(os_game, sims, seed, rollout)
    times: dict[str, list[float]] = {"hint": [], "bot": []}
    players = spec.players
    hint_results: list[float] = []
    bot_results: list[float] = []
    for k in range(n):
        if game.kind == "competitive":
            seat = k % players
            sides = ["bot"] * players
            sides[seat] = "hint"
            r = play(os_game, k, sides, hint, bot, times)
            hint_results.append(r[seat])
            bot_results.append(max(r[p] for p in range(players) if p != seat))
        else:
            hint_results.append(play(os_game, k, ["hint"] * players, hint, bot, times)[0])
            bot_results.append(play(os_game, k, ["bot"] * players, hint, bot, times)[0])
    measure = {"competitive": "win rate", "cooperative": "success rate",
               "score": "mean score"}[game.kind]
    return {"game": game.title, "setup": spec.setup, "measure": measure,
            "policy": name, "bot": f"{bot_name} ({sims} sims)", "games": n,
            "hint": statistics.fmean(hint_results), "bot_value": statistics.fmean(bot_results),
            "hint_s": statistics.median(times["hint"]) if times["hint"] else 0.0,
            "bot_s": statistics.median(times["bot"]) if times["bot"] else 0.0}


def table(rows: list[dict[str, Any]], args: argparse.Namespace) -> str:
    out = [f"`python scripts/bench_openspiel.py --games {args.games} --sims {args.sims} "
           f"--seed {args.seed} --rollout {args.rollout}`", "",
           "| game | setup | measure | toppi policy | value | OpenSpiel bot | value | "
           "median ms/turn (toppi) | median ms/turn (bot) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        setup = ", ".join(f"{k} {v}" for k, v in r["setup"].items())
        fmt = "{:.1f}" if r["measure"] == "mean score" else "{:.0%}"
        out.append(f"| {r['game']} | {setup} | {r['measure']} | {r['policy']} | "
                   f"{fmt.format(r['hint'])} | {r['bot']} | {fmt.format(r['bot_value'])} | "
                   f"{1000 * r['hint_s']:.1f} | {1000 * r['bot_s']:.1f} |")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="deals per game")
    parser.add_argument("--sims", type=int, default=50, help="bot simulations per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollout", type=int, default=100,
                        help="the most decisions a random rollout plays")
    parser.add_argument("--only", nargs="*", default=list(SETUPS), choices=list(games()))
    parser.add_argument("--out", type=Path, help="write the markdown table here")
    args = parser.parse_args()
    rows = []
    for gid in args.only:
        start = time.perf_counter()
        rows.append(bench(gid, args.games, args.sims, args.seed, args.rollout))
        print(f"{gid}: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    text = table(rows, args)
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
