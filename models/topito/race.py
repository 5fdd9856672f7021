"""`race`: endgame reachability with everything known (an all-seeing analysis).

With every hand and the deck in order known, the game is a puzzle: how few moves, made
by the players in turn from the player on turn, until a player has played 7 cards? Each
move is a legal move of the rules engine (the no-reversal rule included) and after each
one comes photo time exactly as `GameState.move` plays it: in seat order from the mover,
every player whose cards the stacks meet plays all of them, refills to 4 from the deck
and plays the drawn cards the stacks meet (a chain). A line counts for a player when
that player has 7 played cards after its last move and the game did not end before it:
if another player won earlier the line is over; reaching 7 in the same photo time as
another player is a shared win and counts. Without a player: the fewest moves until the
game ends with a win (all players playing together), and which players can be the
winners at that count.

Two methods, held equal by the tests:
- `bfs`: breadth-first search over whole game states through the engine itself
  (GameState.move), a state kept once per canonical key (stacks, forbidden move, hands
  as multisets, played counts, deck position, turn). Proof: every line one move shorter
  was followed.
- `astar` (default): best-first (A*) search over a lean copy of the state (its own
  photo time, checked against the engine by replaying every line it returns), ordered
  by moves made + a proven lower bound on the moves still needed: a player who needs
  cards must first meet a card it holds now (it draws only after playing), each card
  kind has an admissible count of the moves it still needs (`card_bound`), and a
  player whose played cards, hand and the deck together fall short of 7 cannot win any
  more. The bound drops by at most one a move (consistent), so the first win found in
  the bucket of f = moves + bound takes f moves; every state of smaller f was
  expanded. Proof: no line shorter exists, since each would pass only through states
  of smaller f.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from models.topito.queries import podium_dict
from models.topito.race_search import (
    Outcome,
    Stopped,
    astar_race,
    bfs_race,
    card_bound,
    unmet_bound,
)
from models.topito.rules import cards_text
from models.topito.state import GameState, Move, format_move
from models.topito.verbs import RACE_BACKENDS
from models.topito.work import Work, race_nodes
from solver.deadline import Deadline
from solver.errors import BadInput
from solver.progress import Status, live_status

__all__ = ["RaceResult", "RaceStep", "card_bound", "race", "replay", "unmet_bound"]


# --------------------------------------------------------------------------- results

@dataclass
class RaceStep:
    """One move of a line: who makes it (seat from 1), the move, the photo time it causes
    (cards played, by seat), every seat's played cards after it, the stacks after it."""

    seat: int
    move: str
    photo_time: dict[str, list[str]]
    played: list[int]
    after: dict[str, list[str]]


@dataclass
class RaceResult:
    """How few moves until `seat` (from 1) has played `cards_to_win` cards, or, with no
    seat, until the game ends with a win.

    status: "optimal" (`fewest` moves, a line of them and a proof none is shorter),
    "infeasible" (proven: no line within `max_moves`; `proof` says when no line exists
    at all) or "unknown" (the work budget was spent, or the time limit cut the search,
    first: `lower_bound` is what was proven). `winners`: the seats winning at the end of
    the line; `can_win`: the seats that are winners at the end of some line of `fewest`
    moves (`undecided_seats`: those the work or the time left undecided).
    `lower_bound`: moves proven necessary (`fewest` when optimal, more than `max_moves`
    when no line is that short, None when no line exists at all). `reachable`: with
    `within`, whether `fewest` <= within (None when not decided). `played`: each seat's
    played cards at the start; `to_move`: the seat on turn (seats from 1); `nodes`: the
    moves the search made, of `node_budget`."""

    seat: int | None
    cards_to_win: int
    status: str
    fewest: int | None
    line: list[RaceStep]
    winners: list[int]
    can_win: list[int]
    played: list[int]
    to_move: int
    max_moves: int
    proof: str
    lower_bound: int | None
    backend: str
    nodes: int
    seconds: float
    within: int | None = None
    reachable: bool | None = None
    start: dict[str, list[str]] = field(default_factory=dict)
    undecided_seats: list[int] = field(default_factory=list)
    node_budget: int | None = None


# --------------------------------------------------------------------------- input

def full_state(state: GameState) -> GameState:
    """The position with everything known, photo time played out; BadInput saying what
    is missing otherwise (the race reads every hand and the deck in order)."""
    if not state.hands:
        raise BadInput("race needs the players' hands, played piles and the deck in order "
                       "('hands', 'played', 'deck'), not the blocks alone")
    hidden = [f"{sum(c is None for c in h)} card(s) of seat {p + 1}"
              for p, h in enumerate(state.hands) if None in h]
    if hidden:
        raise BadInput(f"race reads every hand and the deck in order (all-seeing), but "
                       f"the hands hold unknown cards ('?'): {', '.join(hidden)}")
    if state.deck is None:
        how = ("its cards without their order" if state.deck_cards is not None
               else "a count")
        raise BadInput(f"race needs the deck in order (a list, top card first); the file "
                       f"gives {how}")
    return state.photo_time() if state.photo_queue else state


def _seat(player: int | None, state: GameState) -> None:
    if player is not None and not 0 <= player < len(state.hands):
        raise BadInput(f"--player: no seat {player + 1} (seats 1 to {len(state.hands)})")


# --------------------------------------------------------------------------- the race

def replay(state: GameState, moves: Sequence[Move]) -> tuple[list[RaceStep], GameState]:
    """A line through the engine (each move checked legal), with the photo time of each
    move; AssertionError if the game ends before its last move."""
    r = state.blocks.rules
    steps = []
    for i, m in enumerate(moves):
        assert state.end() is None, f"the game ended before move {i + 1}"
        nxt = state.move(m)
        photos = {f"seat {p + 1}": cards_text(r, nxt.played[p][len(state.played[p]):])
                  for p in range(len(state.hands))
                  if len(nxt.played[p]) > len(state.played[p])}
        steps.append(RaceStep(state.turn + 1, format_move(r, m, state.blocks.stacks),
                              photos, [len(p) for p in nxt.played],
                              podium_dict(r, nxt.blocks.stacks)))
        state = nxt
    return steps, state


def _what(player: int | None) -> str:
    return ("the game ends with a win" if player is None
            else f"seat {player + 1} has 7 played cards")


def _proof(backend: str, player: int | None, out: Outcome, max_moves: int) -> str:
    """How the answer is proven, in words."""
    name = "BFS" if backend == "bfs" else "A*"
    if out.exhausted:
        return (f"{name}: every line followed to the end of the game ({out.nodes} moves "
                f"made); in none {_what(player)}, however long")
    checked = out.fewest - 1 if out.fewest is not None else max_moves
    if checked == 0:
        return (f"{name}: not so at the start" if out.fewest is not None else
                f"{name}: not so at the start, and --max-moves is 0")
    if out.fewest is None and out.lower > max_moves + 1:
        return (f"{name}: a proven lower bound needs {out.lower} moves (the player(s) must "
                "first meet a card held now)")
    lines = f"every line of at most {checked} move{'s' * (checked != 1)}"
    if backend == "bfs":
        return f"BFS: {lines} followed ({out.nodes} moves made), in none {_what(player)}"
    return (f"A*: {lines} covered ({out.nodes} moves made; states set aside only where "
            f"the moves made plus a proven lower bound exceed {checked}), in none "
            f"{_what(player)}")


def race(state: GameState, player: int | None = None, max_moves: int = 12,
         backend: str = "astar", time_limit: float | None = 60.0,
         within: int | None = None, work: Work | None = None) -> RaceResult:
    """The fewest moves until `player` (from 0) has played 7 cards, the game not having
    ended before (None: until the game ends with a win), proven minimal; with `within`,
    whether it can be done in at most that many moves (the search goes no further).
    Within `work` (moves made; default `race_nodes(backend)`), the time limit only capping it:
    status "unknown" with the lower bound proven so far when either stops the search
    first (`work` says which); BadInput when a hand card or the deck's order is
    unknown."""
    if backend not in RACE_BACKENDS:
        raise BadInput(f"unknown backend '{backend}' (backends: {', '.join(RACE_BACKENDS)})")
    t0 = time.perf_counter()
    deadline = Deadline.after(time_limit)
    work = work if work is not None else Work(race_nodes(backend))
    state = full_state(state)
    _seat(player, state)
    if within is not None:
        max_moves = within
    r = state.blocks.rules
    common: dict[str, Any] = dict(
        seat=None if player is None else player + 1, cards_to_win=state.rules.cards_to_win,
        played=[len(p) for p in state.played], to_move=state.turn + 1,
        max_moves=max_moves, backend=backend, within=within,
        start=podium_dict(r, state.blocks.stacks), node_budget=work.nodes)

    def result(fewest: int | None, line: list[RaceStep], winners: list[int],
               can_win: list[int], proof: str, lower: int | None,
               status: str | None = None, undecided: Sequence[int] = ()) -> RaceResult:
        res = RaceResult(status=status or ("optimal" if fewest is not None else "infeasible"),
                         fewest=fewest, line=line, winners=[p + 1 for p in winners],
                         can_win=[p + 1 for p in can_win], proof=proof, lower_bound=lower,
                         nodes=work.used_nodes, seconds=round(time.perf_counter() - t0, 4),
                         undecided_seats=[p + 1 for p in undecided], **common)
        if within is not None and status != "unknown":
            res.reachable = fewest is not None and fewest <= within
        return res

    end = state.end()
    if end is not None:
        win = state.winners()
        if end == "won" and (player is None or player in win):
            return result(0, [], win, win if player is None else [player],
                          f"{_what(player)} already", 0)
        why = (f"won by seat{'s' * (len(win) > 1)} {' and '.join(str(p + 1) for p in win)}"
               if end == "won" else end)
        return result(None, [], [], [], f"the game is over ({why})", None)

    label = "race" if player is None else f"race of seat {player + 1}"
    search = bfs_race if backend == "bfs" else astar_race
    with live_status(label, time_limit, unit="moves made") as status:
        try:
            out = search(state, player, max_moves, deadline, status, work.nodes_left())
        except Stopped as stop:
            _spend(work, stop)
            return result(None, [], [], [], _stopped(stop, player, work), stop.bound,
                          "unknown")
        work.used_nodes += out.nodes
        can = out.can_win if player is None else [player]
        undecided: list[int] = []
        if out.fewest is not None and can is None:
            can, undecided = _can_win(state, out.fewest, deadline, status, work)
    steps, last = replay(state, out.moves)
    proof = _proof(backend, player, out, max_moves)
    if out.fewest is None:
        return result(None, [], [], [], proof, None if out.exhausted else out.lower)
    # the line is the certificate: the engine must end it as the search says
    if sorted(last.winners()) != sorted(out.winners) or (
            player is not None and player not in out.winners):
        raise AssertionError("the race's line does not end as the search says")
    if undecided:
        proof += (f"; whether seat{'s' * (len(undecided) > 1)} "
                  f"{', '.join(str(p + 1) for p in undecided)} can be a winner then was "
                  f"not decided ({_why(work)})")
    return result(out.fewest, steps, out.winners, can, proof, out.fewest,
                  undecided=undecided)


def _spend(work: Work, stop: Stopped) -> None:
    work.used_nodes += stop.nodes
    if stop.by_time:
        work.cut_by_time = True
    else:
        work.spent_out = True


def _why(work: Work) -> str:
    return "cut by the time limit" if work.cut_by_time else \
        "the work budget (--nodes) was spent"


def _stopped(stop: Stopped, player: int | None, work: Work) -> str:
    return (f"every line of at most {stop.bound - 1} moves searched ({stop.nodes} moves "
            f"made), in none {_what(player)}; {_why(work)}: the race needs at least "
            f"{stop.bound} moves (proven)")


def _can_win(state: GameState, fewest: int, deadline: Deadline, status: Status,
             work: Work) -> tuple[list[int], list[int]]:
    """Who can be a winner at `fewest` moves: each seat's own race, that long only;
    (the seats that can, the seats the work or the deadline left undecided)."""
    can: list[int] = []
    for p in range(len(state.hands)):
        try:
            seat = astar_race(state, p, fewest, deadline, status, work.nodes_left())
        except Stopped as stop:
            _spend(work, stop)
            return can, list(range(p, len(state.hands)))
        work.used_nodes += seat.nodes
        if seat.fewest is not None:
            can.append(p)
    return can, []
