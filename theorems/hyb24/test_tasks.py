"""Tests of the Table-3 task checks: every HYB24.TAB3 claim's verdict at reduced sizes, and unit tests of
proofkit.crasp.tasks.tasks (formats, enumeration, sampling, the next_ convention, bad input, shrinking)."""

from pathlib import Path

import numpy as np
import pytest

from proofkit import InputError, checked, registry
from proofkit.crasp.language import analysis, load, parse
from proofkit.crasp.search import search_task
from proofkit.crasp.tasks import check_compiled
from proofkit.crasp.tasks import task_programs as TP
from proofkit.crasp.tasks import tasks as T
from proofkit.crasp.theory import induction as IH

PROGRAMS = Path(__file__).parent / "programs"
FAST = {"binary_len": 9, "N": 4, "sample_len": 40, "samples": 3, "majority_k": 8, "task_V": 4, "sort_V": 30,
        "copy_V": 10, "copy_reps": 2, "head_len": 6, "search_size": 8}
BM = "alphabet: 0 1 SEP EOS\n"


@pytest.mark.parametrize("claim", list(registry.get("HYB24.TAB3").expect))
def test_tab3_claim_verdict_matches_expectation(claim):
    r = checked("HYB24.TAB3", FAST)
    c = next(c for c in r.claims if c.name == claim)
    want = registry.get("HYB24.TAB3").expect[claim]
    assert c.verdict == want, f"{claim}: {c.verdict} ({c.how})"


def test_next_name_convention():
    assert [T.next_name(s) for s in ("0", "149", "SEP", "EOS", "a")] == \
        ["next_0", "next_149", "next_SEP", "next_EOS", "next_a"]
    assert T.next_name("#") == "next_u23"
    assert T.next_name("+=") == "next_u2b_3d"


def test_targets_follow_the_paper_formats():
    bm = T.majority_task(2)
    assert bm.alphabet == ("0", "1", "SEP", "EOS")
    assert bm.text(bm.targets(np.array([[0, 1, 1]]))[0]) == "0 1 1 SEP 1 EOS"
    bmi = T.interleave_task(3)  # streams 1 0 0 / 0 0 1 / 1 1 1 (positions = 1, 2, 0 mod 3)
    x = np.array([[1, 0, 1, 0, 0, 1, 0, 1, 1]])
    assert bmi.text(bmi.targets(x)[0]) == "1 0 1 0 0 1 0 1 1 SEP 0 0 1 EOS"
    srt = T.sort_task(30)
    assert srt.text(srt.targets(np.array([[13, 22, 5, 8]]))[0]) == "14 23 6 9 SEP 6 9 14 23 EOS"
    cp = T.copy_task(5, reps=2)
    assert cp.text(cp.targets(np.array([[2, 0]]))[0]) == "3 1 SEP 3 1 SEP 3 1 EOS"
    maj = T.majority_task(3)
    assert maj.text(maj.targets(np.array([[2, 1, 0, 1]]))[0]) == "c b a b SEP b EOS"


def test_enumeration_is_exhaustive_and_valid():
    assert T.majority_task(2).inputs(2).tolist() == [[0, 0], [1, 1]]  # 01 and 10 tie
    assert len(T.majority_task(2).inputs(3)) == 8
    assert len(T.interleave_task(3).inputs(6)) == 8  # each length-2 stream must be 00 or 11
    assert list(T.interleave_task(3).lengths(10)) == [3, 6, 9]
    assert len(T.sort_task(4).inputs(3)) == 24
    assert len(T.majority_task(3).inputs(2)) == 3  # only aa, bb, cc have a unique maximum
    X = T.copy_task(3, unique=False).inputs(2)
    assert X.shape == (9, 2)


def test_samples_are_seeded_valid_and_long():
    for task in (T.majority_task(2), T.majority_task(26), T.interleave_task(3), T.sort_task(150)):
        a = task.sample(np.random.default_rng(7), 150, 5)
        b = task.sample(np.random.default_rng(7), 150, 5)
        assert (a == b).all() and a.shape[1] >= 150
        assert task.valid(a).all()


def test_missing_next_statement_is_an_input_error_naming_it():
    p = parse(BM + "next_0 := Q(SEP)\nnext_1 := false\nnext_SEP := false\n")
    with pytest.raises(InputError) as e:
        T.check_task(p, T.majority_task(2), 3)
    assert e.value.field == "program statement next_EOS" and "next_EOS :=" in str(e.value)


def test_alphabet_mismatch_is_an_input_error_naming_the_field():
    p = parse("alphabet: 0 1 SEP\nnext_0 := false\nnext_1 := false\nnext_SEP := false\n")
    with pytest.raises(InputError) as e:
        T.check_task(p, T.majority_task(2), 3)
    assert e.value.field == "program alphabet" and "0 1 SEP EOS" in str(e.value)


def test_count_next_statement_and_foreign_input_symbol_are_input_errors():
    p = parse(BM + "next_0 := #Q(0)\nnext_1 := false\nnext_SEP := false\nnext_EOS := false\n")
    with pytest.raises(InputError, match="Boolean"):
        T.check_task(p, T.majority_task(2), 3)
    good = load(PROGRAMS / "task_binary_majority.crasp")
    with pytest.raises(InputError) as e:
        T.check_input(good, T.majority_task(2), ["0", "2"])
    assert e.value.field == "input" and "position 2" in str(e.value)
    with pytest.raises(InputError):
        IH.check_induction_head(load(PROGRAMS / "induction_head_support.crasp"), "mode")


def test_task_program_passes_and_both_interpreters_agree():
    r = T.check_task(load(PROGRAMS / "task_binary_majority.crasp"), T.majority_task(2), 8, sample_len=150,
                     samples=4, seed=3)
    assert r.holds and r.interpreters_agree and r.cross_checked > 0
    assert r.inputs == sum(1 for n in range(1, 9) for w in range(2**n) if 2 * bin(w).count("1") != n)
    assert "seed 3" in r.describe()


def test_first_failure_is_shortest_then_least():
    p = parse(BM + "next_0 := Q(SEP) and #Q(1) < #Q(0)\nnext_1 := Q(SEP) and #Q(0) < #Q(1) and #Q(1) < 2\n"
              "next_SEP := false\nnext_EOS := #Q(SEP) >= 1 and not Q(SEP)\n")
    r = T.check_task(p, T.majority_task(2), 10)
    assert not r.holds
    assert r.failure.input == "1 1" and r.failure.position == 3 and r.failure.predicted == ()
    assert r.failure.expected == "1" and r.size == 2


def test_sample_failure_is_reported_with_seed_and_shrunk():
    p = parse(BM + "next_0 := Q(SEP) and #Q(1) < #Q(0)\nnext_1 := Q(SEP) and #Q(0) < #Q(1) and #Q(1) < 12\n"
              "next_SEP := false\nnext_EOS := #Q(SEP) >= 1 and not Q(SEP)\n")
    r = T.check_task(p, T.majority_task(2), 6, sample_len=40, samples=8, seed=5)
    assert not r.holds and "seed 5" in r.failure.source
    assert r.failure.input == " ".join(["1"] * 12)  # shrunk: twelve 1s is the least failing input


def test_shrinking_is_bounded_by_work_not_time():
    """The shrink budget counts candidate symbols, so where it stops is the same on every machine."""
    p = parse(BM + "next_0 := Q(SEP) and #Q(1) < #Q(0)\nnext_1 := Q(SEP) and #Q(0) < #Q(1) and #Q(1) < 12\n"
              "next_SEP := false\nnext_EOS := #Q(SEP) >= 1 and not Q(SEP)\n")
    x = np.ones(20, dtype=np.int64)
    task = T.majority_task(2)
    assert T.shrink(p, task, x).tolist() == [1] * 12
    assert T.shrink(p, task, x, budget_cells=0).tolist() == [1] * 20
    assert T.shrink(p, task, x, budget_cells=20 * 19).tolist() == [1] * 19  # one step: 20 deletions


def test_check_input_reproduces_the_aba_copy_failure():
    f = T.check_input(parse(TP.copy_program_text(2)), T.copy_task(2, unique=False), ["1", "2", "1"])
    assert f is not None and f.position == 5 and set(f.predicted) == {"2", "EOS"} and f.expected == "2"


def test_bigram_ground_truth_by_hand():
    assert IH.bigram_sets([0, 1, 0, 1], 3, "support") == [frozenset(), frozenset(), {1}, {0}]
    assert IH.bigram_sets([0, 0, 1, 0], 3, "support")[3] == {0, 1}
    assert IH.bigram_sets([0, 0, 1, 0], 3, "argmax")[3] == frozenset()  # tie a/b: no prediction
    assert IH.bigram_sets([0, 0, 0], 3, "argmax") == [frozenset(), {0}, {0}]  # j = i included


def test_fragments_and_depths_of_the_task_programs():
    def frag(p):
        return analysis.fragment(p), analysis.depth(p)
    assert frag(load(PROGRAMS / "task_binary_majority.crasp")) == ("[]", 1)
    assert frag(load(PROGRAMS / "task_interleave.crasp")) == ("[periodic]", 2)
    assert frag(parse(TP.majority_program_text(26))) == ("[]", 1)
    assert frag(parse(TP.sort_program_text(150))) == ("[]", 1)
    assert frag(parse(TP.copy_program_text(5))) == ("[local]", 2)
    assert frag(parse(TP.copy_position_program_text(150, 3))) == ("[]", 2)
    assert frag(load(PROGRAMS / "induction_head_argmax.crasp")) == ("[local]", 2)


@pytest.mark.parametrize("file,text,task", [
    ("task_sort_V4.crasp", lambda: TP.sort_program_text(4), lambda: T.sort_task(4)),
    ("task_copy_V3.crasp", lambda: TP.copy_program_text(3), lambda: T.copy_task(3)),
    ("task_copy_position_V3.crasp", lambda: TP.copy_position_program_text(3), lambda: T.copy_task(3)),
])
def test_generated_example_files_match_their_generators(file, text, task):
    assert (PROGRAMS / file).read_text() == text()
    r = T.check_task(load(PROGRAMS / file), task(), 4, samples=0)
    assert r.holds, r.describe()


def test_compiled_task_network_equals_interpreter_and_the_check_bites():
    """Thm 9 on a multi-output program: the compiled interleave network equals the interpreter on every
    target sequence; with the naive periodic encoding at offset 1 the same check finds the mismatch."""
    p = load(PROGRAMS / "task_interleave.crasp")
    ok = check_compiled(p, T.interleave_task(3), 6)
    assert ok.mismatch is None and ok.sequences == 16  # 8 inputs of length 3, 8 tie-free of length 6
    bad = check_compiled(p, T.interleave_task(3), 3, periodic_encoding="naive", offset=1)
    assert bad.mismatch is not None and "next_0 at position 4" in bad.mismatch
    with pytest.raises(InputError, match="next_EOS"):
        no_eos = parse(BM + "next_0 := true\nnext_1 := true\nnext_SEP := true\n")
        check_compiled(no_eos, T.majority_task(2), 2)


def test_task_search_finds_binary_majority_and_verifies_it():
    r = search_task(T.majority_task(2), "[]", 8, 5, verify_size=10)
    assert r.found and r.generalizes and r.failure is None
    got = {m.name: (m.expression, m.size) for m in r.search.matches}
    assert got["next_SEP"] == ("Q(EOS)", 1) and got["next_EOS"] == ("not Q(SEP)", 2)
    assert got["next_0"][1] == 7 and got["next_1"][1] == 7
    assert "next_0 := Q(SEP) and (#Q(1) <= #Q(0))" in r.program_text
    assert r.search.sample_nodes == len({tuple(t[:i]) for n in range(1, 6)
                                         for t in T.majority_task(2).targets(T.majority_task(2).inputs(n))
                                         .tolist() for i in range(len(t) + 1)})
    assert "exact check_task on all valid inputs |x| <= 10: holds" in r.summary()


def test_task_search_interleave_is_bounded_and_an_overfit_is_reported():
    r = search_task(T.interleave_task(3), "[]", 8, 6)
    by = {m.name: m for m in r.search.matches}
    assert not r.found and by["next_SEP"].expression == "Q(EOS)"
    assert not by["next_0"].found and by["next_0"].size_completed == 8
    assert "next_0: none found up to size 8" in r.summary() and r.search.sample_nodes == 119
    tiny = search_task(T.majority_task(2), "[]", 8, 1, verify_size=4)  # inputs 0, 1 only: overfits
    assert tiny.found and tiny.generalizes is False and "overfits" in tiny.summary()
    with pytest.raises(InputError) as e:
        search_task(T.interleave_task(3), "[]", 4, 2)
    assert e.value.field == "max_input_len"
