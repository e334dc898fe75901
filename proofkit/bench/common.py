"""What every benchmark section shares: the run settings of ``--quick`` and full runs, the timer, and the
entries of the ratio table.

A ratio row compares two figures measured in the same run, ``a`` and ``b``, with their units; its ratio
is b / a (the row's ``meaning`` says which way round, e.g. "loop / proofkit"). A figure may be a lower
bound (a loop that did not reach its target within its budget) or unavailable (no CuPy), with the
reason; the ratio is then a bound, or absent. Under shared load absolute times are noisy; ratios taken
in one run are the comparable figures.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

SEED = 0
DPS = 60  # working digits of every mpmath stage (proofkit's default)
#: a timing that takes longer than this is not repeated (its noise is small next to it)
LONG_S = 2.0


#: the section names in table order (``--only``); :data:`proofkit.bench.suite.SECTIONS` maps them to their
#: code, which loads the engine, so the command line names them from here
SECTION_NAMES = ("fit", "precision", "namespace", "crasp", "rows", "drops", "stages", "targets")


@dataclass(frozen=True)
class Settings:
    """Sizes and budgets of one run; ``quick`` is the smoke run (well under a minute on 2 cores)."""

    mode: str
    repeats: int
    loop_budget_s: dict[str, float]  # paper-style loop budget per theorem (row 1)
    precision_theorems: tuple[str, ...]  # row 2
    support_samples: tuple[int, ...]  # row 3, forward passes
    exhaustive_lengths: tuple[int, ...]  # row 3, exhaustive C-RASP
    interp_length: int  # row 4: every prefix of all 2^n strings
    reference_samples: int  # row 4: strings the reference interpreter runs (extrapolated)
    rows_splits: tuple[int, ...]  # row 5: values of N (strings of length 2N)
    check_theorems: tuple[str, ...]  # extra: check stage timings
    import_repeats: int = 1
    drop_cases: tuple[tuple[str, str], ...] = ()  # row 6: (theorem, assumption) drops
    grid_budget_s: float = 2.0  # row 1: budget of each tuned AdamW grid point (stopped at the target)
    check_all: bool = False  # targets: time proofkit check --all serially and with -j 2 (about 90 s)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


QUICK = Settings(
    mode="quick", repeats=1, loop_budget_s={"AM24.T4": 3.0, "AM24.T1": 2.0},
    precision_theorems=("AM24.T4", "AM24.T1", "AM24.T5", "AM24v2.C3"), support_samples=(10**5, 10**6),
    exhaustive_lengths=(16, 18), interp_length=14, reference_samples=300, rows_splits=(4, 5, 6, 7, 8),
    check_theorems=("AM24.T4",), drop_cases=(("AM24.T2", "H1.pair-support"), ("AM24.T4", "A5.square")))
FULL = Settings(
    mode="full", repeats=3, loop_budget_s={"AM24.T4": 60.0, "AM24.T1": 60.0}, grid_budget_s=20.0,
    check_all=True,
    precision_theorems=("AM24.T4", "AM24.T1", "AM24.T2", "AM24.T5", "AM24v2.C3"),
    support_samples=(10**5, 10**6, 10**7), exhaustive_lengths=(24, 26, 28), interp_length=20,
    reference_samples=3000, rows_splits=(6, 7, 8, 9, 10, 11, 12),
    check_theorems=("AM24.T4", "AM24.T1", "AM24.T5", "AM24v2.C3"), import_repeats=3,
    drop_cases=tuple((t, a) for t, ids in (
        ("AM24.T1", ("A1.injective", "A1.bias-free", "H0.realizable", "H1.token-support", "ALL", "A2")),
        ("AM24.T2", ("A3.injective", "A3.bias-free", "A3.residual", "A3.dims", "H0.realizable",
                     "H1.pair-support", "H1.test-support", "A2", "ALL", "T>=3")),
        ("AM24.T4", ("A5.injective", "A5.square", "A5.A-invertible", "A5.Lam-invertible", "A5.B-invertible",
                     "A8", "A5.bias-free", "T>=2", "ALL")),
        ("AM24.T5", ("A6.sigmoid", "A6.A-invertible", "A2", "A6.square", "A6.bias-free", "T>=2")),
        ("AM24v2.C3", ("injective", "realizable", "token-support", "ALL"))) for a in ids))


def timed(fn: Callable[[], T], repeats: int) -> tuple[float, T]:
    """Median wall time (s) of up to ``repeats`` calls and the last call's result; a call longer than
    LONG_S is not repeated."""
    times: list[float] = []
    out: Any = None
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if times[-1] > LONG_S:
            break
    return statistics.median(times), out


def progress(text: str) -> None:
    """One line on stderr: a full run takes minutes, and stdout carries only the table (or JSON)."""
    print(f"bench: {text}", file=sys.stderr, flush=True)


def finite(v: Any) -> float | None:
    """A float for JSON, None when not finite (JSON has no inf/nan)."""
    f = float(v)
    return f if math.isfinite(f) else None


@dataclass
class Figure:
    """One measured quantity: value (None: not available, with the reason in ``note``), unit, and
    ``bound`` "=" (measured), ">=" (a lower bound: e.g. the budget of a loop that did not finish)."""

    label: str
    value: float | None
    unit: str
    bound: str = "="
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Ratio:
    """A row of the ratio table: b / a, both measured in this run."""

    row: int
    comparison: str
    instance: str
    a: Figure
    b: Figure
    meaning: str  # what b / a says, e.g. "loop / proofkit (speed-up)"
    goal: str = ""
    goal_met: bool | None = None

    def ratio(self) -> tuple[float | None, str]:
        """(b / a, "=" | ">=" | "<="): exact when both are measured, a lower bound when b is one, an upper
        bound when a is one; (None, "") when a figure is missing, both are bounds, or a is zero."""
        kind = {("=", "="): "=", ("=", ">="): ">=", (">=", "="): "<="}.get((self.a.bound, self.b.bound))
        if self.a.value is None or self.b.value is None or self.a.value == 0 or kind is None:
            return None, ""
        return self.b.value / self.a.value, kind

    def as_dict(self) -> dict[str, Any]:
        value, kind = self.ratio()
        return {"row": self.row, "comparison": self.comparison, "instance": self.instance,
                "a": self.a.as_dict(), "b": self.b.as_dict(),
                "ratio": None if value is None else finite(value), "ratio_bound": kind,
                "meaning": self.meaning, "goal": self.goal, "goal_met": self.goal_met}


@dataclass
class Section:
    """What a benchmark section returns: its ratio rows and its detailed figures (for the JSON and the
    detail tables of docs/benchmarks.md)."""

    name: str
    ratios: list[Ratio] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
