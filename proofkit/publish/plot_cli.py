"""``proofkit plot FILE... --out PATH``: a figure of proofkit's own JSON outputs (docs/plotting.md).

Each FILE is read with the bounded loader (at most :data:`MAX_BYTES`), parsed as one JSON document or as
JSON lines (``check --all --json``), validated against its published schema (docs/formats.md) and drawn
by its stamp:

- ``scan/1`` (``scan --json``) and ``sweep/1`` (``sweep --json``), a sweep folder or its ``sweep.json``
  (``proofkit-sweep/1``, with its ``points/``): status per parameter value, one row per scan or per
  combination of the other swept values, the threshold marked (:func:`proofkit.publish.plot.strips`);
- ``check/2`` (``check --json``, ``check --all --json``) and ``inconclusive/1``: one theorem, each claim
  at its residual by verdict; several, their claims per verdict (:func:`~proofkit.publish.plot.claims`,
  :func:`~proofkit.publish.plot.verdict_counts`);
- ``proofkit-figure/1`` (the data ``report --figures`` writes beside each figure): that figure redrawn.

A file without a stamp, with another one, unreadable, empty, too big, or not conforming to its schema is
one line and exit 2, before anything is drawn or written.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError, did_you_mean
from ..storage import formats, safejson
from . import plot

#: byte cap of one FILE (a ``check --all --json`` of every theorem is a few MB)
MAX_BYTES = 16 << 20
#: point files read from one sweep folder (the sweep spec's own cap on points)
MAX_POINTS = 10_000
FIGURE_FORMAT = "proofkit-figure/1"
_SWEEP, _POINT = "proofkit-sweep/1", "proofkit-sweep-point/1"
#: stamp -> (kind drawn, schema validated against; None: checked by its drawer)
_STAMPS = {"scan/1": ("strips", "scan"), "sweep/1": ("strips", "sweep"), _SWEEP: ("strips", "sweep-manifest"),
           "check/2": ("checks", "check"), "inconclusive/1": ("checks", "inconclusive"),
           FIGURE_FORMAT: ("figure", None)}
_PLOTTABLE = "a proofkit scan, sweep, check or figure-data JSON document (stamped " + \
    ", ".join(_STAMPS) + ")"

EPILOG = f"""examples:
  proofkit scan AM24.T4 --param T --values 1,2,3 --json > scan.json
  proofkit plot scan.json --out scan              # scan.pdf, scan.svg and scan.png
  proofkit plot a.json b.json --out scans.pdf     # two scans overlaid, PDF only
  proofkit plot sweeps/am24_t4 --out sweep --format png
  proofkit check --all --json > all.jsonl && proofkit plot all.jsonl --out verdicts
  proofkit plot figures/rows_vs_bound.json --out rows --format svg

exit codes:
  0  the figure is written (its paths are printed)
  2  bad input: one line on stderr, nothing written (a FILE that is not a proofkit JSON output,
     unreadable, empty, larger than {MAX_BYTES >> 20} MiB; files of different kinds; matplotlib missing)"""


def add_commands(sub: Any, parser_class: type, add_max_work: Any) -> None:
    """Register ``plot``."""
    s = sub.add_parser("plot", help="a figure (PDF, SVG, PNG) of scan, sweep, check or figure-data JSON "
                       "files written by proofkit (docs/plotting.md)",
                       description="Draw proofkit's own JSON outputs as a paper-ready figure.", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("files", nargs="+", metavar="FILE",
                   help="scan --json, sweep --json or a sweep folder, check --json or check --all --json "
                        "(JSON lines), or a figure's data NAME.json from report --figures; several files "
                        "of one kind are drawn together")
    s.add_argument("--out", required=True, metavar="PATH",
                   help="where to write: PATH.pdf, PATH.svg and PATH.png; a PATH ending in .pdf, .svg or "
                        ".png writes that format only (the folder is created)")
    fmt = s.add_argument("--format", default=None, metavar="LIST", type=_formats,
                         help="comma-separated formats among pdf, svg, png (default: from --out, else all "
                              "three)")
    fmt.completions = plot.FORMATS  # what TAB offers (the value is a comma-separated list)
    s.add_argument("--title", default=None, metavar="TEXT", help="the figure's title (default: derived)")
    s.add_argument("--size", default=None, metavar="WxH", type=_size,
                   help=f"width x height in inches (default: {plot.COLUMN[0]} wide, a paper column; "
                        "the height follows the rows)")
    add_max_work(s)
    s.set_defaults(handler=cmd_plot)


def _formats(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(t.strip().lower() for t in text.split(",") if t.strip()))
    if not names or not set(names) <= set(plot.FORMATS):
        bad = next((n for n in names if n not in plot.FORMATS), "")
        raise argparse.ArgumentTypeError(f"expected a comma-separated list among {', '.join(plot.FORMATS)}"
                                         f"{did_you_mean(bad, plot.FORMATS)}, got {text[:40]!r}")
    return names


def _size(text: str) -> tuple[float, float]:
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*[xX]\s*([0-9]+(?:\.[0-9]+)?)\s*", text)
    if not m or not all(1.0 <= float(v) <= 20.0 for v in m.groups()):
        raise argparse.ArgumentTypeError(f"--size: expected WxH in inches, each in [1, 20], got "
                                         f"{text[:40]!r}")
    return float(m[1]), float(m[2])


def targets(out: str, fmts: tuple[str, ...] | None) -> tuple[Path, tuple[str, ...]]:
    """The base path and the formats: ``--format`` when given, else the suffix of ``--out`` when it is a
    format, else all three."""
    path = Path(out)
    if os.path.isdir(out):
        raise InputError("--out", "a file path, with or without .pdf, .svg or .png (not a folder)", out)
    suffix = path.suffix.lower().lstrip(".")
    base = path.with_suffix("") if suffix in plot.FORMATS else path
    if not base.name:
        raise InputError("--out", "a file path (PATH, PATH.pdf, ...)", out)
    return base, fmts or ((suffix,) if suffix in plot.FORMATS else plot.FORMATS)


_KIND_NAMES = {"strips": "scan or sweep", "checks": "check", "figure": "figure data"}


def cmd_plot(args: argparse.Namespace) -> int:
    plot.require()
    base, fmts = targets(args.out, args.format)
    fig = figure_of(args.files, args.title, args.size)
    from ..storage import atomic

    atomic.prepare_folder(base.parent, "--out", create=True)
    for path in plot.write(fig, base, fmts):
        print(path)
    return 0


def figure_of(files: Sequence[str], title: str | None = None, size: tuple[float, float] | None = None) -> Any:
    """The matplotlib figure of ``files`` (read, validated and drawn as the module docstring says)."""
    docs = [d for f in files for d in load(f)]
    kinds = {d.kind for d in docs}
    if len(kinds) > 1:
        raise InputError("FILE", "files of one kind (scans and sweeps, checks, or one figure's data)",
                         " and ".join(sorted(_KIND_NAMES[k] for k in kinds)))
    return _draw(kinds.pop(), docs, title, size)


def _draw(kind: str, docs: list[Doc], title: str | None, size: tuple[float, float] | None) -> Any:
    if kind == "figure":
        from . import figures

        if len(docs) > 1:
            raise InputError("FILE", "one figure-data file at a time", f"{len(docs)} files")
        data = docs[0].data
        fig = figures.figure(data["figure"], data)
        if size:
            fig.set_size_inches(*size)
        if title:
            fig.axes[0].set_title(title, loc="left")
        return fig
    if kind == "strips":
        strips = strips_of(docs)
        strips.title = title if title is not None else strips.title
        return plot.build(plot.strips, strips, size or plot.strip_size(strips))
    checks = [d.data for d in docs]
    if len(checks) == 1 and checks[0].get("claims"):
        doc = checks[0]
        items = [plot.Claim(c["name"], c["verdict"], c.get("expected"), str(c.get("residual", "")))
                 for c in doc["claims"]]
        head = title if title is not None else f"{_check_label(doc)}: {doc['verdict']}"
        return plot.build(plot.claims, (head, items), size or plot.claims_size(items))
    tallies = [plot.Tally(_check_label(d), d["verdict"], d.get("as_expected"), _count(d)) for d in checks]
    head = title if title is not None else f"{len(tallies)} checks: claims by verdict"
    return plot.build(plot.verdict_counts, (head, tallies), size or plot.counts_size(tallies))


def _count(doc: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in doc.get("claims", []):
        out[c["verdict"]] = out.get(c["verdict"], 0) + 1
    return out


def _check_label(doc: dict[str, Any]) -> str:
    sets = " ".join(f"{k}={v}" for k, v in sorted(doc.get("overrides", {}).items()))
    return " ".join(x for x in (doc.get("id", "(no id)"), sets) if x)


# ----------------------------------------------------------------------------------------------- loading
@dataclass
class Doc:
    """One plottable document: its kind (strips, checks, figure), the parsed data, where it came from;
    ``points``: a sweep folder's point files."""

    kind: str
    data: dict[str, Any]
    source: str
    points: list[dict[str, Any]] | None = None


def load(path: str) -> list[Doc]:
    """The documents of one FILE (several for JSON lines); InputError naming the file otherwise."""
    folder = Path(path)
    if os.path.isdir(path) and (folder / "sweep.json").is_file():
        path = str(folder / "sweep.json")
    raw = safejson.read_bytes(path, "FILE", MAX_BYTES)
    text = safejson.decode(raw, "FILE")
    if not text.strip():
        raise InputError("FILE", _PLOTTABLE, f"{path}: an empty file")
    try:
        objs = [safejson.loads(text, "FILE", max_bytes=MAX_BYTES)]
    except InputError as whole:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        if len(lines) < 2:
            raise InputError("FILE", whole.expected, path) from None
        objs = []
        for number, line in enumerate(lines, 1):
            try:
                objs.append(safejson.loads(line, "FILE", max_bytes=MAX_BYTES))
            except InputError:
                raise InputError("FILE", f"{whole.expected}, or JSON lines",
                                 f"{path} line {number}") from None
    return [_doc(obj, path if len(objs) == 1 else f"{path} line {i}") for i, obj in enumerate(objs, 1)]


def _stamp(obj: Any) -> str | None:
    if not isinstance(obj, dict):
        return None
    for key in (formats.OUTPUT_KEY, "format"):
        if isinstance(obj.get(key), str):
            return obj[key]
    return None


def _doc(obj: Any, source: str) -> Doc:
    stamp = _stamp(obj)
    if stamp is None:
        raise InputError("FILE", _PLOTTABLE, f"{source}: no \"schema\" or \"format\" stamp")
    if stamp == _POINT:
        raise InputError("FILE", "a whole sweep (its folder, sweep.json or sweep --json), not one point file",
                         source)
    if stamp not in _STAMPS:
        raise InputError("FILE", _PLOTTABLE, f"{source}: {stamp}")
    kind, schema = _STAMPS[stamp]
    if schema is not None:
        formats.validate(schema, obj, within=f"FILE {source}")
    if stamp == FIGURE_FORMAT:
        from . import figures

        try:
            figures.check_data(obj.get("figure"), obj)
        except InputError as exc:
            raise InputError(f"FILE {source} {exc.field}", exc.expected, exc.got) from None
    points = _points(Path(source).parent, source) if stamp == _SWEEP else None
    return Doc(kind, obj, source, points)


def _points(folder: Path, source: str) -> list[dict[str, Any]]:
    """The point files of a sweep folder (validated; ``*.json`` under ``points/``, in name order)."""
    where = folder / "points"
    files = sorted(where.glob("*.json")) if where.is_dir() else []
    if len(files) > MAX_POINTS:
        raise InputError("FILE", f"a sweep folder of at most {MAX_POINTS} point files", f"{source}: "
                         f"{len(files)}")
    out = []
    for f in files:
        body = safejson.load(f, "FILE", max_bytes=1 << 20)
        formats.validate("sweep-point", body, within=f"FILE {f}")
        out.append(body)
    return out


# ----------------------------------------------------------------------------------------------- strips
def strips_of(docs: Sequence[Doc]) -> plot.Strips:
    """The rows of scans and sweeps against their one shared parameter (InputError when they differ)."""
    groups = [_scan_rows(d) if d.data.get(formats.OUTPUT_KEY) == "scan/1" else _sweep_rows(d) for d in docs]
    params = {g[0] for g in groups}
    if len(params) > 1:
        raise InputError("FILE", "scans and sweeps along one parameter", ", ".join(sorted(map(str, params))))
    param = params.pop()
    rows = [r for g in groups for r in g[2]]
    values: list[Any] = list(dict.fromkeys(v for r in rows for v in r.status))
    if plot.numeric(values):
        values.sort()
    _distinct_labels(rows, [d.source for d, g in zip(docs, groups) for _ in g[2]])
    title = ", ".join(dict.fromkeys(g[1] for g in groups))
    return plot.Strips(param, quantity(groups[0][3], param), values, rows, title)


def _distinct_labels(rows: list[plot.Strip], sources: list[str]) -> None:
    """Rows of the same label (the same scan twice) get their file name appended."""
    seen: dict[str, int] = {}
    for r in rows:
        seen[r.label] = seen.get(r.label, 0) + 1
    for r, src in zip(rows, sources):
        if seen[r.label] > 1:
            r.label = f"{r.label} ({Path(src.split(' line ')[0]).name})"


def _scan_rows(doc: Doc) -> tuple[str, str, list[plot.Strip], str]:
    d = doc.data
    sets = re.findall(r"--set (\S+)", d.get("reproduce", ""))
    extra = [*sets, *([f"seed {d['seed']}"] if d["seed"] else []), *([f"dps {d['dps']}"] if d["dps"] != 60
                                                                       else [])]
    label = " ".join([d["id"], *extra])
    status = {r["value"]: r["status"] for r in d["rows"]}
    threshold = d["threshold"] if d["ordered"] else None
    how = "with search" if d["searched"] else "check only"
    return d["param"], f"scan, {how}", [plot.Strip(label, status, threshold)], d["id"]


def _sweep_rows(doc: Doc) -> tuple[str, str, list[plot.Strip], str]:
    """A sweep's rows: along its one numeric swept parameter (else its first), one row per combination
    of the other swept values (and seed, when several), with the threshold as ``sweep`` reads it."""
    from ..engine.scan import threshold

    d = doc.data
    if doc.points is None:  # the summary
        theorem, grid, seeds = d["theorem"], d["grid"], d["seeds"]
        points = [(r["grid"], r["seed"], r["status"]) for r in d["rows"]]
    else:
        spec = d["spec"]
        theorem, grid, seeds = spec["theorem"], spec["grid"], spec["seeds"]
        points = [({k: p["params"].get(k) for k in grid}, p["seed"], p["status"]) for p in doc.points
                  if p["theorem"] == theorem and p["seed"] in seeds and p["dps"] == spec["dps"]
                  and p["search"] == spec["search"] and all(p["params"].get(k) in v for k, v in grid.items())
                  and all(p["params"].get(k) == v for k, v in spec["fixed"].items())]
        points.sort(key=lambda pt: (*(grid[k].index(pt[0][k]) for k in grid), seeds.index(pt[1])))
    num = [k for k, v in grid.items() if plot.numeric(v)]
    param = num[0] if len(num) == 1 else next(iter(grid))
    rows: dict[str, plot.Strip] = {}
    for at, seed, status in points:
        others = [f"{k}={at[k]}" for k in grid if k != param] + ([f"seed {seed}"] if len(seeds) > 1 else [])
        label = " ".join([theorem, *others])
        rows.setdefault(label, plot.Strip(label, {})).status[at[param]] = status
    for row in rows.values():
        complete = len(row.status) == len(grid[param]) and "failed" not in row.status.values()
        if len(num) == 1 and complete:
            row.threshold = threshold(sorted(row.status.items()))
    how = "" if doc.points is None else ", with search" if d["spec"]["search"] else ", check only"
    return param, f"sweep{how}", list(rows.values()), theorem


def quantity(theorem_id: str, param: str) -> str:
    """What a theorem's parameter is, from its help text (``T`` of AM24.T4: "training length"), when the
    theorem is registered and the text is short; "" otherwise."""
    from ..language import registry

    try:
        text = registry.load_all()[theorem_id].params.get(param).help
    except (KeyError, InputError, AttributeError):
        return ""
    text = text.split(" (")[0].split(":")[0].strip()
    return text if 0 < len(text) <= 32 else ""
