"""Topito position files: the blocks, and what the file's reader knows of the cards.

```json
{"game": "topito",
 "podiums": {"red": ["Elephant", "Bear"], "yellow": ["Whale", "Duck"], "blue": []},
 "last_move": {"block": "Bear", "from": "blue", "to": "red"},
 "hands": [["Duck on Owl", "rank 2: Duck"], ["?", "?", "?", "?"]],
 "played": [["Cat on Bear"], []],
 "deck": 41,
 "on_turn": 1, "moves_made": 5}
```

Only `podiums` is needed: a file of the blocks alone is a position for `plan`,
`reachable`, `moves` and `show`. Hands hold up to 4 cards, "?" for a card the reader
has not seen, or are just a count (that many unseen cards: `3` = `["?", "?", "?"]`);
`deck` is a count (its order unknown), `{"unordered": [cards]}` (its cards known, not
their order) or a list, top card first (a full state: a dealt game); without it the
deck is every card of the deck file that the played piles and the known hands do not
hold, less one per "?". `photo_time` appears only while cards are drawn from a deck of
unknown order: the seats whose photo time is not over (the first is drawing) and how
many cards they still draw.

Seats are counted from 1 (`on_turn`, `photo_time.seats`). Files of the older format
count players from 0 under other keys (`turn`, `photo_time.players`): they are still
read, and written back in the new format.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from models.topito.photo import PhotoTimes, default_photos, normalised
from models.topito.rules import MAX_PLAYERS, GameRules, Rules, Stacks, cards_text, parse_card
from models.topito.state import GameState, Move, State, locate, move_dict
from solver.errors import BadInput
from solver.io import expect, load_json
from solver.io import field as json_field

POSITION_FIELDS = ("game", "title", "note", "podiums", "out_of_play", "last_move",
                   "hands", "played", "deck", "on_turn", "turn", "moves_made",
                   "photo_time", "photo_times", "puzzle")


def check_fields(data: Any, where: str) -> dict[str, Any]:
    """A Topito position's JSON object with no unknown field."""
    expect(data, dict, where)
    game = data.get("game", "topito")
    if game != "topito":
        raise BadInput(f"{where}: this is a '{game}' file, not a topito position")
    unknown = sorted(set(data) - set(POSITION_FIELDS))
    if unknown:
        raise BadInput(f"{where}: unknown field '{unknown[0]}' "
                       f"(fields: {', '.join(sorted(POSITION_FIELDS))})")
    return data


def parse_move(rules: Rules, data: Any, where: str) -> Move:
    """A move in its file form {"block", "from" (a podium or "out"), "to"}."""
    expect(data, dict, where)
    block = rules.block(json_field(data, "block", str, where), f"{where}.block")
    src_text = json_field(data, "from", str, where)
    src = None if src_text.strip().lower() == "out" else rules.podium(src_text, f"{where}.from")
    dst = rules.podium(json_field(data, "to", str, where), f"{where}.to")
    if src == dst:
        raise BadInput(f"{where}: 'from' and 'to' are the same podium")
    return Move(block, src, dst)


def read_stacks(rules: Rules, podiums_in: Any, where: str
                ) -> tuple[Stacks, dict[int, str]]:
    """The stacks of a `podiums` object (and where each block is): unknown names, a
    podium or a block twice — each a one-line BadInput."""
    expect(podiums_in, dict, where)
    stacks: list[tuple[int, ...]] = [()] * rules.n_podiums
    seen: dict[int, str] = {}
    given: set[int] = set()
    for name, blocks in podiums_in.items():
        p = rules.podium(name, where)
        if p in given:
            raise BadInput(f"{where}: podium '{rules.podiums[p]}' is given twice")
        given.add(p)
        expect(blocks, list, f"{where}.{name}")
        stack = []
        for i, text in enumerate(blocks):
            w = f"{where}.{name}[{i}]"
            b = rules.block(expect(text, str, w), w)
            if b in seen:
                raise BadInput(f"{where}: block '{rules.characters[b]}' is placed twice "
                               f"({seen[b]} and {rules.podiums[p]})")
            seen[b] = rules.podiums[p]
            stack.append(b)
        stacks[p] = tuple(stack)
    return tuple(stacks), seen


def read_blocks(rules: Rules, data: dict[str, Any], where: str) -> State:
    """The stacks and the last move of a position: unknown names, a block twice, a last
    move that does not match the stacks — each a one-line BadInput."""
    st, seen = read_stacks(rules, json_field(data, "podiums", dict, where),
                           f"{where}.podiums")
    for i, text in enumerate(json_field(data, "out_of_play", list, where, [])):
        w = f"{where}.out_of_play[{i}]"
        b = rules.block(expect(text, str, w), w)
        if b in seen:
            raise BadInput(f"{where}: block '{rules.characters[b]}' is both on "
                           f"{seen[b]} and out of play")
        seen[b] = "out of play"
    last = None
    if data.get("last_move") is not None:
        last = parse_move(rules, data["last_move"], f"{where}.last_move")
        at = locate(st, last.block)
        name = rules.characters[last.block]
        if at is None or at[0] != last.target:
            raise BadInput(f"{where}.last_move: {name} was moved to "
                           f"{rules.podiums[last.target]} but is not there now")
        if last.source is None and at[1] != len(st[last.target]) - 1:
            raise BadInput(f"{where}.last_move: {name} was put on "
                           f"{rules.podiums[last.target]} last, so it must be on top")
    return State(rules, st, last)


def blocks_dict(state: State) -> dict[str, Any]:
    """The blocks part of a position file: the stacks and the last move."""
    r = state.rules
    return {"game": "topito",
            "podiums": {r.podiums[p]: [r.characters[b] for b in s]
                        for p, s in enumerate(state.stacks)},
            "last_move": None if state.last is None else move_dict(r, state.last)}


def _cards(rules: Rules, items: Any, where: str, unknown_allowed: bool
           ) -> tuple[Any, ...]:
    out = []
    for j, text in enumerate(expect(items, list, where)):
        w = f"{where}[{j}]"
        if unknown_allowed and text == "?":
            out.append(None)
        else:
            out.append(parse_card(rules, expect(text, str, w), w))
    return tuple(out)


def read_position(rules: GameRules, data: Any, where: str = "position") -> GameState:
    """A position file read and checked (each problem a one-line BadInput)."""
    check_fields(data, where)
    r = rules.rules
    blocks = read_blocks(r, data, where)
    hands = []
    for i, hand in enumerate(json_field(data, "hands", list, where, [])):
        w = f"{where}.hands[{i}]"
        if isinstance(hand, int) and not isinstance(hand, bool):
            if not 0 <= hand <= rules.hand_size:
                raise BadInput(f"{w}: a hand holds 0 to {rules.hand_size} cards, got {hand}")
            hand = ["?"] * hand
        expect(hand, list, w)
        if len(hand) > rules.hand_size:
            raise BadInput(f"{w}: a hand holds at most {rules.hand_size} cards, "
                           f"got {len(hand)}")
        hands.append(_cards(r, hand, w, True))
    if len(hands) > MAX_PLAYERS:
        raise BadInput(f"{where}.hands: {len(hands)} hands; at most {MAX_PLAYERS} players")
    turn = read_on_turn(data, len(hands), where)
    if not hands:
        for key in ("played", "deck", "photo_time"):
            if key in data:
                raise BadInput(f"{where}: '{key}' needs the players' hands ('hands')")
        # one seat with no cards: whose turn it is does not matter
        return GameState(rules, blocks,
                         moves_made=json_field(data, "moves_made", int, where, 0))
    played_in = json_field(data, "played", list, where, [[] for _ in hands])
    if len(played_in) != len(hands):
        raise BadInput(f"{where}.played: {len(played_in)} piles for {len(hands)} players")
    played = tuple(_cards(r, pile, f"{where}.played[{i}]", False)
                   for i, pile in enumerate(played_in))
    moves_made = json_field(data, "moves_made", int, where, 0)
    if moves_made < 0:
        raise BadInput(f"{where}.moves_made: {moves_made} is negative")
    state = GameState(rules, blocks, tuple(hands), played, None, 0, turn, moves_made)
    check_card_counts(state, where)
    deck_in = json_field(data, "deck", (int, list, dict), where, None)
    unseen = len(state.unseen())
    unknown = state.unknown_cards()
    if unknown > unseen:
        raise BadInput(f"{where}: {unknown} unknown hand card(s) ('?') but only {unseen} "
                       f"card(s) of the deck file ({len(rules.deck)}) are unseen (not "
                       "played, not in a known hand)")
    if isinstance(deck_in, dict):
        state = _read_unordered_deck(state, deck_in, f"{where}.deck")
    elif isinstance(deck_in, list):
        deck = _cards(r, deck_in, f"{where}.deck", False)
        state = GameState(rules, blocks, tuple(hands), played, deck, len(deck), turn,
                          moves_made)
        unseen = len(state.unseen())
        if unseen != unknown:
            raise BadInput(f"{where}: {unknown} unknown hand card(s) but {unseen} card(s) "
                           "of the deck file are placed nowhere (a deck in order lists "
                           "every card that is not in a hand or played)")
    else:
        count = unseen - unknown if deck_in is None else deck_in
        if isinstance(count, bool) or count < 0 or count + unknown != unseen:
            raise BadInput(f"{where}: the deck ({'?' if deck_in is None else deck_in}), "
                           f"{unknown} unknown hand card(s), the hands and the played "
                           f"cards do not add up to the {len(rules.deck)} cards of the deck "
                           f"file ({unseen} are unseen)")
        state = GameState(rules, blocks, tuple(hands), played, None, count, turn,
                          moves_made)
    check_card_counts(state, where)
    if "photo_time" in data:
        state = _read_photo_time(state, data["photo_time"], f"{where}.photo_time")
    if "photo_times" in data:
        return _read_photo_times(state, data["photo_times"], f"{where}.photo_times")
    return replace(state, photos=default_photos(state))


def _read_photo_times(state: GameState, data: Any, where: str) -> GameState:
    """`{"earlier": [podiums, ...], "since": [[k or null, ...] per seat]}`: the
    positions of the photo times before the current one (oldest first; the current
    position is photo time len(earlier)), and for each hand card the first photo time
    it went through (null: none yet). A known card met at a photo time it went through
    would have been played then: one line naming it."""
    expect(data, dict, where)
    extra = sorted(set(data) - {"earlier", "since"})
    if extra:
        raise BadInput(f"{where}: unknown field '{extra[0]}' (fields: earlier, since)")
    r = state.blocks.rules
    earlier = json_field(data, "earlier", list, where, [])
    log = tuple(read_stacks(r, pos, f"{where}.earlier[{i}]")[0]
                for i, pos in enumerate(earlier)) + (state.blocks.stacks,)
    since_in = json_field(data, "since", list, where)
    if len(since_in) != len(state.hands):
        raise BadInput(f"{where}.since: {len(since_in)} seats for {len(state.hands)} hands")
    since = []
    for p, (hand, firsts) in enumerate(zip(state.hands, since_in, strict=True)):
        w = f"{where}.since[{p}]"
        expect(firsts, list, w)
        if len(firsts) != len(hand):
            raise BadInput(f"{w}: {len(firsts)} entries for a hand of {len(hand)} cards")
        for j, k in enumerate(firsts):
            if k is not None and (isinstance(k, bool) or not isinstance(k, int)
                                  or not 0 <= k < len(log)):
                raise BadInput(f"{w}[{j}]: {k!r} is not a photo time (0 to {len(log) - 1}, "
                               "or null)")
        since.append(tuple(firsts))
    photos = PhotoTimes(log, 0, tuple(since))
    waiting = set(state.photo_queue[1:])
    for p, hand in enumerate(state.hands):
        for j, card in enumerate(hand):
            if card is None:
                continue
            met = photos.ruled_out(p, since[p][j], p not in waiting, [card])
            if met:
                raise BadInput(f"{where}: seat {p + 1} holds '{card.text(r)}', but a photo "
                               "time its card went through met it (it would have been "
                               "played then)")
    return replace(state, photos=photos)


def photo_times_dict(state: GameState) -> dict[str, Any] | None:
    """The `photo_times` of a position file, or None when the file need not say it
    (it says what a file without it is read as)."""
    photos = normalised(state)
    if photos == default_photos(state):
        return None
    r = state.blocks.rules
    return {"earlier": [{r.podiums[p]: [r.characters[b] for b in s] for p, s in
                         enumerate(stacks)} for stacks in photos.log[:-1]],
            "since": [list(s) for s in photos.since]}


def check_card_counts(state: GameState, where: str) -> None:
    """No card is in more places (hands, played piles, the deck) than the deck file
    has copies of it: a card of the deck file once is in one place only, and a card
    the deck file does not hold (taken as given) in one place too."""
    r = state.blocks.rules
    copies = Counter(state.rules.deck)
    places: dict[Any, list[str]] = {}
    for i, hand in enumerate(state.hands):
        for c in hand:
            if c is not None:
                places.setdefault(c, []).append(f"hand {i + 1}")
    for i, pile in enumerate(state.played):
        for c in pile:
            places.setdefault(c, []).append(f"played pile {i + 1}")
    for c in (*(state.deck or ()), *(state.deck_cards or ())):
        places.setdefault(c, []).append("the deck")
    for c, where_held in places.items():
        allowed = max(1, copies[c])
        if len(where_held) > allowed:
            held = ", ".join(dict.fromkeys(where_held))
            raise BadInput(f"{where}: '{c.text(r)}' is held {len(where_held)} times "
                           f"({held}) but the deck file has {allowed} of it")


def _read_unordered_deck(state: GameState, data: dict[str, Any], where: str) -> GameState:
    """The deck as `{"unordered": [cards]}`: its cards known, their order not. They must
    be unseen cards of the deck file (not played, not in a known hand), and the unseen
    cards left over must be exactly as many as the unknown hand cards."""
    extra = sorted(set(data) - {"unordered"})
    if extra:
        raise BadInput(f"{where}: unknown field '{extra[0]}' (a deck without order is "
                       "{\"unordered\": [cards]})")
    r = state.blocks.rules
    cards = _cards(r, json_field(data, "unordered", list, where), f"{where}.unordered",
                   False)
    left = Counter(state.unseen())
    for c in cards:
        if left[c] == 0:
            held = sum(1 for x in state.rules.deck if x == c)
            raise BadInput(f"{where}.unordered: '{c.text(r)}' is not an unseen card (the "
                           f"deck file holds {held} of it, and the played piles, known "
                           "hands and this deck already hold as many)")
        left[c] -= 1
    rest, unknown = sum(left.values()), state.unknown_cards()
    if rest != unknown:
        raise BadInput(f"{where}.unordered: {len(cards)} card(s) in the deck and {unknown} "
                       f"unknown hand card(s) do not add up to the {rest + len(cards)} "
                       "unseen card(s) of the deck file")
    order = state.rules.order
    deck_cards = tuple(sorted(cards, key=order))
    return replace(state, deck=None, deck_count=len(cards), deck_cards=deck_cards)


def read_on_turn(data: dict[str, Any], players: int, where: str) -> int:
    """The player on turn, counted from 0 inside: the file's `on_turn` counts seats from
    1 (default 1); a file of the older format gives `turn`, counted from 0."""
    if "turn" in data:
        if "on_turn" in data:
            raise BadInput(f"{where}: 'on_turn' (the seat, from 1) and 'turn' (the older "
                           "format's player, from 0) both given; keep 'on_turn'")
        turn = json_field(data, "turn", int, where, 0)
        if players and not 0 <= turn < players:
            raise BadInput(f"{where}.turn: player {turn} has no hand (players 0 to "
                           f"{players - 1})")
        return turn
    seat = json_field(data, "on_turn", int, where, 1)
    if players and not 1 <= seat <= players:
        raise BadInput(f"{where}.on_turn: seat {seat} has no hand (seats 1 to {players})")
    return seat - 1


def _read_photo_time(state: GameState, data: Any, where: str) -> GameState:
    """`{"seats": [from 1], "draws": k}`, or the older format's `"players"` (from 0)."""
    expect(data, dict, where)
    if "players" in data and "seats" in data:
        raise BadInput(f"{where}: 'seats' (from 1) and 'players' (the older format's, "
                       "from 0) both given; keep 'seats'")
    key, word, first = ("players", "player", 0) if "players" in data else ("seats", "seat", 1)
    given = json_field(data, key, list, where)
    draws = json_field(data, "draws", int, where)
    n = len(state.hands)
    for i, p in enumerate(given):
        expect(p, int, f"{where}.{key}[{i}]")
        if not first <= p < n + first:
            raise BadInput(f"{where}.{key}[{i}]: no {word} {p} ({key} {first} to "
                           f"{n - 1 + first})")
    if not given or len(set(given)) != len(given):
        raise BadInput(f"{where}.{key}: the {key} still in photo time, each once")
    queue = tuple(p - first for p in given)
    if not 1 <= draws <= min(state.deck_count, state.rules.hand_size
                             - len(state.hands[queue[0]])):
        raise BadInput(f"{where}.draws: {word} {given[0]} cannot draw {draws} card(s) "
                       f"(hand of {len(state.hands[queue[0]])}, deck of {state.deck_count})")
    return replace(state, photo_queue=queue, draws_due=draws)


def write_position(state: GameState) -> dict[str, Any]:
    """The position file of a state (`read_position` reads it back equal)."""
    data = blocks_dict(state.blocks)
    r = state.blocks.rules
    if not state.hands:
        if state.moves_made:
            data["moves_made"] = state.moves_made
        return data
    data["hands"] = [cards_text(r, h) for h in state.hands]
    data["played"] = [cards_text(r, pile) for pile in state.played]
    if state.deck is not None:
        data["deck"] = cards_text(r, state.deck)
    elif state.deck_cards is not None:
        data["deck"] = {"unordered": cards_text(r, state.deck_cards)}
    else:
        data["deck"] = state.deck_count
    data["on_turn"] = state.turn + 1
    data["moves_made"] = state.moves_made
    if state.photo_queue:
        data["photo_time"] = {"seats": [p + 1 for p in state.photo_queue],
                              "draws": state.draws_due}
    photos = photo_times_dict(state)
    if photos is not None:
        data["photo_times"] = photos
    return data


def load_position(rules: GameRules, path: str | Path) -> GameState:
    """Read and check a position file."""
    return read_position(rules, load_json(path, "position"), f"position {path}")
