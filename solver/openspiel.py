"""Every toppi game as an OpenSpiel game (the optional `open-spiel` package: the
`openspiel` extra), built from the game's description (`solver.game.Game`) alone.

    import pyspiel
    import solver.openspiel  # registers toppi_<game> for every game

    game = pyspiel.load_game("toppi_<game>(players=2)")

What OpenSpiel sees of a toppi game:

- the first node is chance: the deal, one of `deals` seeded deals, each as likely. Deal
  k is the deal of game k of `toppi <game> simulate --seed <seed>` (the setup's
  `new_game` from the deal stream of `task_seed(seed, k)`), so OpenSpiel's bots and
  toppi's policies can meet the same deals. A dealt game holds every face-down pile in
  order, so the rest of a game's chance is what the game's description declares as
  chance of a dealt game (dice rolled, tiles called), with its probabilities;
- a player's action is one or several decisions (`Game.action_parts`), each a number
  fixed for the setup (its place in `Game.action_space`; the last number ends a turn
  whose decisions are also the start of a longer action). A turn's last decision
  applies the whole action to the toppi state, so an OpenSpiel game replays to the
  same toppi states;
- the observation string of a player is their observation (`Game.observation`: what
  they may know at the table) as a position file, with the decisions of the turn under
  way; the information state adds the player's memory: a digest of their observation
  and decision at each of their decisions before;
- `resample_from_infostate` draws the unknown with `Game.determinize` (what ISMCTS
  needs); serialisation writes the toppi state as its position file (`Game.write`) and
  reads it back (`Game.read`);
- a game stops after `Game.max_actions` turns (returns as they stand then), which
  bounds `max_game_length`.

Importing `solver` or starting the command line never imports this module.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from solver.game import CHANCE, TERMINAL, Game, task_seed
from solver.params import Param
from solver.registry import entry, games

#: Parameters of every toppi game in OpenSpiel, besides its setup and data options.
DEALS, SEED = 1000, 0
#: The kinds of option an OpenSpiel parameter can carry (text, numbers, on/off).
_KINDS = ("text", "int", "float", "flag", "switch", "choice")


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a toppi game: `toppi_` and its id with underscores."""
    return "toppi_" + game_id.replace("-", "_")


def _options(game: Game) -> tuple[tuple[Param, ...], tuple[Param, ...]]:
    """The setup and data options OpenSpiel parameters can carry."""
    def fit(params: Sequence[Param]) -> tuple[Param, ...]:
        return tuple(p for p in params if p.kind in _KINDS and not p.multiple)
    return fit(game.setup_options), fit(game.data_options)


def _default(game: Game, p: Param) -> Any:
    """An option's default as an OpenSpiel parameter (None: "" or off)."""
    value = game.play_setup.get(p.name, p.default)
    if value is None:
        return False if p.kind in ("flag", "switch") else ""
    if p.kind == "text" and str(value).isdecimal():
        return int(value)  # OpenSpiel reads a number in a game's name as a number
    return value


def _from_param(p: Param, value: Any) -> Any:
    """An OpenSpiel parameter's value as the option's (back to None where unset)."""
    if p.kind == "switch" and value is False:
        return None
    if p.kind in ("text", "choice") and value == "":
        return None
    return str(value) if p.kind == "text" else value


@dataclass
class Spec:
    """One toppi game with one setup, as OpenSpiel plays it: rules, setup, catalogue."""

    game: Game
    params: dict[str, Any]
    rules: Any
    setup: dict[str, Any]
    decisions: tuple[Hashable, ...]  # action id -> decision; END ends a turn
    chances: tuple[Hashable, ...]  # chance id -> chance outcome (after the deal)
    deals: int
    seed: int
    players: int
    max_parts: int
    rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self.decision_id = {d: i for i, d in enumerate(self.decisions)}
        self.chance_id = {c: i for i, c in enumerate(self.chances)}

    @property
    def end(self) -> int:
        """The decision that ends a turn whose decisions start a longer action."""
        return len(self.decisions)

    @property
    def key(self) -> str:
        return json.dumps({"game": self.game.id, "params": self.params}, sort_keys=True)


@cache
def _spec(key: str) -> Spec:
    """The game and setup named by a key (game id and OpenSpiel parameters)."""
    data = json.loads(key)
    game = entry(data["game"]).game()
    params = data["params"]
    setup_opts, data_opts = _options(game)
    rules = game.load_rules(None, **{p.name: _from_param(p, params[p.name])
                                     for p in data_opts})
    setups = game.setups(rules, **{p.name: _from_param(p, params[p.name])
                                   for p in setup_opts})
    if len(setups) != 1:
        raise ValueError(f"{short_name(game.id)}: the parameters {params} give "
                         f"{len(setups)} setups; an OpenSpiel game is one")
    setup = setups[0]
    seed = int(params["seed"])
    dealt = game.new_game(rules, setup, game.streams(task_seed(seed, 0))[0])
    return Spec(game, params, rules, setup, tuple(game.action_space(rules, setup)),
                tuple(game.chance_space(rules, setup)), int(params["deals"]), seed,
                game.players(dealt), game.max_parts(rules, setup), random.Random(seed))


class World:
    """A toppi state in an OpenSpiel state: shared by clones (toppi states never
    change), pickled as its position file, with what the adapter asks of it cached."""

    def __init__(self, key: str, state: Any) -> None:
        self.key = key
        self.state = state
        self._table: dict[tuple[int, ...], Any] | None = None
        self._seen: dict[int, str] = {}

    def __deepcopy__(self, memo: dict) -> World:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        spec = _spec(self.key)
        return _read_world, (self.key, json.dumps(spec.game.write(self.state)))

    def table(self, spec: Spec) -> dict[tuple[int, ...], Any]:
        """The legal actions of the player to act by their decision numbers."""
        if self._table is None:
            game, out = spec.game, {}
            for action in game.legal_actions(self.state):
                parts = game.action_parts(self.state, action)
                try:
                    ids = tuple(spec.decision_id[p] for p in parts)
                except KeyError as missing:
                    raise ValueError(f"{game.id}: the decision {missing} of "
                                     f"{game.action_text(self.state, action)!r} is not in "
                                     "the game's action space") from None
                if len(ids) > spec.max_parts or ids in out:
                    raise ValueError(f"{game.id}: the parts of "
                                     f"{game.action_text(self.state, action)!r} are "
                                     "too many or not its own")
                out[ids] = action
            self._table = out
        return self._table

    def seen(self, spec: Spec, player: int) -> str:
        """The position file of what `player` may know."""
        if player not in self._seen:
            seen = spec.game.observation(self.state, player)
            self._seen[player] = json.dumps(spec.game.write(seen), sort_keys=True,
                                            separators=(",", ":"))
        return self._seen[player]


def _read_world(key: str, text: str) -> World:
    spec = _spec(key)
    return World(key, spec.game.read(spec.rules, json.loads(text), "serialised state"))


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=12).hexdigest()


class ToppiState(pyspiel.State):
    """A toppi game in OpenSpiel: the toppi state (None before the deal), the decisions
    of the turn under way, the turns played, and each player's memory (a digest)."""

    def __init__(self, game: ToppiGame) -> None:
        super().__init__(game)
        self._key = game.spec.key
        self._world: World | None = None
        self._prefix: tuple[int, ...] = ()
        self._turns = 0
        self._memory: tuple[str, ...] = ("",) * game.spec.players

    # ------------------------------------------------------------------ helpers

    @property
    def spec(self) -> Spec:
        return _spec(self._key)

    @property
    def toppi(self) -> Any:
        """The toppi state (at the start of the turn under way); None before the deal."""
        return None if self._world is None else self._world.state

    @property
    def decisions(self) -> tuple[int, ...]:
        """The decisions taken of the turn under way."""
        return self._prefix

    def _at(self, state: Any) -> World:
        return World(self._key, self.spec.game.chance_state(state))

    def _next(self) -> list[int]:
        assert self._world is not None
        n, out = len(self._prefix), set()
        for ids in self._world.table(self.spec):
            if ids[:n] == self._prefix:
                out.add(ids[n] if len(ids) > n else self.spec.end)
        return sorted(out)

    # ------------------------------------------------------------------ OpenSpiel API

    def current_player(self) -> int:
        if self._world is None:
            return pyspiel.PlayerId.CHANCE
        if self._turns >= self.spec.game.max_actions:
            return pyspiel.PlayerId.TERMINAL
        player = self.spec.game.current_player(self._world.state)
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if player == CHANCE else player

    def is_terminal(self) -> bool:
        return self.current_player() == pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return self._next()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        spec = self.spec
        if self._world is None:
            return [(k, 1.0 / spec.deals) for k in range(spec.deals)]
        return sorted((spec.chance_id[o], p)
                      for o, p in spec.game.chance_outcomes(self._world.state))

    def _apply_action(self, action: int) -> None:
        spec, game = self.spec, self.spec.game
        if self._world is None:
            rng = game.streams(task_seed(spec.seed, action))[0]
            self._world = self._at(game.new_game(spec.rules, spec.setup, rng))
            return
        state = self._world.state
        player = game.current_player(state)
        if player == CHANCE:
            self._world = self._at(game.apply_action(state, spec.chances[action]))
            return
        seen = self.observation_text(player)
        memory = list(self._memory)
        memory[player] = _digest(memory[player], seen, str(action))
        self._memory = tuple(memory)
        table = self._world.table(spec)
        whole = self._prefix if action == spec.end else (*self._prefix, action)
        if action == spec.end or (whole in table and not any(
                len(ids) > len(whole) and ids[:len(whole)] == whole for ids in table)):
            self._world = self._at(game.apply_action(state, table[whole]))
            self._prefix = ()
            self._turns += 1
        else:
            self._prefix = whole

    def _action_to_string(self, player: int, action: int) -> str:
        spec = self.spec
        if self._world is None:
            return f"deal {action}"
        state = self._world.state
        if player == pyspiel.PlayerId.CHANCE:
            return spec.game.action_text(state, spec.chances[action])
        if action == spec.end:
            return "end of turn"
        return spec.game.part_text(state, spec.decisions[action])

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.spec.players
        return [float(r) for r in self.spec.game.returns(self.toppi)]

    def __str__(self) -> str:
        if self._world is None:
            return "deal pending"
        spec = self.spec
        text = json.dumps(spec.game.write(self._world.state), sort_keys=True)
        return f"{text}\nturn {self._turns}, decisions {list(self._prefix)}"

    # ------------------------------------------------------------------ information

    def observation_text(self, player: int) -> str:
        """What `player` may know: their observation's position file, the turn's
        decisions so far, the turns played."""
        if self._world is None:
            return "deal pending"
        seen = self._world.seen(self.spec, player)
        return f"{seen}\nturn {self._turns}, decisions {list(self._prefix)}"

    def information_text(self, player: int) -> str:
        """The observation with the player's memory of their earlier decisions."""
        return f"{self._memory[player]}\n{self.observation_text(player)}"

    def resample_from_infostate(self, player: int, sampler: Any = None) -> ToppiState:
        """A state `player` cannot tell from this one: the unknown drawn anew
        (`Game.determinize` of their observation), the other players' memories
        forgotten."""
        out = self.clone()
        if self._world is not None:
            spec = self.spec
            seen = spec.game.observation(self._world.state, player)
            out._world = self._at(spec.game.determinize(seen, spec.rng))
            out._memory = tuple(m if p == player else ""
                                for p, m in enumerate(self._memory))
        return out


class Observer:
    """OpenSpiel's observer of a toppi game: strings only (no tensors)."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._recall = iig_obs_type is None or iig_obs_type.perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: ToppiState, player: int) -> None:
        pass

    def string_from(self, state: ToppiState, player: int) -> str:
        if self._recall:
            return state.information_text(player)
        return state.observation_text(player)


class ToppiGame(pyspiel.Game):
    """A toppi game in OpenSpiel, with the setup its parameters name."""

    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        defaults = default_params(entry(self.game_id).game())
        values = {**defaults, **(params or {})}
        self.spec = _spec(json.dumps({"game": self.game_id, "params": values},
                                     sort_keys=True))
        super().__init__(game_type(self.game_id), game_info(self.spec), values)

    def new_initial_state(self) -> ToppiState:
        return ToppiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(iig_obs_type, params)


def default_params(game: Game) -> dict[str, Any]:
    """The OpenSpiel parameters of a toppi game and their defaults: its setup and data
    options (the setup of `toppi <game> play`), the number of deals and their seed."""
    setup_opts, data_opts = _options(game)
    return {**{p.name: _default(game, p) for p in (*setup_opts, *data_opts)},
            "deals": DEALS, "seed": SEED}


def _player_range(game: Game) -> tuple[int, int]:
    """The player counts the game's setups allow (those of its `players` option)."""
    setup_opts, _ = _options(game)
    players = next((p for p in setup_opts if p.name == "players"), None)
    if players is None:
        return 1, 1
    rules = game.load_rules(None)
    ok = []
    for n in range(1, 9):
        try:
            game.setups(rules, **{**game.play_setup, "players": (
                n if players.kind == "int" else str(n))})
        except Exception:  # not a player count of the game
            continue
        ok.append(n)
    return min(ok), max(ok)


def game_type(game_id: str) -> pyspiel.GameType:
    """The OpenSpiel game type of a toppi game, from its description: sequential, with
    explicit chance, imperfect information where the rulebook hides something, terminal
    rewards, utility by its kind (cooperative: identical; competitive: general sum, as
    shared wins and unfinished games count; score: the score, one player)."""
    e = entry(game_id)
    game = e.game()
    low, high = _player_range(game)
    info = pyspiel.GameType.Information
    utility = {"cooperative": pyspiel.GameType.Utility.IDENTICAL,
               "competitive": pyspiel.GameType.Utility.GENERAL_SUM,
               "score": pyspiel.GameType.Utility.GENERAL_SUM}[game.kind]
    return pyspiel.GameType(
        short_name=short_name(game_id), long_name=f"toppi {e.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(info.IMPERFECT_INFORMATION if game.hides_information
                     else info.PERFECT_INFORMATION),
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high, min_num_players=low,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification=default_params(game))


def game_info(spec: Spec) -> pyspiel.GameInfo:
    """Actions (the decisions and the end of a turn), chance outcomes (the deals, the
    chance of a dealt game), players, utility bounds, and the longest game (its decisions:
    `max_actions` turns of at most `max_parts` decisions and the end of the turn)."""
    low, high = spec.game.utility_range(spec.rules, spec.setup)
    return pyspiel.GameInfo(
        num_distinct_actions=len(spec.decisions) + 1,
        max_chance_outcomes=max(spec.deals, len(spec.chances)),
        num_players=spec.players, min_utility=low, max_utility=high,
        utility_sum=None,
        max_game_length=spec.game.max_actions * (spec.max_parts + 1))


def register(game_id: str) -> str:
    """Register a toppi game with OpenSpiel (once); its OpenSpiel name."""
    name = short_name(game_id)
    if name not in pyspiel.registered_names():
        cls = type(f"ToppiGame_{name}", (ToppiGame,), {"game_id": game_id})
        pyspiel.register_game(game_type(game_id), cls)
    return name


def register_all() -> list[str]:
    """Register every toppi game; their OpenSpiel names."""
    return [register(g) for g in games() if _declares_actions(entry(g).game())]


def _declares_actions(game: Game) -> bool:
    return type(game).action_space is not Game.action_space


NAMES = register_all()


def load(game_id: str, **params: Any) -> pyspiel.Game:
    """The OpenSpiel game of a toppi game with these parameters (setup and data
    options, deals, seed)."""
    return pyspiel.load_game(register(game_id), params)


def decisions_of(state: ToppiState, action: Any) -> list[int]:
    """The OpenSpiel actions that take the toppi `action` at `state`: its decisions, and
    the end of the turn where they start a longer legal action."""
    spec, world = state.spec, state.toppi
    ids = tuple(spec.decision_id[p] for p in spec.game.action_parts(world, action))
    longer = any(len(q) > len(ids) and q[:len(ids)] == ids
                 for q in state._world.table(spec))
    return [*ids, spec.end] if longer else list(ids)


def follow(state: ToppiState, referee: Any) -> None:
    """Apply to `state` the chance outcomes that bring it to the toppi state `referee`
    (a dealt game, whose draws are part of the moves): at each chance node the outcome
    after which both hold the same position."""
    spec = state.spec
    target = json.dumps(spec.game.write(spec.game.chance_state(referee)), sort_keys=True)
    while state.is_chance_node() and spec.game.current_player(referee) != CHANCE:
        for action, _ in state.chance_outcomes():
            after = spec.game.apply_action(state.toppi, spec.chances[action])
            if json.dumps(spec.game.write(after), sort_keys=True) == target:
                state.apply_action(action)
                break
        else:
            raise ValueError("no chance outcome leads to the referee's position")
