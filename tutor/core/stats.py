"""Estimates with 95% intervals: the one place the tutor computes them.

Used by the comparison of variants (:mod:`tutor.compare.stats`: how often the first player
loses, game lengths...) and by the advisor (:func:`tutor.advisor.explain.interval`: a move's
chance from its simulations), so both say "95%" about the same thing.

* A proportion carries Wilson's score interval (:func:`wilson`, :func:`wilson_bounds`): unlike
  p ± 1.96·√(p(1-p)/n) it never leaves [0, 1] and is not zero-width at 0 of n or n of n.
* A difference of two proportions carries Newcombe's hybrid score interval (his method 10),
  built from the two Wilson intervals (:func:`proportion_difference`).
* A mean carries the normal approximation, mean ± z·s/√n with s the sample standard deviation
  (:func:`mean_interval`); a difference of two means ± z·√(se₁² + se₂²) (:func:`mean_difference`).

Nothing here knows about cards: plain numbers in, plain numbers out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95% point of the standard normal


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval; ``n`` is the number of observations behind it."""

    value: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        """Plain numbers; ``None`` where there was nothing to measure (JSON has no NaN)."""
        if self.n == 0:
            return {"value": None, "low": None, "high": None, "n": 0}
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}

    def text(self, digits: int = 1, percent: bool = False) -> str:
        if self.n == 0:
            return "n/a"
        k = 100.0 if percent else 1.0
        unit = "%" if percent else ""
        return f"{self.value * k:.{digits}f}{unit} [{self.low * k:.{digits}f}, {self.high * k:.{digits}f}]"


NO_DATA = Interval(math.nan, math.nan, math.nan, 0)


def wilson_bounds(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval around the proportion ``p`` observed over ``n`` trials.

    ``p`` need not be a whole count over ``n`` (the advisor passes a mean of rewards between
    0 and 1, each simulation counted as one trial); it is clamped to [0, 1].

    >>> [round(x, 4) for x in wilson_bounds(0.5, 10)]
    [0.2366, 0.7634]
    """
    if n <= 0:
        return 0.0, 1.0
    p = min(1.0, max(0.0, p))
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson(k: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval for ``k`` successes in ``n`` trials.

    >>> i = wilson(5, 10)
    >>> round(i.low, 4), round(i.high, 4)
    (0.2366, 0.7634)
    """
    if n == 0:
        return NO_DATA
    low, high = wilson_bounds(k / n, n, z)
    return Interval(k / n, low, high, n)


def mean_interval(xs: Sequence[float], z: float = Z95) -> Interval:
    """The mean with the normal-approximation interval, mean ± z·s/√n (s: sample sd)."""
    n = len(xs)
    if n == 0:
        return NO_DATA
    m = sum(xs) / n
    if n == 1:
        return Interval(m, m, m, 1)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = z * math.sqrt(var / n)
    return Interval(m, m - half, m + half, n)


def mean_difference(a: Interval, b: Interval, z: float = Z95) -> Interval:
    """``b - a`` for two means from independent samples, each interval read back as its se."""
    if a.n == 0 or b.n == 0:
        return NO_DATA
    se_a, se_b = (a.high - a.value) / z, (b.high - b.value) / z
    d = b.value - a.value
    half = z * math.sqrt(se_a ** 2 + se_b ** 2)
    return Interval(d, d - half, d + half, min(a.n, b.n))


def proportion_difference(a: Interval, b: Interval) -> Interval:
    """``b - a`` for two proportions: Newcombe's hybrid score interval from their Wilson intervals."""
    if a.n == 0 or b.n == 0:
        return NO_DATA
    d = b.value - a.value
    low = d - math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    high = d + math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    return Interval(d, low, high, min(a.n, b.n))


def separated(diff: float, se_a: float, se_b: float, z: float = Z95) -> bool:
    """Is a difference between two independent estimates larger than z combined standard errors?"""
    return diff > z * math.sqrt(se_a ** 2 + se_b ** 2)


__all__ = ["NO_DATA", "Z95", "Interval", "mean_difference", "mean_interval", "proportion_difference",
           "separated", "wilson", "wilson_bounds"]
