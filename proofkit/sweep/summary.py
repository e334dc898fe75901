"""What a sweep reports: a row per point (its swept values, status, check verdict) and, when exactly one
swept parameter is numeric, the threshold as ``scan`` reads it, once per combination of the other swept
values (and seed): the smallest value from which every swept value holds, with ``scan``'s monotonicity
warnings. A categorical parameter has no order, so it never gets a "smallest": its rows are the
per-value statuses. A group with a point that could not be computed has no threshold (incomplete).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.scan import monotonicity_warnings, threshold
from ..language.spec import Theorem
from .spec import Point, SweepSpec, canonical_json
from .store import POINTS

FAILED = "failed"


@dataclass
class Entry:
    """One point of the sweep as it stands: its stored result (``body``, the point file's content), or
    why it could not be computed; ``resumed`` when the result was already in the folder."""

    point: Point
    key: str
    body: Mapping[str, Any] | None = None
    error: str = ""
    bad_input: bool = False
    resumed: bool = False


def label(values: Mapping[str, Any]) -> str:
    """``T=2 activation=relu``: swept values as a progress line or a group shows them."""
    return " ".join(f"{k}={v}" for k, v in values.items())


def coordinates(spec: SweepSpec, point: Point) -> dict[str, Any]:
    """The point's swept values, and its seed when the sweep has several."""
    return {**point.grid, **({"seed": point.seed} if len(spec.seeds) > 1 else {})}


def thresholds(spec: SweepSpec, theorem: Theorem, entries: Sequence[Entry]) -> tuple[dict[str, Any] | None,
                                                                                     str]:
    """({param, groups}, "") for a grid with exactly one numeric parameter, else (None, why not)."""
    numeric = [n for n in spec.grid if theorem.params.get(n).type in (int, float)]
    if len(numeric) != 1:
        return None, ("no threshold: no numeric parameter is swept (the rows are per-value statuses)"
                      if not numeric else f"no threshold: {len(numeric)} numeric parameters are swept "
                      f"({', '.join(numeric)}); a threshold is read along one")
    param = numeric[0]
    groups: dict[str, tuple[dict[str, Any], list[Entry]]] = {}
    for e in entries:
        at = {k: v for k, v in coordinates(spec, e.point).items() if k != param}
        groups.setdefault(canonical_json(at), (at, []))[1].append(e)
    out = []
    for at, members in groups.values():
        members = sorted(members, key=lambda e: e.point.grid[param])
        missing = sum(e.body is None for e in members)
        if missing:
            out.append({"at": at, "threshold": None, "complete": False, "missing": missing, "warnings": []})
            continue
        statuses = [(e.point.grid[param], e.body["status"]) for e in members if e.body is not None]
        out.append({"at": at, "threshold": threshold(statuses), "complete": True, "missing": 0,
                    "warnings": monotonicity_warnings(param, statuses)})
    return {"param": param, "groups": out}, ""


def summarize(spec: SweepSpec, theorem: Theorem, entries: Sequence[Entry], out: str,
              elapsed_s: float) -> dict[str, Any]:
    """The sweep's summary as plain JSON data (``--json`` prints it)."""
    rows = []
    for e in entries:
        row: dict[str, Any] = {"key": e.key, "file": f"{POINTS}/{e.key}.json", "grid": dict(e.point.grid),
                               "seed": e.point.seed, "resumed": e.resumed}
        if e.body is None:
            row.update(status=FAILED, reason=e.error, bad_input=e.bad_input, file=None)
        else:
            row.update({k: e.body[k] for k in ("status", "reason", "check_verdict", "record", "elapsed_s")})
        rows.append(row)
    found, note = thresholds(spec, theorem, entries)
    return {"theorem": spec.theorem, "out": out, "spec_sha256": spec.sha256(), "points": len(entries),
            "computed": sum(e.body is not None and not e.resumed for e in entries),
            "resumed": sum(e.resumed for e in entries), "failed": sum(e.body is None for e in entries),
            "elapsed_s": round(elapsed_s, 3), "grid": {k: list(v) for k, v in spec.grid.items()},
            "seeds": list(spec.seeds), "rows": rows, "threshold": found, "threshold_note": note}


def text(spec: SweepSpec, entries: Sequence[Entry], summary: Mapping[str, Any]) -> str:
    """The summary as a table, the failed points, the thresholds and their warnings."""
    search = "with" if spec.search else "without"
    shape = " x ".join(f"{k} ({len(v)})" for k, v in spec.grid.items())
    seeds = f"seeds {', '.join(map(str, spec.seeds))}" if len(spec.seeds) > 1 else f"seed {spec.seeds[0]}"
    lines = [f"{spec.theorem}: sweep of {summary['points']} points over {shape}, {seeds} (dps {spec.dps}, "
             f"{search} counterexample search) in {summary['out']}",
             f"computed {summary['computed']}, resumed {summary['resumed']}, failed {summary['failed']} "
             f"({summary['elapsed_s']:.1f}s)"]
    header = [*coordinates(spec, entries[0].point), "status", "check", "s"]
    table = [header] + [[*map(str, coordinates(spec, e.point).values()),
                         *((e.body["status"], e.body["check_verdict"], f"{e.body['elapsed_s']:.1f}")
                           if e.body is not None else (FAILED, "-", "-"))] for e in entries]
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in table]
    failed = [e for e in entries if e.body is None]
    if failed:
        lines.append("not computed (not written; a rerun computes them):")
        lines += [f"  {label(coordinates(spec, e.point))}: {e.error}" for e in failed]
    found = summary["threshold"]
    if found is None:
        lines.append(summary["threshold_note"])
        return "\n".join(lines)
    param, warnings = found["param"], []
    lines.append(f"smallest {param} from which every swept value holds:")
    for g in found["groups"]:
        where = label(g["at"]) or "all points"
        value = (f"incomplete ({g['missing']} point(s) not computed)" if not g["complete"]
                 else "none (the largest swept value does not hold)" if g["threshold"] is None
                 else str(g["threshold"]))
        lines.append(f"  {where}: {value}")
        warnings += [f"warning: {label(g['at']) + ': ' if g['at'] else ''}{w}" for w in g["warnings"]]
    return "\n".join(lines + warnings)
