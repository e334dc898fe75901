"""Lemma-1 falsifier (AM24.L1): search C1 hinge functions d that vanish on X but have a non-zero
gradient somewhere on X, so that f and g := f + d agree on X while their gradients differ there.

The family: d(x) = c (nu.(x - a)) max(u.(x - a), 0)^p with nu = (-u_y, u_x), p in {2, 3} (so d is
C1), c in {1, 1/2, 2}. Anchors a: both ends of every part of a segment sticking out of the
full-dimensional pieces (u pointing along it), and rational boundary points of every disc or box
(u the outward normal). Everything is decided exactly (sympy rationals; surds only where a
segment leaves a disc, and anchors are moved to rationals):

* d = 0 on a disc or box iff the piece lies in the half-plane H = {u.(x - a) <= 0} (a piece poking
  out of H has interior points with u.(x - a) > 0 off the line nu.(x - a) = 0);
* d = 0 on a segment iff it lies in H or on that line;
* if d = 0 on X and X lies in H, grad d = 0 on X (p >= 2); otherwise some segment lies on the line
  and leaves H, and grad d = c nu max(u.(x - a), 0)^p != 0 at a rational point of it.

found=False is a statement about this family only: a segment attached to F at both ends (a bridge
between two boxes) needs a two-sided bump, which the family does not contain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import sympy as sp

from ..errors import InputError
from ..language.spec import WitnessOutcome
from .regions import Box, Disc, Point, Region, Segment, is_true, named, parse_rational

X, Y = sp.symbols("x y", real=True)
A1, A2, U1, U2 = sp.symbols("a1 a2 u1 u2", real=True)
POWERS = (2, 3)
SCALES = (sp.Integer(1), sp.Rational(1, 2), sp.Integer(2))


CLAIM = "Lemma 1 gradient transfer: grad f = grad g on X"


def hinge_expr(p: int) -> sp.Expr:
    """The member with c = 1 in symbols: (nu.(x - a)) max(u.(x - a), 0)^p, nu = (-u2, u1)."""
    s = U1 * (X - A1) + U2 * (Y - A2)
    return (-U2 * (X - A1) + U1 * (Y - A2)) * sp.Piecewise((s**p, s > 0), (0, True))


@cache
def hinge_gradient(p: int) -> tuple[sp.Expr, sp.Expr]:
    """grad d by sympy diff of the Piecewise, once per p (exact at the kink u.(x - a) = 0)."""
    d = hinge_expr(p)
    return sp.diff(d, X), sp.diff(d, Y)


@cache
def unit_gradient(anchor: Point, direction: Point, p: int) -> tuple[sp.Expr, sp.Expr]:
    """grad d (c = 1) in x, y: the generic gradient with this anchor and direction put in."""
    values = {A1: anchor[0], A2: anchor[1], U1: direction[0], U2: direction[1]}
    gx, gy = hinge_gradient(p)
    return gx.xreplace(values), gy.xreplace(values)


@cache
def unit_gradient_at(anchor: Point, direction: Point, p: int, pt: Point) -> tuple[sp.Expr, ...]:
    """Exact grad d (c = 1) at the point pt (cached: the c variants share it)."""
    return tuple(g.xreplace({X: pt[0], Y: pt[1]}) for g in unit_gradient(anchor, direction, p))


@dataclass(frozen=True)
class Hinge:
    """d(x) = c (normal.(x - anchor)) max(direction.(x - anchor), 0)^p, normal = (-u_y, u_x)."""

    anchor: Point
    direction: Point
    p: int
    c: sp.Rational

    @property
    def normal(self) -> Point:
        return -self.direction[1], self.direction[0]

    def along(self, pt: Point) -> sp.Expr:
        """u.(pt - a): d vanishes where this is <= 0."""
        return self.direction[0] * (pt[0] - self.anchor[0]) \
            + self.direction[1] * (pt[1] - self.anchor[1])

    def across(self, pt: Point) -> sp.Expr:
        """nu.(pt - a): d vanishes on the line where this is 0."""
        return self.normal[0] * (pt[0] - self.anchor[0]) + self.normal[1] * (pt[1] - self.anchor[1])

    def gradient_at(self, pt: Point) -> tuple[sp.Expr, ...]:
        """Exact grad d at pt; d is linear in c, so it is c times the c = 1 gradient."""
        return tuple(self.c * g for g in unit_gradient_at(self.anchor, self.direction, self.p, pt))

    def formula(self) -> str:
        """Human-readable formula for reports (never parsed back)."""
        coef = "" if self.c == 1 else f"{self.c}*"
        return (f"{coef}({sp.sstr(sp.expand(self.across((X, Y))))})"
                f"*max({sp.sstr(sp.expand(self.along((X, Y))))}, 0)^{self.p}")


def _pair(pt: Point) -> str:
    return f"{pt[0]},{pt[1]}"


def _scaled(w: Point) -> Point:
    """w / max(|w_x|, |w_y|): the same direction with rational, readable entries."""
    m = sp.Max(abs(w[0]), abs(w[1]))
    return w[0] / m, w[1] / m


def _rational_near(end: sp.Expr, other: sp.Expr) -> sp.Rational:
    """``end`` if rational, else a dyadic rational strictly between ``end`` and ``other``."""
    if end.is_Rational:
        return end
    step = sp.ceiling if is_true(other > end) else sp.floor
    k = 1
    while True:
        r = step(end * 2**k) / 2**k
        if is_true((r - end) * (other - r) > 0):
            return r
        k += 1


def _numbers(piece: Box | Disc | Segment) -> list[sp.Expr]:
    if isinstance(piece, Box):
        return [piece.x0, piece.x1, piece.y0, piece.y1]
    if isinstance(piece, Disc):
        return [piece.cx, piece.cy, piece.r]
    return [*piece.p, *piece.q]


def _check_rational(region: Region) -> None:
    if not all(v.is_Rational for piece in region.pieces for v in _numbers(piece)):
        raise InputError("region", "pieces with rational data (witnesses are rational)",
                         region.name)


def _family(anchors: list[tuple[Point, Point]]) -> list[Hinge]:
    return [Hinge(a, u, p, c) for a, u in anchors for p in POWERS for c in SCALES]


def segment_anchors(region: Region, excess: list[tuple[int, sp.Expr, sp.Expr]]
                    ) -> list[tuple[Point, Point]]:
    """(a, u) at both ends of every excess part (``region.excess_intervals()``) of a segment, u
    pointing into that part; an irrational end is moved to a nearby rational point inside."""
    out = []
    for k, t0, t1 in excess:
        seg = region.pieces[k]
        u = _scaled(seg.w)
        out.append((seg.at(_rational_near(t0, t1)), u))
        out.append((seg.at(_rational_near(t1, t0)), (-u[0], -u[1])))
    return out


def boundary_anchors(region: Region) -> list[tuple[Point, Point]]:
    """(a, u): rational boundary points of every disc and box with the outward normal u."""
    out: list[tuple[Point, Point]] = []
    axes = [(sp.Integer(1), sp.Integer(0)), (sp.Integer(0), sp.Integer(1)),
            (sp.Integer(-1), sp.Integer(0)), (sp.Integer(0), sp.Integer(-1))]
    for piece in region.full():
        if isinstance(piece, Disc):
            out += list(zip(piece.axis_points(), axes, strict=True))
            continue
        cx, cy = piece.center()
        mids = [(piece.x1, cy), (cx, piece.y1), (piece.x0, cy), (cx, piece.y0)]
        out += list(zip(mids, axes, strict=True))
        out += [(c, _scaled((c[0] - cx, c[1] - cy))) for c in piece.corners()]
    return out


def in_halfplane(piece: Box | Disc | Segment, h: Hinge) -> bool:
    """The piece lies in H = {u.(x - a) <= 0}, decided exactly."""
    if isinstance(piece, Disc):
        m = -h.along((piece.cx, piece.cy))
        norm2 = h.direction[0] ** 2 + h.direction[1] ** 2
        return is_true(m >= 0) and is_true(m**2 >= piece.r**2 * norm2)
    ends = piece.corners() if isinstance(piece, Box) else [piece.p, piece.q]
    return all(is_true(h.along(e) <= 0) for e in ends)


def vanishes_on(piece: Box | Disc | Segment, h: Hinge) -> bool:
    """d = 0 on the piece (necessary and sufficient, see the module docstring)."""
    if in_halfplane(piece, h):
        return True
    return isinstance(piece, Segment) and h.across(piece.p) == 0 and h.across(piece.q) == 0


def segment_witness(seg: Segment, h: Hinge) -> Point:
    """A rational point of a segment on the line and not in H, with u.(x - a) > 0."""
    s_p, s_q = h.along(seg.p), h.along(seg.q)
    if is_true(s_p > 0) and is_true(s_q > 0):
        return seg.at(sp.Rational(1, 2))
    zero = s_p / (s_p - s_q)
    return seg.at((zero + (1 if is_true(s_q > 0) else 0)) / 2)


def probe_points(region: Region, h: Hinge) -> list[Point]:
    """Anchor, probe points of every piece, and a witness on every segment that leaves H."""
    pts = [h.anchor] + [pt for piece in region.pieces for pt in piece.probe_points()]
    pts += [segment_witness(s, h) for s in region.pieces
            if isinstance(s, Segment) and not in_halfplane(s, h)]
    return list(dict.fromkeys(pts))


def judge(region: Region, h: Hinge) -> tuple[str, Point | None, tuple[sp.Expr, sp.Expr] | None]:
    """'nonzero' (d != 0 on some piece), 'found' (d = 0 on X, grad d(point) != 0) or 'flat'."""
    if not all(vanishes_on(piece, h) for piece in region.pieces):
        return "nonzero", None, None
    for pt in probe_points(region, h):
        grad = h.gradient_at(pt)
        if any(g != 0 for g in grad):
            return "found", pt, grad
    return "flat", None, None


def _witness(region: Region, h: Hinge, pt: Point, grad: tuple[sp.Expr, sp.Expr]) -> dict[str, str]:
    return {"region": region.name, "d": h.formula(), "anchor": _pair(h.anchor),
            "direction": _pair(h.direction), "normal": _pair(h.normal), "p": str(h.p),
            "c": str(h.c), "point": _pair(pt), "grad": _pair(grad)}


def _how_found(pt: Point, grad: tuple[sp.Expr, sp.Expr]) -> str:
    return ("exact (sympy rationals): every disc/box lies in the half-plane u.(x-a) <= 0 and every "
            "segment lies there or on the line nu.(x-a) = 0, so d = 0 on X and g = f + d equals f "
            f"on X; at the point ({_pair(pt)}) of X, grad d = ({_pair(grad)}) != 0")


HOW_EMPTY = ("exact (sympy rationals): every candidate is non-zero on some piece of X, or vanishes "
             "on X with X inside u.(x-a) <= 0 where grad d = 0 identically (p >= 2); sympy "
             "evaluated grad d = 0 at the anchor and at the probe points of every piece")


def _outcome(found: bool, effort: str, witness: dict[str, str] | None, how: str,
             data: dict[str, Any] | None = None) -> WitnessOutcome:
    """Every decision here is exact (sympy rationals), so a found witness is certified; ``data`` is its
    kernel certificate (:func:`certificate_data`)."""
    return WitnessOutcome(found, effort, witness, how, found, CLAIM, data)


def certificate_data(region: Region, h: Hinge, pt: Point, grad: tuple[sp.Expr, sp.Expr]) -> dict[str, Any]:
    """The kernel's ``hinge-vanishing`` data (docs/trust.md): the region's pieces, the hinge, the point
    and the gradient, every number an exact rational string."""
    def q(v: Any) -> str:
        return str(sp.Rational(v))

    pieces: list[dict[str, Any]] = []
    for piece in region.pieces:
        if isinstance(piece, Disc):
            pieces.append({"disc": [q(piece.cx), q(piece.cy), q(piece.r)]})
        elif isinstance(piece, Box):
            pieces.append({"box": [q(piece.x0), q(piece.x1), q(piece.y0), q(piece.y1)]})
        else:
            pieces.append({"segment": [[q(v) for v in piece.p], [q(v) for v in piece.q]]})
    return {"kind": "hinge-vanishing", "region": region.name, "pieces": pieces,
            "anchor": [q(v) for v in h.anchor], "direction": [q(v) for v in h.direction], "p": h.p,
            "c": q(h.c), "point": [q(v) for v in pt], "grad": [q(v) for v in grad]}


def search_region(region: Region) -> WitnessOutcome:
    """Try the hinge family on ``region`` in a fixed order; stop at the first witness."""
    _check_rational(region)
    excess = region.excess_intervals()
    seg, bnd = _family(segment_anchors(region, excess)), _family(boundary_anchors(region))
    seg_pieces = sorted({k for k, _, _ in excess})
    bnd_pieces = [k for k, p in enumerate(region.pieces) if p.dim == 2]
    family = (f"hinge candidates tried (p in {POWERS}, c in (1, 1/2, 2)): {len(seg)} on excess "
              f"segments of pieces {seg_pieces}, {len(bnd)} at boundary points of pieces "
              f"{bnd_pieces}")
    counts = {"nonzero": 0, "flat": 0}
    for tried, h in enumerate(seg + bnd, 1):
        verdict, pt, grad = judge(region, h)
        if verdict == "found":
            effort = f"{tried} of {len(seg) + len(bnd)} {family}"
            witness = _witness(region, h, pt, grad)
            return _outcome(True, effort, witness, _how_found(pt, grad),
                            certificate_data(region, h, pt, grad))
        counts[verdict] += 1
    effort = (f"{len(seg) + len(bnd)} of {len(seg) + len(bnd)} {family}; {counts['nonzero']} "
              f"non-zero on X, {counts['flat']} zero on X with zero gradient on X")
    return _outcome(False, effort, None, HOW_EMPTY)


def falsify(params: Mapping[str, Any]) -> WitnessOutcome:
    """The theorem's falsifier: the search on the named region ``params['region']``."""
    return search_region(named(params.get("region", ""), "parameter region"))


def _field(witness: Mapping[str, str], key: str) -> str:
    if key not in witness:
        raise InputError(f"witness.{key}", "present")
    if not isinstance(witness[key], str):
        raise InputError(f"witness.{key}", "a string", witness[key])
    return witness[key]


def _parse_pair(witness: Mapping[str, str], key: str) -> Point:
    parts = _field(witness, key).split(",")
    if len(parts) != 2:
        raise InputError(f"witness.{key}", "two rationals 'x,y'", witness[key])
    return parse_rational(parts[0], f"witness.{key}"), parse_rational(parts[1], f"witness.{key}")


def _parse_hinge(witness: Mapping[str, str]) -> Hinge:
    anchor, direction = _parse_pair(witness, "anchor"), _parse_pair(witness, "direction")
    if direction == (0, 0):
        raise InputError("witness.direction", "a non-zero vector", witness["direction"])
    text = _field(witness, "p").strip()
    if text not in tuple("23456789"):
        raise InputError("witness.p", "an integer 2..9 (d must be C1)", text)
    c = parse_rational(_field(witness, "c"), "witness.c")
    if c == 0:
        raise InputError("witness.c", "a non-zero rational", witness["c"])
    return Hinge(anchor, direction, int(text), c)


#: the fields of a witness, in the order :func:`_witness` writes them
WITNESS_KEYS = ("region", "d", "anchor", "direction", "normal", "p", "c", "point", "grad")


def replay(witness: Mapping[str, str]) -> WitnessOutcome:
    """Rebuild d from the witness's inputs (region, anchor, direction, p, c, point; rationals parsed,
    never evaluated), recompute every field it determines (normal, d, grad, and the canonical form of
    the inputs) and raise InputError naming the first stored field that differs, then re-decide
    exactly on the named region. A witness that is consistent but no longer a counterexample returns
    found=False with the reason."""
    if not isinstance(witness, Mapping):
        raise InputError("witness", "a mapping of strings", type(witness).__name__)
    for key in witness:
        if key not in WITNESS_KEYS:
            raise InputError(f"witness.{key}", "no such field (a witness has " + ", ".join(WITNESS_KEYS)
                             + ")", witness[key])
    region = named(_field(witness, "region"), "witness.region")
    h, pt = _parse_hinge(witness), _parse_pair(witness, "point")
    grad = h.gradient_at(pt)
    recomputed = _witness(region, h, pt, grad)
    for key in WITNESS_KEYS:
        if _field(witness, key) != recomputed[key]:
            raise InputError(f"witness.{key}", f"the recomputed value {recomputed[key]!r}", witness[key])
    effort = "1 candidate replayed"
    if not region.contains(pt):
        return _outcome(False, effort, None, f"exact: ({_pair(pt)}) is not a point of X")
    if not all(vanishes_on(piece, h) for piece in region.pieces):
        return _outcome(False, effort, None, "exact: d is non-zero on some piece of X")
    if all(g == 0 for g in grad):
        return _outcome(False, effort, None, f"exact: grad d = 0 at ({_pair(pt)})")
    return _outcome(True, effort, recomputed, _how_found(pt, grad), certificate_data(region, h, pt, grad))


@dataclass(frozen=True)
class Lemma1Falsifier:
    """What AM24.L1's ``falsifier`` holds: called like :func:`falsify`, with the ``search`` and
    ``replay`` methods that the falsify and replay engines call."""

    def __call__(self, params: Mapping[str, Any]) -> WitnessOutcome:
        return falsify(params)

    def search(self, params: Mapping[str, Any]) -> WitnessOutcome:
        return falsify(params)

    def replay(self, witness: Mapping[str, str]) -> WitnessOutcome:
        return replay(witness)


FALSIFIER = Lemma1Falsifier()
