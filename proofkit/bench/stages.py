"""Where a whole check spends its time, and what importing proofkit costs (details, not ratio rows).

``proofkit.engine.check.check(registry.get(ID), None, dps=60, seed=0)`` once per theorem, with its per-stage
``diagnostics["timings_s"]`` (sympy proof steps, the fit, identification relations, length tests, local
identifiability); and import times measured inside fresh interpreters (``python -c``), with the
``-X importtime`` cumulative figures of the heavy dependencies. The commands' own start-up
(``proofkit --version`` and ``proofkit list`` next to ``python -c pass``) is measured once, by the
targets section (:func:`startup_walls`).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from typing import Any

from ..engine.check import check
from ..language import registry
from .common import DPS, SEED, Section, progress

HEAVY = ("sympy", "scipy.optimize", "numpy", "mpmath", "flint")


def check_stages(theorem_id: str) -> dict[str, Any]:
    """Wall time, verdict and stage timings of one default check."""
    t0 = time.perf_counter()
    res = check(registry.get(theorem_id), None, dps=DPS, seed=SEED)
    wall = time.perf_counter() - t0
    stages = {k: float(v) for k, v in res.diagnostics["timings_s"].items()}
    return {"wall_s": wall, "verdict": str(res.verdict.value), "stages_s": stages,
            "other_s": res.elapsed_s - sum(stages.values())}


def _python(code: str, *flags: str) -> tuple[float, str, str]:
    """Run ``python [flags] -c code`` in a fresh interpreter: (wall s, stdout, stderr)."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, *flags, "-c", code], capture_output=True, text=True, check=True,
                         timeout=120)
    return time.perf_counter() - t0, out.stdout, out.stderr


def import_times(repeats: int) -> dict[str, Any]:
    """Import seconds of proofkit and proofkit.engine.check (timed inside the interpreter, startup excluded),
    the wall time of the whole process, and -X importtime cumulative seconds of the heavy dependencies."""
    out: dict[str, Any] = {}
    for mod in ("proofkit", "proofkit.engine.check"):
        code = f"import time; t = time.perf_counter(); import {mod}; print(time.perf_counter() - t)"
        out[f"import {mod}"] = statistics.median(float(_python(code)[1].strip()) for _ in range(repeats))
    out["process wall, python -c 'import proofkit.engine.check'"] = statistics.median(
        _python("import proofkit.engine.check")[0] for _ in range(repeats))
    cumulative: dict[str, int] = {}
    for line in _python("import proofkit.engine.check", "-X", "importtime")[2].splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            cumulative.setdefault(parts[2].strip(), int(parts[1]))
    for mod in HEAVY:
        if mod in cumulative:
            out[f"-X importtime cumulative {mod}"] = cumulative[mod] * 1e-6
    return out


def startup_walls(repeats: int) -> dict[str, float]:
    """Process wall time of ``python -c pass`` and of the commands ``proofkit --version`` and ``proofkit
    list`` in fresh interpreters (the targets section's start-up goals, 0.2 s and 1 s)."""
    out = {"process wall, python -c pass": statistics.median(_python("pass")[0] for _ in range(repeats))}
    for argv in (["--version"], ["list"]):
        code = (f"import sys; from proofkit.interface.cli import main; sys.argv = ['proofkit', *{argv!r}]; "
                "main()")
        out[f"process wall, proofkit {' '.join(argv)}"] = statistics.median(
            _python(code)[0] for _ in range(repeats))
    return out


def bench(settings: Any) -> Section:
    """Check stage timings for ``settings.check_theorems`` and the import times."""
    sec = Section("stages", details={"check": {}, "import_s": {}})
    for tid in settings.check_theorems:
        progress(f"check {tid}")
        sec.details["check"][tid] = check_stages(tid)
    progress("import times")
    sec.details["import_s"] = import_times(settings.import_repeats)
    return sec
