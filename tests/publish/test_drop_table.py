"""paper_refs.md's drop table (proofkit drops --write paper_refs.md): one row per assumption of every
built-in AM24, AM24v2, INL25 and R24 theorem, current with the theorem files; 'superfluous' only where a
certified proof step says so; and (slow) the rows' outcomes are what the search gives now."""

from __future__ import annotations

from pathlib import Path

import pytest

from proofkit.publish import drops

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "paper_refs.md").read_text(encoding="utf-8")


def _rows() -> dict[tuple[str, str], list[str]]:
    block = drops.current_block(TEXT)
    assert block is not None, "paper_refs.md has no drop table: run proofkit drops --write paper_refs.md"
    out = {}
    for line in block.splitlines():
        if line.startswith("| ") and not line.startswith(("| theorem", "|---")):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            out[(cells[0], cells[1].replace("\\|", "|"))] = cells
    return out


def test_one_row_per_assumption():
    expected = {(t.id, a.id) for t in drops.chosen() for a in t.assumptions}
    assert set(_rows()) == expected, "stale drop table: run proofkit drops --write paper_refs.md"


def test_superfluous_only_with_a_certified_proof_step():
    """Outside the generated table's own header, 'superfluous' appears only in 'proven superfluous' rows,
    and each names the claim of Assumption.unneeded."""
    from proofkit.language import registry

    block = drops.current_block(TEXT)
    outside = TEXT.replace(block, "")
    assert "superfluous" not in outside.lower()
    for (tid, aid), cells in _rows().items():
        if cells[2] == "proven superfluous":
            claim = registry.get(tid).assumption(aid).unneeded
            assert claim and f"claim '{claim}' certified" in cells[5]
        else:
            assert "superfluous" not in " ".join(cells).lower()


def test_the_pair_support_row_is_a_certified_search_result():
    row = _rows()[("AM24.T2", "H1.pair-support")]
    assert row[2] == "certified counterexample" and row[4] == "search" and "support=cut" in row[3]


@pytest.mark.slow
@pytest.mark.parametrize("tid,aid", [("AM24.T2", "H1.pair-support"), ("AM24.T4", "A5.Lam-invertible"),
                                     ("AM24.T1", "A2"), ("AM24.T4", "A5.square"), ("R24.T31", "V=vI")])
def test_rows_are_what_the_search_gives_now(tid, aid):
    row = drops.drop_row(tid, aid, 4, str(ROOT / "counterexamples"), 60, 0)
    cells = _rows()[(tid, aid)]
    assert [row.outcome, row.setting, row.source] == cells[2:5]
