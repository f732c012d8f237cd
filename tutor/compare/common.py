"""What every part of a comparison shares: the variants asked for, their column names, and
lists in words."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tutor.core.errors import CompareError
from tutor.rules.variant import Variant, load_variant


def load_variants(specs: Sequence[str | Variant]) -> list[Variant]:
    """The variants named, at least two; a spec that cannot be read raises VariantError."""
    if len(specs) < 2:
        raise CompareError("compare needs at least two variants (e.g. 'pagat lancaster')")
    return [load_variant(s) for s in specs]


def column_names(variants: Sequence[Variant]) -> list[str]:
    """One column name per variant: its id, numbered where the same variant comes twice."""
    seen: Counter[str] = Counter()
    out = []
    for v in variants:
        seen[v.id] += 1
        out.append(v.id if seen[v.id] == 1 else f"{v.id} ({seen[v.id]})")
    return out


def and_list(names: Sequence[str]) -> str:
    """``['a', 'b', 'c']`` -> 'a, b and c'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
