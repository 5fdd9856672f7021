"""Pictures of the pool: coloured chips in the lanes (terminal) and an SVG."""

from __future__ import annotations

from rich.text import Text

from models.hippo.state import GameState
from solver.render import Svg

CHIP = "●"


def pool_text(state: GameState, title: str = "") -> Text:
    """Lanes 1-12 side by side, top field first; Mr. Hippo's lane shows its count.
    Below: every stock (foreign colours in brackets) and who rolls next."""
    rules = state.rules
    rgb = [rules.rgb(c) for c in state.colours]
    out = Text()
    if title:
        out.append(title + "\n", style="bold")
    lanes = range(1, rules.lanes + 1)
    for field in range(rules.capacity - 1, -1, -1):
        out.append(" " * 6)
        for lane in lanes:
            if lane == rules.hippo:
                text = f"{sum(state.hippo):^5}" if field == rules.capacity - 1 else "     "
                out.append(text, style="bold #1d6fa5" if text.strip() else "")
                continue
            content = state.lanes[lane]
            if field < len(content):
                out.append(f"  {CHIP}  ", style=f"bold {rgb[content[field]]}")
            else:
                out.append("  ·  ", style="dim")
        out.append("\n")
    out.append(" lane ")
    for lane in lanes:
        label = "hippo" if lane == rules.hippo else f"{lane:^5}"
        out.append(f"{label:^5}", style="bold #1d6fa5" if lane == rules.hippo else "bold")
    out.append("\n")
    if any(state.hippo):
        out.append(f"Mr. Hippo's lane ({rules.hippo}): ")
        out.append(", ".join(f"{state.colours[c]} {n}" for c, n in enumerate(state.hippo) if n))
        out.append("\n")
    for p, row in enumerate(state.stocks):
        mark = "▶ " if p == state.to_move else "  "
        out.append(mark)
        out.append(f"{state.colours[p]:<7}", style=f"bold {rgb[p]}")
        out.append(f" stock {sum(row):>2}")
        fresh = state.fresh if p == state.to_move and state.fresh else (0,) * len(row)
        due = [(c, n - fresh[c]) for c, n in enumerate(row) if n > fresh[c] and c != p]
        taken = [(c, n) for c, n in enumerate(fresh) if n]
        for i, (words, chips) in enumerate(((" to place first", due),
                                            (" taken this turn, due next turn", taken))):
            if not chips:
                continue
            out.append("  (of which " if i == 0 or not due else "; ")
            for j, (c, n) in enumerate(chips):
                out.append(("" if j == 0 else ", ") + f"{n} {state.colours[c]}",
                           style=f"{rgb[c]}")
            out.append(words)
        if due or taken:
            out.append(")")
        out.append("\n")
    me = state.colours[state.to_move]
    which = "the bonus roll" if state.bonus else "the dice"
    won = state.winner()
    if won is not None:
        out.append(f"{state.colours[won]} has no chips left and wins\n")
    elif state.roll is not None:
        out.append(f"{me} threw {which}: " + "+".join(map(str, state.roll)) + "\n")
    elif state.bonus:
        out.append(f"{me} is about to throw the bonus roll\n")
    return out


def pool_svg(state: GameState, title: str = "") -> Svg:
    """The pool seen from above: lanes as columns (bottom field at the bottom), chips as
    circles in their colour, Mr. Hippo's lane in blue with its count; stocks below."""
    rules = state.rules
    w, h, r = 48.0, 48.0, 17.0
    top = 40.0 if title else 14.0
    left = 14.0
    width = left * 2 + rules.lanes * w
    height = top + rules.capacity * h + 30 + 22 * state.players + 10
    svg = Svg(width, height, "#e8f4fb")
    if title:
        svg.text(width / 2, 20, title, 16, "#123", bold=True)
    for lane in range(1, rules.lanes + 1):
        x = left + (lane - 1) * w
        fill = "#5fa8d3" if lane == rules.hippo else "#a9d6f0"
        svg.polygon([(x + 2, top), (x + w - 2, top), (x + w - 2, top + rules.capacity * h),
                     (x + 2, top + rules.capacity * h)], fill, "#4a7d9c")
        svg.text(x + w / 2, top + rules.capacity * h + 14, str(lane), 13, "#123", bold=True)
        if lane == rules.hippo:
            svg.text(x + w / 2, top + h / 2, "hippo", 10, "#fff", bold=True)
            svg.text(x + w / 2, top + 1.5 * h, str(sum(state.hippo)), 18, "#fff", bold=True)
            continue
        for i, c in enumerate(state.lanes[lane]):
            cy = top + (rules.capacity - i - 0.5) * h
            colour = state.rules.rgb(state.colours[c])
            svg.circle(x + w / 2, cy, r, colour, "#222")
    y = top + rules.capacity * h + 40
    for p, row in enumerate(state.stocks):
        colour = rules.rgb(state.colours[p])
        svg.circle(left + 10, y, 8, colour, "#222")
        fresh = state.fresh if p == state.to_move and state.fresh else (0,) * len(row)
        foreign = ", ".join(f"{n} {state.colours[c]}" + (" taken this turn" if fresh[c] else "")
                            for c, n in enumerate(row) if n and c != p)
        label = (f"{state.colours[p]}: {sum(row)} in stock" + (f" ({foreign})" if foreign
                                                               else "")
                 + (_turn_label(state) if p == state.to_move else ""))
        svg.text(left + 24, y, label, 13, "#123", anchor="start")
        y += 22
    return svg


def _turn_label(state: GameState) -> str:
    bonus = " (bonus roll)" if state.bonus else ""
    if state.roll is not None:
        return f"  ← placing {'+'.join(map(str, state.roll))}{bonus}"
    return f"  ← to roll{bonus}"
