"""paper_refs.md's summary tables are generated (proofkit/publish/refs.py) and must not drift from the
theorem files: their claims, readings and expected verdicts (which pytest theorems/ and check --all show
are the computed ones)."""

from __future__ import annotations

from pathlib import Path

from proofkit.interface.testing import run_cli
from proofkit.language import registry
from proofkit.publish import coverage, refs

ROOT = Path(__file__).resolve().parents[2]
PAPER_REFS = ROOT / "paper_refs.md"


def _builtin():
    return [t for t in registry.load_all().values() if registry.where(t.id)[1].kind == "builtin"]


def test_generated_tables_are_current():
    expected = refs.summary(_builtin())
    assert refs.current_block(PAPER_REFS) == expected, (
        "paper_refs.md's generated tables are stale: run proofkit report --paper-refs --write paper_refs.md")


def test_coverage_tables_are_current():
    expected = coverage.block(_builtin())
    assert coverage.current_block(PAPER_REFS.read_text(encoding="utf-8")) == expected, (
        "paper_refs.md's coverage tables are stale: run proofkit report --coverage --write paper_refs.md")


def test_coverage_write_replaces_only_its_block(capsys, tmp_path):
    target = tmp_path / "refs.md"
    target.write_text(f"intro\n{coverage.BEGIN}\nold\n{coverage.END}\ntail\n", encoding="utf-8")
    code, _, _ = run_cli(capsys, "report", "--coverage", "--write", str(target))
    text = target.read_text(encoding="utf-8")
    assert code == 0 and text.startswith("intro\n") and text.endswith("\ntail\n") and "\nold\n" not in text
    code, out, err = run_cli(capsys, "report", "--coverage", "--paper-refs")
    assert code == 2 and out == "" and err.count("\n") == 1


def test_every_refuted_row_says_erratum_or_reading():
    block = refs.summary(_builtin())
    rows = [line for line in block.split("| id | claim |")[1].splitlines() if line.startswith("| ")
            and not line.startswith("| id")]
    assert rows, "no refuted claim listed"
    for line in rows:
        finding = line.rstrip(" |").rsplit("| ", 1)[1]
        assert finding == "erratum" or finding.endswith("refuted (no erratum)"), line


def test_write_needs_the_markers(capsys, tmp_path):
    target = tmp_path / "refs.md"
    target.write_text("# no markers here\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "report", "--paper-refs", "--write", str(target))
    assert code == 2 and out == "" and err.count("\n") == 1 and "--write" in err
    target.write_text(f"intro\n{refs.BEGIN}\nold\n{refs.END}\ntail\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "report", "--paper-refs", "--write", str(target))
    text = target.read_text(encoding="utf-8")
    assert code == 0 and text.startswith("intro\n") and text.endswith("\ntail\n") and "\nold\n" not in text


#: the proofs issue 26 asks to walk equation by equation: theorem id -> the proofs its file must walk
WALKED = {"AM24.L1": {"Lemma 1"}, "AM24.T1": {"Theorem 1"}, "AM24.T2": {"Theorem 2"},
          "AM24.T3": {"Theorem 3"}, "AM24.T4": {"Theorem 4"}, "AM24.T5": {"Theorem 5"},
          "INL25.T41": {"Theorem 4.1"},
          "R24.T31": {"Theorem 3.1"}, "R24.T41": {"Theorem 4.1"}, "R24.L5": {"Lemma 5.1", "Lemma 5.2"},
          "HYB24.T7": {"Theorem 7"}, "HYB24.T9": {"Theorem 9"}, "HYB24.T12": {"Theorem 12"}}


def test_the_named_proofs_are_walked_and_every_gap_has_its_reason():
    thms = registry.load_all()
    for tid, names in WALKED.items():
        walked = {p.of.split(" (")[0] for p in thms[tid].proofs}
        assert names <= walked, (tid, names - walked)
        for p in thms[tid].proofs:
            assert all(reason.strip() for _, reason in p.coverage().gaps), (tid, p.of)
