"""The ratio table of a benchmark result: cells shared by the terminal table and docs/benchmarks.md.

Each row shows figure A, figure B and B / A with their units; a figure that is a lower bound reads
"≥ 60 s" and makes the ratio a bound; a figure that is not available reads "n/a" with a numbered note
giving the reason (e.g. why CuPy could not run).
"""

from __future__ import annotations

import math
import sys
from typing import Any

HEADER = ("row", "comparison", "instance", "A", "B", "B / A", "meaning", "goal")
BOUND = {"=": "", ">=": "≥ ", "<=": "≤ "}
INLINE_NOTE = 40  # a figure's note up to this long is shown in the cell, a longer one as a numbered note


def fmt_number(value: float, unit: str) -> str:
    """A figure with its unit: seconds as µs / ms / s, errors in scientific notation."""
    if unit == "s":
        a = abs(value)
        if a < 1e-3:
            return f"{value * 1e6:.3g} µs"
        if a < 1:
            return f"{value * 1e3:.3g} ms"
        return f"{value:.3g} s" if a < 100 else f"{value:.0f} s"
    if unit == "abs":
        return f"{value:.3g}" if value == 0 or 1e-3 <= abs(value) < 1e4 else f"{value:.2e}"
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value)} {unit}".strip()
    return f"{value:.3g} {unit}".strip()


def fmt_ratio(value: float | None, bound: str) -> str:
    """b / a as "123×" (bounds as "≥ 123×"), scientific beyond 1e4 or below 1e-2."""
    if value is None or not math.isfinite(value):
        return "n/a"
    body = f"{value:.3g}" if 1e-2 <= abs(value) < 1e4 else f"{value:.2e}"
    return f"{BOUND.get(bound, '')}{body}×"


class Notes:
    """Numbered notes for figures that are unavailable or bounds (reasons are too long for a cell)."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def ref(self, text: str) -> str:
        if text not in self.items:
            self.items.append(text)
        return f"[{self.items.index(text) + 1}]"


def _figure(fig: dict[str, Any], notes: Notes) -> str:
    value = fig.get("value")
    if value is None:
        return f"n/a {notes.ref(fig.get('note') or 'not measured')}"
    text = f"{BOUND.get(fig.get('bound', '='), '')}{fmt_number(float(value), fig.get('unit', ''))}"
    note = fig.get("note") or ""
    if not note:
        return text
    return f"{text} ({note})" if len(note) <= INLINE_NOTE else f"{text} {notes.ref(note)}"


def _goal(row: dict[str, Any]) -> str:
    if not row.get("goal"):
        return ""
    met = row.get("goal_met")
    return f"{row['goal']}: " + ("met" if met else "not met" if met is not None else "n/a")


def cells(result: dict[str, Any]) -> tuple[list[list[str]], list[str]]:
    """Table rows (as strings, in HEADER order) and the notes they refer to."""
    notes = Notes()
    out = []
    for r in result["ratios"]:
        a, b = r["a"], r["b"]
        out.append([str(r["row"]), r["comparison"], r["instance"], f"{a['label']}: {_figure(a, notes)}",
                    f"{b['label']}: {_figure(b, notes)}", fmt_ratio(r.get("ratio"), r.get("ratio_bound", "")),
                    r["meaning"], _goal(r)])
    return out, notes.items


def headline(result: dict[str, Any]) -> str:
    """One line: mode, date, total time, machine."""
    m = result["machine"]
    return (f"proofkit bench ({result['mode']}, {result['started_utc']}, {result['total_s']:.0f} s): "
            f"{m['cpus']} x {m['cpu']}, {m['memory_gib']} GiB, Python {m['python']}, GPU "
            f"{m['gpu']}; load average at start {m.get('load_average_start')}")


def text(result: dict[str, Any]) -> str:
    """The ratio table as aligned plain text, notes below it."""
    rows, notes = cells(result)
    grid = [list(HEADER), *rows]
    widths = [max(len(row[i]) for row in grid) for i in range(len(HEADER))]
    lines = [headline(result), ""]
    for k, row in enumerate(grid):
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += [""] + [f"[{i}] {n}" for i, n in enumerate(notes, 1)]
    return "\n".join(lines + target_lines(result)).rstrip()


def target_lines(result: dict[str, Any]) -> list[str]:
    """The absolute targets (the targets section), one line each: measured, goal, met or not, and why."""
    found = result.get("details", {}).get("targets", {}).get("targets", [])
    state = {True: "met", False: "NOT met", None: "not run"}
    return ["", "targets:"] + [
        f"  {t['target']}: {'n/a' if t['measured'] is None else format(t['measured'], '.3g')} "
        f"(goal {t['goal']}: {state[t['met']]}){'; ' + t['note'] if t['note'] else ''}" for t in found
    ] if found else []


def show(result: dict[str, Any]) -> None:
    """Print the table: a rich table on a terminal, plain aligned text otherwise (pipes, files)."""
    if not sys.stdout.isatty():
        print(text(result))
        return
    from rich.console import Console
    from rich.table import Table

    rows, notes = cells(result)
    table = Table(title=headline(result), title_justify="left")
    for name in HEADER:
        table.add_column(name, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console = Console()
    console.print(table)
    for i, n in enumerate(notes, 1):
        console.print(f"[{i}] {n}", markup=False, highlight=False)
    for line in target_lines(result):
        console.print(line, markup=False, highlight=False)
