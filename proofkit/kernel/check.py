"""Dispatch: a certificate by its kind, a record (its certificate, tied to the record's own fields), a
bundle (every record it carries and every claim's certificate), a file (either).

A certificate is CHECKED only when the kernel re-derived what it states from its data; a kind the kernel
does not know, or a certified record without structured data, is NOT_RECHECKED with the reason, never
checked. Any failure to evaluate the data (a malformed field, a division by zero) is FAILED.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import flint

from . import closed_form, crasp, enumeration, flush, growth, hinge, identity, krawczyk, limit, linear, pooled
from .core import (
    CHECKED,
    FAILED,
    NONE,
    NOT_RECHECKED,
    KernelInputError,
    NotRechecked,
    Reject,
    Result,
    ball,
    escape,
    figure,
    matrix,
    number,
    precision,
    read_json,
    upper_bound,
)
from .models import INJECTIVE, activation, balls, convert, logits, parse_model, refill

RECORD_FORMAT = "proofkit-counterexample/"
#: significant digits to which the kernel's evaluation must match a record's test discrepancy (proofkit
#: writes 20; the kernel computes exactly or in 80-digit balls)
DISCREPANCY_DIGITS = 15
BUNDLE_FORMAT = "proofkit-bundle/2"
#: errors that evaluating malformed data can raise: the certificate then fails, it is never checked
_EVAL_ERRORS = (ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError)


def _krawczyk(data: Any) -> str:
    return krawczyk.check_krawczyk(data)[0]


#: certificate kind -> the kernel's re-check of it (returns the figures re-derived; raises Reject on failure)
KINDS: dict[str, Callable[[Any], str]] = {
    "rational-learner": linear.check_rational_learner,
    "krawczyk": _krawczyk,
    "ball-bound": linear.check_ball_bound,
    "identity": identity.check_identity,
    "pooled-exact": pooled.check_pooled,
    "enumeration": enumeration.check_enumeration,
    "limit-transformer": limit.check_limit,
    "network-disagreement": crasp.check_network_disagreement,
    "closed-form-witness": closed_form.check_closed_form,
    "hinge-vanishing": hinge.check_hinge,
    "growth": growth.check_growth,
    "flush": flush.check_flush,
}


#: kinds of witness records, each tied to its record by its own module (model kinds are tied below)
WITNESS_TIES: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "enumeration": enumeration.tie_witness,
    "network-disagreement": crasp.tie_witness,
    "limit-transformer": limit.tie_witness,
    "closed-form-witness": closed_form.tie_witness,
    "hinge-vanishing": hinge.tie_witness,
    "growth": growth.tie_witness,
    "flush": flush.tie_witness,
}


def check_certificate(data: Any, source: str = "certificate", field: str = "certificate.data") -> Result:
    """Re-check one structured certificate (``{"kind": ..., ...}``) from its data alone."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if not isinstance(kind, str):
        return Result(source, field, "?", FAILED, "a certificate is an object with a string 'kind'")
    if kind not in KINDS:
        return Result(source, field, kind, NOT_RECHECKED,
                      f"not re-checkable by the kernel: it has no checker for the kind {escape(kind, 60)!s}")
    try:
        detail = KINDS[kind](data)
    except Reject as exc:
        where = exc.field.removeprefix("data").lstrip(".")
        return Result(source, f"{field}.{where}" if where else field, kind, FAILED, exc.figure)
    except NotRechecked as exc:
        return Result(source, field, kind, NOT_RECHECKED, f"not re-checkable by the kernel: {exc}")
    except _EVAL_ERRORS as exc:
        return Result(source, field, kind, FAILED, f"the data cannot be evaluated ({type(exc).__name__})")
    return Result(source, field, kind, CHECKED, detail)


# ----------------------------------------------------------------------------------------------- records
def record_digest(rec: dict[str, Any]) -> str:
    """SHA-256 of a record's canonical form (sorted keys, indent 1, ASCII, final newline), sha256 left
    out: how records are hashed (docs/records.md), recomputed here with the standard library."""
    body = {k: v for k, v in rec.items() if k != "sha256"}
    return hashlib.sha256((json.dumps(body, sort_keys=True, indent=1, ensure_ascii=True) + "\n")
                          .encode()).hexdigest()


def check_record(rec: Any, source: str = "record") -> list[Result]:
    """Re-check a counterexample record's certificate and tie it to the record's fields; KernelInputError
    when ``rec`` is not a record at all."""
    if not isinstance(rec, dict) or not str(rec.get("format", "")).startswith(RECORD_FORMAT):
        raise KernelInputError(f"{escape(source)}: not a proofkit counterexample record")
    cert = rec.get("certificate")
    if not isinstance(cert, dict) or not isinstance(cert.get("certified"), bool):
        raise KernelInputError(f"{escape(source)}: certificate: expected an object with certified true/false")
    out = []
    if rec.get("sha256") != record_digest(rec):
        out.append(Result(source, "sha256", "record", FAILED, "the record's content does not match its "
                                                              "SHA-256 (the file was modified)"))
    data = cert.get("data")
    if not cert["certified"]:
        if data is not None:
            kind = str(data.get("kind", "?")) if isinstance(data, dict) else "?"
            out.append(Result(source, "certificate.data", kind, FAILED,
                              "an uncertified record carries certificate data"))
        return out + [Result(source, "certificate", "-", NONE, "an uncertified record claims no certificate")]
    if data is None:
        return out + [Result(source, "certificate", "-", NOT_RECHECKED,
                             "not re-checkable by the kernel: the record carries no structured certificate "
                             "(certificate.data)")]
    res = check_certificate(data, source)
    if res.status == CHECKED:
        try:
            _tie(rec, data)
        except Reject as exc:
            res = Result(source, exc.field, res.kind, FAILED, exc.figure)
        except _EVAL_ERRORS as exc:
            res = Result(source, "certificate.data", res.kind, FAILED,
                         f"the record's fields cannot be compared with the data ({type(exc).__name__})")
    return out + [res]


def _same(stored: list[Fraction], record: list[Fraction], field: str, what: str) -> None:
    if len(stored) != len(record):
        raise Reject(field, f"{len(stored)} numbers, the record's {what} has {len(record)}")
    for i, (u, v) in enumerate(zip(stored, record)):
        if u != v:
            raise Reject(field, f"entry {i} is {u}, the record's {what}[{i}] is {v}")


def _tie(rec: dict[str, Any], data: dict[str, Any]) -> None:
    """The certificate is about this record: its models are the record's learned (or, for a Krawczyk
    box, within ``within`` of it) and true parameters, its witness the record's (float64 decimals read
    exactly), its lengths the record's training lengths, its readout the record's activation."""
    params = rec.get("params", {})
    kind = data["kind"]
    if kind in WITNESS_TIES:
        WITNESS_TIES[kind](rec, data)
        return
    if rec.get("kind") != "model":
        raise Reject("certificate.data", f"a {kind} certificate belongs to a model record")
    if kind == "pooled-exact":
        h, f = pooled.parse(data["learner"], "learner"), pooled.parse(data["truth"], "truth")
        h_flat, f_flat = pooled.flat(h), pooled.flat(f)
    else:
        h, f = parse_model(data["learner"], "learner"), parse_model(data["truth"], "truth")
        h_flat, f_flat = h.flat(), f.flat()
    learned = [number(v, f"learned_params[{i}]") for i, v in enumerate(rec["learned_params"])]
    if len(learned) != len(h_flat):
        raise Reject("certificate.data.learner", f"{len(h_flat)} parameters, the record has {len(learned)}")
    if kind == "krawczyk":
        _, center, free, radius = krawczyk.check_krawczyk(data)
        far = max(abs(u - v) + (radius if i in free else 0) for i, (u, v) in enumerate(zip(learned, center)))
        if far > number(data["within"], "data.within"):
            raise Reject("certificate.data.within", f"the record's learner is {float(far):.3g} from the box, "
                                                    f"more than the certificate's {data['within']}")
    else:
        _same(h_flat, learned, "certificate.data.learner", "learned_params")
    _same(f_flat, [number(v, f"true_params[{i}]") for i, v in enumerate(rec["true_params"])],
          "certificate.data.truth", "true_params")
    X = [Fraction(float(v)) for row in rec["witness"] for v in row]
    _same([v for row in matrix(data["witness"], "data.witness") for v in row], X, "certificate.data.witness",
          "witness")
    _discrepancy(rec, data, h, f, learned)
    T = params.get("T")
    if isinstance(T, int):
        lengths = list(range(1, T + 1)) if params.get("supervision", "ALL") == "ALL" else [T]
        below = data.get("equal_below") or data.get("dead_below")
        covered = data.get("lengths") or list(range(1, int(below) + 1))
        if not set(lengths) <= set(covered):
            raise Reject("certificate.data", f"covers lengths {covered}, the record trains at {lengths}")
    if data["readout"] != params.get("activation", "sigmoid"):
        raise Reject("certificate.data.readout", f"{data['readout']!r}, the record's activation is "
                                                 f"{params.get('activation', 'sigmoid')!r}")


def _discrepancy(rec: dict[str, Any], data: dict[str, Any], h: Any, f: Any, learned: list[Fraction]) -> None:
    """The record's test discrepancy (max |h - f| / max(1, |f|) at its witness, logits for an injective
    readout, outputs otherwise), re-evaluated by the kernel's own evaluator of the certificate's family
    at the record's learned parameters, agrees to DISCREPANCY_DIGITS digits: the certificate describes
    the model the record evaluated."""
    X = [[Fraction(float(v)) for v in row] for row in rec["witness"]]
    readout = data["readout"]
    with precision(60):
        if isinstance(h, dict):  # pooled families: exact
            zh, zf = pooled.logits(pooled.refill(h, learned), X), pooled.logits(f, X)
            zh, zf = [ball(v) for v in zh], [ball(v) for v in zf]
        else:
            zh, zf = logits(convert(refill(h, learned), ball), balls(X)), logits(convert(f, ball), balls(X))
        if readout not in INJECTIVE:
            zh, zf = [activation(readout, z) for z in zh], [activation(readout, z) for z in zf]
        scale = max([flint.arb(1)] + [abs(z) for z in zf], key=lambda b: upper_bound(b))
        rel = max((abs(u - v) / scale for u, v in zip(zh, zf)), key=lambda b: upper_bound(b))
        stored = number(rec["test_discrepancy"], "test_discrepancy")
        if upper_bound(abs(rel - ball(stored))) > max(stored, Fraction(1)) / 10**DISCREPANCY_DIGITS:
            raise Reject("test_discrepancy", f"{rec['test_discrepancy']} in the record, the certificate's "
                                             f"family evaluates to {figure(rel, 15)} there")


# ----------------------------------------------------------------------------------------- bundles, files
def check_bundle(bundle: Any, source: str = "bundle") -> list[Result]:
    """Every record a bundle carries and every claim result's ``certificate`` (when not null)."""
    if not isinstance(bundle, dict) or bundle.get("format") != BUNDLE_FORMAT:
        raise KernelInputError(f"{escape(source)}: not a {BUNDLE_FORMAT} bundle")
    records, verdict = bundle.get("records"), bundle.get("verdict")
    if not isinstance(records, list) or not isinstance(verdict, dict) or \
            not isinstance(verdict.get("claims"), list):
        raise KernelInputError(f"{escape(source)}: a bundle needs a records list and verdict.claims")
    out = []
    for i, item in enumerate(records):
        name = item.get("file") if isinstance(item, dict) else None
        out += check_record(item.get("record") if isinstance(item, dict) else None,
                            f"{source}:records[{i}] ({name})")
    for i, claim in enumerate(verdict["claims"]):
        cert = claim.get("certificate") if isinstance(claim, dict) else None
        if cert is not None:
            name = claim.get("name")
            out.append(check_certificate(cert, f"{source}:claim {name}", f"verdict.claims[{i}].certificate"))
    return out


def check_file(path: str | Path) -> list[Result]:
    """A record file or a bundle file (by its ``format`` field); KernelInputError for anything else."""
    data = read_json(path)
    if isinstance(data, dict) and data.get("format") == BUNDLE_FORMAT:
        return check_bundle(data, str(path))
    return check_record(data, str(path))
