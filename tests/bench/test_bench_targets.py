"""The targets section of ``proofkit bench``: absolute goals compared with what was measured, shown in the
terminal table and on the generated page, never as met when the figure is over its goal or missing."""

from __future__ import annotations

import re
from typing import Any

from proofkit.bench import docs, table, targets
from proofkit.bench.common import QUICK


def _result(measured: dict[str, float | None]) -> dict[str, Any]:
    rows = [targets._target(name, value, "why") for name, value in measured.items()]
    return {"mode": "quick", "started_utc": "2026-01-01T00:00:00Z", "total_s": 1.0, "ratios": [],
            "machine": {"cpu": "x", "cpus": 2, "cpus_usable": 2, "memory_gib": 1, "os": "o", "python": "3",
                        "packages": {}, "blas": {}, "gpu": "none", "git": {}},
            "details": {"targets": {"targets": rows, "serial": None, "parallel": None}}}


def test_a_target_is_met_only_at_or_under_its_goal() -> None:
    assert targets._target("check --all serial wall (s)", 30.0)["met"] is True
    assert targets._target("check --all serial wall (s)", 30.01)["met"] is False
    assert targets._target("proofkit list (s)", None)["met"] is None


def test_targets_show_in_the_terminal_and_on_the_page() -> None:
    result = _result({"check --all serial wall (s)": 45.2, "proofkit --version (s)": 0.07})
    lines = "\n".join(table.target_lines(result))
    assert "check --all serial wall (s): 45.2 (goal <= 30: NOT met); why" in lines
    assert "proofkit --version (s): 0.07 (goal <= 0.2: met)" in lines
    page = docs.render(result, "fixture.json")
    block = page.split("## Targets", 1)[1].split("## Method", 1)[0]
    assert re.search(r"\| check --all serial wall \(s\) \| 45\.2 \| <= 30 \| not met \| why \|", block)
    assert "| proofkit --version (s) | 0.07 | <= 0.2 | met |" in block


def test_quick_runs_skip_the_whole_suite_and_full_runs_do_not() -> None:
    from proofkit.bench.common import FULL
    assert not QUICK.check_all and FULL.check_all
