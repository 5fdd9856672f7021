"""Write models/tippi_toppi/data/tasks.json: the task catalogue (modelled on the
rulebook; the real task cards are not published), each task with its level.

    python scripts/make_tippi_toppi_tasks.py

The level is data derived from how often a task holds on four random top cards
(estimated over 20,000 seeded deals): level 1 above 20 %, level 2 above 5 %, else 3.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from models.tippi_toppi.rules import load_rules
from models.tippi_toppi.tasks import parse_task

TEXTS = [
    # counts of a colour, exact / at least / none (rulebook: "Drei grüne Stapel")
    "exactly 3 green piles", "exactly 3 pink piles", "exactly 3 orange piles",
    "exactly 3 purple piles", "exactly 2 green piles", "exactly 2 purple piles",
    "at least 2 pink piles", "at least 2 orange piles", "no green piles", "no purple piles",
    "no pink piles", "no orange piles", "exactly 1 green pile",
    # counts of numbers, parity, bounds
    "at least 2 piles showing 7", "at least 2 piles showing 1", "exactly 2 piles showing 4",
    "exactly 3 piles that are even", "exactly 3 piles that are odd",
    "at least 3 piles that are above 4", "exactly 2 green piles that are even",
    "at least 1 pink pile showing 7", "exactly 1 pile that is below 3",
    # all piles (rulebook: two colours for all piles)
    "all piles are pink or green", "all piles are orange or purple",
    "all piles are green or purple", "all piles are pink or orange", "all piles are even",
    "all piles are odd", "all piles are below 5", "all piles are above 3",
    # sums (rulebook: "Die Summe aller grünen Stapel ist 7")
    "the sum of the green piles is 7", "the sum of the pink piles is 10",
    "the sum of the orange piles is 5", "the sum of the purple piles is 12",
    "the sum of all piles is at least 22", "the sum of all piles is at most 10",
    "the sum of all piles is 16", "the sum of the piles that are odd is 9",
    "the sum of the purple piles is at least 11",
    # comparisons between colours
    "the sum of the green piles equals the sum of the pink piles",
    "the sum of the orange piles equals the sum of the purple piles",
    "the sum of the green piles is double the sum of the orange piles",
    "the sum of the pink piles is double the sum of the purple piles",
    "the sum of the orange piles is greater than the sum of the green piles",
    "as many green piles as purple piles", "more pink piles than orange piles",
    "twice as many orange piles as pink piles",
    # neighbours
    "two green piles next to each other", "two purple piles next to each other",
    "a pink pile next to an orange pile", "no pink pile next to a green pile",
    "two green piles not next to each other", "a pile showing 7 next to a pile showing 1",
    "a purple pile and a pink pile not next to each other",
    "two adjacent piles of the same number", "no two adjacent piles of the same colour",
    # repeats and runs
    "no colour is repeated", "no number is repeated", "all piles have the same colour",
    "all piles have the same number", "a run of 3", "a run of 4",
    "the piles rise from left to right",
]


def main() -> None:
    rules = load_rules()
    rng = random.Random(2026)
    deals = [tuple(rng.sample(rules.deck, rules.piles)) for _ in range(20000)]
    out = []
    for i, text in enumerate(TEXTS, 1):
        task = parse_task(text, rules)
        assert parse_task(task.text(rules), rules) == task, (text, task.text(rules))
        text = task.text(rules)  # canonical form
        p = sum(task.holds(d, rules) for d in deals) / len(deals)
        level = 1 if p > 0.20 else 2 if p > 0.05 else 3
        out.append({"id": f"T{i:02d}", "text": text, "level": level,
                    "random_tops_hold": round(p, 4)})
    doc = {
        "source": "Written for toppi, modelled on the rulebook's examples and the kinds of "
                  "tasks a player meets; the real Tippi Toppi task cards are not published.",
        "levels": "1 easy .. 3 hard: how often the task holds on four random top cards "
                  "(random_tops_hold, 20,000 seeded deals; > 20 % level 1, > 5 % level 2)",
        "tasks": out,
    }
    path = Path(__file__).resolve().parents[1] / "models" / "tippi_toppi" / "data" / "tasks.json"
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(out)} tasks -> {path}")


if __name__ == "__main__":
    main()
