"""The page's answers in the game's words (`POST /api/<game>/explain`) and its buttons
(`POST /api/<game>/form`): the hint's sentence has the answer's number, its move
applies and its marks are things on the picture; every offered button answers with the
form's values; plans replay move by move."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from solver.registry import web_games
from solver.serve import schemas
from solver.serve.api import describe_game
from solver.serve.app import create_app, example_position
from solver.stats import wilson
from solver.web import win_chance

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
JSON = {"Content-Type": "application/json"}
GAMES = ("take-it-higher", "hoch-hinaus", "tippi-toppi", "topito", "hippo")
CERTAINTIES = {"proven", "estimate", "best found", "none"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(pool_size=1)) as c:
        yield c


def example(game: str) -> dict:
    return json.loads(example_position(web_games()[game], PUZZLES))


def shipped(game: str, file: str) -> dict:
    return json.loads((PUZZLES / game / file).read_text(encoding="utf-8"))


def ask(client, game: str, verb: str, position: dict, values: dict) -> dict:
    r = client.post(f"/api/{game}/{verb}", content=json.dumps(position).encode(),
                    params={k: ("1" if v is True else v) for k, v in values.items()
                            if v is not False}, headers=JSON)
    assert r.status_code == 200, (game, verb, r.text)
    return r.json()


def form(client, game: str, position: dict) -> dict:
    r = client.post(f"/api/{game}/form", content=json.dumps(position).encode(), headers=JSON)
    assert r.status_code == 200, r.text
    valid(r.json(), "form")
    return r.json()["verbs"]


def valid(doc, name: str) -> None:
    """`doc` holds to the API's schema `name` (GET /api/schema/<name>)."""
    import jsonschema

    jsonschema.validate(doc, schemas.schema(name), cls=jsonschema.Draft202012Validator)


def explain(client, game: str, verb: str, position: dict, answer: dict) -> dict:
    r = client.post(f"/api/{game}/explain", json={"verb": verb, "position": position,
                                                   "answer": answer})
    assert r.status_code == 200, r.text
    out = r.json()
    valid(out, "explain")
    assert set(out) == {"text", "certainty", "moves", "marks", "plan"}
    assert out["text"] and out["certainty"] in CERTAINTIES
    return out


def apply(client, game: str, position: dict, move: str) -> dict:
    r = client.post(f"/api/{game}/apply", content=json.dumps(position).encode(),
                    params={"move": move}, headers=JSON)
    assert r.status_code == 200, (move, r.text)
    return r.json()["position"]


def hit_ids(client, game: str, position: dict) -> set[str]:
    r = client.post(f"/api/{game}/picture", content=json.dumps(position).encode(),
                    headers=JSON)
    assert r.status_code == 200
    return set(re.findall(r'<rect class="hit"[^>]*data-id="([^"]*)"', r.text))


def rolled(client, game: str, position: dict) -> dict:
    """The position after its first chance outcome, if chance acts first (Hippo's dice
    not yet thrown): the hint asks for a roll."""
    moves = ask(client, game, "moves", position, {})
    if moves["to_move"] != "chance":
        return position
    return apply(client, game, position, moves["chance_outcomes"][0]["text"])


# the number (or words) of the answer that the hint's sentence must say
SAYS = {
    "take-it-higher": lambda a: f"{a['cells'][0]['value']:.1f}",
    "hoch-hinaus": lambda a: f"best of {a['legal']} placements",
    "tippi-toppi": lambda a: f"hint score {a['options'][0]['score']:g}",
    "topito": lambda a: a["best"]["move"],
    "hippo": lambda a: f"sheds {a['options'][0]['shed_now']} chip",
}


@pytest.mark.parametrize("game", GAMES)
def test_the_hint_in_words_marks_the_picture_and_applies(client, game):
    """The page's Hint on the shipped example: the sentence says the answer's own
    number, moves[0] is applied by the rules engine, the marks are clickable things of
    the picture."""
    position = rolled(client, game, example(game))
    hint = describe_game(web_games()[game])["hint"]
    button = form(client, game, position)[hint]
    assert button["offered"] and button["label"]
    answer = ask(client, game, hint, position, button["values"])
    said = explain(client, game, hint, position, answer)
    assert SAYS[game](answer) in said["text"]
    assert said["moves"] and said["marks"]
    apply(client, game, position, said["moves"][0])
    assert set(said["marks"]) <= hit_ids(client, game, position)


# the smallest positions of each game, where every offered button is pressed
SMALL = [
    ("take-it-higher", None),
    ("hoch-hinaus", "endgame-known.json"),
    ("tippi-toppi", "solo-endgame.json"),
    ("topito", None),
    ("topito", "race/endgame.json"),
    ("hippo", "solo-endgame.json"),
]


@pytest.mark.parametrize(("game", "file"), SMALL)
def test_every_offered_button_answers_with_the_forms_values(client, game, file):
    """Each verb the form offers answers without typing (HTTP 200) and is explained;
    `solve` (a puzzle, not a position) is not offered; every verb of the game has a
    button, whose values name only the verb's options."""
    position = rolled(client, game, example(game) if file is None else shipped(game, file))
    described = describe_game(web_games()[game])["verbs"]
    buttons = form(client, game, position)
    assert set(buttons) == set(described)
    assert not buttons["solve"]["offered"]
    own = web_games()[game].web().form(json.loads(json.dumps(position)))
    for verb, button in buttons.items():
        assert isinstance(button["offered"], bool) and button["label"]
        options = {o["name"] for o in described[verb]["options"]}
        assert set(own.get(verb, {}).get("values", {})) <= options, verb
        assert all(isinstance(v, (str, bool)) for v in button["values"].values())
        if button["offered"]:
            answer = ask(client, game, verb, position, button["values"])
            explain(client, game, verb, position, answer)


# plan-like answers: (game, file or None for the example, verb, options)
PLANS = [
    ("topito", None, "plan", {"cards": "Duck on Owl"}),
    ("topito", "race/endgame.json", "race", {}),
    ("hoch-hinaus", "endgame-known.json", "reachable", {"open_hands": True}),
    ("tippi-toppi", "known-deck.json", "achievable",
     {"task": "all piles are odd", "within": "4"}),
    ("hippo", "solo-endgame.json", "plan", {"rolls": "6,4,2 5,5,1 3,2,1"}),
]


@pytest.mark.parametrize(("game", "file", "verb", "options"), PLANS)
def test_a_plan_replays_move_by_move(client, game, file, verb, options):
    position = example(game) if file is None else shipped(game, file)
    answer = ask(client, game, verb, position, options)
    said = explain(client, game, verb, position, answer)
    assert len(said["plan"]) >= 2 and said["certainty"] == "proven"
    for move in said["plan"]:
        position = apply(client, game, position, move)
        assert move in said["text"] or move.split(", ")[0] in said["text"]


def test_topito_plan_and_reachable_ask_for_the_hand_on_turn(client):
    position = example("topito")
    hand = position["hands"][position["on_turn"] - 1]
    buttons = form(client, "topito", position)
    assert buttons["plan"]["values"] == {"cards": "; ".join(hand)}
    assert buttons["reachable"]["values"]["within"] == "3"
    assert not buttons["race"]["offered"]  # the deck is a count: nobody sees it all
    said = explain(client, "topito", "plan", position,
                   ask(client, "topito", "plan", position, buttons["plan"]["values"]))
    assert said["text"].startswith("rank 2: Duck can be met in 1 move (proven fewest)")


def test_hippo_best_waits_for_the_dice_and_plan_says_what_it_assumes(client):
    position = example("hippo")
    buttons = form(client, "hippo", position)
    assert not buttons["best"]["offered"] and "dice" in buttons["best"]["label"]
    rolls = buttons["plan"]["values"]["rolls"]
    assert len(rolls.split()) == 4 and rolls in buttons["plan"]["label"]
    assert "all sampled" in buttons["plan"]["label"]
    position["roll"] = [6, 4, 2]
    buttons = form(client, "hippo", position)
    assert buttons["best"]["offered"] and buttons["best"]["label"].endswith("6,4,2")
    assert buttons["plan"]["values"]["rolls"].startswith("6,4,2 ")
    answer = ask(client, "hippo", "best", position, {})
    said = explain(client, "hippo", "best", position, answer)
    assert said["moves"][0] == "2 green, 10 red" and said["marks"] == ["2", "10"]
    assert said["certainty"] == "proven"


def test_take_it_higher_best_score_from_here_is_the_boards(client):
    """`max` on the page answers the board's best finish (428 with GA on c5), not the
    game's overall 477 (which it answers without a position)."""
    position = example("take-it-higher")
    button = form(client, "take-it-higher", position)["max"]
    assert button["offered"] and button["label"] == "Best score from here"
    answer = ask(client, "take-it-higher", "max", position, button["values"])
    said = explain(client, "take-it-higher", "max", position, answer)
    assert answer["score"] == 428
    assert said["text"].startswith("Best score from here: 428 points (proven)")
    assert said["moves"] == ["GA@c5"] and said["marks"] == ["c5"]
    apply(client, "take-it-higher", position, said["moves"][0])
    position.pop("called")
    assert not form(client, "take-it-higher", position)["hint"]["offered"]
    # no position (an empty body, or {}): the game's maximum, as `max` without FILE
    overall = ask(client, "take-it-higher", "max", {}, {})
    assert overall["score"] == 477
    assert explain(client, "take-it-higher", "max", position, overall)["text"] == \
        "The game's best score over every choice of tiles: 477 points (proven)."


def test_a_sampled_chance_and_a_cut_answer_say_so(client):
    position = shipped("tippi-toppi", "known-deck.json")
    answer = ask(client, "tippi-toppi", "reachable", position, {"samples": "20"})
    said = explain(client, "tippi-toppi", "reachable", position, answer)
    assert said["certainty"] == "estimate"
    assert f"about {round(100 * answer['rate']['rate'])} %" in said["text"]
    assert "20 deals sampled" in said["text"]
    cut = {**answer, "cut_by_time": True}
    assert explain(client, "tippi-toppi", "reachable", position, cut)["text"].endswith(
        "Cut by the time limit.")
    assert win_chance(json.loads(json.dumps(wilson(15, 40).__dict__)), "deals sampled") \
        == "You can still win: about 38 % (24-53 %), 40 deals sampled."


def test_bad_bodies_are_one_line_400s(client):
    position = example("take-it-higher")
    hint = ask(client, "take-it-higher", "hint", position, {})
    for body in ({"verb": "hint", "position": position}, {"verb": 3, "position": {},
                                                          "answer": {}}, [1, 2]):
        r = client.post("/api/take-it-higher/explain", json=body)
        assert r.status_code == 400 and r.json()["error"].startswith("toppi: error: explain")
    r = client.post("/api/take-it-higher/explain",
                    json={"verb": "max", "position": position, "answer": hint})
    assert r.status_code == 400
    assert r.json()["error"] == ("toppi: error: explain: the answer is not take-it-higher "
                                 "max's document (KeyError: 'score')")
    r = client.post("/api/take-it-higher/explain",
                    json={"verb": "nope", "position": position, "answer": hint})
    assert r.status_code == 400 and "no verb 'nope'" in r.json()["error"]
    said = explain(client, "take-it-higher", "hint", position,
                   {"error": "toppi: error: --tile: give the called tile"})
    assert said == {"text": "toppi: error: --tile: give the called tile",
                    "certainty": "none", "moves": [], "marks": [], "plan": []}
    r = client.post("/api/take-it-higher/form", content=b"[1]", headers=JSON)
    assert r.status_code == 400 and "expected an object" in r.json()["error"]
    # a half-edited position still gets its buttons (the verbs then say what is wrong)
    assert form(client, "topito", {"hands": "x", "on_turn": "y"})["plan"]["offered"] is False


def test_tasks_that_cannot_be_done_are_said_with_what_blocks_them():
    from solver.web import cannot_all

    two = ["a run of 4", "all piles are even"]
    assert cannot_all(two, {"proven": True, "core": ["a run of 4"]}, "fulfilled",
                      "within 6 plays ") == ("Proven: a run of 4 and all piles are even "
                                             "cannot all be fulfilled within 6 plays; a "
                                             "run of 4 alone cannot.")
    assert cannot_all(two[:1], {"proven": False, "cut_by_time": True}, "done",
                      "within 3 placements") == ("Not shown: a run of 4 cannot be done "
                                                 "within 3 placements. Cut by the time "
                                                 "limit.")
    three = [*two, "no orange piles"]
    assert cannot_all(three, {"proven": True, "core": two}, "done", "within 2 plays") == (
        "Proven: a run of 4, all piles are even and no orange piles cannot all be done "
        "within 2 plays; a run of 4 and all piles are even already cannot all be done "
        "together.")
