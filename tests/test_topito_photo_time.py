"""What photo time has shown (models/topito/photo.py): a player who went through a photo
time without playing holds no card its position met, so the chances of the next draw
and the deals `determinize` makes use it. Held against an enumeration of every shuffle
of a small deck that replays the game the observer saw, against counting the deals by
brute force, and in position files (`photo_times`)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from math import perm

import pytest

from models.topito.game import GAME
from models.topito.photo import Deals, PhotoTimes
from models.topito.positions import read_position, write_position
from models.topito.rules import Card, GameRules, load_game_rules, parse_card
from models.topito.state import GameState, Move, new_game
from solver.errors import BadInput
from tests.cli_helpers import assert_one_line_error, game_runner, run_json
from tests.topito_helpers import reached

BUILT_IN = load_game_rules()
R = BUILT_IN.rules
run = game_runner("topito")


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(parse_card(R, t) for t in texts)


# cards that random moves of a few blocks meet now and then
SMALL = ("rank 1: Bear", "rank 1: Cat", "Cat on Bear", "Bear on Cat", "rank 1: Duck",
         "Duck on Cat", "rank 2: Cat")


class Order:
    """A stand-in for the dealing generator: it "shuffles" into a given order."""

    def __init__(self, order: tuple[Card, ...]) -> None:
        self.order = order

    def shuffle(self, items: list) -> None:
        items[:] = self.order


def public(state: GameState, seat: int) -> tuple:
    """What `seat` sees of a state: the stacks, every played pile, the hand sizes and
    its own hand, the deck's size."""
    return (state.blocks.stacks, state.played, tuple(len(h) for h in state.hands),
            state.hands[seat], state.deck_count)


def replayed(rules: GameRules, players: int, order: tuple[Card, ...], moves: list[Move]
             ) -> list[GameState]:
    """The states of the game dealt in `order` through `moves` (None where a move is
    illegal in that deal)."""
    state = new_game(rules, players, Order(order))  # type: ignore[arg-type]
    out = [state]
    for m in moves:
        try:
            state = state.move(m)
        except BadInput:  # this deal's game was over before
            return []
        out.append(state)
    return out


def a_game(rules: GameRules, players: int, seed: int, moves: int
           ) -> tuple[GameState, list[GameState], list[Move]] | None:
    """A seeded random game to a turn of the observer where a move meets one of its own
    cards (it then draws from the deck): (the state, every state before, the moves)."""
    rng = random.Random(seed)
    state = new_game(rules, players, rng)
    history, made = [state], []
    for _ in range(moves):
        if state.end() is not None:
            return None
        m = rng.choice(state.legal_moves())
        state = state.move(m)
        history.append(state)
        made.append(m)
    if state.end() is not None or not state.deck_count:
        return None
    return state, history, made


def observer_draws(state: GameState) -> tuple[GameState, Move] | None:
    """The observation of the player on turn after a move that meets one of its cards:
    it plays the card and draws from the deck, whose order it does not know."""
    seen = GAME.observation(state, state.turn)
    for m in state.legal_moves():
        after = seen.move(m)
        if after.chance_due and after.photo_queue[0] == state.turn:
            return after, m
    return None


def consistent_orders(rules: GameRules, players: int, history: list[GameState],
                      made: list[Move], seat: int) -> list[tuple[Card, ...]]:
    """Every deal of the deck (as an order, copies told apart) whose game, through the
    same moves, shows `seat` exactly what it saw."""
    seen = [public(s, seat) for s in history]
    out = []
    for order_of in itertools.permutations(range(len(rules.deck))):
        order = tuple(rules.deck[i] for i in order_of)
        states = replayed(rules, players, order, made)
        if len(states) == len(seen) and all(
                public(s, seat) == v for s, v in zip(states, seen, strict=True)):
            out.append(order)
    return out


@pytest.mark.parametrize("seed", [0, 100, 300])
def test_draw_chances_equal_every_shuffle_that_replays_what_the_observer_saw(seed):
    """A 7-card deck, hands of 2: every order of the deck is replayed through the moves
    made; those that show the observer what it saw are the deals it cannot tell apart,
    each as likely (the shuffle is uniform). The card it draws after meeting one of its
    own is the top of the deck then: its share over those deals is the chance `moves`
    gives, exactly, though the other seat is waiting for its photo time still."""
    rules = replace(GameRules(R, cards(*SMALL)), hand_size=2)
    for k in range(seed, seed + 100):
        game = a_game(rules, 2, k, 6)
        if game is None:
            continue
        state, history, made = game
        drawing = observer_draws(state)
        if drawing is None:
            continue
        seat = state.turn
        if len({p for _, p in GAME.chance_outcomes(drawing[0])}) < 2:
            continue  # photo time ruled nothing out that matters: not this test's case
        orders = consistent_orders(rules, 2, history, made, seat)
        # the observer is first in photo time: its first card drawn is the deck's top
        tops = Counter(replayed(rules, 2, o, made)[-1].deck[0] for o in orders)
        got = {c: Fraction(p).limit_denominator(10_000)
               for c, p in GAME.chance_outcomes(drawing[0])}
        assert got == {c: Fraction(n, len(orders)) for c, n in tops.items()}
        # and every deal determinize makes is one of those
        view = GAME.observation(state, seat)
        possible = {tuple(replayed(rules, 2, o, made)[-1].hands[1 - seat]) for o in orders}
        for s in range(20):
            assert GAME.determinize(view, random.Random(s)).hands[1 - seat] in possible
        return
    pytest.fail("no game with a draw after photo time ruled a card out")


def brute_deals(state: GameState) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Every deal of the unseen cards (copies told apart) into the unknown hand cards and
    the deck that photo time allows: (the unknown cards in order, the deck)."""
    pool = state.unseen()
    slots = [(p, i) for p, h in enumerate(state.hands) for i, c in enumerate(h) if c is None]
    waiting = set(state.photo_queue[1:])
    out = []
    for picked in itertools.permutations(range(len(pool)), len(slots)):
        dealt = tuple(pool[j] for j in picked)
        if any(state.photos.ruled_out(p, state.photos.of(p, len(state.hands[p]))[i],
                                      p not in waiting, [c])
               for (p, i), c in zip(slots, dealt, strict=True)):
            continue
        out.append((dealt, tuple(c for j, c in enumerate(pool) if j not in picked)))
    return out


def test_the_issue_example_a_met_card_is_in_the_deck(tmp_path):
    """Seat 2 went through the photo time of these stacks holding 4 unknown cards and
    played none: 'Cat on Bear', which the stacks meet, is not in its hand, so it is one
    of the deck's 2 cards: drawn with chance 1/2 (not 1/6), each other card 1/10."""
    deck = tmp_path / "deck.json"
    deck.write_text(json.dumps({"cards": [
        "Cat on Bear", "Duck on Owl", "Fox on Pig", "rank 1: Whale", "Mouse on Elephant",
        "Owl on Fox", "Pig on Duck", "Bear on Cat"]}))
    pos = tmp_path / "draw.json"
    pos.write_text(json.dumps({
        "podiums": {"red": ["Bear", "Cat"]}, "hands": [["Owl on Fox"], ["?"] * 4],
        "played": [["Pig on Duck"], []], "deck": 2, "on_turn": 1,
        "photo_time": {"seats": [1], "draws": 1}}))
    out = run_json(run, "moves", str(pos), "--deck", str(deck))
    chances = {o["card"]: o["probability"] for o in out["chance_outcomes"]}
    assert chances == {"Cat on Bear": 0.5, "Duck on Owl": 0.1, "Fox on Pig": 0.1,
                       "rank 1: Whale": 0.1, "Mouse on Elephant": 0.1, "Bear on Cat": 0.1}
    # determinize never puts it in seat 2's hand
    rules = GAME.load_rules(None, deck_path=str(deck))
    state = GAME.read(rules, json.loads(pos.read_text()), "draw")
    for s in range(30):
        full = GAME.determinize(state, random.Random(s))
        assert parse_card(R, "Cat on Bear") in full.deck




@pytest.mark.parametrize("seed", range(12))
def test_determinize_never_deals_a_card_photo_time_ruled_out(seed):
    """Seeded random games of 2-4 players: every unknown hand card of every seat's
    view, as determinize fills it, is none of the cards met at a photo time it went
    through, and the rest of the view is kept."""
    rng = random.Random(seed)
    state = reached(seed, 2 + seed % 3, rng.randrange(5, 60))
    checked = 0
    for seat in range(state.players):
        view = GAME.observation(state, seat)
        for k in range(3):
            full = GAME.determinize(view, random.Random(k))
            assert write_position(GAME.observation(full, seat)) == write_position(view)
            for p, hand in enumerate(view.hands):
                firsts = view.photos.of(p, len(hand))
                for i, c in enumerate(hand):
                    if c is None:
                        assert not view.photos.ruled_out(p, firsts[i], True, [full.hands[p][i]])
                        checked += 1
    assert checked


@pytest.mark.parametrize("seed", range(6))
def test_deal_counts_and_draw_chances_equal_brute_force_on_small_decks(seed):
    """Positions of a 9-card deck (hands of 2, 3 seats) at a photo time going on, one
    seat drawing and another still waiting: the number of deals, the draw chances and
    the chance that some stacks meet a seat's unknown card are those of counting every
    deal by hand."""
    deck = ("rank 1: Bear", "rank 1: Cat", "Cat on Bear", "Bear on Cat", "rank 1: Duck",
            "Duck on Cat", "rank 2: Cat", "Cat on Bear", "Bear on Duck")
    rules = replace(GameRules(R, cards(*deck)), hand_size=2)
    rng = random.Random(seed)
    done = 0
    for k in range(600):
        state = reached(seed * 1000 + k, 3, rng.randrange(4, 16), rules)
        if state.end() is not None or not state.deck_count:
            continue
        drawing = observer_draws(state)
        if drawing is None:
            continue
        view = drawing[0]
        counted = Deals(view)
        if counted.total == perm(len(counted.pool), len(counted.slots)):
            continue  # photo time ruled nothing out here
        deals = brute_deals(view)
        assert counted.total == len(deals)
        in_deck = Counter(c for _, rest in deals for c in rest)
        assert dict(counted.draw_chances()) == {
            c: Fraction(n, len(deals) * counted.deck_size) for c, n in in_deck.items()}
        # the chance the hint asks: no unknown card of a seat is met by these stacks
        for other in (p for p in range(3) if None in view.hands[p]):
            at = sum(1 for p in range(other) for c in view.hands[p] if c is None)
            slots = sum(1 for c in view.hands[other] if c is None)
            for m in view.blocks.legal_actions()[:6]:
                after = view.blocks.apply_action(m).stacks
                hits = [c.met(after) for c in counted.cards]
                none = sum(1 for dealt, _ in deals
                           if not any(c.met(after) for c in dealt[at:at + slots]))
                assert counted.chance_none([other], hits) == Fraction(none, len(deals))
        done += 1
        if done == 2:
            return
    assert done, "no position found"


def test_photo_times_in_a_file_round_trip_and_are_checked(tmp_path):
    state = reached(5, 3, 25)
    view = GAME.observation(state, state.turn)
    data = write_position(view)
    assert "photo_times" in data and len(data["photo_times"]["since"]) == 3
    again = read_position(BUILT_IN, json.loads(json.dumps(data)))
    assert write_position(again) == data
    assert Deals(again).total == Deals(view).total
    # swap a known hand card with a played card met at a photo time that hand card went
    # through: a position no game reaches, refused in one line
    full = write_position(state)
    since = full["photo_times"]["since"]
    swap = next((p, i, q, j) for p, hand in enumerate(state.hands)
                for i, c in enumerate(hand) if since[p][i] is not None
                for q, pile in enumerate(state.played) for j, d in enumerate(pile)
                if state.photos.ruled_out(p, state.photos.of(p, len(hand))[i], True, [d]))
    p, i, q, j = swap
    bad = json.loads(json.dumps(full))
    bad["hands"][p][i], bad["played"][q][j] = full["played"][q][j], full["hands"][p][i]
    with pytest.raises(BadInput, match="would have been played"):
        read_position(BUILT_IN, bad)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert_one_line_error(run("show", str(path)), "would have been played")
    earlier = full["photo_times"]["earlier"]
    for change, words in (({"since": [[0]]}, "seats"),
                          ({"since": since, "x": 1}, "unknown field"),
                          ({"since": [[99] * len(h) for h in since]}, "not a photo time")):
        wrong = json.loads(json.dumps(full))
        wrong["photo_times"] = {"earlier": earlier, **change}
        path.write_text(json.dumps(wrong))
        assert_one_line_error(run("show", str(path)), words)


def test_a_file_without_photo_times_rules_out_what_the_stacks_meet_now():
    """A file does not say what came before: the current position is the one photo time
    known, and a seat whose photo time is over holds no unknown card it meets (here
    'Cat on Bear' is in the deck); a seat still waiting may hold one. A file whose
    unknown cards cannot all avoid the stacks is counted without the rule."""
    rules = GameRules(R, cards("Cat on Bear", "Duck on Owl", "Fox on Pig", "Owl on Fox"))
    base = {"podiums": {"red": ["Bear", "Cat"]}, "hands": [["Duck on Owl"], ["?"], ["?"]],
            "played": [[], [], []], "deck": 1, "on_turn": 1}
    state = read_position(rules, base)
    assert state.photos == PhotoTimes((state.blocks.stacks,), 0, ((0,), (0,), (0,)))
    assert "photo_times" not in write_position(state)
    deals = Deals(state)
    assert deals.constrained and deals.total == 2
    for s in range(10):
        assert GAME.determinize(state, random.Random(s)).deck == cards("Cat on Bear")
    waiting = read_position(rules, {**base, "deck": 2, "hands": [["Duck on Owl"], ["?"], []],
                                    "photo_time": {"seats": [3, 2], "draws": 1}})
    assert waiting.photos.of(1, 1) == (None,)
    assert GAME.chance_outcomes(waiting) == [(c, 1 / 3) for c in cards(
        "Cat on Bear", "Fox on Pig", "Owl on Fox")]
    clash = GameRules(R, cards("Cat on Bear", "Duck on Owl", "rank 1: Bear", "Owl on Fox"))
    deals = Deals(read_position(clash, base))
    assert not deals.constrained and deals.total == 6



class Branches:
    """A stand-in for the generator that walks every outcome of the draws of
    `Deals.sample`: each draw follows the choices of `path` and then takes the first
    possible one, noting the chance of every choice; `shuffle` keeps the order (the
    deck's order is a uniform shuffle by itself)."""

    def __init__(self, path: list[int]) -> None:
        self.path = path
        self.draws: list[list[Fraction]] = []

    def _draw(self, chances: list[Fraction]) -> int:
        i = len(self.draws)
        self.draws.append(chances)
        return self.path[i] if i < len(self.path) else next(
            k for k, c in enumerate(chances) if c)

    def randrange(self, n: int) -> int:
        return self._draw([Fraction(1, n)] * n)

    def pick(self, weights: list[int]) -> int:
        return self._draw([Fraction(w, sum(weights)) for w in weights])

    def shuffle(self, items: list) -> None:
        pass


def sample_chances(deals: Deals) -> Counter:
    """The exact chance of each hand deal `Deals.sample` makes (the unknown hand cards in
    slot order), over every outcome of its draws."""
    out: Counter = Counter()
    todo: list[list[int]] = [[]]
    while todo:
        path = todo.pop()
        rng = Branches(path)
        dealt, _ = deals.sample(rng)  # type: ignore[arg-type]
        chance = Fraction(1)
        taken = []
        for i, chances in enumerate(rng.draws):
            k = path[i] if i < len(path) else next(k for k, c in enumerate(chances) if c)
            chance *= chances[k]
            if i >= len(path):  # the other outcomes of a draw past `path`
                todo.extend(taken + [j] for j, c in enumerate(chances) if c and j != k)
            taken.append(k)
        out[tuple(dealt[s] for s in deals.slots)] += chance
    return out


@pytest.mark.parametrize("seed", range(4))
def test_determinize_deals_every_consistent_deal_equally_often(seed, monkeypatch):
    """The deal determinize draws (Deals.sample) has, exactly, the chances of the
    consistent deals counted by hand: each deal of the unseen cards (copies told
    apart) that photo time allows is as likely as any other."""
    import models.topito.photo as photo

    monkeypatch.setattr(photo, "_pick", lambda rng, weights: rng.pick(weights))
    deck = ("rank 1: Bear", "rank 1: Cat", "Cat on Bear", "Bear on Cat", "rank 1: Duck",
            "Duck on Cat", "rank 2: Cat", "Cat on Bear", "Bear on Duck")
    rules = replace(GameRules(R, cards(*deck)), hand_size=2)
    rng = random.Random(seed)
    for k in range(600):
        state = reached(seed * 1000 + k, 3, rng.randrange(4, 16), rules)
        if state.end() is not None or not state.deck_count:
            continue
        drawing = observer_draws(state)
        view = GAME.observation(state, state.turn) if drawing is None else drawing[0]
        deals = Deals(view)
        if not deals.slots or deals.total == perm(len(deals.pool), len(deals.slots)):
            continue  # photo time ruled nothing out here
        counted = Counter(dealt for dealt, _ in brute_deals(view))
        assert sum(counted.values()) == deals.total
        assert sample_chances(deals) == {d: Fraction(n, deals.total)
                                         for d, n in counted.items()}
        return
    pytest.fail("no position where photo time ruled a card out")


@pytest.mark.parametrize("seed", range(3))
def test_determinize_draws_from_the_observation_alone_never_the_deals_order(seed):
    """Two tables a seat cannot tell apart (the hidden cards dealt again) give that seat's
    view the same determinized states for the same generator, and those are new deals:
    the deck is shuffled again, not the real game's order."""
    state = reached(seed, 3, 12)
    seat = state.turn
    view = GAME.observation(state, seat)
    other = GAME.determinize(view, random.Random(99))
    assert write_position(GAME.observation(other, seat)) == write_position(view)
    again = GAME.observation(other, seat)
    for k in range(5):
        a = GAME.determinize(view, random.Random(k))
        b = GAME.determinize(again, random.Random(k))
        assert write_position(a) == write_position(b)
    decks = {GAME.determinize(view, random.Random(k)).deck for k in range(5)}
    assert len(decks) == 5 and state.deck not in decks
