"""One description per game: positions, moves, chance, information and policies.

Every game describes itself once to solver/ with a subclass of `Game`, in the spirit of
OpenSpiel's State API, and the shared commands (`show`, `moves`, `simulate`, `play`,
solver/shared_verbs.py) and the contract test (tests/test_game_contract.py) are built from
that description alone. The words mean the same in every game:

- a *state* is immutable from the outside: `apply_action(state, action)` returns a new
  state and never changes the old one; an illegal action is a `BadInput` naming why;
- `current_player(state)` is a seat (0-based), `CHANCE` when chance acts next (dice are
  rolled, a tile is called, a card or tile is drawn from a pile whose order nobody
  knows) or `TERMINAL`; at a chance node `chance_outcomes(state)` lists the outcomes
  with their probabilities and `apply_action` takes one of them;
- a face-down pile is either *ordered* (a full state: the deal of a simulated game)
  or *unordered* (what a player knows); drawing from an unordered pile is a chance node,
  from an ordered one it is part of the move;
- `observation(state, player)` is exactly what that player may know at the table, as a
  state whose hidden parts are unknown (the hands of others as "?", piles unordered);
  `determinize(observation, rng)` draws a full state consistent with it, uniformly.
  A position file is read into such a state: it may leave unknown what its player does
  not know;
- `returns(state)` is one number per seat: the score, or 1 for a win and 0 otherwise;
- a policy is `choose(observation, legal_actions, rng) -> action`; an all-seeing
  policy (`Policy.open_hands`) gets the full state instead, and says so in its output.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

from solver.errors import BadInput
from solver.io import load_json
from solver.params import Param

R = TypeVar("R")  # the rules data a game is played with
S = TypeVar("S")  # a state
A = TypeVar("A")  # an action (a player's move or a chance outcome)

CHANCE = -1
TERMINAL = -4

#: Game g of a batch run with --seed s has the seed s * SEED_STRIDE + g in every game.
SEED_STRIDE = 1_000_003

Kind = Literal["score", "cooperative", "competitive"]


def knowledge(game: Game, state: Any) -> dict[str, list[str]]:
    """The "knows" and "unknown" entries every command's JSON answer carries."""
    return {"knows": game.knows(state), "unknown": game.unknown(state)}


def task_seed(seed: int, i: int) -> int:
    """The own seed of task `i` (a game, a draw) of a batch run with `seed`: the same
    task replays alone, on any executor, from this number."""
    return seed * SEED_STRIDE + i


@dataclass(frozen=True)
class Policy(Generic[A]):
    """A way to play: `choose(observation, legal_actions, rng)` picks one of the legal
    actions. With `open_hands` the policy is handed the whole state (other hands, the
    order of face-down piles): an all-seeing reference, labelled as such."""

    name: str
    choose: Callable[[Any, list[A], random.Random], A]
    open_hands: bool = False


class Game(Generic[R, S, A]):
    """What the shared commands and tests need to know about one game.

    Subclasses set the class attributes and implement the methods that raise
    NotImplementedError; the others have defaults that fit most games.
    """

    id: ClassVar[str]  # the game's name on the command line, e.g. "my-game"
    kind: ClassVar[Kind]  # what `returns` measures, and so how simulate sums games up
    policy_names: ClassVar[tuple[str, ...]]  # the first is the default of simulate/play
    # Options of the commands that read rules data, passed to `load_rules` by name.
    data_options: ClassVar[tuple[Param, ...]] = ()
    # Options that choose a new game's setup (players, difficulty, variant...), passed
    # to `setups` by name; simulate and play offer them.
    setup_options: ClassVar[tuple[Param, ...]] = ()
    # Defaults of setup options for `play`, where simulate's defaults span several
    # setups (e.g. every player count) and a game needs one.
    play_setup: ClassVar[dict[str, Any]] = {}
    # How the game's moves and pieces are written (a key for `play`'s help and `moves`).
    notation: ClassVar[str] = ""
    # Options of the policies and of the per-game measures (hint budget, optimum...),
    # passed to `policy` and `measure` as one dict; simulate and play offer them.
    play_options: ClassVar[tuple[Param, ...]] = ()
    # The option that names a chance outcome on the command line (e.g. --roll) for
    # `moves` at a chance node; None when the game has no such outcome to give.
    chance_option: ClassVar[Param | None] = None
    # Options of `moves` that ask about another position than the file's (other tiles in
    # hand, no gap fillers...), passed to `what_if` by name.
    what_if_options: ClassVar[tuple[Param, ...]] = ()
    # "module:Type" of what `show` returns: the game's part of the `show` document
    show_answer: ClassVar[str | None] = None
    # "module:Type" of what `moves_notes` returns (the notes of `moves`), if any
    moves_notes_answer: ClassVar[str | None] = None
    # Games played longer than this many actions are stopped and counted unfinished.
    max_actions: ClassVar[int] = 10_000

    @property
    def title(self) -> str:
        """The game's title, as the registry gives it."""
        from solver.registry import entry

        return entry(self.id).title

    # ------------------------------------------------------------------ data, positions

    def load_rules(self, path: str | None, **data: Any) -> R:
        """The rules data: the built-in file, or `path` (--rules)."""
        raise NotImplementedError

    def read(self, rules: R, data: Any, where: str) -> S:
        """A state from a parsed position file, checked (BadInput names the problem)."""
        raise NotImplementedError

    def write(self, state: S) -> dict[str, Any]:
        """The position file's JSON of a state; `read(write(s))` equals s."""
        raise NotImplementedError

    def what_if(self, rules: R, state: S, **options: Any) -> S:
        """The position `moves` lists, given the values of `what_if_options`."""
        return state

    def setups(self, rules: R, **options: Any) -> list[dict[str, Any]]:
        """The setups asked for by the values of `setup_options` (a list, so simulate
        can compare several: players 2,3,4...). Each is JSON and goes to `new_game`."""
        return [{}]

    def new_game(self, rules: R, setup: dict[str, Any], rng: random.Random) -> S:
        """A game dealt from `rng`: every face-down pile ordered (a full state)."""
        raise NotImplementedError

    def streams(self, seed: int) -> tuple[random.Random, random.Random]:
        """The random streams of a game played from `seed`: (the deal, the play: chance
        outcomes and the policies' choices)."""
        return random.Random(seed), random.Random(seed)

    # ------------------------------------------------------------------ play

    def players(self, state: S) -> int:
        raise NotImplementedError

    def current_player(self, state: S) -> int:
        """The seat to act, CHANCE or TERMINAL."""
        raise NotImplementedError

    def legal_actions(self, state: S) -> list[A]:
        """The actions of the player to act (at a chance node: the outcomes)."""
        raise NotImplementedError

    def apply_action(self, state: S, action: A) -> S:
        """The state after `action` (a new state; BadInput if it is not legal here)."""
        raise NotImplementedError

    def chance_outcomes(self, state: S) -> list[tuple[A, float]]:
        """At a chance node: every outcome with its probability (they add up to 1)."""
        return []

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """One chance outcome drawn with its probability."""
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise BadInput("no chance event is due here")
        actions = [a for a, _ in outcomes]
        return rng.choices(actions, weights=[p for _, p in outcomes])[0]

    def is_terminal(self, state: S) -> bool:
        return self.current_player(state) == TERMINAL

    def returns(self, state: S) -> list[float]:
        """Per seat: the score, or 1.0 for a win and 0.0 otherwise (at the end)."""
        raise NotImplementedError

    def status(self, state: S) -> str:
        """A word for the state: playing, won, lost, over..."""
        return "over" if self.is_terminal(state) else "playing"

    # ------------------------------------------------------------------ information

    def observation(self, state: S, player: int) -> S:
        """What `player` may know: the state with the rest unknown. Default: a game of
        perfect information, everything."""
        return state

    def determinize(self, observation: S, rng: random.Random) -> S:
        """A full state consistent with `observation`, drawn uniformly."""
        return observation

    def unknown(self, state: S) -> list[str]:
        """What the state leaves unknown, in words (empty when everything is known)."""
        return []

    def knows(self, state: S) -> list[str]:
        """What the state holds, in the game's words, one item per kind of information
        (the board, the open tasks, the hand of player 2, the order of the deck ...): what
        a command answering on it uses. An observation lists less than the full state."""
        raise NotImplementedError

    # ------------------------------------------------------------------ action catalogue
    # What an outside framework of game algorithms (OpenSpiel: solver/openspiel.py) needs
    # besides the above: actions as fixed numbers, the bounds of a game.

    # Whether the rulebook hides something from a player (other hands, the order or the
    # faces of a face-down pile): a game of imperfect information.
    hides_information: ClassVar[bool] = False

    def chance_state(self, state: S) -> S:
        """The state with what nobody at the table knows left to chance, as the game is
        played in OpenSpiel (default: the state; a game whose position files cannot hold
        the order of a face-down pile forgets it here, and its draws become chance)."""
        return state

    def action_space(self, rules: R, setup: dict[str, Any]) -> Sequence[Hashable]:
        """Every decision a player can take in a game of `setup`, in a fixed order (a
        decision's number is its place in this list). A decision is a whole action or one
        of the parts `action_parts` splits it into."""
        raise NotImplementedError

    def action_parts(self, state: S, action: A) -> tuple[Hashable, ...]:
        """A player's action as the decisions it is taken in, one after the other, each
        one of `action_space` (default: the action is one decision). Different legal
        actions have different parts; one may be the start of another."""
        return (action,)

    def max_parts(self, rules: R, setup: dict[str, Any]) -> int:
        """The most parts an action of a game of `setup` has."""
        return 1

    def part_text(self, state: S, part: Hashable) -> str:
        """A decision in words (default: the text of the action it is)."""
        return self.action_text(state, part)  # type: ignore[arg-type]

    def chance_space(self, rules: R, setup: dict[str, Any]) -> Sequence[Hashable]:
        """Every chance outcome a dealt game of `setup` can meet, in a fixed order
        (default: none; every face-down pile of a dealt game is in order)."""
        return ()

    def utility_range(self, rules: R, setup: dict[str, Any]) -> tuple[float, float]:
        """The least and the most a seat's `returns` can be (default: a loss, a win)."""
        return 0.0, 1.0

    # ------------------------------------------------------------------ words

    def action_text(self, state: S, action: A) -> str:
        """An action in the game's short notation (what `parse_action` reads)."""
        raise NotImplementedError

    def parse_action(self, state: S, text: str) -> A:
        """An action from its text (BadInput if it is not one)."""
        for a in self.legal_actions(state):
            if self.action_text(state, a).lower() == text.strip().lower():
                return a
        raise BadInput(f"'{text}' is not a legal action here")

    def matching_actions(self, state: S, text: str) -> list[A]:
        """The legal actions a player means by `text` (a game may accept shorthand,
        e.g. only the cell); default: the action whose text it is."""
        return [self.parse_action(state, text)]

    def action_json(self, state: S, action: A) -> dict[str, Any]:
        """An action as JSON, with what it does (tasks fulfilled, chips shed...)."""
        return {"text": self.action_text(state, action)}

    def moves_notes(self, state: S) -> dict[str, Any]:
        """What `moves` says besides the moves (e.g. the move the rules forbid now),
        as top-level JSON keys."""
        return {}

    # ------------------------------------------------------------------ pictures

    def show(self, state: S) -> Any:
        """The game-specific part of `show --json` (a dataclass or dict)."""
        return {}

    # ------------------------------------------------------------------ policies

    def policy(self, rules: R, name: str, options: dict[str, Any]) -> Policy[A]:
        """The policy called `name`, with the values of `play_options`."""
        raise NotImplementedError

    def policy_data(self, rules: R, name: str, setup: dict[str, Any],
                    options: dict[str, Any]) -> str | None:
        """A digest of the data the policy `name` plays `setup` from (learned values),
        if any: simulate keeps it with the games, so games of other data are another
        run."""
        return None

    def measure(self, rules: R, setup: dict[str, Any], end: S, options: dict[str, Any]
                ) -> dict[str, Any]:
        """Game-specific figures of a finished game for simulate's records (JSON)."""
        return {}

    def summarise(self, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Game-specific summary of the `measure` dicts of a cell's games (JSON)."""
        return {}

    # ------------------------------------------------------------------ helpers

    def load_position(self, rules: R, path: str) -> S:
        """A position file read and checked."""
        return self.read(rules, load_json(path, "position file"), f"position file {path}")

    def check_legal(self, state: S, action: A) -> None:
        """BadInput unless `action` is legal in `state` (for `apply_action`). It lists
        every legal action: a game with many (a thousand placements) checks one action
        in its engine instead, and says why it is refused."""
        if action not in self.legal_actions(state):
            raise BadInput(f"'{self._text_or_repr(state, action)}' is not a legal "
                           "action here")

    def _text_or_repr(self, state: S, action: A) -> str:
        try:
            return self.action_text(state, action)
        except Exception:  # an action so wrong it has no text
            return repr(action)


class GameView(Generic[R, S]):
    """How a game's states look, for the terminal and as pictures: each game implements
    it in its `render.py` as `VIEW` (the game description itself draws nothing)."""

    # whether `terminal` says what chance just did (then `play` does not say it again)
    shows_chance: bool = False

    def terminal(self, state: S) -> Any:
        """The state drawn for the terminal (a rich renderable)."""
        raise NotImplementedError

    def picture(self, state: S, title: str) -> Any:
        """The state drawn as an SVG (solver.render.Svg)."""
        raise NotImplementedError

    def hint(self, rules: R, observation: S, options: dict[str, Any]) -> Any:
        """What `play` shows when the player asks for a hint (a rich renderable), or
        None when the game has no hint."""
        return None

    def final_report(self, rules: R, end: S, options: dict[str, Any]) -> Any:
        """What `play` shows at the end of a game, or when the player stops it early
        (a rich renderable, or None)."""
        return None


def play_out(game: Game[R, S, A], state: S, seats: Sequence[Policy[A]],
             rng: random.Random, on_action: Callable[[S, A], None] | None = None
             ) -> tuple[S, int, bool]:
    """Play `state` to its end: chance by `game.sample_chance`, each seat by its
    policy on its observation (the whole state for an open-hands policy). Returns the
    end state, the number of player actions, and whether the game ended (False: it
    was stopped after `game.max_actions`)."""
    actions = 0
    while True:
        player = game.current_player(state)
        if player == TERMINAL:
            return state, actions, True
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            if actions >= game.max_actions:
                return state, actions, False
            policy = seats[player]
            legal = game.legal_actions(state)
            seen = state if policy.open_hands else game.observation(state, player)
            action = policy.choose(seen, legal, rng)
            actions += 1
        if on_action is not None:
            on_action(state, action)
        state = game.apply_action(state, action)


def seat_policies(names: Sequence[str], players: int, what: str = "--policy"
                  ) -> list[str]:
    """One policy name per seat from a list: one name plays every seat."""
    if len(names) == 1:
        return list(names) * players
    if len(names) != players:
        raise BadInput(f"{what}: {len(names)} policies for {players} players "
                       "(give one, or one per seat)")
    return list(names)
