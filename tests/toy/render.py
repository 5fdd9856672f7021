"""The toy game's view: one line for the terminal, a small SVG."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from solver.game import GameView
from solver.render import Svg

if TYPE_CHECKING:
    from solver.verbs import Call
    from tests.toy.answers import LeftAnswer
    from tests.toy.game import ToyState


class ToyView(GameView):
    def terminal(self, state: ToyState) -> Text:
        hands = " | ".join(" ".join("?" if c is None else str(c) for c in h)
                           for h in state.hands)
        return Text(f"total {state.total}/{state.rules.limit}; hands {hands}; "
                    f"deck {state.deck_count}")

    def picture(self, state: ToyState, title: str) -> Svg:
        svg = Svg(200, 60)
        svg.text(100, 30, f"{title}: total {state.total}")
        return svg


VIEW = ToyView()


def show_left(answer: LeftAnswer, call: Call) -> None:
    from solver.render import stdout

    stdout.print(f"{answer.left} point(s) left below {answer.limit}; safe cards: "
                 f"{', '.join(map(str, answer.safe)) or 'none'}")
