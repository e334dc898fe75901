"""``check --all``'s verdict table: within the width asked for, every row aligned, nothing cut."""

from __future__ import annotations

import pytest

from proofkit.engine.check import check
from proofkit.language import registry
from proofkit.render.report import MIN_TABLE_WIDTH, verdict_table

IDS = ("AM24.T3c", "HYB24.G1c")


@pytest.fixture(scope="module")
def results():
    return [check(registry.get(i), {}, dps=60, seed=0) for i in IDS]


@pytest.mark.parametrize("width", [MIN_TABLE_WIDTH, 72, 80, 106, 200])
def test_table_fits_and_aligns(results, width):
    lines = verdict_table(results, width=width).splitlines()
    assert max(len(line) for line in lines) <= width
    header = lines[0]
    assert header.split() == ["theorem", "verdict", "claims", "expected", "errata", "time"]
    starts = [header.index(name) for name in ("verdict", "claims", "expected")]
    firsts = [line for line in lines[2:] if not line.startswith(" ")]
    assert [line.split()[0] for line in firsts] == list(IDS)  # one row per theorem, in order
    for line, res in zip(firsts, results):
        assert [line[s:].split()[0] for s in starts[:1]] == [str(res.verdict)]
        assert line[starts[2]:].split()[0] == ("yes" if res.as_expected() else "NO")
        assert line.rstrip().endswith(f"{res.elapsed_s:.1f}s")  # the time column is never cut
    rows: list[list[str]] = []
    for line in lines[2:]:  # a row's claim counts: its first line's cell and its continuation lines
        cell = line[starts[1]:starts[2]].strip()
        rows.append([cell]) if not line.startswith(" ") else rows[-1].append(cell)
    for cells, res in zip(rows, results):
        counts = " ".join(cells).split(", ")
        assert sum(int(c.split()[0]) for c in counts) == len(res.claims)
        assert {c.split()[1] for c in counts} == {str(c.verdict) for c in res.claims}


def test_narrow_terminal_gets_the_narrowest_table(results):
    assert verdict_table(results, width=30) == verdict_table(results, width=MIN_TABLE_WIDTH)
