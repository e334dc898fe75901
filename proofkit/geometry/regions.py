"""Closed sets X in R^2 as finite unions of exact pieces: discs and boxes (full-dimensional) and
segments (one-dimensional), with an exact structural test of regular closedness.

Why the test is exact: every closed disc or box is regular closed, so their union F is; segments are
nowhere dense, so int X = int F and cl(int X) = F. Hence X is regular closed iff F is non-empty and
every segment lies in F. The parameters t in [0, 1] of a segment that fall inside one disc or box
form a closed interval with endpoints in Q(sqrt(D)); the segment lies in F iff these intervals
cover [0, 1], which sympy decides with exact algebraic comparisons.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key
from typing import Any

import numpy as np
import sympy as sp

from ..errors import InputError, one_of

Point = tuple[sp.Expr, sp.Expr]
EXACT = "an exact real number (int, Fraction, decimal string such as '3/2', or exact sympy number)"
RATIONAL_TEXT = re.compile(r"[+-]?(\d+/\d+|\d+(\.\d*)?|\.\d+)", re.ASCII)


def parse_rational(text: str, field: str) -> sp.Rational:
    """'3/2', '-0.25', '7' as an exact rational via fractions.Fraction (never evaluated); no
    exponents and at most 64 characters, so a crafted string cannot ask for a huge power of 10."""
    text = text.strip()
    if len(text) > 64 or not RATIONAL_TEXT.fullmatch(text):
        raise InputError(field, "a rational such as '3/2' or '-0.25'", text)
    try:
        return sp.Rational(Fraction(text))
    except ZeroDivisionError:
        raise InputError(field, "a rational with a non-zero denominator", text) from None


def exact(value: Any, field: str) -> sp.Expr:
    """Convert ``value`` to an exact sympy real number; floats are refused (they are not exact)."""
    if isinstance(value, bool):
        raise InputError(field, EXACT, value)
    if isinstance(value, (int, Fraction)):
        return sp.Rational(value)
    if isinstance(value, str):
        return parse_rational(value, field)
    if isinstance(value, sp.Expr) and value.is_number and not value.has(sp.Float):
        if value.is_Rational or (value.is_real and value.is_algebraic):
            return value
    raise InputError(field, EXACT, value)


def exact_point(value: Any, field: str) -> Point:
    """A pair of exact coordinates."""
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise InputError(field, "a pair (x, y) of exact numbers", value)
    return exact(value[0], field + ".x"), exact(value[1], field + ".y")


def is_true(relation: Any) -> bool:
    """Read off an exact comparison of real algebraic numbers; refuse if sympy left it undecided."""
    if relation is True or relation is sp.true:
        return True
    if relation is False or relation is sp.false:
        return False
    raise ArithmeticError(f"sympy could not decide {relation}")


def exact_order(a: sp.Expr, b: sp.Expr) -> int:
    """-1, 0, 1 as a <, =, > b, decided exactly (a sort key for algebraic numbers)."""
    return -1 if is_true(a < b) else int(is_true(a > b))


def _set_exact(obj: Any, names: Sequence[str]) -> None:
    for name in names:
        object.__setattr__(obj, name, exact(getattr(obj, name), f"{type(obj).__name__}.{name}"))


@dataclass(frozen=True)
class Box:
    """The closed axis-aligned box [x0, x1] x [y0, y1] (x0 < x1, y0 < y1): full-dimensional."""

    x0: Any
    x1: Any
    y0: Any
    y1: Any
    dim = 2

    def __post_init__(self) -> None:
        _set_exact(self, ("x0", "x1", "y0", "y1"))
        if not (is_true(self.x0 < self.x1) and is_true(self.y0 < self.y1)):
            raise InputError("Box", "x0 < x1 and y0 < y1", (self.x0, self.x1, self.y0, self.y1))

    def corners(self) -> list[Point]:
        return [(self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1)]

    def center(self) -> Point:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def contains(self, pt: Point) -> bool:
        x, y = pt
        return is_true(sp.And(self.x0 <= x, x <= self.x1, self.y0 <= y, y <= self.y1))

    def probe_points(self) -> list[Point]:
        """Corners and centre."""
        return self.corners() + [self.center()]

    def hit_interval(self, seg: Segment) -> tuple[sp.Expr, sp.Expr] | None:
        """Parameters t in [0, 1] with seg(t) in the box (a closed interval), or None."""
        lo, hi = sp.S.Zero, sp.S.One
        for p, w, a, b in ((seg.p[0], seg.w[0], self.x0, self.x1),
                           (seg.p[1], seg.w[1], self.y0, self.y1)):
            if w == 0:
                if not (is_true(a <= p) and is_true(p <= b)):
                    return None
                continue
            t0, t1 = ((a - p) / w, (b - p) / w) if is_true(w > 0) else ((b - p) / w, (a - p) / w)
            lo, hi = sp.Max(lo, t0), sp.Min(hi, t1)
        return (lo, hi) if is_true(lo <= hi) else None

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        u = rng.random((n, 2))
        x0, x1, y0, y1 = (float(v) for v in (self.x0, self.x1, self.y0, self.y1))
        return np.column_stack((x0 + u[:, 0] * (x1 - x0), y0 + u[:, 1] * (y1 - y0)))

    def describe(self) -> str:
        return f"box [{self.x0}, {self.x1}] x [{self.y0}, {self.y1}]"


@dataclass(frozen=True)
class Disc:
    """The closed disc of centre (cx, cy) and radius r > 0: full-dimensional."""

    cx: Any
    cy: Any
    r: Any
    dim = 2

    def __post_init__(self) -> None:
        _set_exact(self, ("cx", "cy", "r"))
        if not is_true(self.r > 0):
            raise InputError("Disc.r", "a radius > 0", self.r)

    def contains(self, pt: Point) -> bool:
        return is_true((pt[0] - self.cx) ** 2 + (pt[1] - self.cy) ** 2 <= self.r**2)

    def axis_points(self) -> list[Point]:
        """The four boundary points on the axes through the centre: right, top, left, bottom."""
        return [(self.cx + self.r, self.cy), (self.cx, self.cy + self.r),
                (self.cx - self.r, self.cy), (self.cx, self.cy - self.r)]

    def probe_points(self) -> list[Point]:
        """Centre and the four axis points of the boundary circle."""
        return [(self.cx, self.cy)] + self.axis_points()

    def hit_interval(self, seg: Segment) -> tuple[sp.Expr, sp.Expr] | None:
        """Parameters t in [0, 1] with seg(t) in the disc: roots of a quadratic, exact surds."""
        dx, dy = seg.p[0] - self.cx, seg.p[1] - self.cy
        a = seg.w[0] ** 2 + seg.w[1] ** 2
        b = 2 * (seg.w[0] * dx + seg.w[1] * dy)
        c = dx**2 + dy**2 - self.r**2
        disc = b**2 - 4 * a * c
        if is_true(disc < 0):
            return None
        root = sp.sqrt(disc)
        lo, hi = sp.Max(0, (-b - root) / (2 * a)), sp.Min(1, (-b + root) / (2 * a))
        return (lo, hi) if is_true(lo <= hi) else None

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        rad = float(self.r) * np.sqrt(rng.random(n))
        ang = 2 * np.pi * rng.random(n)
        cx, cy = float(self.cx), float(self.cy)
        return np.column_stack((cx + rad * np.cos(ang), cy + rad * np.sin(ang)))

    def describe(self) -> str:
        return f"disc centre ({self.cx}, {self.cy}) radius {self.r}"


@dataclass(frozen=True)
class Segment:
    """The closed segment from p to q (p != q): one-dimensional; seg(t) = p + t (q - p)."""

    p: Any
    q: Any
    dim = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "p", exact_point(self.p, "Segment.p"))
        object.__setattr__(self, "q", exact_point(self.q, "Segment.q"))
        if all(exact_order(a, b) == 0 for a, b in zip(self.p, self.q, strict=True)):
            raise InputError("Segment", "two distinct end points", (self.p, self.q))

    @property
    def w(self) -> Point:
        return self.q[0] - self.p[0], self.q[1] - self.p[1]

    def at(self, t: sp.Expr) -> Point:
        return self.p[0] + t * self.w[0], self.p[1] + t * self.w[1]

    def contains(self, pt: Point) -> bool:
        dx, dy = pt[0] - self.p[0], pt[1] - self.p[1]
        along = dx * self.w[0] + dy * self.w[1]
        return is_true(sp.And(sp.Eq(dx * self.w[1] - dy * self.w[0], 0), along >= 0,
                              along <= self.w[0] ** 2 + self.w[1] ** 2))

    def probe_points(self) -> list[Point]:
        """End points and midpoint."""
        return [self.p, self.at(sp.Rational(1, 2)), self.q]

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        t = rng.random(n)
        return np.column_stack([float(self.p[i]) + t * float(self.w[i]) for i in range(2)])

    def describe(self) -> str:
        return f"segment ({self.p[0]}, {self.p[1]})-({self.q[0]}, {self.q[1]})"


Piece = Box | Disc | Segment


def _merge(intervals: list[tuple[sp.Expr, sp.Expr]]) -> list[tuple[sp.Expr, sp.Expr]]:
    """Union of closed intervals as sorted disjoint closed intervals (touching ones are merged)."""
    merged: list[tuple[sp.Expr, sp.Expr]] = []
    for lo, hi in sorted(intervals, key=cmp_to_key(lambda u, v: exact_order(u[0], v[0]))):
        if merged and is_true(lo <= merged[-1][1]):
            merged[-1] = (merged[-1][0], sp.Max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


@dataclass(frozen=True)
class Region:
    """X = union of ``pieces`` (non-empty, exact); ``name`` identifies it in witnesses."""

    pieces: tuple[Piece, ...]
    name: str

    def __post_init__(self) -> None:
        pieces = tuple(self.pieces) if isinstance(self.pieces, (list, tuple)) else ()
        if not pieces or not all(isinstance(p, (Box, Disc, Segment)) for p in pieces):
            raise InputError("Region.pieces", "a non-empty list of Box, Disc, Segment", self.pieces)
        if not isinstance(self.name, str) or not self.name:
            raise InputError("Region.name", "a non-empty string", self.name)
        object.__setattr__(self, "pieces", pieces)

    def full(self) -> list[Box | Disc]:
        """The full-dimensional pieces; their union F is the closure of the interior of X."""
        return [p for p in self.pieces if p.dim == 2]

    def contains(self, pt: Point) -> bool:
        return any(piece.contains(pt) for piece in self.pieces)

    def excess_intervals(self) -> list[tuple[int, sp.Expr, sp.Expr]]:
        """(piece index, t0, t1): closures of the parameter ranges of segments lying outside F."""
        out = []
        for k, seg in enumerate(self.pieces):
            if seg.dim != 1:
                continue
            hits = [iv for iv in (f.hit_interval(seg) for f in self.full()) if iv is not None]
            start = sp.S.Zero
            for lo, hi in _merge(hits) + [(sp.S.One, sp.S.One)]:
                if is_true(start < lo):
                    out.append((k, start, lo))
                start = sp.Max(start, hi)
        return out

    def lower_dim_excess(self) -> list[Segment]:
        """The parts of segments sticking out of F, clipped to closed sub-segments."""
        return [Segment(self.pieces[k].at(t0), self.pieces[k].at(t1))
                for k, t0, t1 in self.excess_intervals()]

    def is_regular_closed(self) -> tuple[bool, str]:
        """Exact structural decision (see the module docstring) with the reason."""
        if not self.full():
            return False, "no disc or box: the interior of X is empty, X is not its closure"
        excess = self.lower_dim_excess()
        if excess:
            parts = "; ".join(s.describe() for s in excess)
            return False, f"lower-dimensional parts outside the closure of the interior: {parts}"
        return True, "union of closed discs/boxes (each regular closed); every segment lies in it"

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """n points of X as an (n, 2) float array: a piece uniformly, then uniform on it, so the
        sampling measure has support exactly X (segments carry mass: not Lebesgue-continuous)."""
        if not isinstance(rng, np.random.Generator):
            raise InputError("rng", "a numpy.random.Generator", type(rng).__name__)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise InputError("N", "an integer >= 0", n)
        which = rng.integers(len(self.pieces), size=n)
        out = np.empty((n, 2))
        for k, piece in enumerate(self.pieces):
            rows = which == k
            out[rows] = piece.sample(rng, int(rows.sum()))
        return out


def unit_disc() -> Region:
    return Region((Disc(0, 0, 1),), "unit_disc")


def square() -> Region:
    return Region((Box(0, 1, 0, 1),), "square")


def two_boxes_touching_at_corner() -> Region:
    """Regular closed though not convex (and its interior is not connected)."""
    return Region((Box(0, 1, 0, 1), Box(1, 2, 1, 2)), "two_boxes_touching_at_corner")


def disc_with_segment() -> Region:
    """Unit disc plus [1, 2] x {0}; not regular closed (the counterexample to Lemma 1 of Ahuja & Mansouri
    2024 without regular closedness, constructed here, not in the paper)."""
    return Region((Disc(0, 0, 1), Segment((1, 0), (2, 0))), "disc_with_segment")


NAMED: dict[str, Callable[[], Region]] = {
    "unit_disc": unit_disc,
    "square": square,
    "two_boxes_touching_at_corner": two_boxes_touching_at_corner,
    "disc_with_segment": disc_with_segment,
}


def named(name: str, field: str = "region") -> Region:
    """The region built by the named constructor ``name``."""
    if not isinstance(name, str) or name not in NAMED:
        raise one_of(field, NAMED, name)
    return NAMED[name]()
