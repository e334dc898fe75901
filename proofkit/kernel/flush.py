"""Flush certificates: one limit transformer at p bits on a stated string, under a stated flush rule,
does not do what a statement about finite precision says it does (INL25.P37c, INL25.TASKSc).

The model, its string and its forward pass are :mod:`.limit`'s (Izzo, Nichani & Lee 2025, Sec. 3.1-3.2);
the flush rule is ``inclusive`` (a term N^-g <= 2^-p is set to 0, the paper's rule) or ``strict``
(< 2^-p), decided by the integer comparison N^u >= 2^(p v) (> for strict) for g = u/v. One statement:

* ``hardmax``: the flushed softmax at the last query is not a hardmax although N >= 2^(p/(d gamma)).
  The kernel derives the logit margin gamma from the model by its definition (Sec. 3.2, D3.4-D3.6: the
  logit set of a query token y at a residue i mod Delta is {A_(y,i),(z,i-k) + phi(k) : z, k = 0..tau},
  A the key-query product; ``literal`` pairs the key token with the query's position vector as printed,
  ``forward`` with its own, ``completed`` adds the far keys {A_(y,i),(z,j) : z, j mod Delta} without bias;
  gamma the smallest positive difference of ``all`` pairs of a set, or of its largest logit against each
  other (``max-vs-rest``), over every y and i; +inf when no set has two values), checks N^u >= 2^(p v)
  for d gamma = u/v, and finds the smallest positive gap g = max a - a_j among the string's keys: it must
  be the stored one and its term must survive the flush (a larger gap's term is flushed first), so a
  key below the maximum keeps weight.
* ``task``: the output of the ModPTask construction differs from the ModPTask target. The kernel's
  forward pass at p under the rule gives the output (exact Fractions; a surviving irrational term is
  not re-checkable), which must equal the stored one; the target, the fraction of ones at the positions
  t = 1..N with t = k (mod period), is re-derived and must be defined, equal the stored one and differ
  from the output. With ``c`` stated, N >= 2^(p/c) (N^u >= 2^(p v), c = u/v) too.

Data: kind, model (:mod:`.limit`'s fields), p (>= 1), rule, string ({"tokens"} or, for the hardmax
statement, {"prefix", "suffix"}), and hardmax {logits, pairs, divisor, gamma ("infinity" or exact), gap}
or task {period, k, output, target, optional c}.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from . import limit
from .core import NotRechecked, Reject, fields, figure, integer, number

RULES = ("inclusive", "strict")
LOGITS = ("completed", "forward", "literal")
PAIRS = ("all", "max-vs-rest")


def gamma(m: dict[str, Any], logits: str, pairs: str) -> Fraction | None:
    """The margin of D3.6 under the reading (None: +inf); Delta = the rows of P, tau = len(phi) - 1."""
    delta, tau = len(m["P"]), len(m["phi"]) - 1

    def entry(y: str, i: int, z: str, j: int, literal: bool) -> Fraction:
        key = [e + q for e, q in zip(m["E"][z], m["P"][i % delta])] if literal else limit._y(m, z, j)
        qry = [e + q for e, q in zip(m["E"][y], m["P"][j % delta])] if literal else limit._y(m, y, i)
        return limit._dot(limit._mv(m["K"], key), limit._mv(m["Q"], qry))

    best = None
    for y in sorted(m["E"]):
        for i in range(delta):
            vals = {entry(y, i, z, i - k, logits == "literal") + m["phi"][k] for z in m["E"]
                    for k in range(tau + 1)}
            if logits == "completed":
                vals |= {entry(y, i, z, j, False) for z in m["E"] for j in range(delta)}
            vals = sorted(vals)
            if len(vals) < 2:
                continue
            g = min(b - a for a, b in zip(vals, vals[1:])) if pairs == "all" else vals[-1] - vals[-2]
            best = g if best is None or g < best else best
    return best


def _hardmax(m: dict[str, Any], keys: list[Any], n: int, query: Any, p: int, strict: bool,
             h: dict[str, Any]) -> str:
    h = fields(h, "data.hardmax", ["logits", "pairs", "divisor", "gamma", "gap"])
    if h["logits"] not in LOGITS or h["pairs"] not in PAIRS:
        raise Reject("data.hardmax", f"expected logits in {', '.join(LOGITS)}, pairs in {', '.join(PAIRS)}")
    if not limit.standard(m):
        raise Reject("data.model", "the margin is defined for periodic, local, translation-invariant models")
    divisor = integer(h["divisor"], "data.hardmax.divisor", 1, 1 << 16)
    own = gamma(m, h["logits"], h["pairs"])
    stored = None if h["gamma"] == "infinity" else number(h["gamma"], "data.hardmax.gamma")
    if stored != own:
        raise Reject("data.hardmax.gamma", f"{h['gamma']}, the kernel derives {own or 'infinity'}")
    if own is not None and not limit.flushed(n, divisor * own, p):
        raise Reject("data.string", f"length {n} is below the threshold 2^(p/(d gamma)) = "
                                    f"2^({p}/({divisor * own}))")
    a = limit.scores(m, keys, n, query)
    top = max(a)
    below = [top - v for v in a if v < top]
    if not below:
        raise Reject("data.hardmax.gap", "every key attains the maximal logit: the softmax is a hardmax")
    gap = min(below)
    if number(h["gap"], "data.hardmax.gap") != gap:
        raise Reject("data.hardmax.gap", f"{h['gap']}, the smallest gap below the maximum is {gap}")
    if limit.flushed(n, gap, p, strict):
        raise Reject("data.hardmax.gap", f"N^-({gap}) at N = {n} is flushed at p = {p}: a hardmax")
    thr = "1" if own is None else f"2^({p}/({divisor * own}))"
    return (f"gamma = {own or 'infinity'} ({h['logits']} logit sets, {h['pairs']} pairs), N = {n} >= {thr}; "
            f"a key {gap} below the maximal logit keeps N^-({gap}) (the "
            f"{'strict' if strict else 'inclusive'} flush at p = {p} does not zero it): not a hardmax")


def _task(m: dict[str, Any], keys: list[Any], n: int, query: Any, p: int, strict: bool, x: str,
          t: dict[str, Any]) -> str:
    t = fields(t, "data.task", ["period", "k", "output", "target"], ["c"])
    period = integer(t["period"], "data.task.period", 1, 1 << 16)
    k = integer(t["k"], "data.task.k", 0, 1 << 16)
    if "c" in t:
        c = number(t["c"], "data.task.c")
        if c <= 0 or not limit.flushed(n, c, p):
            raise Reject("data.task.c", f"length {n} is below the threshold 2^(p/c) = 2^({p}/{figure(c)})")
    out = limit.evaluate(m, keys, n, query, p, strict)
    if not isinstance(out, Fraction):
        raise NotRechecked("a surviving attention term is irrational (the output is not exact)")
    if number(t["output"], "data.task.output") != out:
        raise Reject("data.task.output", f"{t['output']}, the kernel's forward pass gives {out}")
    picked = [s for pos, s in enumerate(x, 1) if (pos - k) % period == 0]
    if not picked or set(x) - {"0", "1"}:
        raise Reject("data.string", "expected a 0/1 string with a position t = k (mod period)")
    target = Fraction(picked.count("1"), len(picked))
    if number(t["target"], "data.task.target") != target:
        raise Reject("data.task.target", f"{t['target']}, the ModPTask target is {target}")
    if out == target:
        raise Reject("data.task.output", f"{out} equals the target: no counterexample")
    return (f"output {out} at the last position of {x} (length {n}, p = {p}, "
            f"{'strict' if strict else 'inclusive'} flush) differs from the ModPTask target {target} "
            f"(period {period}, k = {k})")


def check_flush(data: Any) -> str:
    """Re-derive the statement (``hardmax`` or ``task``) from the model, the string, p and the rule."""
    d = fields(data, "data", ["kind", "model", "p", "rule", "string"], ["hardmax", "task"])
    if ("hardmax" in d) == ("task" in d):
        raise Reject("data", "expected exactly one statement: hardmax or task")
    m = limit.parse_model(d["model"], "data.model")
    p = integer(d["p"], "data.p", 1, limit.MAX_P)
    if d["rule"] not in RULES:
        raise Reject("data.rule", f"expected one of {', '.join(RULES)}")
    keys, n, query, x = limit.parse_string(d["string"], [m])
    if "hardmax" in d:
        return _hardmax(m, keys, n, query, p, d["rule"] == "strict", d["hardmax"])
    if "tokens" not in d["string"]:
        raise Reject("data.string", "the task statement needs the tokens")
    return _task(m, keys, n, query, p, d["rule"] == "strict", x, d["task"])


def tie_witness(rec: dict[str, Any], data: dict[str, Any]) -> None:
    """A flush certificate is about its witness record: the string, precision and rule are the witness's
    (and the rule the record's params'); a hardmax statement's model, readings, divisor, gamma, gap and
    length are the witness's (readings and divisor also the params'); a task statement's period, k,
    output and target are the witness's, the model's Delta is the period, and c is stated exactly when
    the record searched from the threshold (then the witness's c)."""
    w, params = rec.get("witness") or {}, rec.get("params") or {}
    if rec.get("kind") != "witness":
        raise Reject("certificate.data", "a flush certificate belongs to a witness record")
    tokens = data["string"].get("tokens")
    if tokens != w.get("string"):
        raise Reject("certificate.data.string", "the string differs from the witness's string")
    if data["rule"] != w.get("rule") or data["rule"] != params.get("rule"):
        raise Reject("certificate.data.rule", f"{data['rule']}, the record says {w.get('rule')}")
    if "hardmax" in data:
        h = data["hardmax"]
        if json.loads(w.get("model", "null")) != data["model"]:
            raise Reject("certificate.data.model", "the model differs from the witness's model")
        for key, mine in (("p", str(data["p"])), ("logits", h["logits"]), ("pairs", h["pairs"]),
                          ("divisor", str(h["divisor"])), ("gamma", h["gamma"]), ("gap", h["gap"]),
                          ("N", str(len(tokens)))):
            if w.get(key) != ("inf" if mine == "infinity" else mine):
                raise Reject(f"certificate.data.hardmax.{key}", f"{mine}, the witness says {w.get(key)}")
        for key in ("logits", "pairs", "divisor"):
            if str(params.get(key)) != str(h[key]):
                raise Reject(f"certificate.data.hardmax.{key}", f"{h[key]}, the params say {params.get(key)}")
        return
    t = data["task"]
    for key, mine in (("bits", str(data["p"])), ("period", str(t["period"])), ("k", str(t["k"])),
                      ("output", t["output"]), ("target", t["target"])):
        if w.get(key) != mine:
            raise Reject(f"certificate.data.task.{key}", f"{mine}, the witness says {w.get(key)}")
    if len(data["model"]["P"]) != t["period"]:
        raise Reject("certificate.data.model.P", f"Delta = {len(data['model']['P'])}, not the period")
    if ("c" in t) != (params.get("start") == "threshold") or ("c" in t and t["c"] != w.get("c")):
        raise Reject("certificate.data.task.c", f"{t.get('c')}: the record searched from "
                                                f"{params.get('start')} with c = {w.get('c')}")
