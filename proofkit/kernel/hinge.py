"""Hinge-vanishing certificates (AM24 Lemma 1 without regular closedness): a C^1 function
d(x) = c (nu.(x - a)) max(u.(x - a), 0)^p, nu = (-u_y, u_x), p >= 2, vanishes on a planar region X (a
union of discs, boxes and segments) while its gradient at a point of X is not zero.

Re-derived in exact rationals from the data alone: every disc and box lies in the half-plane
u.(x - a) <= 0 (a disc: u.(c - a) <= 0 and (u.(c - a))^2 >= r^2 |u|^2; a box: its four corners), and
every segment lies there (both ends) or on the line nu.(x - a) = 0 (both ends), so d = 0 on X; the point
lies in some piece; the gradient there, c (M^p nu + p (nu.(x - a)) M^(p-1) u) with M = u.(x - a) > 0 (zero
where M <= 0, p >= 2), equals the stored one and is not zero. The region's pieces are the theorem's
region (a premise read from the data, named by the record)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .core import Reject, fields, integer, number, vector

Point = tuple[Fraction, Fraction]


def _point(value: Any, field: str) -> Point:
    x, y = vector(value, field, 2)
    return x, y


def _dot(u: Point, v: Point) -> Fraction:
    return u[0] * v[0] + u[1] * v[1]


def _sub(u: Point, v: Point) -> Point:
    return u[0] - v[0], u[1] - v[1]


def _pieces(value: Any) -> list[tuple[str, Any]]:
    """[(kind, geometry)]: {"disc": [cx, cy, r]}, {"box": [x0, x1, y0, y1]}, {"segment": [[px, py],
    [qx, qy]]}, exact and non-degenerate."""
    if not isinstance(value, list) or not value:
        raise Reject("data.pieces", "expected a non-empty list of discs, boxes and segments")
    out = []
    for i, piece in enumerate(value):
        at = f"data.pieces[{i}]"
        if not isinstance(piece, dict) or len(piece) != 1:
            raise Reject(at, "expected {disc: [cx, cy, r]}, {box: [x0, x1, y0, y1]} or {segment: [p, q]}")
        (kind, geo), = piece.items()
        if kind == "disc":
            cx, cy, r = vector(geo, f"{at}.disc", 3)
            if r <= 0:
                raise Reject(f"{at}.disc", "expected a positive radius")
            out.append((kind, ((cx, cy), r)))
        elif kind == "box":
            x0, x1, y0, y1 = vector(geo, f"{at}.box", 4)
            if not (x0 < x1 and y0 < y1):
                raise Reject(f"{at}.box", "expected x0 < x1 and y0 < y1")
            out.append((kind, (x0, x1, y0, y1)))
        elif kind == "segment":
            if not isinstance(geo, list) or len(geo) != 2:
                raise Reject(f"{at}.segment", "expected two end points")
            p, q = _point(geo[0], f"{at}.segment[0]"), _point(geo[1], f"{at}.segment[1]")
            if p == q:
                raise Reject(f"{at}.segment", "expected distinct end points")
            out.append((kind, (p, q)))
        else:
            raise Reject(at, f"expected disc, box or segment, got {kind[:40]!r}")
    return out


def _contains(kind: str, geo: Any, x: Point) -> bool:
    if kind == "disc":
        (c, r) = geo
        d = _sub(x, c)
        return _dot(d, d) <= r * r
    if kind == "box":
        x0, x1, y0, y1 = geo
        return x0 <= x[0] <= x1 and y0 <= x[1] <= y1
    p, q = geo
    w, v = _sub(q, p), _sub(x, p)
    return w[0] * v[1] - w[1] * v[0] == 0 and 0 <= _dot(v, w) <= _dot(w, w)


def check_hinge(data: Any) -> str:
    """Re-derive a hinge-vanishing certificate (module docstring); Reject names the field that fails."""
    d = fields(data, "data", ["kind", "region", "pieces", "anchor", "direction", "p", "c", "point", "grad"])
    pieces = _pieces(d["pieces"])
    a, u = _point(d["anchor"], "data.anchor"), _point(d["direction"], "data.direction")
    if u == (0, 0):
        raise Reject("data.direction", "expected a non-zero vector")
    p, c = integer(d["p"], "data.p", 2, 9), number(d["c"], "data.c")
    if c == 0:
        raise Reject("data.c", "expected a non-zero constant")
    nu = (-u[1], u[0])
    for i, (kind, geo) in enumerate(pieces):
        at = f"data.pieces[{i}].{kind}"
        if kind == "disc":
            (centre, r) = geo
            s = _dot(u, _sub(centre, a))
            if not (s <= 0 and s * s >= r * r * _dot(u, u)):
                raise Reject(at, f"the disc leaves the half-plane u.(x - a) <= 0 (u.(c - a) = {s}, r = {r})")
        elif kind == "box":
            x0, x1, y0, y1 = geo
            worst = max(_dot(u, _sub((x, y), a)) for x in (x0, x1) for y in (y0, y1))
            if worst > 0:
                raise Reject(at, f"a corner has u.(x - a) = {worst} > 0, where d need not vanish")
        else:
            ends = geo
            inside = all(_dot(u, _sub(e, a)) <= 0 for e in ends)
            on_line = all(_dot(nu, _sub(e, a)) == 0 for e in ends)
            if not (inside or on_line):
                raise Reject(at, "the segment is neither in the half-plane nor on the line nu.(x - a) = 0")
    x = _point(d["point"], "data.point")
    if not any(_contains(kind, geo, x) for kind, geo in pieces):
        raise Reject("data.point", f"({x[0]}, {x[1]}) is no point of the region")
    m, across = _dot(u, _sub(x, a)), _dot(nu, _sub(x, a))
    grad = (Fraction(0), Fraction(0)) if m <= 0 else tuple(
        c * (m ** p * nu[k] + p * across * m ** (p - 1) * u[k]) for k in range(2))
    stored = _point(d["grad"], "data.grad")
    if grad != stored:
        raise Reject("data.grad", f"the gradient at the point is ({grad[0]}, {grad[1]}), not "
                                  f"({stored[0]}, {stored[1]})")
    if grad == (0, 0):
        raise Reject("data.grad", "the gradient at the point is zero: no counterexample")
    return (f"d = {c} (nu.(x - a)) max(u.(x - a), 0)^{p} vanishes on all {len(pieces)} pieces of "
            f"{str(d['region'])[:60]} (half-plane or line, exact); grad d({x[0]}, {x[1]}) = "
            f"({grad[0]}, {grad[1]}) != 0")


def tie_witness(rec: dict[str, Any], data: dict[str, Any]) -> None:
    """The certificate's region, hinge, point and gradient are the record's witness's."""
    w = rec.get("witness") or {}
    pairs = {"anchor": "anchor", "direction": "direction", "point": "point", "grad": "grad"}
    for key, wkey in pairs.items():
        given = [str(v) for v in data.get(key, [])]
        if ",".join(given) != w.get(wkey) and _norm(given) != _norm(str(w.get(wkey, "")).split(",")):
            raise Reject(f"certificate.data.{key}", f"the record's witness has {str(w.get(wkey))[:60]}")
    if str(data.get("p")) != w.get("p") or _norm([str(data.get("c"))]) != _norm([str(w.get("c"))]):
        raise Reject("certificate.data.p", "the record's witness has another p or c")
    if data.get("region") != w.get("region"):
        raise Reject("certificate.data.region", f"the record's witness names {str(w.get('region'))[:60]}")


def _norm(values: list[str]) -> list[Fraction] | None:
    try:
        return [number(v, "witness") for v in values]
    except Reject:
        return None
