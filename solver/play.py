"""The answers of the play verbs every game shares: `show`, `moves`, `simulate` and
`play` (declared in solver/shared_verbs.py, drawn by solver/play_view.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solver.errors import BadInput
from solver.game import CHANCE, TERMINAL, Game, seat_policies
from solver.results import dumps, to_jsonable

if TYPE_CHECKING:
    from solver.simulate import SimulationResult
    from solver.verbs import Call


def who(game: Game, state: Any) -> str | int | None:
    """The player to act as shown to people: seat number from 1, 'chance' or None."""
    p = game.current_player(state)
    return None if p == TERMINAL else "chance" if p == CHANCE else p + 1


@dataclass
class NoShow:
    """A game whose `show` adds nothing of its own."""


@dataclass
class ShownPosition:
    """What every `show` document says besides the game's own fields."""

    game: str
    to_move: int | str | None
    status: str
    unknown: list[str]
    knows: list[str]


@dataclass
class MovesResult:
    """`moves`: the legal actions of the player to act (after the chance outcome given
    on the command line, if any), and how many distinct positions they lead to. The
    game's notes (e.g. the move the rules forbid now) are top-level keys of the JSON."""

    game: str
    to_move: int | str | None
    chance: str | None
    count: int
    distinct_results: int
    moves: list[dict[str, Any]] = field(default_factory=list)
    chance_outcomes: list[dict[str, Any]] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # what the position leaves unknown
    knows: list[str] = field(default_factory=list)  # what it holds (game.knows)
    notes: dict[str, Any] = field(default_factory=dict, metadata={"json_skip": True})
    # the position asked about (after the what-if options), for the picture
    position: Any = field(default=None, metadata={"json_skip": True}, repr=False)

    def json_document(self) -> dict[str, Any]:
        """The JSON of `moves`: the fields, and the game's notes as top-level keys."""
        out = {f: to_jsonable(getattr(self, f)) for f in (
            "game", "to_move", "chance", "count", "distinct_results", "moves",
            "chance_outcomes", "unknown", "knows")}
        for key, value in self.notes.items():
            out.setdefault(key, to_jsonable(value))
        return out


def show(call: Call) -> dict[str, Any]:
    """`show`: the game's own account of the position and who acts next."""
    game = call.game
    state = call.state()
    if call.svg_path:
        from pathlib import Path

        call.save_svg(call.entry.view().picture(state, Path(call.file or "").name))
    out = to_jsonable(game.show(state))
    for key, value in (("game", game.id), ("to_move", who(game, state)),
                       ("status", game.status(state)), ("unknown", game.unknown(state)),
                       ("knows", game.knows(state))):
        out.setdefault(key, value)
    return out


def moves(call: Call, **values: Any) -> MovesResult:
    """`moves`: the legal moves, after the chance outcome given and in the position the
    game's what-if options ask about."""
    game = call.game
    chance_text = values.pop(game.chance_option.name) if game.chance_option else None
    state = game.what_if(call.rules(), call.state(), **values)
    result = legal_moves(game, state, chance_text)
    result.position = state
    return result


def legal_moves(game: Game, state: Any, chance_text: str | None = None) -> MovesResult:
    """The `moves` answer: apply the chance outcome named by `chance_text` first (or
    list the chance outcomes when one is due and none was given)."""
    name = game.chance_option.spellings[0] if game.chance_option else ""
    applied = None
    if chance_text is not None:
        if game.current_player(state) != CHANCE:
            raise BadInput(f"{name}: no chance event is due in this position")
        outcome = game.parse_action(state, chance_text)
        applied = game.action_text(state, outcome)
        state = game.apply_action(state, outcome)
    if game.current_player(state) == CHANCE:
        outcomes = [{**game.action_json(state, a), "probability": round(p, 6)}
                    for a, p in game.chance_outcomes(state)]
        return MovesResult(game.id, "chance", None, 0, 0, [], outcomes,
                           game.unknown(state), game.knows(state),
                           game.moves_notes(state))
    actions = game.legal_actions(state)
    after = {dumps(game.write(game.apply_action(state, a))) for a in actions}
    return MovesResult(game.id, who(game, state), applied, len(actions), len(after),
                       [game.action_json(state, a) for a in actions], [],
                       game.unknown(state), game.knows(state), game.moves_notes(state))


def split(values: dict[str, Any], options: tuple[Any, ...]) -> dict[str, Any]:
    """The values of `options` (Params) taken out of a verb's values."""
    return {o.name: values.pop(o.name) for o in options if o.name in values}


def policy_names(game: Game, spec: str) -> list[str]:
    names = [p.strip().lower() for p in spec.split(",") if p.strip()]
    if not names:
        raise BadInput(f"--policy: give one of {', '.join(game.policy_names)}")
    for n in names:
        if n not in game.policy_names:
            raise BadInput(f"--policy: unknown policy '{n}' ({', '.join(game.policy_names)})")
    return names


def simulate(call: Call, games: int, policy_specs: tuple[str, ...], rotate: bool,
             open_hands: bool, seed: int, **values: Any) -> SimulationResult:
    """`simulate`: seeded games of the policies, one task each."""
    from solver.simulate import simulate as run
    from solver.store import store_at

    game = call.game
    setup_values = split(values, game.setup_options)
    options = split(values, game.play_options)
    rules = call.rules()
    specs = [policy_names(game, s) for s in policy_specs] or [[game.policy_names[0]]]
    setups = game.setups(rules, **setup_values)
    assert call.batch is not None
    with store_at(call.store_path) as store:
        return run(game, rules, games, setups, specs, seed, rotate, options, open_hands,
                   call.batch, store, call.resume)


def play(call: Call, seat: int, policy_spec: str | None, seed: int | None,
         **values: Any) -> None:
    """`play`: a game in the terminal against the policies."""
    from solver.play_view import play_in_terminal

    game = call.game
    setup_values = split(values, game.setup_options)
    options = split(values, game.play_options)
    rules = call.rules()
    if seed is None:
        seed = random.SystemRandom().randrange(10 ** 6)
    deal, chance = game.streams(seed)
    if call.file:
        state = game.determinize(call.state(), deal)
    else:
        setups = game.setups(rules, **setup_values)
        if len(setups) != 1:
            raise BadInput("play: give one setup (one value per setup option)")
        state = game.new_game(rules, setups[0], deal)
    n = game.players(state)
    if seat > n:
        raise BadInput(f"--seat {seat}: this game has {n} seat(s)")
    names = seat_policies(policy_names(game, policy_spec or game.policy_names[0]), n)
    policies = [game.policy(rules, name, options) for name in names]
    play_in_terminal(call, state, seat - 1, policies, chance, seed, options)
