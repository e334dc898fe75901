"""Sweeps over the C-RASP program library that HYB24 theorem files declare (Huang et al. 2024, Thm 9,
Cor. 18, Remark 28, Lemmas 37, 42, 52, Thm 12, Table 3): compiled_library.py, library_weights.py,
morphism_sweeps.py, ``nonrecognition.certify_library``, ``protocol_summaries``, ``checks.library_rows`` and
the generated task programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from proofkit.crasp import load
from proofkit.crasp.communication.protocol import nope_average_network, protocol_summaries
from proofkit.crasp.compilation.compiler import compile_program
from proofkit.crasp.tasks import compiled_library as cl
from proofkit.crasp.tasks import tasks as T
from proofkit.crasp.tasks.checks import library_rows
from proofkit.crasp.tasks.library import load_index
from proofkit.crasp.tasks.task_programs import generated_program, vocabulary_checks
from proofkit.crasp.theory import library_weights as lw
from proofkit.crasp.theory import morphism_sweeps as ms
from proofkit.crasp.theory import nonrecognition as nr
from proofkit.errors import InputError

PROGRAMS = Path(__file__).resolve().parents[2] / "theorems" / "hyb24" / "programs"
ENTRIES = load_index(PROGRAMS)[0]
BY = {e.file: e for e in ENTRIES}


def test_library_agreement_exact_and_a_dropped_assumption():
    small = [BY["majority.crasp"], BY["aa_star.crasp"], BY["tomita4.crasp"]]
    r = cl.library_agreement(small, 3, "none")
    assert r.failure is None and r.done == [(e.file, 3) for e in small] and r.strings == 3 * 15
    bad = cl.library_agreement(ENTRIES, 3, "naive-periodic-offset")
    assert bad.failure is not None and bad.failure[0] == "aa_star.crasp"
    assert all(file != "aa_star.crasp" for file, _ in bad.done)


def test_structure_and_long_runs():
    assert cl.structure_mismatch(ENTRIES) is None
    assert cl.long_run_failure([BY["majority.crasp"], BY["dyck1.crasp"]], per_program=2, length=60) is None
    assert cl.strings_up_to("ab", 3) == 15


def test_output_and_task_agreement():
    head = load(PROGRAMS / "induction_head_support.crasp")
    outputs, bad = cl.output_agreement(head, 2)
    assert outputs == ["next_a", "next_b", "next_c"] and bad is None
    got = cl.task_agreement([("bm", load(PROGRAMS / "task_binary_majority.crasp"), T.majority_task(2), 4)])
    assert [(name, size, r.mismatch) for name, size, r in got] == [("bm", 4, None)]
    assert got[0][2].sequences > 0


def test_offset_runs_and_nope_defect():
    r = lw.offset_runs(ENTRIES, "[]", lambda k: 2, range(3), require_nope=True)
    assert r.failure is None and "majority.crasp (<= 2)" in r.done and "aa_star.crasp (<= 2)" not in r.done
    periodic = lw.offset_runs(ENTRIES, "[periodic]", lambda k: 2, range(3))
    assert periodic.failure is None and periodic.done[0] == "aa_star.crasp (<= 2)"
    aa = BY["aa_star.crasp"]
    assert lw.nope_defect(aa, compile_program(aa.program)) == "aa_star.crasp: p = 0 False, phi = 0 True"
    assert lw.nope_defect(BY["majority.crasp"], compile_program(BY["majority.crasp"].program)) is None
    assert lw.program_offset_mismatch(aa.program, 4, range(21)) is None
    o, m = lw.program_offset_mismatch(aa.program, 4, range(21), periodic_encoding="naive")
    assert o >= 1 and m.expected != m.got


def test_weight_readings_agree_and_detect_a_wrong_reading():
    readings = lw.weight_readings(ENTRIES)
    assert len(readings) == len(ENTRIES) and all(r.agrees for r in readings)
    r = next(r for r in readings if r.static_locality > 0)
    assert not type(r)(r.file, r.period, {**r.locality, "radius": 0}, r.offsets, r.static_period,
                       r.static_locality).agrees


def test_morphism_sweeps():
    assert ms.two_letter_morphisms("abc")[1] == {"x": ["c"], "y": ["a"]}
    assert ms.fragment_within("[periodic]", "[periodic,local]") and ms.fragment_within("[]", "[]")
    assert not ms.fragment_within("[local]", "[]")
    cases = ms.transform_cases([BY["majority.crasp"], BY["aa_star.crasp"], BY["tomita4.crasp"]], 2)
    assert len(cases) == 9 and all(c.ok for c in cases)
    assert cases[0].morphism == "x->aba, y->bba" and cases[0].check.strings == 7
    assert [r.key for r, _, _ in ms.row_reduction_checks("17", 4)] == ["#17->be", "be->#17", "pad2", "pad3"]
    assert all(c.holds and c.max_len == n for _, n, c in ms.row_reduction_checks("6", 4))
    assert ms.row_reduction_checks("99", 4) == []


def test_certify_library_stops_at_the_first_uncertified():
    certs = nr.certify_library(ENTRIES, nr.aa_star(), "a", language_period=2)
    assert certs and all(c.certified for _, c in certs)
    for f, _ in certs:  # only programs over a without periodic predicates are certified
        assert "a" in BY[f].program.alphabet and all(op.kind != "periodic" for op in BY[f].program.ops)
    assert "aa_star.crasp" not in dict(certs)
    # a^n is always in MAJORITY: the constant-true language is recognized, so no certificate
    first = nr.certify_library(ENTRIES, lambda n: True, "a", language_period=1)
    assert [(f, c.certified) for f, c in first] == [("majority.crasp", False)]


def test_protocol_summaries_stop_at_an_incompressible_model():
    s = protocol_summaries([("majority", BY["majority.crasp"].program), ("avg", nope_average_network()),
                            ("dyck", BY["dyck1.crasp"].program)], range(1, 3))
    assert [x.name for x in s] == ["majority", "avg"]
    assert s[0].ok and s[0].pairs == 4 + 16 and s[0].max_bits == [2, 4]
    assert not s[1].ok and s[1].reasons


def test_library_rows_cover_every_program():
    rows = library_rows(PROGRAMS, 1)
    assert [file for file, _ in rows] == [e.file for e in ENTRIES]
    assert all(ev.outcome == "holds" for _, ev in rows)


def test_generated_programs_and_vocabulary_checks():
    assert generated_program("sort", 3).name == "sort_task_V3"
    assert generated_program("copy", 2, True).name == "copy_task_V2_mutant"
    assert generated_program("copy_position", 2, reps=2).name == "copy_position_task_V2_r2"
    with pytest.raises(InputError):
        generated_program("parity", 2)
    checks = vocabulary_checks("sort", T.sort_task, 2, big=4, sample_len=10, samples=2)
    assert [(c.program.name, c.size) for c in checks] == [("sort_task_V1", 1), ("sort_task_V2", 2),
                                                           ("sort_task_V4", 0)]
    assert all(c.holds for c in checks)
    mutant = vocabulary_checks("sort", T.sort_task, 2, big=4, mutant=True, sample_len=10, samples=2)
    assert len(mutant) == 2 and not mutant[-1].holds
