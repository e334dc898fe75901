"""Verdict texts are reproducible (issue 10, finding 6): ``check --json`` run twice gives identical output
once the timing fields (``elapsed_s`` and ``diagnostics.timings_s``) are removed, and nothing else.

Each run is its own process, with its own hash seed (set iteration order), and a fake clock: every call
of ``time.perf_counter``, ``time.monotonic`` and ``time.time`` advances it by a step that differs between
the two runs. A text that embeds a duration, or a result that depends on a time budget, then differs
between the runs however fast the machine is, instead of only when the timings happen to round apart.

* fast suite: every HYB24 theorem at its cheapest parameters (every numeric parameter at its minimum),
  through ``proofkit check ID --set ... --json``;
* slow suite: ``proofkit check --all --json`` at the defaults, every registered theorem.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from proofkit.language import registry
from proofkit.language.spec import Theorem

ROOT = Path(__file__).resolve().parents[2]

#: a fake clock: every call of the clock functions advances it by ``sys.argv[1]`` seconds
CLOCK = r"""
import itertools, sys, time
step = float(sys.argv[1])
ticks = itertools.count(1)
def fake_clock():
    return 1000.0 + step * next(ticks)
time.perf_counter = time.monotonic = time.time = fake_clock
"""

#: under the fake clock, runs the command line once per argument list (``sys.argv[2]``, JSON) and prints
#: what it prints, then the exit codes
DRIVER = CLOCK + r"""
import json
from proofkit.interface.cli import main
codes = [main(argv) for argv in json.loads(sys.argv[2])]
print(json.dumps({"exit codes": codes}))
"""

#: the timing fields of a check result, the only fields allowed to differ between runs
TIMING_FIELDS = ("elapsed_s",)
TIMING_DIAGNOSTICS = ("timings_s",)


def without_timings(line: str) -> Any:
    """One JSON output line with the timing fields removed (and nothing else)."""
    obj = json.loads(line)
    if isinstance(obj, dict):
        for key in TIMING_FIELDS:
            obj.pop(key, None)
        for key in TIMING_DIAGNOSTICS:
            obj.get("diagnostics", {}).pop(key, None)
    return obj


def run_twice(commands: list[list[str]]) -> tuple[list[Any], list[Any]]:
    """The commands run in two processes (different hash seeds and clock steps), in parallel; each
    run's output lines, timing fields removed."""

    def one(seed: int, step: float) -> list[Any]:
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        proc = subprocess.run([sys.executable, "-c", DRIVER, str(step), json.dumps(commands)], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=3600)
        assert proc.returncode == 0, proc.stderr[-2000:]
        lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
        assert json.loads(lines[-1])["exit codes"], proc.stdout[-500:]
        return [without_timings(ln) for ln in lines]

    with ThreadPoolExecutor(2) as pool:
        a, b = pool.map(lambda sv: one(*sv), [(1, 0.37), (2, 5.3)])
    return a, b


def differences(a: list[Any], b: list[Any]) -> list[str]:
    """Where two runs differ: theorem, claim and field (the first 20)."""
    out = []
    for x, y in zip(a, b):
        if x == y:
            continue
        if not (isinstance(x, dict) and isinstance(y, dict) and "claims" in x):
            out.append(f"{str(x)[:200]} != {str(y)[:200]}")
            continue
        for cx, cy in zip(x["claims"], y["claims"]):
            out += [f"{x['id']} / {cx['name']} / {k}: {cx[k]!r} != {cy.get(k)!r}"
                    for k in cx if cx[k] != cy.get(k)]
        out += [f"{x['id']} / {k}" for k in x if k != "claims" and x[k] != y.get(k)]
    if len(a) != len(b):
        out.append(f"{len(a)} != {len(b)} output lines")
    return out[:20]


def cheapest_sets(thm: Theorem) -> list[str]:
    """``--set`` arguments putting every numeric parameter at its minimum."""
    out = []
    for p in thm.params.params:
        if p.type in (int, float) and p.min is not None:
            out += ["--set", f"{p.name}={p.type(p.min)}"]
    return out


def test_without_timings_removes_only_timing_fields():
    line = json.dumps({"id": "X", "elapsed_s": 1.5, "claims": [{"how": "t"}],
                       "diagnostics": {"timings_s": {"fit": 1.0}, "fit": {"converged": True}}})
    assert without_timings(line) == {"id": "X", "claims": [{"how": "t"}],
                                     "diagnostics": {"fit": {"converged": True}}}


def test_a_duration_in_a_text_is_caught():
    """The fake clock makes an embedded duration differ between the two runs, however fast they are."""
    timed = CLOCK + "t0 = time.perf_counter(); print(f'{time.perf_counter() - t0:.2f} s')"
    runs = [subprocess.run([sys.executable, "-c", timed, str(step)], capture_output=True, text=True,
                           check=True).stdout for step in (0.37, 5.3)]
    assert runs == ["0.37 s\n", "5.30 s\n"]


def test_hyb24_checks_are_reproducible():
    """Every HYB24 theorem, cheapest parameters: two runs identical but for the timing fields."""
    thms = [t for tid, t in registry.load_all().items() if tid.startswith("HYB24.")]
    assert thms
    a, b = run_twice([["check", t.id, *cheapest_sets(t), "--json"] for t in thms])
    assert len(a) == len(thms) + 1
    assert not differences(a, b), "\n".join(differences(a, b))


@pytest.mark.slow
def test_check_all_is_reproducible():
    """``check --all --json`` at the defaults, twice: identical but for the timing fields."""
    a, b = run_twice([["check", "--all", "--json"]])
    assert len(a) == len(registry.load_all()) + 1
    assert not differences(a, b), "\n".join(differences(a, b))
