"""The searches of `race` (race.py): the lower bounds, A* over a lean copy of the game
state, and breadth-first search over whole game states through the engine. Both count
the moves they make against a budget (`max_nodes`) and watch a deadline; either stops
them with `Stopped`, which carries what they proved so far."""

from __future__ import annotations

from dataclasses import dataclass

from models.topito.rules import Card, Stacks
from models.topito.state import GameState, Move, seats_from, successors
from solver.deadline import Deadline
from solver.progress import NO_STATUS, Status

INF = 10 ** 6


class Stopped(Exception):
    """The deadline passed (`by_time`) or the budget of moves ran out first; `bound`:
    moves proven necessary so far, `nodes`: the moves made."""

    def __init__(self, bound: int, nodes: int, by_time: bool) -> None:
        super().__init__(bound)
        self.bound = bound
        self.nodes = nodes
        self.by_time = by_time


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
        out, podiums = spread(card.blocks, at)
        return out + len(podiums - {card.podium})
    if kind == "pair":
        lower, upper = card.blocks
        w = at.get(lower)
        if w is None or w[1] + 1 != w[2]:
            return 2  # out of play or covered
        u = at.get(upper)
        return 2 if u is not None and u[0] == w[0] else 1
    if kind == "order":
        out, podiums = spread(card.blocks, at)
        return max(1, out + max(0, len(podiums) - 1))
    w = at.get(card.blocks[0])
    if w is None:
        return 2
    return 2 if w[1] + 1 == w[2] and w[1] + 1 != card.rank else 1


def spread(blocks: tuple[int, ...], at: dict[int, tuple[int, int, int]]
           ) -> tuple[int, set[int]]:
    """How many of `blocks` are out of play, and the podiums holding the others."""
    placed = [at[b][0] for b in blocks if b in at]
    return len(blocks) - len(placed), set(placed)


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

class Lean:
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
class Outcome:
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


def astar_race(state: GameState, player: int | None, max_moves: int,
               deadline: Deadline, status: Status = NO_STATUS,
               max_nodes: int | None = None) -> Outcome:
    """Best-first (A*) by f = moves made + the lower bound, one bucket of f at a time;
    the bound is consistent (it drops by at most one a move), so each state is expanded
    once, at its fewest moves, and the first win generated in bucket f takes f moves.
    `Stopped` when the deadline passes or `max_nodes` moves were made first."""
    lean = Lean(state)
    players = range(lean.n) if player is None else (player,)

    def h(key: tuple) -> int:
        return min(lean.bound(key, p) for p in players)

    root = lean.start
    first = h(root)
    if first >= INF:
        return Outcome(None, [], [], None, 0, True, INF)
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
                raise Stopped(f, nodes, True)
            if max_nodes is not None and nodes >= max_nodes:
                raise Stopped(f, nodes, False)
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
                        return Outcome(g + 1, moves[::-1], lean.winners(child), None,
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
        return Outcome(None, [], [], None, nodes, True, INF)
    return Outcome(None, [], [], None, nodes, False, max(first, max_moves + 1))


# --------------------------------------------------------------------------- engine BFS

def card_key(c: Card) -> tuple:
    return (c.kind, c.blocks, -1 if c.podium is None else c.podium,
            -1 if c.rank is None else c.rank)


def state_key(state: GameState) -> tuple:
    """Everything that decides a whole game state's future (the deck is a known list, so
    its size says where it stands): stacks, forbidden move, hands as multisets, played
    counts, deck size, turn."""
    return (state.blocks.stacks, state.blocks.ban,
            tuple(tuple(sorted(h, key=card_key)) for h in state.hands),
            tuple(len(p) for p in state.played), state.deck_count, state.turn)


def bfs_race(state: GameState, player: int | None, max_moves: int, deadline: Deadline,
             status: Status = NO_STATUS, max_nodes: int | None = None) -> Outcome:
    """Breadth-first over whole game states with the engine's own moves; at the first
    layer holding a win, every winner of that layer is collected. `Stopped` when the
    deadline passes or `max_nodes` moves were made first."""
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
                if max_nodes is not None and nodes >= max_nodes:
                    raise Stopped(depth, nodes, False)
                nodes += 1
                if nodes % 256 == 0 and deadline.passed():
                    raise Stopped(depth, nodes, True)
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
            return Outcome(depth, moves[::-1], win, can, nodes, False, depth)
        layer = nxt
        if not layer:
            return Outcome(None, [], [], None, nodes, True, INF)
    return Outcome(None, [], [], None, nodes, False, max_moves + 1)
