"""Pictures of the pool: coloured chips in the lanes (terminal) and an SVG; the game's
view (`VIEW`) and the terminal drawings of its verbs' answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from models.hippo.state import GameState
from solver.game import GameView
from solver.render import Svg

if TYPE_CHECKING:
    from models.hippo.answers import BestAnswer, FinishAnswer, PlanAnswer
    from solver.verbs import Call

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
    line = 37.0  # a stock's line: tall enough to tap on a phone (44 px at the page's 1.2)
    height = top + rules.capacity * h + 26 + line * state.players + 6
    svg = Svg(width, height, "#e8f4fb")
    if title:
        svg.text(width / 2, 20, title, 16, "#123", bold=True)
    for lane in range(1, rules.lanes + 1):
        x = left + (lane - 1) * w
        fill = "#5fa8d3" if lane == rules.hippo else "#a9d6f0"
        svg.polygon([(x + 2, top), (x + w - 2, top), (x + w - 2, top + rules.capacity * h),
                     (x + 2, top + rules.capacity * h)], fill, "#4a7d9c")
        svg.text(x + w / 2, top + rules.capacity * h + 14, str(lane), 13, "#123", bold=True)
        svg.hit("lane", str(lane), x, top, w, rules.capacity * h + 24)
        if lane == rules.hippo:
            svg.text(x + w / 2, top + h / 2, "hippo", 10, "#fff", bold=True)
            svg.text(x + w / 2, top + 1.5 * h, str(sum(state.hippo)), 18, "#fff", bold=True)
            continue
        for i, c in enumerate(state.lanes[lane]):
            cy = top + (rules.capacity - i - 0.5) * h
            colour = state.rules.rgb(state.colours[c])
            svg.circle(x + w / 2, cy, r, colour, "#222")
    y = top + rules.capacity * h + 26 + line / 2
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
        svg.hit("stock", state.colours[p], left, y - line / 2, width - 2 * left, line)
        y += line
    return svg


def _turn_label(state: GameState) -> str:
    bonus = " (bonus roll)" if state.bonus else ""
    if state.roll is not None:
        return f"  ← placing {'+'.join(map(str, state.roll))}{bonus}"
    return f"  ← to roll{bonus}"


# --------------------------------------------------------------------------- the view

class HippoView(GameView):
    """The pool for the terminal and as SVG, and `play`'s hint: `best`'s first move."""

    shows_chance = True  # "red threw the dice: 5+2+1" under the pool

    def terminal(self, state: GameState) -> Text:
        return pool_text(state)

    def picture(self, state: GameState, title: str) -> Svg:
        return pool_svg(state, title)

    def hint(self, rules: Any, observation: GameState, options: dict[str, Any]) -> Any:
        from models.hippo.best import best_options
        from models.hippo.notation import format_move

        if observation.roll is None:
            return None
        top = best_options(observation, observation.roll)[0]
        rules = observation.rules
        how = (f"; the bonus roll averaged exactly over all {rules.faces ** rules.dice} "
               "throws, no sampling" if top.bonus else "")
        return (f"best: {format_move(observation, top.move)} (expected "
                f"{float(top.value):.3f} chips shed this turn, exposure "
                f"{float(top.exposure):.3f}{how})")


VIEW = HippoView()


# --------------------------------------------------------------------------- answers

def _who(state: GameState) -> Text:
    colour = state.colours[state.to_move]
    t = Text()
    t.append(colour, style=f"bold {state.rules.rgb(colour)}")
    return t


def show_best(result: BestAnswer, call: Call) -> None:
    """`best`: the pool, the best placement and the ranked alternatives."""
    from rich.table import Table

    from solver.render import stdout

    state = call.state()
    top = call.values.get("top", 10)
    stdout.print(pool_text(state))
    line = Text("Roll " + "+".join(map(str, result.roll)) + " for ")
    line.append_text(_who(state))
    line.append(": best ")
    line.append(", ".join(result.best), style="bold green")
    line.append(f"  (expected {result.expected_shed:.3f} chips shed this turn, exposure "
                f"{result.exposure:.3f}; proven over all results, {result.seconds*1000:.1f} ms)")
    stdout.print(line)
    table = Table(caption="exposure: own chips the other players can kick out next, "
                          "weighed by the chance of their rolls")
    for h in ("rank", "placements (in order)", "shed now", "bonus roll", "expected shed",
              "exposure"):
        table.add_column(h, justify="left" if h.startswith("placements") else "right")
    for o in result.options[:top]:
        table.add_row(str(o.rank), ", ".join(o.placements), str(o.shed_now),
                      "won" if o.won else ("yes" if o.bonus_roll else ""),
                      f"{o.expected_shed:.4f}", f"{o.exposure:.4f}")
    stdout.print(table)
    if len(result.options) > top:
        stdout.print(f"... {len(result.options) - top} more (--top, --json)")


def show_plan(result: PlanAnswer, call: Call) -> None:
    """`plan`: the pool and the plan, roll by roll."""
    from rich.table import Table

    from solver.render import stdout

    stdout.print(pool_text(call.state()))
    table = Table(title=f"Plan for {result.player}: {result.rolls} rolls")
    for h in ("roll", "turn", "dice", "placements (in order)", "stock after", "events"):
        table.add_column(h, justify="right" if h in ("roll", "turn", "stock after") else "left")
    for i, st in enumerate(result.steps, 1):
        table.add_row(str(i), str(st.turn) + (" (bonus)" if st.bonus_roll else ""),
                      "+".join(map(str, st.roll)), ", ".join(st.placements),
                      str(st.stock_after), "; ".join(st.events))
    stdout.print(table)
    stop = ("cut by the time limit" if result.cut_by_time else
            f"stopped by --work {result.work_limit:g}")
    if result.proven:
        how = "[bold green]proven optimal[/bold green]"
    elif result.found_by == "CP-SAT":
        how = (f"[bold yellow]best found, not proven[/bold yellow] (bound {result.bound}; "
               f"{stop})")
    else:
        how = (f"[bold yellow]a greedy plan, not proven[/bold yellow] (CP-SAT found none: "
               f"{stop})")
    done = f"CP-SAT, {result.work:g} of {result.work_limit:g} work, {result.seconds:.2f} s" \
        if result.work_limit is not None else f"CP-SAT, {result.seconds:.2f} s"
    if result.emptied:
        stdout.print(f"Stock emptied in {result.turns} turn(s): {how} ({done})")
    else:
        stdout.print(f"The stock cannot be emptied with these rolls; at most "
                     f"{result.chips_shed} chips shed, {result.chips_left} left: {how} "
                     f"({done})")
    if result.brute_force_objective is not None:
        stdout.print(f"Brute force agrees: objective {result.brute_force_objective}.")


def show_finish(result: FinishAnswer, call: Call) -> None:
    """`finish`: the chance within each number of turns, and the best case."""
    from rich.table import Table

    from solver.render import stdout

    stdout.print(pool_text(call.state()))
    table = Table(title=f"{result.player}: {result.stock} chips to shed, nobody else moving")
    for h in ("within turns", "chance", "exact"):
        table.add_column(h, justify="right")
    for row in result.by_turns:
        table.add_row(str(row.turns), f"{100 * row.chance:.4f}%", row.exact)
    stdout.print(table)
    if result.bounds is not None:
        b = result.bounds
        why = ("cut by the time limit" if result.cut_by_time else
               f"stopped after --steps {result.steps_limit:,}")
        stdout.print(f"[bold yellow]Within {b.turns} turns not exact ({why}); proven "
                     f"bounds:[/bold yellow] at least {100 * b.at_least:.4f}% "
                     f"({b.at_least_because}), at most {100 * b.at_most:.4f}% "
                     f"({b.at_most_because}). Try fewer --turns or more --steps.")
    best = (f"{result.best_case_turns} turn(s)" if result.best_case_turns is not None
            else "not found (stopped first, or more than 12 turns)"
            if result.bounds is not None else "more than 12 turns")
    stdout.print(f"Best case (kindest dice): {best}. Exact DP over {result.states} "
                 f"positions, {result.steps:,} steps, {result.seconds:.2f} s.")
