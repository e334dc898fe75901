"""``proofkit report`` (issue 15): the verdict table of encoded results as real columns in Markdown,
CSV and JSON with their provenance (issue 28), record links that open from where the table is written,
the paper tables behind --tables, and the figures (matplotlib, the plot extra). The LaTeX form:
tests/publish/test_report_latex.py."""

from __future__ import annotations

import argparse
import contextlib
import csv
import hashlib
import io
import json
import re
import sys
from pathlib import Path

import pytest

from proofkit import __version__
from proofkit.errors import InputError
from proofkit.interface.cli import add_max_work
from proofkit.language import registry
from proofkit.language.verdict import ClaimResult, Erratum, TheoremResult, Verdict
from proofkit.publish import env, figures, render, table
from proofkit.publish.cli import REPORT_STEM, add_report_arguments
from proofkit.publish.records import Stored
from proofkit.runtime import progress

ROOT = Path(__file__).resolve().parents[2]
#: cheap theorems (well under a second each) covering exact, ball and sampled evidence, records and none
CHEAP = ("AM24.L1", "AM24.EX1", "INL25.P37", "R24.T31")


def report(*argv: str) -> tuple[int, str, str]:
    """``proofkit report ARGS`` through the report parser this package defines, as cli.main runs a
    handler: bad input is one line and exit 2."""
    p = argparse.ArgumentParser(prog="proofkit")
    s = p.add_subparsers(dest="cmd").add_parser("report")
    add_report_arguments(s)
    add_max_work(s)
    args = p.parse_args(["report", *argv])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), progress.reporting(False):
        try:
            code = args.handler(args)
        except InputError as exc:
            print(f"proofkit: bad input: {exc}", file=sys.stderr)
            code = 2
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Every format of the report of CHEAP, written once into a folder."""
    out = tmp_path_factory.mktemp("report")
    code, stdout, err = report(*CHEAP, "--format", "md,latex,csv,json", "--out", str(out))
    assert code == 0, err
    assert stdout.split() == [str(out / f"{REPORT_STEM}.{ext}") for ext in ("md", "tex", "csv", "json")]
    return out


@pytest.fixture(scope="module")
def rows(written):
    return json.loads((written / f"{REPORT_STEM}.json").read_text(encoding="utf-8"))


def test_json_rows_are_real_columns_one_per_claim(rows):
    from proofkit.engine.check import check

    assert [r["theorem"] for r in rows] == sorted([r["theorem"] for r in rows], key=CHEAP.index)
    for tid in CHEAP:
        thm, res = registry.get(tid), check(registry.get(tid))
        mine = [r for r in rows if r["theorem"] == tid]
        assert [(r["claim"], r["role"], r["verdict"]) for r in mine] == \
            [(c.name, c.role, str(c.verdict)) for c in res.claims]
        assert {r["paper"] for r in mine} == {thm.paper.paper}
        assert all(r["section"].startswith(thm.paper.section) for r in mine)
    assert all(set(r) == {name for name, _ in table.COLUMNS} | set(table.EXTRA) for r in rows)
    assert all(isinstance(r["certified"], bool) for r in rows)
    assert {(r["seed"], r["dps"], r["proofkit"], r["commit"]) for r in rows} == \
        {(0, 60, __version__, env.git()["commit"])}
    assert {r["theorem"]: r["bibkey"] for r in rows} == {t: registry.get(t).paper.bibkey for t in CHEAP}
    assert {r["precision"] for r in rows} >= {"exact", "dps 60"}


def _md_links(text: str) -> list[str]:
    """The targets of the Markdown links of a table (``<...>`` unwrapped)."""
    return [t[1:-1] if t.startswith("<") else t for t in re.findall(r"\]\((<[^>]*>|[^)\s]*)\)", text)]


def test_records_are_linked_relative_to_the_output_folder(rows, written):
    linked = [(r["theorem"], rec["path"]) for r in rows for rec in r["records"]]
    stored = {p.name: json.loads(p.read_text())["theorem"] for p in (ROOT / "counterexamples").glob("*.json")}
    assert sorted(Path(p).name for _, p in linked) == sorted(n for n, t in stored.items() if t in CHEAP)
    for tid, path in linked:
        assert not Path(path).is_absolute() and (written / path).resolve().is_file()
        assert stored[Path(path).name] == tid
    md_links = _md_links((written / f"{REPORT_STEM}.md").read_text(encoding="utf-8"))
    assert sorted(md_links) == sorted(p for _, p in linked)  # each opens from the folder it is in
    assert all((written / link).resolve().is_file() for link in md_links)


def test_links_on_stdout_are_relative_to_the_current_folder(tmp_path, monkeypatch):
    here = tmp_path / "some" / "where"
    here.mkdir(parents=True)
    monkeypatch.chdir(here)
    code, out, err = report("AM24.L1", "AM24.EX1", "--format", "md")
    assert code == 0, err
    links = _md_links(out)
    assert links and all(not Path(p).is_absolute() and (here / p).resolve().is_file() for p in links)


def test_markdown_opens_with_the_provenance(written, monkeypatch):
    first = (written / f"{REPORT_STEM}.md").read_text(encoding="utf-8").splitlines()[0]
    assert f"proofkit {__version__} (" in first and "seed 0, working precision 60 decimal digits" in first
    assert ("commit unknown" in first) == (env.git()["commit"] == env.UNKNOWN_COMMIT)
    monkeypatch.setattr(env, "git", lambda: {"commit": env.UNKNOWN_COMMIT, "dirty": None})
    prov = table.provenance()
    assert prov == table.Provenance(__version__, env.UNKNOWN_COMMIT, None)
    assert "(commit unknown (installed package))" in render.to_markdown([], prov).splitlines()[0]


def test_every_format_is_byte_identical_run_to_run(written, tmp_path):
    code, _, err = report(*CHEAP, "--format", "md,latex,csv,json", "--out", str(tmp_path))
    assert code == 0, err
    for name in (f"{REPORT_STEM}.{ext}" for ext in ("md", "tex", "csv", "json")):
        assert (tmp_path / name).read_bytes() == (written / name).read_bytes()


def test_csv_and_markdown_carry_the_same_cells(rows, written):
    lines = list(csv.reader(io.StringIO((written / f"{REPORT_STEM}.csv").read_text(encoding="utf-8"))))
    assert lines[0] == [title for _, title in table.COLUMNS] + list(table.EXTRA)
    assert len(lines) == len(rows) + 1
    for line, r in zip(lines[1:], rows):
        assert line[:6] == [r["theorem"], r["paper"], r["section"], r["claim"], r["role"], r["verdict"]]
        assert line[6:8] == [r["finding"], r["scope"]]
        assert line[9] == ("yes" if r["certified"] else "no")
        assert line[12] == "; ".join(rec["path"] for rec in r["records"])
        assert line[13:17] == [r["bibkey"], "0", "60", __version__] and line[17] == r["commit"]
    md = (written / f"{REPORT_STEM}.md").read_text(encoding="utf-8").splitlines()
    assert len(md) == len(rows) + 4 and md[1] == ""
    for line in md[2:]:  # every row has exactly the columns' cells: no unescaped pipe inside a cell
        assert len(re.findall(r"(?<!\\)\|", line)) == len(table.COLUMNS) + 1
    assert "[drop regular-closed](" in "\n".join(md)


TRICKY = r"a_b & 50% $x$ #1 {y} ~ ^ \ <|> --drop – Λ̃ ψ ≤ naïve “q” … x₀ 日"


def test_markdown_and_csv_survive_every_special_and_unicode():
    row = table.Row("X.T1", TRICKY, TRICKY, TRICKY, "conclusion", "refuted", "erratum", TRICKY, "exact", True,
                    TRICKY, TRICKY,
                    (table.RecordLink("counterexamples/X.T1_drop-A_1.json", ("A_1",)),))
    prov = table.Provenance("0.0", "abc", False)
    md = render.to_markdown([row], prov).splitlines()[4]
    assert len(re.findall(r"(?<!\\)\|", md)) == len(table.COLUMNS) + 1
    assert list(csv.reader(io.StringIO(render.to_csv([row], prov))))[1][1] == TRICKY


def _claim(how: str, verdict: Verdict, name: str = "c") -> ClaimResult:
    return ClaimResult(name, "s", "identification", verdict, None, how)


@pytest.mark.parametrize("how, verdict, precision, certified", [
    ("ball bound 8.29e-61 <= 1.0e-40", Verdict.CERTIFIED, "ball", True),
    ("exact: sympy simplifies the residual to zero", Verdict.CERTIFIED, "exact", True),
    ("relative residual 0.2; Krawczyk: an exact zero exists", Verdict.REFUTED, "ball", True),
    ("uncertified: the residual exceeds its fit error; ball bound", Verdict.REFUTED, "ball", False),
    ("float64 (robust comparison) equals the interpreter", Verdict.CONFIRMED, "float64", False),
    ("sampled max 2.1e-58 on 60 sequences", Verdict.CONFIRMED, "dps 60", False),
    ("sampled gap 0.3", Verdict.REFUTED, "dps 60", False),
])
def test_precision_and_certified_are_read_from_the_evidence(how, verdict, precision, certified):
    c = _claim(how, verdict)
    assert table.precision(c, 60) == precision
    assert table.certified(c, precision) is certified


def test_errata_and_unmatched_records_land_on_their_rows(tmp_path):
    thm = registry.get("AM24.T4")
    printed = next(c for c in thm.claims if c.name == "B~ = B C (as printed)")
    claims = [ClaimResult("length generalization", "x", "conclusion", Verdict.CERTIFIED, None, "ball bound"),
              ClaimResult(printed.name, printed.statement(), "identification", Verdict.REFUTED, None, "ball")]
    res = TheoremResult("AM24.T4", Verdict.REFUTED, claims, [Erratum(printed.statement(), "Bt = C*B", "6e-61",
                                                                      "factors reordered")], 60, 0, {})
    rec = {"theorem": "AM24.T4", "claim": "not a claim checked at the defaults", "dropped": ["A8"]}
    out = table.rows(thm, res, [Stored(tmp_path / "r.json", rec)], tmp_path)
    assert out[1].errata == \
        f"printed {printed.statement()}, holds Bt = C*B (residual 6e-61, factors reordered)"
    assert out[0].errata == "" and out[0].records == (table.RecordLink("r.json", ("A8",)),)


@pytest.mark.parametrize("argv, field", [
    (["AM24.L1", "--format", "xml"], "--format"),
    (["AM24.L1", "--format", "md,csv"], "--format"),
    (["AM24.L1", "--figures"], "--figures"),
    (["AM24.L1", "--json", "--format", "csv"], "--json"),
    (["AM24.L1", "--tables", "--format", "md"], "--tables"),
    (["AM24.L1", "--standalone"], "--standalone"),
    (["NOPE.T1"], "theorem id"),
])
def test_bad_report_input_is_one_line_exit_2(argv, field):
    code, out, err = report(*argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"proofkit: bad input: {field}")


def test_figures_without_matplotlib_name_the_extra_before_any_check(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    monkeypatch.setattr(registry, "load_all", lambda *a: pytest.fail("checks ran before the refusal"))
    code, out, err = report("--figures", "--out", str(tmp_path))
    assert code == 2 and out == "" and 'pip install "proofkit[plot]"' in err


def test_tables_keep_the_former_paper_table_output():
    code, out, err = report("--tables", "AM24.L1")
    assert code == 0, err
    assert out.startswith("AM24.L1: ") and "S1 gradient transfers" in out
    code, out, _ = report("--tables", "--json", "AM24.L1")
    assert code == 0 and json.loads(out)[0]["id"] == "AM24.L1"


def test_stdout_gets_one_format():
    code, out, err = report("AM24.L1", "--format", "csv")
    assert code == 0, err
    assert out.splitlines()[0] == ",".join([title for _, title in table.COLUMNS] + list(table.EXTRA))


SMALL = {
    "threshold_scans": {"param": "T", "values": [1, 2], "dps": 60, "seed": 0, "missing": [],
                        "scans": [{"theorem": "X", "overrides": {}, "label": "X", "threshold": 2,
                                   "status": ["refuted", "holds"],
                                   "check_verdict": ["refuted", "certified"]}]},
    "rows_vs_bound": {"N": [1, 2, 3], "missing": [],
                      "programs": [{"program": "p.crasp", "rows": [2, 3, 4], "bound": [4, 9, 16]}]},
    "residual_vs_precision": {"theorem": "X", "seed": 0, "dps": [30, 60], "log10_residual": [-30.1, -59.9],
                              "log10_tol": [-23.0, -45.0], "converged": [True, True], "missing": []},
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_figures_are_byte_stable_and_carry_their_data(name, tmp_path):
    pytest.importorskip("matplotlib")
    digests = []
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        data_path, png_path = figures.draw(name, SMALL[name], tmp_path / sub)
        assert json.loads(data_path.read_text()) == SMALL[name]
        png = png_path.read_bytes()
        assert png.startswith(b"\x89PNG") and b"Matplotlib" not in png  # no version metadata
        digests.append(hashlib.sha256(png).hexdigest())
    assert digests[0] == digests[1]


@pytest.mark.slow
def test_report_figures_from_the_engine(tmp_path):
    """The full figure set (about 30 s of checks and fits): deterministic, and the data says what it
    should (rows within Theorem 12's bound, converged fits below their tolerance)."""
    pytest.importorskip("matplotlib")
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
    first, second = figures.write_all(tmp_path / "a"), figures.write_all(tmp_path / "b")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    rows = json.loads((tmp_path / "a" / "rows_vs_bound.json").read_text())
    assert rows["programs"] and all(r <= b for p in rows["programs"] for r, b in zip(p["rows"], p["bound"]))
    res = json.loads((tmp_path / "a" / "residual_vs_precision.json").read_text())
    assert all(r <= t for r, t, ok in zip(res["log10_residual"], res["log10_tol"], res["converged"]) if ok)
    scans = json.loads((tmp_path / "a" / "threshold_scans.json").read_text())
    assert {s for scan in scans["scans"] for s in scan["status"]} <= {"holds", "refuted", "inconclusive"}
