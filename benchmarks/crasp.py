"""C-RASP benchmarks (issue 4, section 6): the vectorized interpreter on every prefix of all binary strings
of length <= 20 against the reference interpreter (ratio measured in the same run), and one-way row
counting at binary 2N = 24. Run: python benchmarks/crasp.py [--quick]"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from proofkit.atomic import write_file
from proofkit.crasp import all_strings, load
from proofkit.crasp.comm import rows
from proofkit.crasp.interp import evaluate
from proofkit.crasp.vector import accepts_prefixes

PROGRAMS = Path(__file__).resolve().parents[1] / "theorems" / "hyb24" / "programs"


def exhaustive(name: str, n: int, sample: int) -> dict[str, float]:
    """Vectorized time on all 2^n strings (every prefix), reference time per string on a seeded sample."""
    program = load(PROGRAMS / name)
    X = all_strings(2, n)  # the input array is shared by every program; built once, outside the timing
    accepts_prefixes(program, X[:1024])  # warm-up
    t0 = time.perf_counter()
    accepts_prefixes(program, X)
    vec = time.perf_counter() - t0
    rng = np.random.default_rng(0)
    words = ["".join(program.alphabet[i] for i in row) for row in rng.integers(0, 2, (sample, n))]
    t0 = time.perf_counter()
    for w in words:
        evaluate(program, w)
    per = (time.perf_counter() - t0) / sample
    return {"vectorized_s": vec, "reference_s_extrapolated": per * 2**n, "ratio": per * 2**n / vec}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n, N = (16, 8) if args.quick else (20, 12)
    out: dict[str, object] = {"n": n, "N": N}
    for name in ("majority.crasp", "dyck1.crasp", "tomita4.crasp"):
        r = exhaustive(name, n, 500 if args.quick else 3000)
        out[name] = r
        print(f"{name:16s} all 2^{n} strings, every prefix: vectorized {r['vectorized_s']:.2f} s, reference "
              f"{r['reference_s_extrapolated']:.1f} s (extrapolated) -> ratio {r['ratio']:.0f}x")
    for name in ("majority.crasp", "dyck1.crasp"):
        program = load(PROGRAMS / name)
        t0 = time.perf_counter()
        count = rows(lambda X, p=program: accepts_prefixes(p, X), 2, N)
        dt = time.perf_counter() - t0
        out[f"rows_{name}"] = {"rows": count, "seconds": dt}
        print(f"{name:16s} one-way rows at 2N = {2 * N}: {count} in {dt:.1f} s")
    write_file(Path(__file__).with_name("crasp_results.json"), json.dumps(out, indent=1), "results")


if __name__ == "__main__":
    main()
