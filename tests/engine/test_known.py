"""Known counterexamples first (proofkit/engine/known.py): falsify replays the stored records that bear on the
theorem and the dropped assumptions, linked theorems' records included, before it searches; a drop that a
stored record refutes is never reported empty."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from proofkit.engine import known
from proofkit.engine.falsify import falsify
from proofkit.language import registry
from proofkit.language.verdict import Verdict
from proofkit.storage import record

ROOT = Path(__file__).resolve().parents[2]
STORED = ROOT / "counterexamples"
EX1 = "AM24.EX1_drop-none_seed0.json"
L1 = "AM24.L1_drop-regular-closed_region=disc_with_segment_seed0.json"


def test_a_linked_theorems_record_refutes_the_drop(tmp_path):
    """Theorem 2 without full pair support: the ball example's record (AM24.EX1) refutes it."""
    shutil.copy(STORED / EX1, tmp_path / EX1)
    res = falsify(registry.get("AM24.T2"), ["H1.pair-support"], known_folder=tmp_path)
    assert res.found and res.verdict == Verdict.REFUTED and res.certified
    assert res.record_path == str(tmp_path / EX1) and "no search run" in res.effort
    assert "AM24.EX1" in res.effort and "H1.pair-support" in res.effort


def test_a_link_needs_every_assumption_it_names_dropped(tmp_path):
    shutil.copy(STORED / EX1, tmp_path / EX1)
    assert known.candidates(registry.get("AM24.T2"), {"A2"}, {}, tmp_path) == []


def test_own_records_within_the_drop_and_agreeing_with_explicit_settings(tmp_path):
    shutil.copy(STORED / L1, tmp_path / L1)
    thm = registry.get("AM24.L1")
    dropped = set(record.load(tmp_path / L1)["dropped"])
    assert [p.name for p, _, _ in known.candidates(thm, dropped, {}, tmp_path)] == [L1]
    assert known.candidates(thm, set(), {}, tmp_path) == []  # the record drops more than asked
    region = record.load(tmp_path / L1)["params"]["region"]
    assert known.candidates(thm, dropped, {"region": region + "x"}, tmp_path) == []
    hit = known.first_reproducing(thm, dropped, {"region": region}, tmp_path)
    assert hit is not None and hit.path.name == L1 and hit.certified


def test_a_record_that_no_longer_replays_is_passed_over_and_named(tmp_path):
    data = json.loads((STORED / L1).read_text(encoding="utf-8"))
    data["witness"]["point"] = "5/4,0"
    data.pop("sha256")
    (tmp_path / L1).write_text(record.canonical(record.finalize(data)), encoding="utf-8")
    thm = registry.get("AM24.L1")
    assert known.first_reproducing(thm, set(data["dropped"]), {}, tmp_path) is None


def test_the_cli_replays_known_records_by_default(capsys, tmp_path):
    from proofkit.interface.testing import run_cli

    shutil.copy(STORED / EX1, tmp_path / EX1)
    code, out, _ = run_cli(capsys, "falsify", "AM24.T2", "--drop", "H1.pair-support", "--known",
                           str(tmp_path), "--out", str(tmp_path / "out"), "--json")
    res = json.loads(out)
    assert code == 1 and res["found"] and res["certified"] and "known counterexample" in res["effort"]
    assert (tmp_path / "out" / EX1).read_bytes() == (STORED / EX1).read_bytes()
    code, out, err = run_cli(capsys, "falsify", "AM24.T2", "--drop", "H1.pair-support", "--known",
                             str(tmp_path), "--no-known")
    assert code == 2 and out == "" and "--known" in err
