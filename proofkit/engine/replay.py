"""Replay a stored counterexample record: recompute every field it stores from its inputs, reject a
record whose stored fields disagree with the recomputation (InputError naming the field, exit 2), and
say whether the recomputation reproduces (and certifies) the counterexample.

Inputs are the theorem, params, seed and, for a model record, the learned parameters and the witness
sequence; everything else is derived and must agree. Thresholds and the working precision are
proofkit's (``tolerances``): a record's ``dps`` says how it was written, never how it is judged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import mpmath as mp
import numpy as np

from .. import constructions
from ..certificates.certify_model import certificate
from ..certificates.fiterror import inflate, param_radius
from ..errors import InputError, one_of
from ..language import registry
from ..language.spec import Theorem, WitnessOutcome
from ..language.tolerances import FIT_TOL, SEARCH_GAP, effective_dps, fmt
from ..numerics.backend import MP, mp_abs_max
from ..storage import record, safejson
from . import costguard
from .generalization import ball_gap, robust
from .modelsearch import max_gap
from .problem import build_problem

#: significant digits to which a stored training residual must agree with the recomputed one (the
#: residual of a fit is itself near the rounding level, so only its leading digits are reproducible)
TRAIN_DIGITS = 3
#: significant digits to which a stored test discrepancy must agree (proofkit writes 20)
GAP_DIGITS = 20
#: the training residual of parameters written to p significant digits is only known to about
#: 10^(ROUNDOFF_DIGITS - p) (the writer evaluated its binary parameters, replay their decimal strings;
#: the gradient scales the difference): below that its digits are rounding noise, not a property of the
#: model. It only decides whether the stored field is consistent; whether the fit counts is FIT_TOL's
ROUNDOFF_DIGITS = 8


@dataclass
class ReplayResult:
    """What a replay found: the record reproduces (and is certified), and how."""

    path: str
    reproduces: bool
    certified: bool
    how: str

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (the CLI's --json output)."""
        return {"record": self.path, "reproduces": self.reproduces, "certified": self.certified,
                "how": self.how}


def replay(path: str | Path) -> ReplayResult:
    """Load, recompute and compare every field of the record at ``path``; InputError names the first
    stored field that disagrees, otherwise the result says whether the counterexample reproduces."""
    rec = record.load(path)
    try:
        thm = registry.get(rec["theorem"])
    except InputError as exc:
        if exc.field != "theorem id":  # a broken theorem folder, not an unknown id: its own error
            raise
        # a record of a theorem not registered here, most often a user's own: say where theorems come from
        # rather than suggesting a built-in theorem of a similar name
        raise InputError("theorem", "the id of a registered theorem (a record of your own theorem replays "
                         "with the folder of its theorem file: proofkit --theorems DIR replay FILE, or with "
                         "its theorem package installed)", exc.got) from None
    construction = _construction(thm, rec)
    if rec["kind"] == "witness" and thm.falsifier is None and construction is None:
        raise InputError("kind", f"'model' for {thm.id} (it has no witness falsifier)", "witness")
    if rec["kind"] == "model" and thm.setup is None:
        raise InputError("kind", f"'witness' for {thm.id} (it has no numeric model)", "model")
    params = _variant(thm, rec)
    if rec["kind"] == "witness":
        return _replay_witness(str(path), thm, rec, params, construction)
    return _replay_model(str(path), thm, rec, params)


def _expect(field: str, recomputed: Any, stored: Any) -> None:
    """Reject the record unless the stored value equals the recomputed one."""
    if stored != recomputed:
        raise InputError(field, f"the recomputed value {recomputed!r}", stored)


def _variant(thm: Theorem, rec: Mapping[str, Any]) -> dict[str, Any]:
    """The record's resolved params, after checking params, overrides and dropped against them."""
    names = thm.params.names()
    for key, value in rec["params"].items():  # each stored parameter checked by name (the field says which)
        where = f"params.{safejson.key_name(key)}"
        if key not in names:
            raise InputError(where, f"a parameter of {thm.id}: {', '.join(names)}")
        try:
            thm.params.get(key).validate(value)
        except InputError as exc:
            raise InputError(where, exc.expected, exc.got) from None
    params = thm.params.resolve(rec["params"])
    costguard.guard(thm, params)
    _expect("params", params, rec["params"])
    defaults = thm.params.defaults()
    _expect("overrides", {k: v for k, v in params.items() if v != defaults[k]}, rec["overrides"])
    ids = [a.id for a in thm.assumptions]
    for i, aid in enumerate(rec["dropped"]):
        if aid not in ids:
            raise InputError(f"dropped[{i}]", f"an assumption of {thm.id}: {', '.join(ids)}", aid)
    _expect("dropped", sorted(thm.violated(params)), rec["dropped"])
    return params


@dataclass(frozen=True)
class ConstructionFalsifier:
    """A theorem's falsifier interface (``search(params)``, ``replay(witness)``) over the engine's
    closed-form witness constructions: what replay uses for a witness record that names
    a construction."""

    theorem: Any

    def search(self, params: dict[str, Any]) -> Any:
        out, why = constructions.witness(build_problem(self.theorem, params, seed=0, dps=60))
        if out is None:
            return WitnessOutcome(False, "exact constructions", None, "; ".join(why), False, "")
        return out


def _construction(thm: Theorem, rec: Mapping[str, Any]) -> Any:
    """The engine's construction falsifier for a witness record that names a construction
    (``witness.construction``), else None; a name proofkit does not have is bad input."""
    name = rec["witness"].get("construction") if isinstance(rec.get("witness"), dict) else None
    if name is None:
        return None
    if name not in constructions.WITNESSES:
        raise one_of("witness.construction", constructions.WITNESSES, name)
    return ConstructionFalsifier(thm)


def _replay_witness(path: str, thm: Theorem, rec: Mapping[str, Any], params: dict[str, Any],
                    construction: Any = None) -> ReplayResult:
    """A witness record is the falsifier's deterministic output at its params: the stored witness is
    re-decided by the falsifier's replay (which checks the fields it derives), the search is re-run and
    the claim, every witness field, the search effort and the certificate must equal its output. A
    record of an engine construction is re-decided by re-running the construction at its params. A
    theorem whose falsifier cannot replay a witness (no ``replay``) cannot vouch for one: bad input."""
    if construction is None and not callable(getattr(thm.falsifier, "replay", None)):
        raise InputError("witness", f"a witness {thm.id}'s falsifier can replay (it has no replay method: "
                                     "its "
                         "records can be searched again, not re-decided)", path)
    ref = (construction or thm.falsifier).search(params)
    out = ref if construction is not None else thm.falsifier.replay(rec["witness"])
    if ref.witness is None:
        raise InputError("witness", f"none: the falsifier finds no witness at these params now ({ref.how})",
                         "a witness")
    _expect("claim", ref.claim, rec["claim"])
    for key in sorted(set(ref.witness) | set(rec["witness"])):
        _expect(f"witness.{key}", ref.witness.get(key), rec["witness"].get(key))
    _expect("search", ref.effort, rec["search"])
    _check_certificate(rec["certificate"], ref.certified, ref.how, ref.certificate_data)
    return ReplayResult(path, out.found, out.found and out.certified, out.how)


def _replay_model(path: str, thm: Theorem, rec: Mapping[str, Any], params: dict[str, Any]) -> ReplayResult:
    """Refit nothing: evaluate the stored learned model at proofkit's precision, recompute every derived
    field, then decide: it reproduces iff training risk is zero (<= FIT_TOL) and the witness gap is at
    least SEARCH_GAP; it is certified iff it reproduces and the certification certifies it now."""
    dps = effective_dps(rec["dps"])
    with mp.workdps(dps):
        problem = build_problem(thm, params, seed=rec["seed"], dps=dps)
        if len(rec["learned_params"]) != problem.learned.n_params:
            raise InputError("learned_params", f"{problem.learned.n_params} decimal strings",
                             len(rec["learned_params"]))
        _expect("true_params", [str(v) for v in problem.theta_true], rec["true_params"])
        X = _witness_tokens(rec["witness"], problem.learned.n)
        _expect("witness_length", X.shape[0], rec["witness_length"])
        kind = "length" if X.shape[0] > problem.T else "compositional"
        _expect("claim", f"{kind} generalization", rec["claim"])
        theta = MP.asarray(np.asarray(rec["learned_params"], dtype=object))
        train = mp_abs_max(problem.residual(theta, MP))
        _check_train_residual(rec["train_residual"], train, rec["dps"], dps)
        gap = max_gap(problem, theta, [X[None]])
        if not _agrees(rec["test_discrepancy"], gap, GAP_DIGITS):
            raise InputError("test_discrepancy", f"the recomputed value {mp.nstr(gap, GAP_DIGITS)}",
                             rec["test_discrepancy"])
        cert = certificate(problem, theta, X, dps, rec["learned_params"])
        survives = cert.certified or _survives_fit_error(problem, theta, X, gap)
    _check_certificate(rec["certificate"], cert.certified, cert.how, cert.data)
    return _decide(path, train, gap, cert.certified, cert.how, rec["dps"], dps, survives)


def _survives_fit_error(problem: Any, theta: np.ndarray, X: np.ndarray, gap: mp.mpf) -> bool:
    """The rule an uncertified refutation must meet (docs/verdicts.md), re-applied rather than read from
    the record: the witness gap, with the parameters widened to the estimated fit error, excludes 0 and
    exceeds its propagated error REFUTE_MARGIN-fold."""
    radius = param_radius(problem, theta)
    lo, hi = ball_gap(problem, inflate(theta, radius), X)
    return robust(lo, hi, gap, False)


def _witness_tokens(rows: list[list[str]], n: int) -> np.ndarray:
    """The witness sequence as float64 tokens of n coordinates; every entry must be the float64 decimal
    proofkit writes (repr of a float), so the sequence evaluated is exactly the one stored."""
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if repr(float(v)) != v:
                raise InputError(f"witness[{i}][{j}]", f"a float64 decimal as proofkit writes it "
                                 f"({repr(float(v))!r})", v)
    X = np.array([[float(v) for v in row] for row in rows])
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] != n:
        raise InputError("witness", f"a non-empty list of tokens with {n} coordinates", list(X.shape))
    return X


def _agrees(text: str, value: mp.mpf, digits: int) -> bool:
    """The stored decimal is value rounded to the significant digits it carries, compared at most
    ``digits`` of them: within 0.6 of a unit in the last compared digit (half a unit is what rounding
    allows, a tenth more covers rounding noise of the evaluation). A stored zero means exactly zero."""
    stored = mp.mpf(text)
    if stored == 0 or value == 0:
        return stored == value
    dec = Decimal(text.strip())  # a validated decimal string, parsed (never evaluated)
    k = min(digits, len(dec.as_tuple().digits))
    unit = mp.mpf(10) ** (dec.adjusted() - k + 1)
    return abs(stored - value) <= mp.mpf("0.6") * unit


def _check_train_residual(text: str, train: mp.mpf, written_dps: int, dps: int) -> None:
    """The stored training residual must agree with the recomputed one to TRAIN_DIGITS digits, unless
    both are rounding noise of the stored parameters, or (written at other precision) both reach zero
    training risk. Agreement is about the field; whether the fit counts is decided by FIT_TOL alone."""
    stored = mp.mpf(text)
    floor = mp.mpf(10) ** (ROUNDOFF_DIGITS - min(written_dps, dps))
    if written_dps != dps:
        floor = max(floor, FIT_TOL)
    if _agrees(text, train, TRAIN_DIGITS) or max(abs(stored), train) <= floor:
        return
    where = f" at {dps} digits" + ("" if written_dps == dps else f" (record written at {written_dps})")
    raise InputError("train_residual", f"the recomputed value {fmt(train)}{where}", text)


def _check_certificate(stored: Mapping[str, Any], certified: bool, how: str,
                       data: Mapping[str, Any] | None) -> None:
    """The stored certificate must be exactly what the certification returns now, its structured data
    included (compared field by field; a record written before certificates had data has none, and the
    kernel then reports it as not re-checkable, never as checked)."""
    keys = sorted(stored)
    if keys not in (["certified", "how"], ["certified", "data", "how"]):
        raise InputError("certificate", "the keys certified, how (and data)", keys)
    if not isinstance(stored["certified"], bool):
        raise InputError("certificate.certified", "true or false", stored["certified"])
    _expect("certificate.certified", certified, stored["certified"])
    _expect("certificate.how", how, stored["how"])
    if "data" in stored:
        _expect_data("certificate.data", None if data is None else dict(data), stored["data"])


def _expect_data(field: str, recomputed: Any, stored: Any) -> None:
    """Reject unless the stored data equals the recomputed data, naming the first differing field."""
    if isinstance(recomputed, dict) and isinstance(stored, dict) and sorted(recomputed) == sorted(stored):
        for key in sorted(stored):
            _expect_data(f"{field}.{safejson.key_name(key)}", recomputed[key], stored[key])
    elif isinstance(recomputed, list) and isinstance(stored, list) and len(recomputed) == len(stored):
        for i, (u, v) in enumerate(zip(recomputed, stored)):
            _expect_data(f"{field}[{i}]", u, v)
    else:
        _expect(field, recomputed, stored)


def _decide(path: str, train: mp.mpf, gap: mp.mpf, certified: bool, how: str,
            written_dps: int, dps: int, survives: bool = True) -> ReplayResult:
    """Reproduces iff the training residual is <= FIT_TOL, the witness gap >= SEARCH_GAP and (when
    uncertified) the gap survives the estimated fit error."""
    fits, differs = train <= FIT_TOL, gap >= SEARCH_GAP and survives
    at = f"at {dps} digits" + ("" if written_dps == dps else f" (record written at {written_dps})")
    status = (f"training residual {fmt(train)} ({'<=' if fits else '>'} {fmt(FIT_TOL)}), test discrepancy "
              f"{fmt(gap, 6)} ({'>=' if differs else '<'} {fmt(SEARCH_GAP)}) {at}; {how}")
    reasons = ([] if fits else ["the learned model does not fit the training data"]) + \
        ([] if gap >= SEARCH_GAP else ["the witness gap is too small to be a counterexample"]) + \
        ([] if survives else ["the witness gap does not survive the estimated fit error (uncertified)"])
    if reasons:
        status = "does not reproduce: " + " and ".join(reasons) + "; " + status
    return ReplayResult(path, fits and differs, fits and differs and certified, status)
