"""Figures for ``proofkit report --figures --out DIR`` (matplotlib, the optional ``plot`` extra, imported
only when a figure is drawn): where a reader would rather look than read a table.

- ``threshold_scans``: verdict status per training length T for AM24 theorems (Theorem 4 with
  k~ = n = 2 and with an over-parametrized k~ = 3, Theorem 1 with a readout bias), check only, at 60
  digits, seed 0: the smallest T from which every scanned value holds.
- ``rows_vs_bound``: exact one-way row counts of library C-RASP programs against the program-level form
  of Theorem 12's bound (``proofkit.crasp.communication.comm``), N = 1..8.
- ``residual_vs_precision``: the training residual the fit of AM24.T4 reaches at 30..120 digits,
  against the fit's tolerance at each precision.

Each figure is written as PDF, SVG and PNG with its data as JSON beside it (same name; the data is
stamped ``"format": "proofkit-figure/1"`` and ``"figure": NAME``, so ``proofkit plot NAME.json`` redraws
it). The drawing goes through :mod:`proofkit.publish.plot` (one style, paper-column size, deterministic
bytes: no dates, no version metadata). Everything is seeded and computed fresh (about 30 s in all on one
core). A theorem or program that is not registered here is left out of its figure, and the JSON says so.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mpmath as mp

from ..errors import InputError, one_of
from ..language import registry
from ..language.tolerances import MIN_DPS
from ..runtime import progress
from ..storage import atomic
from . import plot
from .bib import theorem_folder

HINT = plot.HINT
#: the stamp of a figure's data file (with ``"figure": NAME``)
FORMAT = "proofkit-figure/1"
SCANS = (("AM24.T4", {}, "AM24.T4, k~ = n = 2"), ("AM24.T4", {"learned_dim": 3}, "AM24.T4, k~ = 3"),
         ("AM24.T1", {"readout_bias": True}, "AM24.T1, readout bias"))
SCAN_VALUES = (1, 2, 3)
ROW_PROGRAMS = ("majority.crasp", "dyck1.crasp", "anbn.crasp")
ROW_SPLITS = tuple(range(1, 9))
RESIDUAL_DPS = (30, 45, 60, 90, 120)


def require_matplotlib() -> None:
    """Bad input naming the extra when matplotlib is not installed (checked before any work starts)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError("--figures", HINT, "matplotlib not installed") from None


def scan_data(jobs: int = 1) -> dict[str, Any]:
    """Status per T of each scan in SCANS (check only), and its threshold."""
    from ..engine.scan import scan

    thms = registry.load_all()
    out: dict[str, Any] = {"format": FORMAT, "figure": "threshold_scans", "param": "T",
                           "values": list(SCAN_VALUES), "dps": MIN_DPS, "seed": 0, "scans": [], "missing": []}
    for tid, base, label in SCANS:
        if tid not in thms:
            out["missing"].append(tid)
            continue
        progress.stage(f"figures: scan {label}")
        res = scan(thms[tid], "T", list(SCAN_VALUES), base, dps=MIN_DPS, seed=0, search=False, jobs=jobs)
        out["scans"].append({"theorem": tid, "overrides": base, "label": label, "threshold": res.threshold,
                             "status": [r.status for r in res.rows],
                             "check_verdict": [r.check_verdict for r in res.rows]})
    return out


def rows_data() -> dict[str, Any]:
    """rows(N) and the program-level bound for each of ROW_PROGRAMS (from HYB24.T12's program library)."""
    from ..crasp.communication import comm
    from ..crasp.semantics.vector import accepts_prefixes
    from ..crasp.tasks.library import load_index

    out: dict[str, Any] = {"format": FORMAT, "figure": "rows_vs_bound", "N": list(ROW_SPLITS), "programs": [],
                           "missing": []}
    folder = theorem_folder("HYB24.T12") if "HYB24.T12" in registry.load_all() else None
    if folder is None or not (folder / "programs" / "index.json").is_file():
        out["missing"] = list(ROW_PROGRAMS)
        return out
    entries = {e.file: e for e in load_index(folder / "programs")[0]}
    for name in ROW_PROGRAMS:
        if name not in entries:
            out["missing"].append(name)
            continue
        prog = entries[name].program
        progress.stage(f"figures: rows of {name}")
        table = comm.rows_table(lambda X, p=prog: accepts_prefixes(p, X), len(prog.alphabet), ROW_SPLITS,
                                bound=lambda N, p=prog: comm.program_bound_for_ops(p.ops, N))
        out["programs"].append({"program": name, "rows": [t["rows"] for t in table],
                                "bound": [t["bound"] for t in table]})
    return out


def residual_data() -> dict[str, Any]:
    """The training residual of AM24.T4's fit (seed 0) at each of RESIDUAL_DPS, and its tolerance."""
    from ..engine.fit import default_tol, fit
    from ..engine.problem import build_problem

    out: dict[str, Any] = {"format": FORMAT, "figure": "residual_vs_precision", "theorem": "AM24.T4",
                           "seed": 0, "dps": [], "log10_residual": [], "log10_tol": [], "converged": [],
                           "missing": []}
    thm = registry.load_all().get("AM24.T4")
    if thm is None:
        out["missing"] = ["AM24.T4"]
        return out
    params = thm.params.resolve({})
    for dps in RESIDUAL_DPS:
        progress.stage(f"figures: fit of AM24.T4 at {dps} digits")
        with mp.workdps(dps):
            res = fit(build_problem(thm, params, seed=0, dps=dps), dps=dps, seed=0)
            out["dps"].append(dps)
            r = res.residual
            log_r = None if r is None else round(float(mp.log10(r)) if r > 0 else -dps, 3)
            out["log10_residual"].append(log_r)
            out["log10_tol"].append(round(float(mp.log10(default_tol(dps))), 3))
            out["converged"].append(res.converged)
    return out


def _draw_scans(fig: Any, data: dict[str, Any]) -> None:
    plot.strips(fig, _strips(data))


def _strips(data: dict[str, Any]) -> plot.Strips:
    rows = [plot.Strip(s["label"], dict(zip(data["values"], s["status"])), s["threshold"])
            for s in data["scans"]]
    return plot.Strips(data["param"], "training length", list(data["values"]), rows,
                       f"check only, {data['dps']} digits, seed {data['seed']}")


def _draw_rows(fig: Any, data: dict[str, Any]) -> None:
    """rows(N) solid, the bound dashed, one color per program. Programs with the same bound (dyck1 and
    anbn: (N+1)^3 for both) share one dashed curve whose legend entry names both; rows that meet at
    some N keep their own nested markers."""
    ax = fig.add_subplot()
    curves = []
    for i, p in enumerate(data["programs"]):
        name = p["program"].removesuffix(".crasp")
        curves.append(plot.Curve(f"{name} rows", p["rows"], f"C{i}"))
    for i, p in enumerate(data["programs"]):
        name = p["program"].removesuffix(".crasp")
        curves.append(plot.Curve(f"{name} bound", p["bound"], f"C{i}", "--", marker=False))
    plot.lines(ax, data["N"], curves, "N")
    ax.set_yscale("log", base=2)
    ax.set_xticks(data["N"])
    ax.set_xlabel("split N (prefix and suffix of length N)")
    ax.set_ylabel("one-way rows (count, log2 scale)")
    ax.set_title("Row counts vs the program-level Theorem-12 bound", loc="left")
    plot.legend(fig, ax)


def _draw_residual(fig: Any, data: dict[str, Any]) -> None:
    """The residual, the tolerance and 10^-dps as numbers on a log axis (the data stores log10)."""
    ax = fig.add_subplot()

    def power(logs: list[Any]) -> list[float | None]:
        return [None if v is None else 10.0 ** v for v in logs]

    curves = [plot.Curve("training residual of the fit", power(data["log10_residual"]), "C0"),
              plot.Curve("fit tolerance 10^(-3 dps/4)", power(data["log10_tol"]), "C1", "--"),
              plot.Curve("10^-dps (working precision)", power([-d for d in data["dps"]]), "C2", ":", False)]
    plot.lines(ax, data["dps"], curves, "precision")
    bad = [(d, 10.0 ** r) for d, r, ok in zip(data["dps"], data["log10_residual"], data["converged"])
           if not ok and r is not None]
    if bad:
        ax.plot(*zip(*bad), "x", color="#c62828", markersize=6, label="fit not converged")
    ax.set_yscale("log")
    plot.decade_ticks(ax)
    ax.set_xticks(data["dps"])
    ax.set_xlabel("working precision (decimal digits)")
    ax.set_ylabel("residual, tolerance (dimensionless)")
    ax.set_title(f"{data['theorem']}: training residual vs precision (seed {data['seed']})", loc="left")
    plot.legend(fig, ax)


Drawing = Callable[[Any, dict[str, Any]], None]


def _size(name: str, data: dict[str, Any]) -> tuple[float, float]:
    return plot.strip_size(_strips(data)) if name == "threshold_scans" else (plot.COLUMN[0], 2.8)


def figure(name: str, data: dict[str, Any]) -> Any:
    """The matplotlib figure ``name`` drawn from ``data`` (checked first: InputError when it does not fit)."""
    check_data(name, data)
    return plot.build(FIGURES[name][1], data, _size(name, data))


def _save(out: Path, name: str, data: dict[str, Any], formats: tuple[str, ...]) -> list[Path]:
    """``name.json`` and ``name.<fmt>`` for each format under ``out``, all atomically, without dates or
    version metadata."""
    fig = figure(name, data)
    text = json.dumps(data, sort_keys=True, indent=1) + "\n"
    return [atomic.write_file(out / f"{name}.json", text, "--out"), *plot.write(fig, out / name, formats)]


#: figure name -> (data, drawing); the data functions take the number of worker processes when they scan
FIGURES: dict[str, tuple[Callable[[int], dict[str, Any]], Drawing]] = {
    "threshold_scans": (scan_data, _draw_scans),
    "rows_vs_bound": (lambda jobs: rows_data(), _draw_rows),
    "residual_vs_precision": (lambda jobs: residual_data(), _draw_residual),
}


def write_all(out: Path, jobs: int = 1) -> list[Path]:
    """Every figure (PDF, SVG and PNG) and its data under ``out`` (which must exist); the paths written."""
    require_matplotlib()
    written = []
    for name, (data, _) in FIGURES.items():
        written += _save(out, name, data(jobs), plot.FORMATS)
    return written


def draw(name: str, data: dict[str, Any], out: Path, formats: tuple[str, ...] = ("png",)) -> list[Path]:
    """One figure from data already computed (e.g. a stored ``name.json``): ``name.json`` and the figure
    in each of ``formats``."""
    require_matplotlib()
    return _save(out, name, data, formats)


_LISTS = {"threshold_scans": ("values", "scans"), "rows_vs_bound": ("N", "programs"),
          "residual_vs_precision": ("dps", "log10_residual", "log10_tol", "converged")}


def check_data(name: str, data: Any) -> None:
    """InputError unless ``data`` has the fields figure ``name`` draws, of matching lengths (a stored
    ``name.json`` read by ``proofkit plot``)."""
    if name not in FIGURES:
        raise one_of("figure", FIGURES, name)
    if not isinstance(data, dict):
        raise InputError(name, "a JSON object", type(data).__name__)
    for key in _LISTS[name]:
        if not isinstance(data.get(key), list):
            raise InputError(f"{name} {key}", "a list", type(data.get(key)).__name__)
    size = len(data[_LISTS[name][0]])
    inner = {"threshold_scans": ("status",), "rows_vs_bound": ("rows", "bound")}.get(name, ())
    rows = data[_LISTS[name][1]] if inner else [data]
    keys = inner or _LISTS[name][1:]
    for i, row in enumerate(rows):
        for key in keys:
            value = row.get(key) if isinstance(row, dict) else None
            if not isinstance(value, list) or len(value) != size:
                where = f"{name} {_LISTS[name][1]}[{i}].{key}" if inner else f"{name} {key}"
                raise InputError(where, f"a list of {size} values (one per {_LISTS[name][0]})", value)
    _check_values(name, data, rows)


def _check_values(name: str, data: dict[str, Any], rows: list[Any]) -> None:
    """The values themselves: statuses known, numbers numbers (a hand-edited file fails here, not in
    matplotlib)."""
    if name == "threshold_scans":
        for i, row in enumerate(rows):
            if not set(row["status"]) <= set(plot.STATUS) or not isinstance(row.get("label"), str):
                raise InputError(f"{name} scans[{i}]", "a label and statuses among " + ", ".join(plot.STATUS))
        return
    keys = ("rows", "bound") if name == "rows_vs_bound" else ("log10_residual", "log10_tol")
    values = [v for row in rows for k in keys for v in row[k]] + list(data[_LISTS[name][0]])
    if not all(v is None or plot.numeric([v]) for v in values):
        raise InputError(f"{name} {'/'.join(keys)}", "numbers (or null)")
    if name == "rows_vs_bound" and not all(isinstance(r.get("program"), str) for r in rows):
        raise InputError(f"{name} programs", "a program name per row")
