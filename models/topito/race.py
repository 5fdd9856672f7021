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
from models.topito.rules import Card, Stacks, cards_text
from models.topito.state import GameState, Move, format_move, seats_from, successors
from models.topito.verbs import RACE_BACKENDS
from solver.deadline import Deadline
from solver.errors import BadInput, TimeLimitReached
from solver.progress import NO_STATUS, Status, live_status

INF = 10 ** 6


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

    status: "optimal" (`fewest` moves, a line of them and a proof none is shorter) or
    "infeasible" (proven: no line within `max_moves`; `proof` says when no line exists
    at all). `winners`: the seats winning at the end of the line; `can_win`: the seats
    that are winners at the end of some line of `fewest` moves. `lower_bound`: moves
    proven necessary (`fewest` when optimal, more than `max_moves` when no line is that
    short, None when no line exists at all). `reachable`: with `within`, whether
    `fewest` <= within. `played`: each seat's played cards at the start; `to_move`: the
    seat on turn (seats from 1)."""

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


class _OutOfTime(Exception):
    """The deadline passed; `bound`: moves proven necessary so far."""

    def __init__(self, bound: int, nodes: int) -> None:
        super().__init__(bound)
        self.bound = bound
        self.nodes = nodes


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


# --------------------------------------------------------------------------- bounds

def card_bound(card: Card, stacks: Stacks) -> int:
    """A lower bound on the moves that make the stacks meet `card` (0: met). Each count
    drops by at most one per move, so it never overestimates:
    podium: blocks out of play (one put each) + other podiums holding its blocks;
    pair: 1, or 2 when the lower block is out of play or covered (it must be the top
    when the upper one lands), or when the upper block is under it (lifting it carries
    the lower one along); order: blocks out of play + stacks holding them less one (at
    least 1); rank: 1, or 2 when the block is out of play, or on top at the wrong height
    (its height changes only by a lift that leaves it on top, and a block must come on
    top of it as well)."""
    return 0 if card.met(stacks) else unmet_bound(card, stacks)


def where(stacks: Stacks) -> dict[int, tuple[int, int, int]]:
    """Each block in play: (podium, index from the bottom, height of its stack)."""
    return {b: (q, i, len(s)) for q, s in enumerate(stacks) for i, b in enumerate(s)}


def unmet_bound(card: Card, stacks: Stacks,
                at: dict[int, tuple[int, int, int]] | None = None) -> int:
    """card_bound of a card the stacks do not meet (every hand card after photo time);
    `at`: where(stacks), when the caller has it."""
    if at is None:
        at = where(stacks)
    kind = card.kind
    if kind == "podium":
        out = 0
        others = set()
        for b in card.blocks:
            w = at.get(b)
            if w is None:
                out += 1
            elif w[0] != card.podium:
                others.add(w[0])
        return out + len(others)
    if kind == "pair":
        lower, upper = card.blocks
        w = at.get(lower)
        if w is None or w[1] + 1 != w[2]:
            return 2  # out of play or covered
        u = at.get(upper)
        return 2 if u is not None and u[0] == w[0] else 1
    if kind == "order":
        out = 0
        holding = set()
        for b in card.blocks:
            w = at.get(b)
            if w is None:
                out += 1
            else:
                holding.add(w[0])
        return max(1, out + max(0, len(holding) - 1))
    w = at.get(card.blocks[0])
    if w is None:
        return 2
    return 2 if w[1] + 1 == w[2] and w[1] + 1 != card.rank else 1


def lands(card: Card, block: int, target: int, under: int | None,
          stack: tuple[int, ...]) -> bool:
    """Does a move that puts `block` (with the blocks above it) onto podium `target`
    whose top was `under` (None: empty), giving the stack `stack` there, make
    the stacks meet `card`, which they did not meet before? Only the target stack gains
    blocks and the source stack only loses its top, so only the target can newly meet a
    card: a pair exactly when the moved block lands on its lower block."""
    kind = card.kind
    if kind == "pair":
        return card.blocks == (under, block)
    if kind == "podium":
        return card.podium == target and all(b in stack for b in card.blocks)
    if kind == "order":
        a, b, c = card.blocks
        return (a in stack and b in stack and c in stack
                and stack.index(a) < stack.index(b) < stack.index(c))
    r = card.rank
    return len(stack) > r and stack[r - 1] == card.blocks[0]


# --------------------------------------------------------------------------- lean search

class _Lean:
    """The game as plain tuples for the fast search: a state is (stacks, forbidden move,
    hands as sorted card numbers, played counts, next deck position, turn); the deck is
    fixed, so the position in it says what is left."""

    def __init__(self, state: GameState) -> None:
        self.rules = state.rules
        self.cards: list[Card] = []
        number: dict[Card, int] = {}
        for c in [c for h in state.hands for c in h] + list(state.deck or ()):
            if c not in number:
                number[c] = len(self.cards)
                self.cards.append(c)
        self.number = number
        self.deck = tuple(number[c] for c in state.deck or ())
        self.n = len(state.hands)
        self.n_blocks = state.blocks.rules.n_blocks
        self.reversal = state.blocks.reversal_rule
        self.hand_size = state.rules.hand_size
        self.to_win = state.rules.cards_to_win
        self.move_limit = state.rules.move_limit
        self.moves0 = state.moves_made
        self.start = (state.blocks.stacks, state.blocks.ban,
                      tuple(tuple(sorted(number[c] for c in h)) for h in state.hands),
                      tuple(len(p) for p in state.played), 0, state.turn)

    def children(self, key: tuple, g: int) -> list[tuple[tuple, tuple, str | None]]:
        """Every legal move from `key` (made after `g` moves): ((block, source, target),
        the state after it and its photo time, how the game ends there: None, "won" or
        "over")."""
        stacks, ban, hands, played, ptr, turn = key
        cards, deck, n = self.cards, self.deck, self.n
        held = {c for h in hands for c in h}
        # after photo time no hand card is met, so a move meets only the cards that
        # its target stack newly meets (`lands`); the start may hold met cards. A pair
        # is met by one move only (its upper block landing on its lower block)
        fresh = key is self.start
        pairs: dict[tuple[int, int], list[int]] = {}
        rest = []
        for c in held:
            card = cards[c]
            if card.kind == "pair":
                pairs.setdefault(card.blocks, []).append(c)
            else:
                rest.append(c)
        nxt_turn = (turn + 1) % n
        out = []
        for b, src, dst, new in successors(stacks, ban, self.n_blocks):
            new_ban = None if src is None or not self.reversal else (b, src)
            if fresh:
                met = {c for c in held if cards[c].met(new)}
            else:
                old = stacks[dst]
                under = old[-1] if old else None
                stack = new[dst]
                met = {c for c in rest if lands(cards[c], b, dst, under, stack)}
                met.update(pairs.get((under, b), ()))
            h2, p2, ptr2 = hands, played, ptr
            if met:
                h2l, p2l = list(hands), list(played)
                for q in seats_from(turn, n):
                    hand = h2l[q]
                    keep = [c for c in hand if c not in met]
                    if len(keep) == len(hand):
                        continue
                    gained = len(hand) - len(keep)
                    need = self.hand_size - len(keep)
                    while need > 0 and ptr2 < len(deck):  # refill; met draws chain on
                        c = deck[ptr2]
                        ptr2 += 1
                        if cards[c].met(new):
                            gained += 1
                        else:
                            keep.append(c)
                            need -= 1
                    h2l[q] = tuple(sorted(keep))
                    p2l[q] += gained
                h2, p2 = tuple(h2l), tuple(p2l)
            child = (new, new_ban, h2, p2, ptr2, nxt_turn)
            out.append(((b, src, dst), child, self.end(child, g + 1) if met or
                        self.moves0 + g + 1 >= self.move_limit else None))
        return out

    def end(self, key: tuple, g: int) -> str | None:
        """Why the game is over at `key` after `g` moves, as GameState.end says it."""
        _, _, hands, played, ptr, _ = key
        if any(k >= self.to_win for k in played):
            return "won"
        if ptr >= len(self.deck) and all(k + len(h) < self.to_win
                                         for k, h in zip(played, hands, strict=True)):
            return "over"
        if self.moves0 + g >= self.move_limit:
            return "over"
        return None

    def winners(self, key: tuple) -> list[int]:
        return [q for q, k in enumerate(key[3]) if k >= self.to_win]

    def bound(self, key: tuple, player: int) -> int:
        """Moves `player` needs at least to reach 7 (INF: it cannot any more): it must
        first meet a card it holds, and a card it will never hold cannot help."""
        stacks, _, hands, played, ptr, _ = key
        hand = hands[player]
        if played[player] >= self.to_win:
            return 0
        if not hand or played[player] + len(hand) + len(self.deck) - ptr < self.to_win:
            return INF
        if key is self.start:
            return max(1, min(card_bound(self.cards[c], stacks) for c in hand))
        at = where(stacks)
        best = INF
        for c in hand:
            v = unmet_bound(self.cards[c], stacks, at)
            if v == 1:  # an unmet card needs a move at least: none is nearer
                return 1
            best = min(best, v)
        return best


@dataclass
class _Outcome:
    """What one search found: the fewest moves (None: none within the bound searched),
    one line of them and its winners, the seats that win at the end of some line of
    that length (None: not collected), the moves made, whether no line was left to
    follow (so none exists however long), and the moves proven necessary."""

    fewest: int | None
    moves: list[Move]
    winners: list[int]
    can_win: list[int] | None
    nodes: int
    exhausted: bool
    lower: int


def _astar(state: GameState, player: int | None, max_moves: int,
           deadline: Deadline, status: Status = NO_STATUS) -> _Outcome:
    """Best-first (A*) by f = moves made + the lower bound, one bucket of f at a time;
    the bound is consistent (it drops by at most one a move), so each state is expanded
    once, at its fewest moves, and the first win generated in bucket f takes f moves."""
    lean = _Lean(state)
    players = range(lean.n) if player is None else (player,)

    def h(key: tuple) -> int:
        return min(lean.bound(key, p) for p in players)

    root = lean.start
    first = h(root)
    if first >= INF:
        return _Outcome(None, [], [], None, 0, True, INF)
    best: dict[tuple, int] = {root: 0}  # state -> fewest moves it was reached with
    parent: dict[tuple, tuple[tuple, tuple] | None] = {root: None}
    buckets: dict[int, list[tuple[int, tuple]]] = {first: [(0, root)]}
    nodes = 0
    cut = False
    f = first
    while f <= max_moves:
        bucket = buckets.pop(f, None)
        if bucket is None:
            if not buckets:
                break
            f = min(buckets)
            continue
        status.bound(f)
        status.step(nodes)
        while bucket:
            g, key = bucket.pop()  # the deepest first: the last bucket ends sooner
            if best[key] < g:
                continue
            if deadline.passed():
                raise _OutOfTime(f, nodes)
            kids = lean.children(key, g)
            nodes += len(kids)
            for move, child, end in kids:
                if end is not None:
                    if end == "won" and (player is None or player in lean.winners(child)):
                        parent[child] = (key, move)
                        moves = []
                        at = child
                        while (back := parent[at]) is not None:
                            at, (b, src, dst) = back
                            moves.append(Move(b, src, dst))
                        return _Outcome(g + 1, moves[::-1], lean.winners(child), None,
                                        nodes, False, g + 1)
                    continue
                if best.get(child, INF) <= g + 1:
                    continue
                est = h(child)
                if est >= INF:
                    continue  # the player(s) can no longer reach 7 on this line
                cf = g + 1 + est
                if cf > max_moves:
                    cut = True
                    continue
                best[child] = g + 1
                parent[child] = (key, move)
                (bucket if cf == f else buckets.setdefault(cf, [])).append((g + 1, child))
        f += 1
    if not cut and not any(buckets.values()):
        return _Outcome(None, [], [], None, nodes, True, INF)
    return _Outcome(None, [], [], None, nodes, False, max(first, max_moves + 1))


# --------------------------------------------------------------------------- engine BFS

def _card_key(c: Card) -> tuple:
    return (c.kind, c.blocks, -1 if c.podium is None else c.podium,
            -1 if c.rank is None else c.rank)


def state_key(state: GameState) -> tuple:
    """Everything that decides a whole game state's future (the deck is a known list, so
    its size says where it stands): stacks, forbidden move, hands as multisets, played
    counts, deck size, turn."""
    return (state.blocks.stacks, state.blocks.ban,
            tuple(tuple(sorted(h, key=_card_key)) for h in state.hands),
            tuple(len(p) for p in state.played), state.deck_count, state.turn)


def _bfs(state: GameState, player: int | None, max_moves: int, deadline: Deadline,
         status: Status = NO_STATUS) -> _Outcome:
    """Breadth-first over whole game states with the engine's own moves; at the first
    layer holding a win, every winner of that layer is collected."""
    parent: dict[tuple, tuple[tuple, Move] | None] = {state_key(state): None}
    layer = [state]
    nodes = 0
    for depth in range(1, max_moves + 1):
        status.bound(depth)
        status.step(nodes)
        nxt = []
        hits: list[tuple[tuple, list[int]]] = []
        for st in layer:
            here = state_key(st)
            for move in st.legal_moves():
                nodes += 1
                if nodes % 256 == 0 and deadline.passed():
                    raise _OutOfTime(depth, nodes)
                child = st.move(move)
                key = state_key(child)
                if key in parent:
                    continue  # reached before with no more moves: its future is known
                parent[key] = (here, move)
                end = child.end()
                if end is None:
                    nxt.append(child)
                elif end == "won" and (player is None or player in child.winners()):
                    hits.append((key, child.winners()))
        if hits:
            key, win = hits[0]
            moves = []
            while (back := parent[key]) is not None:
                key, move = back
                moves.append(move)
            can = sorted({p for _, w in hits for p in w} if player is None else {player})
            return _Outcome(depth, moves[::-1], win, can, nodes, False, depth)
        layer = nxt
        if not layer:
            return _Outcome(None, [], [], None, nodes, True, INF)
    return _Outcome(None, [], [], None, nodes, False, max_moves + 1)


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


def _proof(backend: str, player: int | None, out: _Outcome, max_moves: int) -> str:
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
         within: int | None = None) -> RaceResult:
    """The fewest moves until `player` (from 0) has played 7 cards, the game not having
    ended before (None: until the game ends with a win), proven minimal; with `within`,
    whether it can be done in at most that many moves (the search goes no further).
    TimeLimitReached, with the lower bound proven so far, when the time runs out first;
    BadInput when a hand card or the deck's order is unknown."""
    if backend not in RACE_BACKENDS:
        raise BadInput(f"unknown backend '{backend}' (backends: {', '.join(RACE_BACKENDS)})")
    t0 = time.perf_counter()
    deadline = Deadline.after(time_limit)
    state = full_state(state)
    _seat(player, state)
    if within is not None:
        max_moves = within
    r = state.blocks.rules
    common: dict[str, Any] = dict(
        seat=None if player is None else player + 1, cards_to_win=state.rules.cards_to_win,
        played=[len(p) for p in state.played], to_move=state.turn + 1,
        max_moves=max_moves, backend=backend, within=within,
        start=podium_dict(r, state.blocks.stacks))

    def result(fewest: int | None, line: list[RaceStep], winners: list[int],
               can_win: list[int], proof: str, lower: int | None, nodes: int) -> RaceResult:
        res = RaceResult(status="optimal" if fewest is not None else "infeasible",
                         fewest=fewest, line=line, winners=[p + 1 for p in winners],
                         can_win=[p + 1 for p in can_win], proof=proof, lower_bound=lower,
                         nodes=nodes, seconds=round(time.perf_counter() - t0, 4), **common)
        if within is not None:
            res.reachable = fewest is not None and fewest <= within
        return res

    end = state.end()
    if end is not None:
        win = state.winners()
        if end == "won" and (player is None or player in win):
            return result(0, [], win, win if player is None else [player],
                          f"{_what(player)} already", 0, 0)
        why = (f"won by seat{'s' * (len(win) > 1)} {' and '.join(str(p + 1) for p in win)}"
               if end == "won" else end)
        return result(None, [], [], [], f"the game is over ({why})", None, 0)

    label = "race" if player is None else f"race of seat {player + 1}"
    search = _bfs if backend == "bfs" else _astar
    with live_status(label, time_limit, unit="moves made") as status:
        try:
            out = search(state, player, max_moves, deadline, status)
        except _OutOfTime as stop:
            raise TimeLimitReached(
                f"time limit: every line of at most {stop.bound - 1} moves searched "
                f"({stop.nodes} moves made), in none {_what(player)}; the race needs at "
                f"least {stop.bound} moves") from None
        nodes = out.nodes
        can = out.can_win if player is None else [player]
        if out.fewest is not None and can is None:
            # who can be a winner at that count: each seat's own race, that long only
            can = []
            for p in range(len(state.hands)):
                try:
                    seat = _astar(state, p, out.fewest, deadline, status)
                except _OutOfTime:
                    raise TimeLimitReached(
                        f"time limit: the game can end after {out.fewest} moves at the "
                        f"earliest (proven); whether seat {p + 1} can be a winner then "
                        "was not decided") from None
                nodes += seat.nodes
                if seat.fewest is not None:
                    can.append(p)
    steps, last = replay(state, out.moves)
    proof = _proof(backend, player, out, max_moves)
    if out.fewest is None:
        return result(None, [], [], [], proof, None if out.exhausted else out.lower, nodes)
    # the line is the certificate: the engine must end it as the search says
    if sorted(last.winners()) != sorted(out.winners) or (
            player is not None and player not in out.winners):
        raise AssertionError("the race's line does not end as the search says")
    return result(out.fewest, steps, out.winners, can, proof, out.fewest, nodes)
