"""pytest plugin (entry point ``proofkit``): the ``slow`` marker, a verdict summary at the end of the
run, and the seed and precision printed with every failing theorem test."""

from __future__ import annotations

from typing import Any

import pytest

from . import testing


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long searches and sweeps (run with -m slow)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]):
    outcome = yield
    rep = outcome.get_result()
    if rep.failed and call.when == "call":
        seed = getattr(item, "callspec", None)
        params = seed.params if seed is not None else {}
        rep.sections.append(("proofkit", f"reproduce with seed={params.get('seed', 0)} "
                             f"dps={params.get('dps', 60)} (proofkit defaults unless parametrized)"))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = testing.summary_lines()
    if lines:
        terminalreporter.section("proofkit verdicts")
        for line in lines:
            terminalreporter.write_line(line)
