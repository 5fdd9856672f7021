"""The worked examples of the Tippi Toppi rulebook (/work/shared/rulebooks/
tippi-toppi-cards.de.txt) that the other test files do not already check, with the
rulebook's own words: several tasks at once through the encodings, sums on the top
cards only, the empty draw pile, piles open to everyone. docs/tippi-toppi.md lists every
example with its test."""

from __future__ import annotations

from models.tippi_toppi.achievable import achievable
from models.tippi_toppi.positions import parse_play, state_from_dict
from models.tippi_toppi.rules import load_rules
from tests.test_tippi_toppi_tasks import judged

R = load_rules()


def game(piles, hands, open_tasks):
    """A game file's state (the draw pile: every unseen card, order unknown)."""
    return state_from_dict(R, {"piles": piles, "hands": hands, "open_tasks": open_tasks})


def full(piles, hands, open_tasks, draw_pile, turn=1):
    """A state with this draw pile (top first); the other unseen cards are buried under
    the first pile's top card."""
    s = state_from_dict(R, {"piles": piles, "hands": hands, "turn": turn,
                            "open_tasks": open_tasks})
    rest = s.unseen_cards()
    for c in (R.parse_card(x) for x in draw_pile):
        rest.remove(c)
    return s.but(piles=[rest + s.piles[0], *s.piles[1:]],
                 draw_pile=[R.parse_card(x) for x in draw_pile], draw_count=len(draw_pile))


def test_several_tasks_at_once_through_the_encodings():
    """'In einem Zug können mehrere Aufgaben gleichzeitig erfüllt werden. Alle werden
    separat abgelegt und ersetzt.' G7 on the pink 7 makes three green piles and a green
    sum of 15 at once: the rules engine fulfils and replaces both, and both encodings
    plan them for the same play."""
    tasks = ["exactly 3 green piles", "the sum of the green piles is 15",
             "at least 2 piles showing 6", "a run of 4"]
    s = full(["G3", "G5", "P7", "V1"], [["G7", "O4", "P6", "V6"]], tasks,
             ["O1", "O2", "P2"])
    s = s.but(task_pile=[R.parse_task("no orange piles"), R.parse_task("a run of 3")])
    done = s.apply_action(parse_play(s, "G7>3"))
    assert [t.text(R) for t in done.fulfilled] == tasks[:2] + ["no orange piles"]
    assert [t.text(R) for t in done.open_tasks] == tasks[2:] + ["a run of 3"]
    both = [R.parse_task(t) for t in tasks[:2]]
    for backend in ("sat", "cpsat"):
        got = achievable(s, both, 1, "known", backend)
        assert got.answer == "yes" and got.plays == ["G7>3"]
        assert got.fulfilled_after == [1, 1]
    assert judged(tasks[:2], "G3", "G5", "G7", "V1") == [True, True]


def test_sums_read_the_top_cards_only():
    """'Summenaufgaben beziehen sich nur auf die obersten Karten der Stapel dieser
    Farbe': a green 7 under a pink 1 is not summed."""
    s = game([["G7", "P1"], "G2", "O3", "V4"], [["G1"]], ["all piles are even"])
    seven, two = (R.parse_task(t) for t in ("Die Summe aller grünen Stapel ist 7",
                                            "the sum of the green piles is 2"))
    assert not s.holds(seven) and s.holds(two)
    assert judged([seven.text(R), two.text(R)], *(R.card_name(c) for c in s.tops)) == \
        [False, True]


def test_with_an_empty_draw_pile_play_goes_on_until_someone_cannot_play():
    """'Ist der Nachziehstapel leer, läuft das Spiel weiter, bis jemand keine Karte mehr
    ablegen kann. Es wird dann nur nicht mehr nachgezogen.' The last card is drawn,
    then nobody draws; the game is lost when the player on turn cannot play."""
    s = full(["G3", "G5", "O7", "V1"], [["G2"], ["V6", "P4"]], ["a run of 4"], ["P1"])
    s = s.apply_action(parse_play(s, "p1:G2>1"))  # draws the last card, P1
    assert s.hands[0] == [R.parse_card("P1")] and s.draw_count == 0 and s.turn == 1
    s = s.apply_action(parse_play(s, "p2:V6>4"))  # nothing left to draw
    assert s.hands == [[R.parse_card("P1")], [R.parse_card("P4")]] and s.turn == 0
    # P1 matches none of G2 G5 O7 V6 by colour or number: player 1 cannot play
    assert s.legal_plays() == [] and s.is_lost() and not s.is_won()


def test_the_piles_are_open_to_everyone():
    """'Die 4 offenen Stapel dürft ihr jederzeit durchsehen': every player's view holds
    the whole piles, not only the top cards."""
    s = full(["G3", "G5", "O7", "V1"], [["G2"], ["V6", "P4"]], ["a run of 4"], ["P1"])
    for player in (0, 1):
        seen = s.seen_by(player)
        assert seen.piles == s.piles and len(seen.piles[0]) > 1
        assert seen.hands[1 - player] == [None] * len(s.hands[1 - player])

