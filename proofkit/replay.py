"""Recompute a stored counterexample record and say whether it reproduces (and is certified)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mpmath as mp
import numpy as np

from . import record, registry
from .backend import MP, mp_abs_max
from .check import REFUTE_GAP, zero_tol
from .errors import InputError
from .falsify import certify_model, max_gap
from .problem import build_problem


@dataclass
class ReplayResult:
    path: str
    reproduces: bool
    certified: bool
    how: str

    def as_dict(self) -> dict[str, Any]:
        return {"record": self.path, "reproduces": self.reproduces, "certified": self.certified,
                "how": self.how}


def replay(path: str | Path) -> ReplayResult:
    rec = record.load(path)
    try:
        thm = registry.get(rec["theorem"])
    except InputError as exc:
        raise InputError("theorem", exc.expected, exc.got) from None
    try:
        params = thm.params.resolve(rec["params"])
    except InputError as exc:
        raise InputError("params", exc.expected, exc.got) from None
    if rec["kind"] == "witness":
        if thm.falsifier is None:
            raise InputError("kind", f"'model' for {thm.id} (it has no witness falsifier)", "witness")
        out = thm.falsifier.replay(rec["witness"])
        return ReplayResult(str(path), out.found, out.certified, out.how)
    dps = rec["dps"]
    with mp.workdps(dps):
        problem = build_problem(thm, params, seed=rec["seed"], dps=dps)
        if len(rec["learned_params"]) != problem.learned.n_params:
            raise InputError("learned_params", f"{problem.learned.n_params} decimal strings",
                             len(rec["learned_params"]))
        if [str(v) for v in problem.theta_true] != rec["true_params"]:
            raise InputError("true_params", "the theorem's true parameters at these params",
                             rec["true_params"][:3])
        theta = MP.asarray(np.asarray(rec["learned_params"], dtype=object))
        X = np.array([[float(v) for v in row] for row in rec["witness"]])
        if X.ndim != 2 or X.shape[1] != problem.learned.n:
            raise InputError("witness", f"a list of tokens with {problem.learned.n} coordinates",
                             list(X.shape))
        train = mp_abs_max(problem.residual(theta, MP))
        gap = max_gap(problem, theta, [X[None]])
        recorded = mp.mpf(rec["test_discrepancy"])
        ok = (train <= zero_tol(dps) and gap >= REFUTE_GAP
              and abs(gap - recorded) <= mp.mpf(10) ** (-15) * max(1, abs(recorded)))
        certified, how = certify_model(problem, theta, X, dps, rec["learned_params"])
    status = (f"training residual {mp.nstr(train, 3)}, test discrepancy {mp.nstr(gap, 6)} "
              f"(recorded {mp.nstr(recorded, 6)}) at {dps} digits; {how}")
    return ReplayResult(str(path), ok, certified and ok, status)
