"""Which scoring rules a game of Take it Higher! is played with."""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import BadInput

SHIP_RULES = ("simple", "advanced")
VARIANT_CHOICES = ("basic", "gold-silver", *SHIP_RULES)


@dataclass(frozen=True)
class Variant:
    """The gold/silver bonus rows (on or off), and the spaceship rules (None, simple or
    advanced)."""

    gold_silver: bool = False
    ships: str | None = None

    @property
    def name(self) -> str:
        """`basic`, `gold-silver`, `simple`, `advanced`, or a spaceship rule set with the
        bonus rows, `simple+gold-silver` (what `variant_from_name` reads)."""
        parts = [self.ships] if self.ships else []
        if self.gold_silver:
            parts.append("gold-silver")
        return "+".join(parts) or "basic"


def parse_variant(name: str, gold_silver: bool = False) -> Variant:
    """`basic`, `gold-silver`, `simple` or `advanced` (spaceship rules), optionally with the
    gold/silver bonus added (`--gold-silver`)."""
    key = name.strip().lower()
    if key == "basic":
        return Variant(gold_silver, None)
    if key in ("gold-silver", "goldsilver", "gold/silver"):
        return Variant(True, None)
    if key in SHIP_RULES:
        return Variant(gold_silver, key)
    raise BadInput(f"unknown variant '{name}' (basic, gold-silver, simple, advanced)")


def variant_from_name(name: str, where: str = "variant") -> Variant:
    """The variant named by `Variant.name` (a position file's `variant`)."""
    parts = [p for p in name.strip().lower().split("+") if p]
    if not parts or len(parts) > 2 or (len(parts) == 2 and parts[1] != "gold-silver"):
        raise BadInput(f"{where}: unknown variant '{name}' (basic, gold-silver, simple, "
                       "advanced, simple+gold-silver, advanced+gold-silver)")
    try:
        return parse_variant(parts[0], len(parts) == 2)
    except BadInput as exc:
        raise BadInput(f"{where}: {exc}") from None
