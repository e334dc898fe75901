"""The plotting engine of ``proofkit plot`` and ``proofkit report --figures``: one style, one writer.

Why one module: every figure proofkit draws (a user's scan, sweep or check, and the built-in figures of
:mod:`proofkit.publish.figures`) is sized for a paper column, labels every axis with its quantity, builds
its legend only from what it drew, and is written byte-for-byte reproducibly, so a figure in a paper can
be regenerated and compared. matplotlib (the optional ``plot`` extra) is imported inside the functions
only, and only its object API (``matplotlib.figure.Figure`` with the Agg-based savers): no pyplot, no
global figure state; the style is applied with ``matplotlib.rc_context`` around drawing and saving.

Deterministic bytes: PDF without creation date, producer or creator; SVG without date or creator and with
a fixed ``svg.hashsalt`` (its element ids); PNG without the ``Software`` chunk. The same data and the same
matplotlib and font give the same bytes.

- :func:`strips`: status per parameter value (a scan, a sweep), one row per series, the threshold marked.
- :func:`claims`: per-claim verdicts of one check against the claim's residual; :func:`verdict_counts`:
  the claims of several checks per verdict, one bar per theorem.
- :func:`lines`: curves against a shared x, where coincident curves are drawn once under one legend entry
  that says so and partly coincident ones get distinct nested markers (used by the built-in figures).
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..storage import atomic

HINT = 'matplotlib, the plot extra: pip install "proofkit[plot]"'
#: the output formats, in the order they are written
FORMATS = ("pdf", "svg", "png")
#: a one-column figure of a two-column paper, inches (width, default height)
COLUMN = (3.4, 2.4)
#: raster resolution of the PNG (dots per inch): print quality at column width (1020 pixels wide)
DPI = 300
#: the shared style: small readable fonts for a column, thin lines, fonts embedded as TrueType (PDF) and as
#: paths (SVG) so the figure looks the same without the font installed
RC = {"font.family": "DejaVu Sans", "font.size": 7.0, "axes.titlesize": 7.0, "axes.labelsize": 7.0,
      "xtick.labelsize": 6.5, "ytick.labelsize": 6.5, "legend.fontsize": 6.5, "axes.linewidth": 0.6,
      "lines.linewidth": 1.0, "lines.markersize": 4.0, "xtick.major.width": 0.6, "ytick.major.width": 0.6,
      "legend.frameon": False, "pdf.fonttype": 42, "svg.fonttype": "path", "svg.hashsalt": "proofkit",
      "figure.dpi": 100, "savefig.dpi": DPI}
_METADATA = {"pdf": {"Creator": None, "Producer": None, "CreationDate": None},
             "svg": {"Creator": None, "Date": None}, "png": {"Software": None}}
#: a scan value's or sweep point's status: color and marker (never color alone)
STATUS = {"holds": ("#2e7d32", "o"), "refuted": ("#c62828", "X"), "inconclusive": ("#757575", "D"),
          "failed": ("#000000", "x")}
#: a claim's verdict: color and marker
VERDICT = {"certified": ("#1b5e20", "o"), "confirmed": ("#81c784", "s"), "refuted": ("#c62828", "X"),
           "inconclusive": ("#9e9e9e", "D")}
#: characters of a row or claim label on an axis (longer ones end in "...")
MAX_LABEL = 34
_MARKERS = ("o", "s", "^", "D", "v", "P")
_LINESTYLES = ("-", "--", ":", "-.")


def require() -> None:
    """Bad input naming the extra when matplotlib is not installed (checked before any work starts)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError("matplotlib", HINT, "not installed") from None


@contextlib.contextmanager
def style() -> Iterator[None]:
    """The shared style, for drawing and saving (restored afterwards)."""
    import matplotlib

    with matplotlib.rc_context(RC):
        yield


def figure(width: float = COLUMN[0], height: float = COLUMN[1]) -> Any:
    """A new figure (no pyplot), laid out so that labels and the legend are never clipped."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def render(fig: Any, fmt: str) -> bytes:
    """The figure in ``fmt`` (pdf, svg, png) without dates or version metadata."""
    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format=fmt, metadata=_METADATA[fmt], dpi=DPI)
    return buf.getvalue()


def build(draw: Callable[[Any, Any], None], data: Any, size: tuple[float, float] = COLUMN) -> Any:
    """A figure of ``size`` drawn by ``draw(fig, data)`` in the shared style."""
    with style():
        fig = figure(*size)
        draw(fig, data)
    return fig


def write(fig: Any, base: Path, formats: Sequence[str], field: str = "--out") -> list[Path]:
    """``base.<fmt>`` for each format, each atomically (``storage.atomic``); the paths written."""
    return [atomic.write_file(base.with_name(f"{base.name}.{fmt}"), render(fig, fmt), field)
            for fmt in formats]


def short(text: str, limit: int = MAX_LABEL) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def legend(fig: Any, axes: Any, ncols: int = 4) -> Any:
    """A legend below the axes listing exactly the labelled artists of ``axes`` (one or several; none
    when nothing is labelled), in as many columns (at most ``ncols``) as fit the figure's width."""
    handles: list[Any] = []
    labels: list[str] = []
    for ax in axes if isinstance(axes, (list, tuple)) else (axes,):
        h, lab = ax.get_legend_handles_labels()
        handles, labels = handles + h, labels + lab
    if not handles:
        return None
    return fig.legend(handles, labels, loc="outside lower center", ncols=_columns(labels, fig, ncols),
                      handletextpad=0.4, columnspacing=1.0)


def _columns(labels: Sequence[str], fig: Any, most: int) -> int:
    """The most columns (<= ``most``) whose entries fit the figure's width (matplotlib fills the columns
    first; a character of the legend font is about 0.6 of its size wide, a handle about 4 characters)."""
    import matplotlib

    budget = fig.get_figwidth() * 72 / (0.6 * float(matplotlib.rcParams["legend.fontsize"])) - 4
    for ncols in range(min(most, len(labels)), 1, -1):
        rows = -(-len(labels) // ncols)
        cols = [labels[i:i + rows] for i in range(0, len(labels), rows)]
        if sum(max(map(len, c)) + 6 for c in cols) <= budget:
            return ncols
    return 1


def decade_ticks(ax: Any, axis: str = "y", most: int = 7) -> None:
    """Major ticks of a log axis at every k-th power of ten, k from 1, 2, 5, 10, 20, 25, 50, 100 (the first
    that gives at most ``most`` ticks), so the exponents read evenly."""
    from matplotlib.ticker import FixedLocator, NullLocator

    lo, hi = ax.get_ylim() if axis == "y" else ax.get_xlim()
    a, b = math.floor(math.log10(min(lo, hi))), math.ceil(math.log10(max(lo, hi)))
    step = next((k for k in (1, 2, 5, 10, 20, 25, 50, 100) if (b - a) // k + 1 <= most), 100)
    ticks = [10.0 ** e for e in range(b - b % step, a - 1, -step) if a <= e <= b]
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_locator(FixedLocator(ticks))
    target.set_minor_locator(NullLocator())


# ----------------------------------------------------------------------------------------------- strips
@dataclass
class Strip:
    """One row of a strip figure: a scan, or one group of a sweep's points (the other swept values)."""

    label: str
    status: dict[Any, str]  # value -> holds / refuted / inconclusive / failed
    threshold: Any = None


@dataclass
class Strips:
    """Rows of statuses against one parameter's values (``values`` in drawing order)."""

    param: str
    quantity: str  # what the parameter is, e.g. "training length" ("" when unknown)
    values: list[Any]
    rows: list[Strip] = field(default_factory=list)
    title: str = ""


def numeric(values: Sequence[Any]) -> bool:
    """Every value a number (a bool is not)."""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def strip_size(data: Strips) -> tuple[float, float]:
    return COLUMN[0], max(1.7, 1.15 + 0.24 * len(data.rows))


def strips(fig: Any, data: Strips) -> None:
    """One marker per (row, value) in the status's color and shape; a vertical bar before each row's
    threshold value (from there on every value holds); the values as categories in order."""
    ax = fig.add_subplot()
    pos = {v: i for i, v in enumerate(data.values)}
    for status, (color, marker) in STATUS.items():
        cells = [(pos[v], y) for y, row in enumerate(data.rows) for v, s in row.status.items() if s == status]
        if cells:
            ax.scatter([c[0] for c in cells], [c[1] for c in cells], s=42, marker=marker, color=color,
                       edgecolors="none" if marker != "x" else None, label=status, zorder=3)
    xs: list[float] = []
    ys: list[float] = []
    for y, row in enumerate(data.rows):
        if row.threshold is not None and row.threshold in pos:
            x = pos[row.threshold] - 0.5
            xs += [x, x, math.nan]
            ys += [y - 0.38, y + 0.38, math.nan]
    if xs:
        ax.plot(xs, ys, "-", color="#1565c0", linewidth=1.6, label="threshold (all hold from here on)",
                zorder=2)
    ax.set_xticks(range(len(data.values)), [short(v, 12) for v in data.values])
    ax.set_yticks(range(len(data.rows)), [short(r.label) for r in data.rows])
    ax.set_xlim(-0.6, len(data.values) - 0.4)
    ax.set_ylim(len(data.rows) - 0.5, -0.5)
    ax.grid(axis="y", color="#e0e0e0", linewidth=0.5, zorder=0)
    ax.tick_params(axis="y", length=0)
    what = f" ({data.quantity})" if data.quantity else ""
    ax.set_xlabel(f"{data.param}{what}")
    ax.set_ylabel("series")
    if data.title:
        ax.set_title(data.title)
    legend(fig, ax, ncols=4)


# ----------------------------------------------------------------------------------------------- checks
@dataclass
class Claim:
    """One claim of a check: its name, verdict, expected verdict and residual as reported (a string)."""

    name: str
    verdict: str
    expected: str | None
    residual: str


def residual_value(text: Any) -> float | None:
    """|residual| as a float: 0.0 for an exact zero, None where it is no number (a symbolic expression,
    ``True``, empty)."""
    if isinstance(text, bool) or text is None:
        return None
    try:
        value = abs(float(text))
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def claims_size(items: Sequence[Claim]) -> tuple[float, float]:
    return COLUMN[0], max(COLUMN[1], 1.1 + 0.15 * len(items))


def claims(fig: Any, data: tuple[str, Sequence[Claim]]) -> None:
    """One check: each claim (top to bottom as the theorem lists them) at its |residual| on a log axis,
    in its verdict's color and shape; claims whose residual is exactly 0 ("0"), no float (a symbolic
    expression or ``True``: "sym"), undefined (the relation could not be evaluated as written, or no
    residual at all: "undef") or past the float range (">1e308") are in a narrow panel of their own (a
    log axis has no place for them). A
    claim whose verdict is not the expected one ends in ``(expected V)``."""
    title, items = data
    main, side = fig.subplots(1, 2, sharey=True, width_ratios=[3, 1])
    def side_col(value: float | None, residual: str) -> int:
        text = residual.strip().lower()
        if value == 0.0:
            return 0
        if text in ("", "none") or "undefined" in text:
            return 2
        try:  # a number past the float range (3.42e+387): beyond the log axis, not symbolic
            return 3 if abs(float(text)) == math.inf else 1
        except ValueError:
            return 1

    labelled: set[str] = set()
    for verdict, (color, marker) in VERDICT.items():
        picked = [(y, c) for y, c in enumerate(items) if c.verdict == verdict]
        if not picked:
            continue
        num = [(residual_value(c.residual), y) for y, c in picked]
        on_log = [(v, y) for v, y in num if v]
        off = [(side_col(v, c.residual), y) for (v, y), (_, c) in zip(num, picked) if not v]
        for ax, pts in ((main, on_log), (side, off)):
            if pts:
                label = verdict if verdict not in labelled else "_nolegend_"
                labelled.add(verdict)
                ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=26, marker=marker, color=color,
                           edgecolors="none", label=label, zorder=3)
    names = [short(c.name if not c.expected or c.expected == c.verdict else f"{c.name} (expected "
                   f"{c.expected})", 32) for c in items]
    main.set_yticks(range(len(items)), names)
    main.set_ylim(len(items) - 0.5, -0.5)
    main.set_xscale("log")
    if not main.collections:
        main.set_xlim(1e-60, 1)
    decade_ticks(main, "x", most=4)
    main.set_xlabel("|residual| (dimensionless)")
    main.set_ylabel("claim")
    main.grid(axis="y", color="#eeeeee", linewidth=0.5, zorder=0)
    main.tick_params(axis="y", length=0)
    # exactly 0; symbolic or boolean; undefined or none; a number past the float range
    side.set_xticks(range(4), ["0", "sym", "undef", ">1e308"], rotation=90)
    side.set_xlim(-0.7, 3.7)
    side.set_xlabel("off the axis")
    side.tick_params(axis="y", length=0)
    side.grid(axis="y", color="#eeeeee", linewidth=0.5, zorder=0)
    main.set_title(title, loc="left")
    legend(fig, [main, side])


@dataclass
class Tally:
    """One theorem of several checks: its overall verdict, whether it is the expected one, and how many
    of its claims have each verdict."""

    theorem: str
    verdict: str
    as_expected: bool | None
    counts: dict[str, int]


def counts_size(items: Sequence[Tally]) -> tuple[float, float]:
    return COLUMN[0], max(COLUMN[1], 1.1 + 0.17 * len(items))


def verdict_counts(fig: Any, data: tuple[str, Sequence[Tally]]) -> None:
    """Several checks: one horizontal bar per theorem, split into its claims per verdict."""
    title, items = data
    ax = fig.add_subplot()
    left = [0] * len(items)
    for verdict, (color, _) in VERDICT.items():
        widths = [t.counts.get(verdict, 0) for t in items]
        if any(widths):
            ax.barh(range(len(items)), widths, left=left, height=0.7, color=color, label=verdict,
                    edgecolor="white", linewidth=0.4)
            left = [a + b for a, b in zip(left, widths)]
    names = [short(f"{t.theorem}: {t.verdict}" + (" (not as expected)" if t.as_expected is False else ""))
             for t in items]
    ax.set_yticks(range(len(items)), names)
    ax.set_ylim(len(items) - 0.5, -0.5)
    ax.set_xlabel("claims (count) by verdict")
    ax.set_ylabel("theorem: verdict")
    ax.tick_params(axis="y", length=0)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_title(title, loc="left")
    legend(fig, ax, ncols=4)


# ----------------------------------------------------------------------------------------------- curves
@dataclass
class Curve:
    """One curve for :func:`lines`: label, y values (None: no point there), color and line style."""

    label: str
    y: Sequence[float | None]
    color: str
    linestyle: str = "-"
    marker: bool = True


def lines(ax: Any, x: Sequence[Any], curves: Sequence[Curve], xname: str) -> list[Any]:
    """Draw ``curves`` against ``x``. Curves equal at every x are drawn once, as one artist under one
    legend entry that names them all and says so ("a = b (equal at every N)"; for two, the dashes
    alternate their two colors); curves that meet at some x get nested hollow markers of decreasing size
    and distinct shapes, so a point where they meet shows every curve. The artists drawn."""
    groups: dict[tuple[Any, ...], list[Curve]] = {}
    for c in curves:
        groups.setdefault(tuple(c.y), []).append(c)
    artists = []
    for k, members in enumerate(groups.values()):
        first = members[0]
        label = first.label if len(members) == 1 else (
            " = ".join(m.label for m in members) + f" (equal at every {xname})")
        extra: dict[str, Any] = {}
        if len(members) == 2 and members[1].color != first.color:
            extra = {"gapcolor": members[1].color}
        style = first.linestyle if not extra or first.linestyle != "-" else "--"
        ys = [math.nan if v is None else v for v in first.y]
        marker = dict(marker=_MARKERS[k % len(_MARKERS)], markersize=max(2.5, 6.0 - 1.1 * k),
                      markerfacecolor="none", markeredgewidth=0.9) if first.marker else {}
        (line,) = ax.plot(x, ys, linestyle=style, color=first.color, label=label, **marker, **extra)
        artists.append(line)
    return artists


def linestyle(k: int) -> str:
    """The k-th line style of the cycle (solid, dashed, dotted, dash-dot)."""
    return _LINESTYLES[k % len(_LINESTYLES)]
