"""``proofkit plot``: a user's own scan, sweep or check (and a figure's data) becomes a figure with one
command, in PDF, SVG and PNG, byte-identical on a rerun; every axis says its quantity, the legend lists
exactly the artists drawn, no curve hides another; bad input is one line and exit 2.

The inputs under ``data/`` were written by proofkit itself (``scan AM24.T4 --param T --values 1,2,3
--no-search --json``, the same with ``--set learned_dim=3``, ``check AM24.T4 --json``, two ``check --json``
lines as ``check --all --json`` prints them, a 6-point sweep folder and its ``--json`` summary, and
``rows_vs_bound.json`` of ``report --figures``); the slow test makes a scan live.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proofkit.interface.testing import run_cli as run

pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is not installed")

from proofkit.publish import figures, plot, plot_cli  # noqa: E402

DATA = Path(__file__).parent / "data"
SCAN, SCAN_K3 = DATA / "scan_am24_t4.json", DATA / "scan_am24_t4_k3.json"
CHECK, CHECK_ALL = DATA / "check_am24_t4.json", DATA / "check_all_two.jsonl"
SWEEP_SUMMARY, SWEEP_DIR = DATA / "sweep_summary.json", DATA / "sweep_am24_t4"
ROWS = DATA / "rows_vs_bound.json"
INPUTS = {"scan": [SCAN], "two scans": [SCAN, SCAN_K3], "check": [CHECK], "check --all": [CHECK_ALL],
          "sweep summary": [SWEEP_SUMMARY], "sweep folder": [SWEEP_DIR],
          "sweep manifest": [SWEEP_DIR / "sweep.json"], "scan and sweep": [SCAN, SWEEP_SUMMARY],
          "figure data": [ROWS]}
MAGIC = {"pdf": b"%PDF-", "svg": b"<?xml", "png": b"\x89PNG"}


def plot_files(capsys, files, out: Path, *extra: str):
    return run(capsys, "plot", *map(str, files), "--out", str(out), *extra)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_each_kind_is_one_command_to_three_formats_byte_identical(capsys, tmp_path, name):
    blobs = []
    for sub in ("a", "b"):
        code, out, err = plot_files(capsys, INPUTS[name], tmp_path / sub / "fig")
        assert code == 0, err
        paths = [Path(p) for p in out.split()]
        assert [p.name for p in paths] == ["fig.pdf", "fig.svg", "fig.png"]
        blobs.append([p.read_bytes() for p in paths])
    assert blobs[0] == blobs[1]  # deterministic: no dates, no version metadata
    for fmt, blob in zip(plot.FORMATS, blobs[0]):
        assert blob.startswith(MAGIC[fmt])
        assert b"CreationDate" not in blob and b"Matplotlib v" not in blob and b"matplotlib v" not in blob


def _labelled(fig):
    """The labelled artists of every axes, in legend order (lines, collections, containers per axes)."""
    out = []
    for ax in fig.axes:
        handles, labels = ax.get_legend_handles_labels()
        out += list(zip(labels, handles))
    return out


def _same_look(artist, handle) -> bool:
    from matplotlib.collections import PathCollection
    from matplotlib.colors import same_color
    from matplotlib.container import BarContainer
    from matplotlib.lines import Line2D

    if isinstance(artist, Line2D):
        return (same_color(artist.get_color(), handle.get_color())
                and artist.get_marker() == handle.get_marker()
                and artist.get_linestyle() == handle.get_linestyle())
    if isinstance(artist, PathCollection):
        return same_color(artist.get_facecolor()[0], handle.get_facecolor()[0])
    if isinstance(artist, BarContainer):
        return same_color(artist.patches[0].get_facecolor(), handle.get_facecolor())
    raise AssertionError(f"unexpected artist {artist!r}")


def _figures():
    out = {name: plot_cli.figure_of([str(f) for f in files]) for name, files in INPUTS.items()}
    for name in figures.FIGURES:
        data = json.loads(ROWS.read_text()) if name == "rows_vs_bound" else SMALL[name]
        out[f"built-in {name}"] = figures.figure(name, data)
    return out


SMALL = {
    "threshold_scans": {"param": "T", "values": [1, 2, 3], "dps": 60, "seed": 0, "missing": [],
                        "scans": [{"theorem": "X", "overrides": {}, "label": "X", "threshold": 2,
                                   "status": ["refuted", "holds", "holds"],
                                   "check_verdict": ["refuted", "certified", "certified"]}]},
    "residual_vs_precision": {"theorem": "X", "seed": 0, "dps": [30, 60], "log10_residual": [-30.1, -59.9],
                              "log10_tol": [-23.0, -45.0], "converged": [True, False], "missing": []},
}


def test_legends_list_exactly_the_drawn_artists_and_every_axis_is_labelled():
    for name, fig in _figures().items():
        assert len(fig.legends) == 1, name
        legend = fig.legends[0]
        texts = [t.get_text() for t in legend.get_texts()]
        labelled = _labelled(fig)
        assert texts == [label for label, _ in labelled], name
        for (_, artist), handle in zip(labelled, legend.legend_handles):
            assert _same_look(artist, handle), (name, texts)
        for ax in fig.axes:
            assert ax.get_xlabel().strip(), name
            shared = not any(t.get_visible() and t.get_text() for t in ax.get_yticklabels())
            assert ax.get_ylabel().strip() or shared, name
            assert ax.get_xlabel().strip() != "log10" and ax.get_ylabel().strip() != "log10", name
        assert fig.get_size_inches()[0] == plot.COLUMN[0], name  # a paper column


def test_rows_vs_bound_hides_no_curve():
    """dyck1 and anbn have the same bound, (N+1)^3: it was drawn twice, the second dashed curve exactly
    over the first, with two legend entries. Now one curve says so; every other curve is distinct."""
    data = json.loads(ROWS.read_text())
    bounds = {p["program"]: p["bound"] for p in data["programs"]}
    assert bounds["dyck1.crasp"] == bounds["anbn.crasp"]  # the data the figure has to show honestly
    fig = figures.figure("rows_vs_bound", data)
    (ax,) = fig.axes
    drawn = [(tuple(line.get_xdata()), tuple(line.get_ydata())) for line in ax.lines]
    assert len(drawn) == len(set(drawn)) == 5  # 3 row curves, 2 distinct bounds
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "dyck1 bound = anbn bound (equal at every N)" in texts and len(texts) == 5
    rows = [line for line in ax.lines if line.get_label().endswith(" rows")]
    looks = {(line.get_marker(), line.get_markersize()) for line in rows}
    assert len(looks) == len(rows)  # where rows meet (N = 1, 3, 5, 7) the nested markers show each


def test_lines_merges_only_curves_equal_everywhere():
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    artists = plot.lines(ax, [1, 2, 3], [plot.Curve("a", [1, 2, 3], "C0"), plot.Curve("b", [1, 2, 3], "C1"),
                                         plot.Curve("c", [1, 5, 3], "C2")], "x")
    assert [a.get_label() for a in artists] == ["a = b (equal at every x)", "c"]
    assert artists[0].get_gapcolor() is not None  # the merged dashes alternate both colors


def test_residual_axis_names_its_quantity():
    fig = figures.figure("residual_vs_precision", SMALL["residual_vs_precision"])
    (ax,) = fig.axes
    assert "residual" in ax.get_ylabel() and ax.get_yscale() == "log"
    assert "fit not converged" in [t.get_text() for t in fig.legends[0].get_texts()]


def test_out_suffix_and_format_choose_the_files(capsys, tmp_path):
    code, out, err = plot_files(capsys, [SCAN], tmp_path / "one.svg")
    assert code == 0, err
    assert out.split() == [str(tmp_path / "one.svg")]
    code, out, err = plot_files(capsys, [SCAN], tmp_path / "sub" / "two", "--format", "png,pdf")
    assert code == 0, err
    assert [Path(p).name for p in out.split()] == ["two.png", "two.pdf"]
    code, out, err = plot_files(capsys, [SCAN], tmp_path / "t", "--title", "my scan", "--size", "5x2")
    assert code == 0, err


def test_the_strips_carry_the_sweeps_statuses_and_thresholds():
    by_summary = plot_cli.strips_of(plot_cli.load(str(SWEEP_SUMMARY)))
    by_folder = plot_cli.strips_of(plot_cli.load(str(SWEEP_DIR)))
    assert by_summary.param == by_folder.param == "T" and by_folder.quantity == "training length"
    assert [(r.label, r.status, r.threshold) for r in by_summary.rows] == \
        [(r.label, r.status, r.threshold) for r in by_folder.rows]
    assert {r.label: r.threshold for r in by_folder.rows} == {"AM24.T4 activation=sigmoid": 2,
                                                              "AM24.T4 activation=tanh": 2}
    scans = plot_cli.strips_of([d for f in (SCAN, SCAN_K3) for d in plot_cli.load(str(f))])
    assert [(r.label, r.threshold) for r in scans.rows] == [("AM24.T4", 2), ("AM24.T4 learned_dim=3", 3)]


def test_check_all_lines_are_one_bar_per_theorem():
    fig = plot_cli.figure_of([str(CHECK_ALL)])
    (ax,) = fig.axes
    assert [t.get_text() for t in ax.get_yticklabels()] == ["AM24.T4: certified", "AM24.L1: confirmed"]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


BAD = {
    "unknown stamp": ('{"schema": "bench/9", "rows": []}', "bench/9"),
    "no stamp": ('{"rows": []}', "no \"schema\" or \"format\" stamp"),
    "another format": ('{"format": "proofkit-counterexample/1"}', "proofkit-counterexample/1"),
    "not JSON": ("{not json", "valid JSON"),
    "empty": ("", "an empty file"),
    "JSON lines, one bad": ('{"schema": "check/2"}\n{oops\n', "line 2"),
    "scan missing rows": ('{"schema": "scan/1", "id": "X"}', "FILE"),
    "a figure with short lists": ('{"format": "proofkit-figure/1", "figure": "rows_vs_bound", "N": [1, 2], '
                                  '"programs": [{"program": "p", "rows": [1], "bound": [1, 2]}]}', "rows"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, case):
    text, needle = BAD[case]
    code, out, err = plot_files(capsys, [_write(tmp_path, "in.json", text)], tmp_path / "fig")
    _one_line(code, out, err, needle)
    assert not list(tmp_path.glob("fig*"))


@pytest.mark.parametrize("case", ["missing", "directory", "point file", "mixed kinds", "too big",
                                  "out is a folder"])
def test_bad_files_are_one_line_and_exit_2(capsys, tmp_path, monkeypatch, case):
    files, needle = {"missing": ([tmp_path / "nope.json"], "an existing file"),
                     "directory": ([tmp_path], "a folder"),
                     "point file": ([next((SWEEP_DIR / "points").glob("*.json"))], "not one point file"),
                     "mixed kinds": ([SCAN, CHECK], "check and scan or sweep"),
                     "too big": ([CHECK], "at most 1000 bytes"),
                     "out is a folder": ([SCAN], "--out")}[case]
    if case == "too big":
        monkeypatch.setattr(plot_cli, "MAX_BYTES", 1000)
    code, out, err = plot_files(capsys, files, tmp_path if case == "out is a folder" else tmp_path / "fig")
    _one_line(code, out, err, needle)


def test_bad_options_and_missing_matplotlib(capsys, tmp_path, monkeypatch):
    code, out, err = plot_files(capsys, [SCAN], tmp_path / "f", "--format", "jpg")
    _one_line(code, out, err, "--format")
    code, out, err = plot_files(capsys, [SCAN], tmp_path / "f", "--size", "0x2")
    _one_line(code, out, err, "--size")
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    code, out, err = plot_files(capsys, [SCAN], tmp_path / "f")
    _one_line(code, out, err, 'pip install "proofkit[plot]"')


def _one_line(code, out, err, needle):
    assert code == 2, (out, err)
    assert "Traceback" not in err and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("proofkit:"), err
    assert needle in lines[0], (needle, lines[0])


def test_report_figures_write_pdf_svg_and_png_with_stamped_data(tmp_path, monkeypatch):
    monkeypatch.setattr(figures, "FIGURES", {"residual_vs_precision": (
        lambda jobs: {"format": figures.FORMAT, "figure": "residual_vs_precision",
                      **SMALL["residual_vs_precision"]}, figures.FIGURES["residual_vs_precision"][1])})
    paths = figures.write_all(tmp_path)
    assert [p.name for p in paths] == [f"residual_vs_precision.{x}" for x in ("json", "pdf", "svg", "png")]
    assert plot_cli.load(str(paths[0]))[0].kind == "figure"  # proofkit plot redraws it


@pytest.mark.slow
def test_a_live_scan_becomes_a_figure(capsys, tmp_path):
    code, out, err = run(capsys, "scan", "AM24.T4", "--param", "T", "--values", "1,2,3", "--no-search",
                         "--json", "-q")
    assert code == 0, err
    scan = _write(tmp_path, "scan.json", out)
    code, out, err = plot_files(capsys, [scan], tmp_path / "fig", "--format", "png")
    assert code == 0, err
    strips = plot_cli.strips_of(plot_cli.load(str(scan)))
    assert strips.rows[0].status == {1: "refuted", 2: "holds", 3: "holds"} and strips.rows[0].threshold == 2


def test_a_sweep_folder_and_its_summary_draw_the_same_figure(capsys, tmp_path):
    blobs = []
    for src in (SWEEP_DIR, SWEEP_SUMMARY):
        code, out, err = plot_files(capsys, [src], tmp_path / src.stem, "--format", "png", "--title", "sweep")
        assert code == 0, err
        blobs.append(Path(out.strip()).read_bytes())
    assert blobs[0] == blobs[1]


def test_help_ends_with_examples_and_exit_codes(capsys):
    code, out, _ = run(capsys, "plot", "--help")
    assert code == 0
    examples, codes = out.index("examples:"), out.index("exit codes:")
    assert examples < codes and "\n  2  bad input" in out[codes:]
    lines = out[examples:codes].splitlines()[1:]
    assert all(not line.strip() or line.startswith("  proofkit ") for line in lines)


def test_claims_off_the_log_axis_sit_in_the_column_that_says_why():
    """Exactly 0, a symbolic residual, an undefined one (a relation that cannot be evaluated as written:
    drawn as 'sym' before, which read as settled by sympy) and one past the float range each have their
    own column of the side panel."""
    items = [plot.Claim("zero", "certified", None, "0"), plot.Claim("symbolic", "certified", None, "True"),
             plot.Claim("undefined", "inconclusive", None, "undefined"),
             plot.Claim("huge", "inconclusive", None, "3.42e+387"),
             plot.Claim("small", "certified", None, "1e-50")]
    with plot.style():
        fig = plot.figure()
        plot.claims(fig, ("T", items))
    main, side = fig.axes[:2]
    placed = {int(round(y)): x for coll in side.collections for x, y in coll.get_offsets()}
    assert placed == {0: 0, 1: 1, 2: 2, 3: 3}  # claim row -> column 0 | sym | undef | >1e308
    assert [t.get_text() for t in side.get_xticklabels()] == ["0", "sym", "undef", ">1e308"]
    assert [tuple(p) for coll in main.collections for p in coll.get_offsets()] == [(1e-50, 4)]
