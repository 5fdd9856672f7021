"""Finds boards for the four worked games of the Take it Higher! rulebook.

The rulebook prints each example's score sheet and narrates its key moves, but shows
the boards only as pictures. Each game is written here as constraints on a CP-SAT
model of a whole game (which tile lies on which cell, and in which order the tiles were
called): the tiles the text names at the turns it names, the rows each narrated tile
completes, the spaceships launched and the choices the text says were open or closed,
and every line of the score sheet. A solution is replayed by the rules engine (launches
checked, score sheet recomputed) and written to puzzles/take-it-higher/.

    python scripts/find_take_it_higher_examples.py [--only NAME] [--out DIR]

With one search worker CP-SAT is deterministic, so the same boards come out each run.
When a game's text contradicts itself (Hannah's does), the script keeps every fact that
something happened, the score sheet and the named turns, gives up as few facts that
something did not happen as it can, and prints those.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ortools.sat.python import cp_model

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.take_it_higher.positions import Placement, Position, format_placement  # noqa: E402
from models.take_it_higher.rules import Rules, load_rules  # noqa: E402
from models.take_it_higher.sheet import score_sheet  # noqa: E402
from models.take_it_higher.variants import variant_from_name  # noqa: E402

Lit = cp_model.IntVar


@dataclass
class WorkedGame:
    """One worked example of the rulebook, as the text states it."""

    name: str
    variant: str
    total: int | None
    sheet: dict[str, int]  # score-sheet line (colour or stud) -> tiles, as printed
    bonus: int | None = None  # the Take it Higher! bonus
    called: dict[int, str] = field(default_factory=dict)  # turn -> tile
    launches: dict[int, tuple[str, ...]] = field(default_factory=dict)  # turn -> ships
    # turn -> colours of the rows it completes (no others, but for a bonus row named
    # without its colour)
    completes: dict[int, set[str]] = field(default_factory=dict)
    stud_rows: dict[int, dict[str, str | None]] = field(default_factory=dict)
    options: dict[int, set[str]] = field(default_factory=dict)  # turn -> exact choices
    extra: Callable[[Finder], None] | None = None
    # from this turn on, a launch the text passes over did not exist: the player
    # launched whenever the rules let them (turns without a narrated launch offer no
    # spaceship); None: the text's launches are all we ask for
    eager_from: int | None = 1


class Finder:
    """A whole game on the board: tile t on cell c, cell c filled on turn k, and for every
    line the colour it scores in (if any), its stud and the turn that completes it."""

    def __init__(self, rules: Rules, game: WorkedGame) -> None:
        self.rules, self.game = rules, game
        self.variant = variant_from_name(game.variant)
        m = self.m = cp_model.CpModel()
        tiles, cells = rules.tiles, rules.cell_ids
        n = self.turns = len(cells)
        self.at = {(t.id, c): m.new_bool_var(f"at[{t.id},{c}]") for t in tiles for c in cells}
        self.filled = {(c, k): m.new_bool_var(f"filled[{c},{k}]")
                       for c in cells for k in range(1, n + 1)}
        for c in cells:
            m.add_exactly_one(self.at[t.id, c] for t in tiles)
            m.add_exactly_one(self.filled[c, k] for k in range(1, n + 1))
        for k in range(1, n + 1):
            m.add_exactly_one(self.filled[c, k] for c in cells)
        for t in tiles:
            m.add_at_most_one(self.at[t.id, c] for c in cells)
        self.when = {c: sum(k * self.filled[c, k] for k in range(1, n + 1)) for c in cells}

        # stripe colour and stud of each cell, as 0/1 sums over the tiles
        self.colour: dict[tuple[str, int, str], Lit] = {}
        for c in cells:
            for d, dr in enumerate(rules.directions):
                for col in dr.colours:
                    v = m.new_bool_var(f"col[{c},{d},{col}]")
                    m.add(v == sum(self.at[t.id, c] for t in tiles if t.stripes[d] == col))
                    self.colour[c, d, col] = v
        studs = sorted(rules.stud_bonus)
        self.stud = {}
        for c in cells:
            for s in studs:
                v = m.new_bool_var(f"stud[{c},{s}]")
                m.add(v == sum(self.at[t.id, c] for t in tiles if t.stud == s))
                self.stud[c, s] = v

        # rows: scores[line, colour], bonus[line, stud], done[line, k]
        self.scores: dict[tuple[int, str], Lit] = {}
        self.stud_row: dict[tuple[int, str], Lit] = {}
        self.done: dict[tuple[int, int], Lit] = {}
        for li, (d, line) in enumerate(rules.lines):
            for col in rules.directions[d].colours:
                self.scores[li, col] = self.all_of([self.colour[c, d, col] for c in line])
            scoring = self.any_of([self.scores[li, col] for col in rules.directions[d].colours])
            for s in studs:
                self.stud_row[li, s] = self.all_of([scoring] + [self.stud[c, s] for c in line])
            last = m.new_int_var(1, n, f"last[{li}]")
            m.add_max_equality(last, [self.when[c] for c in line])
            for k in range(1, n + 1):
                v = m.new_bool_var(f"done[{li},{k}]")
                m.add(last == k).only_enforce_if(v)
                m.add(last != k).only_enforce_if(~v)
                self.done[li, k] = v
        self.launch_tiles = [game.called[k] for k in game.launches]
        self._clear: dict[tuple[int, int], Lit] = {}
        self._option: dict[tuple[str, int], Lit] = {}

    # ------------------------------------------------------------------ Boolean helpers
    def all_of(self, lits: list[Lit]) -> Lit:
        v = self.m.new_bool_var("")
        for lit in lits:
            self.m.add_implication(v, lit)
        self.m.add_bool_or([~lit for lit in lits] + [v])
        return v

    def any_of(self, lits: list[Lit]) -> Lit:
        v = self.m.new_bool_var("")
        for lit in lits:
            self.m.add_implication(lit, v)
        self.m.add_bool_or([*lits, ~v])
        return v

    # ------------------------------------------------------------------ the game's facts
    def lines_of(self, colour: str) -> list[int]:
        return [li for li, (d, _) in enumerate(self.rules.lines)
                if colour in self.rules.directions[d].colours]

    def completes(self, colour: str, k: int) -> Lit:
        """Turn k completes a scoring row of this colour."""
        return self.any_of([self.all_of([self.done[li, k], self.scores[li, colour]])
                            for li in self.lines_of(colour)])

    def completes_stud(self, stud: str, k: int, colour: str | None) -> Lit:
        """Turn k completes a bonus row of this stud (over a row of `colour`, if given)."""
        lines = self.lines_of(colour) if colour else range(len(self.rules.lines))
        return self.any_of([self.all_of([self.done[li, k], self.stud_row[li, stud]]
                                        + ([self.scores[li, colour]] if colour else []))
                            for li in lines])

    def allows(self, li: int, ship: str) -> Lit | None:
        d = self.rules.lines[li][0]
        if ship in self.rules.directions[d].colours:
            return self.scores[li, ship]
        if ship in self.rules.stud_bonus:
            return self.stud_row[li, ship]
        return None

    def clear(self, li: int, k: int) -> Lit:
        """Under the advanced rules: the other tiles of the line carry no spaceship (every
        spaceship of the game stands on a tile the text names)."""
        if (li, k) in self._clear:
            return self._clear[li, k]
        ships = sum(self.at[t, c] for t in self.launch_tiles for c in self.rules.lines[li][1])
        v = self.m.new_bool_var("")
        own = 1 if k in self.game.launches else 0
        self.m.add(ships <= own).only_enforce_if(v)
        self.m.add(ships >= own + 1).only_enforce_if(~v)
        self._clear[li, k] = v
        return v

    def option(self, ship: str, k: int) -> Lit:
        """The rules let `ship` launch on turn k (ignoring which ships are still on the
        pad: the caller asks only about those)."""
        if (ship, k) in self._option:
            return self._option[ship, k]
        lits = []
        for li in range(len(self.rules.lines)):
            allow = self.allows(li, ship)
            if allow is None:
                continue
            parts = [self.done[li, k], allow]
            if self.variant.ships == "advanced":
                parts.append(self.clear(li, k))
            lits.append(self.all_of(parts))
        self._option[ship, k] = self.any_of(lits)
        return self._option[ship, k]

    def on_pad(self, k: int) -> list[str]:
        """Spaceships still on the pad before turn k."""
        gone = {s for j, ships in self.game.launches.items() if j < k for s in ships}
        return [s for s in self.rules.spaceships if s not in gone]

    def require(self, constraint: cp_model.BoundedLinearExpression | bool, fact: str) -> None:
        """Add a constraint under the literal of a named fact of the text, so that an
        infeasible game can name the facts that contradict each other."""
        if fact not in self.facts:
            self.facts[fact] = self.m.new_bool_var(fact)
        self.m.add(constraint).only_enforce_if(self.facts[fact])

    def build(self) -> None:
        g, rules = self.game, self.rules
        self.facts: dict[str, Lit] = {}
        for k, tile in g.called.items():
            for c in rules.cell_ids:  # the cell filled on turn k holds the tile
                self.require(self.at[tile, c] >= self.filled[c, k], f"{tile} is tile {k}")
        colours = [c for dr in rules.directions for c in dr.colours]
        self.static_facts()
        for k, want in g.completes.items():
            # a bonus row the text names without its colour may lie over any other one
            unnamed = [s for s, under in g.stud_rows.get(k, {}).items() if under is None]
            for col in colours:
                if col in want:
                    self.require(self.completes(col, k) == 1, f"tile {k} completes {col}")
                else:
                    self.require(self.completes(col, k) <= sum(
                        self.completes_stud(s, k, col) for s in unnamed),
                        f"tile {k} completes no other row")
        for k, studs in g.stud_rows.items():
            for stud, under in studs.items():
                self.require(self.completes_stud(stud, k, under) == 1,
                             f"tile {k} completes a {stud} row" + (f" over {under}" if under
                                                                    else ""))
        for k, ships in g.launches.items():
            for s in ships:
                done = (self.completes_stud(s, k, None) if s in rules.stud_bonus
                        else self.completes(s, k))
                self.require(done == 1, f"tile {k} launches {s}")
                if self.variant.ships == "advanced":
                    self.require(self.option(s, k) == 1, f"tile {k} launches {s}")
        for k, choices in g.options.items():
            for s in self.on_pad(k):
                if s in choices:
                    self.require(self.option(s, k) == 1, f"tile {k} offers {s}")
                else:
                    self.require(self.option(s, k) == 0, f"tile {k} offers no other spaceship")
        if g.eager_from is not None:
            for k in range(g.eager_from, self.turns + 1):
                if k in g.launches or k in g.options:
                    continue
                pad = self.on_pad(k)
                asked = pad if self.variant.ships == "advanced" else pad[:1]
                for s in asked:
                    self.require(self.option(s, k) == 0, f"tile {k} offers no spaceship")
        for name, tiles in g.sheet.items():
            count = (self.stud_tiles(name) if name in rules.stud_bonus
                     else self.colour_tiles(name))
            self.require(count == tiles, f"sheet: {name} {tiles}")
        points = sum(rules.colour_values[col] * self.colour_tiles(col) for col in colours)
        if self.variant.gold_silver:
            points += sum(v * self.stud_tiles(s) for s, v in rules.stud_bonus.items())
        if g.total is not None:
            self.require(points + (g.bonus or 0) == g.total, f"sheet: total {g.total}")
        if g.extra:
            g.extra(self)

    def static_facts(self) -> None:
        """What the narrated turns say about the finished board alone (implied by the
        turn-by-turn facts, stated again because CP-SAT finds boards much faster with
        them): the rows through a named tile score the colours it completes."""
        g, rules = self.game, self.rules
        for k, tile in g.called.items():
            colours = set(g.completes.get(k, ())) | {
                s for s in g.launches.get(k, ()) if s not in rules.stud_bonus}
            for col in sorted(colours):  # sorted: the same model in every process
                d = next(d for d, dr in enumerate(rules.directions) if col in dr.colours)
                for c in rules.cell_ids:
                    li = rules.line_of[c, d]
                    self.require(self.scores[li, col] >= self.at[tile, c],
                                 f"tile {k} completes {col}")
            studs = dict(g.stud_rows.get(k, {}))
            studs.update({s: None for s in g.launches.get(k, ()) if s in rules.stud_bonus})
            for stud, under in studs.items():
                for c in rules.cell_ids:
                    rows = [self.stud_row[rules.line_of[c, d], stud]
                            for d, dr in enumerate(rules.directions)
                            if under is None or under in dr.colours]
                    self.require(sum(rows) >= self.at[tile, c], f"tile {k} completes a {stud} row")

    def colour_tiles(self, colour: str) -> cp_model.LinearExpr:
        return sum(len(self.rules.lines[li][1]) * self.scores[li, colour]
                   for li in self.lines_of(colour))

    def stud_tiles(self, stud: str) -> cp_model.LinearExpr:
        return sum(len(line) * self.stud_row[li, stud]
                   for li, (_, line) in enumerate(self.rules.lines))

    @staticmethod
    def negative(fact: str) -> bool:
        """A fact that something did not happen (no other row, no other choice)."""
        return " no " in fact

    def solve(self, time_limit: float, most: bool = False) -> list[Placement] | None:
        """A game with every fact (most=False), or (most=True) one with every fact that
        something happened, the score sheet and the named turns, and as many facts that
        something did not happen as possible. The facts that do not hold are printed."""
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 0
        solver.parameters.max_time_in_seconds = time_limit
        self.m.clear_assumptions()
        if most:
            for name, v in self.facts.items():
                if not self.negative(name):
                    self.m.add(v == 1)
            self.m.maximize(sum(v for name, v in self.facts.items() if self.negative(name)))
        else:
            self.m.add_assumptions(list(self.facts.values()))
        status = solver.solve(self.m)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            print(f"{self.game.name}: {solver.status_name(status)} after "
                  f"{solver.wall_time:.1f} s", file=sys.stderr)
            if status == cp_model.INFEASIBLE:
                core = set(solver.sufficient_assumptions_for_infeasibility())
                names = sorted(n for n, v in self.facts.items() if v.index in core)
                print("  these facts contradict each other: " + "; ".join(names),
                      file=sys.stderr)
            return None
        order = {}
        for c in self.rules.cell_ids:
            k = next(k for k in range(1, self.turns + 1) if solver.value(self.filled[c, k]))
            t = next(t.id for t in self.rules.tiles if solver.value(self.at[t.id, c]))
            order[k] = (t, c)
        print(f"{self.game.name}: found in {solver.wall_time:.1f} s", file=sys.stderr)
        self.broken = sorted({n for n, v in self.facts.items() if not solver.value(v)})
        if most:
            print(f"  {solver.status_name(status).lower()}: {solver.objective_value:g} of "
                  f"{solver.best_objective_bound:g}; facts that do not hold: "
                  + "; ".join(self.broken), file=sys.stderr)
        return [Placement(*order[k], self.game.launches.get(k, ()))
                for k in range(1, self.turns + 1)]


# -------------------------------------------------------------------- the four games
def freddie_purples(f: Finder) -> None:
    """Three purple scoring rows, of lengths 4, 4 and 3."""
    lens = {3: 1, 4: 2}
    for n, count in lens.items():
        f.require(sum(f.scores[li, "purple"] for li in f.lines_of("purple")
                      if len(f.rules.lines[li][1]) == n) == count, "purple rows of 4, 4, 3")


def jonathan_rows(f: Finder) -> None:
    """Five gold bonus rows and four silver ones; the short left column holds Silver O
    and Silver A and is no scoring row (part white, part red)."""
    rows = range(len(f.rules.lines))
    f.require(sum(f.stud_row[li, "gold"] for li in rows) == 5, "five gold rows")
    f.require(sum(f.stud_row[li, "silver"] for li in rows) == 4, "four silver rows")
    left = ("a3", "a4")
    for t in ("SO", "SA"):
        f.require(sum(f.at[t, c] for c in left) == 1, "Silver O and Silver A on the left")


def hannah_blocked_green(f: Finder) -> None:
    """Turn 15's green row carries the blue spaceship on Silver I (turn 12)."""
    k = 15
    on_row = []
    for li in f.lines_of("green"):
        on = f.all_of([f.done[li, k], f.scores[li, "green"],
                       f.any_of([f.at["SI", c] for c in f.rules.lines[li][1]])])
        on_row.append(on)
    f.require(sum(on_row) >= 1, "tile 15's green row carries the blue spaceship")


def hannah_last_white(f: Finder, after: int) -> None:
    """Silver N was her last chance to launch white: no later turn completes a white
    row free of spaceships."""
    for k in range(after + 1, f.turns + 1):
        f.require(f.option("white", k) == 0, f"tile {after} is the last chance for white")


def games(hannah_n: int) -> list[WorkedGame]:
    freddie = WorkedGame(
        "freddie-basic", "basic", 318,
        {"red": 8, "blue": 6, "purple": 11, "green": 7, "pink": 10},
        extra=freddie_purples, eager_from=None)
    jonathan = WorkedGame(
        "jonathan-gold-silver", "gold-silver", 596,
        {"gold": 14, "silver": 13, "red": 8, "blue": 12, "purple": 10, "green": 10,
         "pink": 7},
        extra=jonathan_rows, eager_from=None)
    oliver = WorkedGame(
        "oliver-simple", "simple", 477,
        {"red": 4, "blue": 12, "purple": 10, "green": 6, "pink": 10}, bonus=180,
        called={7: "SP", 14: "GH", 15: "SK", 16: "SA", 17: "GA", 18: "GN", 19: "GL",
                20: "GM", 21: "SL", 22: "GE", 23: "SB", 24: "SE"},
        launches={7: ("white",), 14: ("orange", "yellow", "pink"), 16: ("green",),
                  18: ("purple",), 19: ("blue",), 24: ("red", "silver")},
        completes={7: {"white", "pink"}, 14: {"orange", "yellow", "pink"},
                   24: {"red", "purple"}},
        stud_rows={24: {"silver": "purple"}})
    n = hannah_n
    hannah = WorkedGame(
        "hannah-advanced", "advanced+gold-silver", 795,
        {"gold": 10, "silver": 21, "red": 12, "blue": 12, "purple": 6, "green": 6,
         "pink": 10, "yellow": 10}, bonus=160,
        called={11: "SF", 12: "SI", 15: "SG", 17: "GP", 18: "SE", n: "SN", n + 1: "SB",
                n + 2: "GN", n + 3: "GH"},
        launches={11: ("purple",), 12: ("blue",), 15: ("yellow",), 17: ("orange",),
                  18: ("green",), n: ("white",), n + 1: ("pink",), n + 2: ("gold",),
                  n + 3: ("red",)},
        completes={11: {"purple"}, 12: {"blue"}, 15: {"yellow", "green", "red"},
                   18: {"green", "red"}, n: {"white", "orange", "pink"}, n + 2: {"purple"}},
        stud_rows={18: {"silver": None}, n: {"silver": None}, n + 2: {"gold": None}},
        options={15: {"yellow", "red"}, 18: {"green", "red", "silver"},
                 n: {"white", "pink", "silver"}, n + 2: {"gold"}},
        extra=lambda f: (hannah_blocked_green(f), hannah_last_white(f, n)), eager_from=11)
    return [freddie, jonathan, oliver, hannah]


def candidates(only: Iterable[str] | None) -> list[list[WorkedGame]]:
    """Each game, with its alternatives where the text leaves a turn open (Hannah's
    Silver N follows her 18th tile: the 19th, 20th or 21st)."""
    names = set(only) if only else None
    out = []
    for i, _ in enumerate(games(19)):
        alts = [games(n)[i] for n in ((19, 20, 21) if i == 3 else (19,))]
        if names is None or alts[0].name in names:
            out.append(alts)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", help="a game's file name (repeatable)")
    ap.add_argument("--out", type=Path, default=ROOT / "puzzles" / "take-it-higher")
    ap.add_argument("--time-limit", type=float, default=300.0)
    args = ap.parse_args()
    rules = load_rules()
    for alts in candidates(args.only):
        found = None
        for game in alts:
            finder = Finder(rules, game)
            finder.build()
            placements = finder.solve(args.time_limit)
            if placements is not None:
                found = game, placements
                break
        if found is None:  # the text contradicts itself: give up as little as we can
            best = None
            for game in alts:
                finder = Finder(rules, game)
                finder.build()
                placements = finder.solve(args.time_limit, most=True)
                if placements is not None and (best is None
                                               or len(finder.broken) < best[0]):
                    best = len(finder.broken), game, placements
            if best is None:
                print(f"{alts[0].name}: no board found", file=sys.stderr)
                continue
            found = best[1], best[2]
        write(rules, *found, args.out)


def write(rules: Rules, game: WorkedGame, placements: list[Placement], out: Path) -> None:
    """Replay the game on the rules engine (every launch checked) and write its file."""
    variant = variant_from_name(game.variant)
    position = Position(rules, placements, None, variant)
    sheet = score_sheet(position, variant)
    if sheet.total != game.total:
        raise SystemExit(f"{game.name}: the engine scores {sheet.total}, not {game.total}")
    data = {"game": "take-it-higher", "variant": variant.name,
            "placements": [format_placement(p) for p in placements]}
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{game.name}.json"
    path.write_text(json.dumps(data, indent=2) + "\n")
    print(f"{path}: {sheet.total}")

if __name__ == "__main__":
    main()
