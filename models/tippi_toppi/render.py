"""Pictures of a Tippi Toppi game: the four piles as coloured cards (terminal and SVG),
the open tasks, the hands and what is left to draw; the game's view (`VIEW`) and the
terminal drawings of its verbs' answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table
from rich.text import Text

from models.tippi_toppi.rules import Card, Rules
from models.tippi_toppi.state import GameState
from solver.game import GameView
from solver.render import Svg, text_on

if TYPE_CHECKING:
    from models.tippi_toppi.answers import (
        AchievableAnswer,
        HintAnswer,
        ReachableAnswer,
        TasksAnswer,
    )
    from models.tippi_toppi.hint import HintResult
    from solver.verbs import Call

CARD_W = 8


def card_text(rules: Rules, card: Card | None) -> Text:
    """A card as a small coloured label (' G3 '); '?' for a hidden card."""
    if card is None:
        return Text(" ?? ", style="bold white on grey30")
    bg = rules.colours[card[0]].rgb
    return Text(f" {rules.card_name(card)} ", style=f"bold {text_on(bg)} on {bg}")


def table_text(state: GameState) -> Text:
    """The piles (top card big, pile height below), then tasks, hands and piles left."""
    r = state.rules
    out = Text()
    under = [f"{r.colours[t[0]].name} ({len(pl)})"
             for t, pl in zip(state.tops, state.piles, strict=True)]
    width = max(CARD_W, *(len(u) for u in under))  # the words under a pile fit its column
    out.append("  ".join(f"pile {p + 1}".center(width) for p in range(r.piles)) + "\n")
    for row in range(3):
        for p, top in enumerate(state.tops):
            bg = r.colours[top[0]].rgb
            label = str(top[1]) if row == 1 else ""
            out.append(label.center(width), style=f"bold {text_on(bg)} on {bg}")
            if p < r.piles - 1:
                out.append("  ")
        out.append("\n")
    out.append("  ".join(u.center(width) for u in under) + "\n")
    out.append("\nOpen tasks:\n", style="bold")
    for t in state.open_tasks:
        out.append(f"  • {t.text(r)}\n")
    if not state.open_tasks:
        out.append("  (none)\n")
    hidden = f" + {state.hidden_tasks} unknown" if state.hidden_tasks else ""
    out.append(f"Task pile: {len(state.task_pile)}{hidden}; fulfilled: "
               f"{len(state.fulfilled)}\n")
    out.append("\n")
    for p, hand in enumerate(state.hands):
        on_turn = p == state.turn
        out.append(f"{'▶' if on_turn else ' '} player {p + 1}: ",
                   style="bold" if on_turn else "")
        for c in hand:
            out.append_text(card_text(r, c))
            out.append(" ")
        out.append("\n")
    known = "known order" if state.draw_pile is not None else "unknown"
    out.append(f"Draw pile: {state.draw_count} cards ({known})")
    if state.chance_due():
        out.append(f"; next: {state.chance_text()}")
    switches = [n for n, on in (("High Speed", state.variant.high_speed),
                                ("open hands", state.variant.open_hands)) if on]
    if switches:
        out.append(f"; variant: {', '.join(switches)}")
    out.append("\n")
    return out


def table_svg(state: GameState, title: str = "") -> Svg:
    """An SVG picture of the piles, the open tasks and the hands."""
    r = state.rules
    w, h, gap = 90.0, 130.0, 20.0
    width = r.piles * (w + gap) + gap
    n_lines = len(state.open_tasks) + len(state.hands) + 3
    svg = Svg(max(width, 520), 70 + h + 30 + 18 * n_lines + 20, "#f7f3ea")
    if title:
        svg.text(gap, 18, title, size=14, anchor="start", bold=True)
    for p, (top, pile) in enumerate(zip(state.tops, state.piles, strict=True)):
        x, y = gap + p * (w + gap), 40.0
        for k in range(min(len(pile) - 1, 4)):  # cards below, shifted
            off = 4 * (min(len(pile) - 1, 4) - k)
            svg.polygon([(x + off, y - off), (x + w + off, y - off), (x + w + off, y + h - off),
                         (x + off, y + h - off)], "#dddddd")
        rgb = r.colours[top[0]].rgb
        svg.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], rgb, width=2)
        svg.text(x + w / 2, y + h / 2, str(top[1]), size=54, fill=text_on(rgb), bold=True)
        svg.hit("pile", str(p + 1), x, y, w, h)
        svg.text(x + w / 2, y + h + 14, f"pile {p + 1} · {len(pile)} card{'s' if len(pile) != 1 else ''}", size=11)
    y = 40 + h + 40
    svg.text(gap, y, "Open tasks", size=13, anchor="start", bold=True)
    for t in state.open_tasks:
        y += 18
        svg.text(gap + 10, y, "• " + t.text(r), size=12, anchor="start")
    for p, hand in enumerate(state.hands):
        y += 22
        svg.text(gap, y, f"player {p + 1}:", size=12, anchor="start",
                 bold=p == state.turn)
        for i, c in enumerate(hand):
            cx = gap + 80 + i * 40
            rgb = "#777777" if c is None else r.colours[c[0]].rgb
            svg.polygon([(cx, y - 9), (cx + 34, y - 9), (cx + 34, y + 9), (cx, y + 9)], rgb)
            svg.text(cx + 17, y, r.card_name(c), size=11, fill=text_on(rgb), bold=True)
            if c is not None and p == state.turn:
                svg.hit("card", r.card_name(c), cx, y - 9, 34, 18)
    return svg


def hint_table(result: HintResult) -> Table:
    """The ranked plays of a hint, with their reasons."""
    table = Table(title=f"Hint for player {result.player} ({result.seconds * 1000:.0f} ms)",
                  caption="fulfils: open tasks done by the play; in reach: open tasks your "
                          "other cards can do next; others help: share of the cards others "
                          "may hold that would fulfil an open task next; playable: share of "
                          "those cards that still fit a pile; own fit: your cards that fit")
    for c in ("#", "play", "score", "fulfils now", "in reach", "others help", "playable",
              "own fit"):
        table.add_column(c)
    for i, o in enumerate(result.options, 1):
        warn = " [red](next player stuck)[/red]" if o.next_stuck else ""
        table.add_row(str(i), o.play + warn, f"{o.score:.1f}",
                      escape("; ".join(o.fulfils)) or "-", escape("; ".join(o.in_reach)) or "-",
                      f"{100 * o.others_help_share:.0f}%", f"{100 * o.playable_share:.0f}%",
                      str(o.own_playable))
    return table


# --------------------------------------------------------------------------- the view

class TippiToppiView(GameView):
    """The piles, tasks and hands for the terminal and as SVG, and `play`'s hint: the
    hint's ranked plays."""

    def terminal(self, state: GameState) -> Text:
        return table_text(state)

    def picture(self, state: GameState, title: str) -> Svg:
        return table_svg(state, title)

    def hint(self, rules: Any, observation: GameState, options: dict[str, Any]) -> Table:
        from models.tippi_toppi.hint import hint

        return hint_table(hint(observation))


VIEW = TippiToppiView()


# --------------------------------------------------------------------------- answers

OPEN_HANDS_LABEL = ("an all-seeing reference that reads every hand the file "
                    "gives, not a hint a player may use at the table")


def show_achievable(result: AchievableAnswer, call: Call) -> None:
    """`achievable`: yes with the line of plays and when each task holds, or no with the
    tasks that block each other."""
    from solver.render import stdout

    how = f"(cards: {result.cards}, {result.backend}, {result.seconds:.2f} s)"
    if result.answer == "yes":
        stdout.print(f"[bold green]Yes[/bold green]: all {len(result.targets)} tasks within "
                     f"{result.within} plays {how}")
        stdout.print("Plays: " + (" ".join(result.plays) or "none needed"))
        for t, k in zip(result.targets, result.fulfilled_after, strict=True):
            stdout.print(f"  • {escape(t)}: after play {k}")
        return
    stdout.print(f"[bold red]No[/bold red] (proven): not all {len(result.targets)} tasks "
                 f"within {result.within} plays {how}")
    if result.core_minimal:
        stdout.print("These tasks cannot all be fulfilled together (each smaller set can):")
    else:
        why = ("[yellow](cut by the time limit)[/yellow]" if result.cut_by_time else
               "(out of work: raise --conflicts or --work)")
        stdout.print("These tasks cannot all be fulfilled together; a smaller set of them "
                     f"may not either, a check was left undecided {why}:")
    for t in result.core:
        stdout.print(f"  • {escape(t)}")


def show_hint(result: HintAnswer, call: Call) -> None:
    """`hint`: the position read, then the ranked plays (or why there is none)."""
    from solver.render import stdout

    used = result.position
    assert used is not None
    stdout.print(table_text(used))
    if result.open_hands:
        stdout.print(f"[bold yellow]Open hands[/bold yellow]: {OPEN_HANDS_LABEL}.")
    if not result.options:
        if used.variant.high_speed and used.players > 1:
            stdout.print(f"[bold red]No legal play[/bold red]: player {result.player} "
                         "cannot play now (pass the initiative on).")
        else:
            stdout.print(f"[bold red]No legal play[/bold red]: player {result.player} "
                         "cannot play, the game is lost.")
        return
    stdout.print(hint_table(result))


def show_reachable(result: ReachableAnswer, call: Call) -> None:
    """`reachable`: exact (yes with a line, no) or the sampled win rate, what it was
    worked out from, and whether the time limit cut the work."""
    from solver.play_view import knows_line
    from solver.render import stdout

    known = knows_line(call.game, result.position, result.open_hands)
    cut = " [yellow](cut by the time limit)[/yellow]" if result.cut_by_time else ""
    if result.method == "exact":
        if result.answer == "yes":
            stdout.print(f"[bold green]Yes[/bold green], the game can still be won "
                         f"({len(result.line)} plays, checked by the rules engine){cut}:")
            stdout.print(" ".join(result.line) or "(already won)")
        else:
            stdout.print(f"[bold red]No[/bold red], the game cannot be won: proven over "
                         f"every line of the remaining plays ({result.nodes} positions, "
                         f"{result.conflicts} SAT conflicts){cut}")
        stdout.print(known)
        return
    rate = result.rate
    assert rate is not None
    stdout.print(f"Not everything is known: the hint policy won {rate.successes} of "
                 f"{rate.trials} sampled deals = {100 * rate.rate:.1f}% "
                 f"(95% interval {100 * rate.low:.1f}-{100 * rate.high:.1f}%)")
    if result.cut_by_time:
        stdout.print(f"[yellow](cut by the time limit: {result.samples} of {result.asked} "
                     "deals played)[/yellow]")
    stdout.print(known)


def show_tasks(result: TasksAnswer, call: Call) -> None:
    """`tasks`: the catalogue as a table."""
    from solver.render import stdout

    table = Table(title=f"{len(result)} tasks (modelled on the rulebook)")
    for c in ("id", "level", "text"):
        table.add_column(c)
    for row in result:
        table.add_row(row.id, str(row.level), escape(row.text))
    stdout.print(table)
