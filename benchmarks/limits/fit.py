"""Fit a theorem's Cost declaration to measured times (benchmarks/limits/measure.py's JSON lines).

    python benchmarks/limits/fit.py ID MEASURED.jsonl... [--per-unit NAME ...] [--from SECONDS]

The estimate is log t = c + sum_k e_k x_k (x_k = log(value/default) for a power term, value - default for
a per-unit term named by --per-unit). Chosen by a linear program: every measured run of at least --from
seconds (default 9) is estimated at or above its CPU time (a run cut at the wall limit counts as at
least the CPU time it had), the largest over-estimate is as small as possible (for a quicker run: the
estimate over --from seconds), and then the exponents are (a penalty of 0.01 each). Prints
the Cost arguments and, per run, measured and estimated seconds.
"""

from __future__ import annotations

import argparse
import json
import math

import numpy as np
from scipy.optimize import linprog

from proofkit.language import registry


def runs(tid: str, files: list[str]) -> list[tuple[dict, float, bool]]:
    d = registry.get(tid).params.defaults()
    out = []
    for f in files:
        for line in open(f):
            r = json.loads(line)
            if r["id"] != tid:
                continue
            p = dict(d)
            for s in r["sets"]:
                k, v = s.split("=", 1)
                p[k] = type(d[k])(float(v)) if isinstance(d[k], (int, float)) else v
            out.append((p, float(r["cpu"]), r["exit"] == "timeout"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("id")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--per-unit", nargs="*", default=[])
    ap.add_argument("--from", dest="low", type=float, default=9.0)
    a = ap.parse_args()
    d = registry.get(a.id).params.defaults()
    data = runs(a.id, a.files)
    names = sorted({k for p, _, _ in data for k in p if p[k] != d[k] and isinstance(d[k], (int, float))
                    and not isinstance(d[k], bool)})

    def x(p: dict) -> list[float]:
        return [p[k] - d[k] if k in a.per_unit else math.log(max(p[k], 1) / max(d[k], 1)) for k in names]

    A, b = [], []
    for p, t, cut in data:
        row = [1.0, *x(p)]
        if t < a.low and not cut:  # a quick run bounds the estimate from above only: <= --from x e^z
            A.append(row + [-1.0])
            b.append(math.log(a.low))
            continue
        A.append([-v for v in row] + [0.0])  # estimate >= measured
        b.append(-math.log(t))
        if not cut:
            A.append(row + [-1.0])  # estimate <= measured * e^z
            b.append(math.log(t))
    bounds = [(None, None)] + [(0.0, 8.0) if k not in a.per_unit else (0.0, math.log(64)) for k in names] + \
        [(0, None)]
    # the worst over-estimate first; among equals, the smallest exponents (a parameter seen only in runs cut
    # at the wall limit gets what those runs need, not more)
    res = linprog(c=[0.0] + [0.01] * len(names) + [1.0], A_ub=np.array(A), b_ub=np.array(b), bounds=bounds)
    c, coef = res.x[0], res.x[1:-1]
    grows = {k: round(float(e), 2) for k, e in zip(names, coef) if k not in a.per_unit and e > 1e-3}
    units = {k: round(math.exp(float(e)), 3) for k, e in zip(names, coef) if k in a.per_unit and e > 1e-3}
    worst = math.exp(res.x[-1])
    print(f"Cost({math.exp(c):.3g}, {grows}, per_unit={units})  # worst over-estimate x{worst:.2f}")
    for p, t, cut in data:
        est = math.exp(c + sum(e * v for e, v in zip(coef, x(p))))
        moved = {k: p[k] for k in names if p[k] != d[k]}
        print(f"  {moved}: {'>=' if cut else ''}{t} s, estimated {est:.1f} s")


if __name__ == "__main__":
    main()
