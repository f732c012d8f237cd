"""Random variants: a preset with some slots changed to other fragments, all compatible.

Used by the conformance tests (every combination must play clean games) and by the
comparison tools. Seeded: the same seed gives the same combinations.
"""

from __future__ import annotations

import random

from tutor.core.errors import VariantError
from tutor.rules.variant import Variant, build_variant, fragment_catalogue, preset_catalogue

# slots whose fragments depend on a deal of their own; changing them alone makes no sense
_FIXED = {"core"}


def random_variants(n: int, seed: int = 0, *, changes: int = 3) -> list[Variant]:
    """``n`` distinct, valid variants, each a preset with up to ``changes`` slots replaced."""
    rng = random.Random(seed)
    presets = sorted(preset_catalogue())
    by_slot: dict[str, list[str]] = {}
    for f in fragment_catalogue().values():
        if f.slot not in _FIXED:
            by_slot.setdefault(f.slot, []).append(f.id)
    slots = sorted(by_slot)
    out: list[Variant] = []
    seen: set[str] = set()
    tries = 0
    while len(out) < n and tries < n * 50:
        tries += 1
        base = rng.choice(presets)
        picks = {}
        for slot in rng.sample(slots, rng.randint(1, changes)):
            picks[slot] = rng.choice(sorted(by_slot[slot]))
        try:
            v = build_variant(base, sorted(picks.values()))
        except VariantError:
            continue
        if v.id in seen:
            continue
        seen.add(v.id)
        out.append(v)
    return out
