"""HYB24.TAB3: Table 3 of Huang et al. 2024, row by row: the 8 algorithmic tasks, the C-RASP evidence the
toolkit has for each, and the reported outcomes (APE / NoPE)."""

from pathlib import Path

import sympy as sp

from proofkit.crasp import comm
from proofkit.crasp.checks import agreement, truth_rows
from proofkit.params import Param, ParamSpace
from proofkit.spec import Computed, PaperRef, Theorem
from proofkit.verdict import Verdict

PROGRAMS = Path(__file__).parent / "programs"


def reported(plain, pl, ape, nope):
    return f"paper: C-RASP[] {plain}, C-RASP[p,l] {pl}; reported APE {ape}, NoPE {nope}"


def via_program(file, text):
    def run(p):
        v, res, how = agreement(PROGRAMS, file, p["binary_len"], "[]")
        return v, res, f"{text}. Toolkit: {how}; the task's SOS/SEP/EOS formatting is not encoded"
    return run


def via_rows(family, text):
    def run(p):
        got = [comm.rows(family, 2, N) for N in range(1, p["N"] + 1)]
        ok = all(r == 2**N for N, r in enumerate(got, 1))
        return (Verdict.CONFIRMED if ok else Verdict.INCONCLUSIVE, str(got),
                f"{text}. Toolkit: one-way rows {got} for N = 1..{p['N']} grow as 2^N (Cor. 13 evidence: "
                f"no program in either fragment)")
    return run


def parity(p):
    r = truth_rows("PARITY", range(1, p["N"] + 1))
    return (Verdict.INCONCLUSIVE, str(r),
            f"{reported('no', 'no', 'no', 'no')}. Toolkit: PARITY rows {r} are constant, so the "
            f"communication bound cannot decide it; non-membership is Lemma 41 (cited, not executed)")


def missing(text):
    return lambda p: (Verdict.INCONCLUSIVE, "not encoded",
                      f"{text}. Toolkit: the task program is not encoded yet (catalog section 4 marks the "
                      f"task programs as sketches to be checked before use)")


ROWS = (
    ("Binary Majority", via_program("majority.crasp", reported("yes", "yes", "yes", "yes")),
     Verdict.CONFIRMED),
    ("Binary Majority Interleave", missing(reported("none found", "yes", "yes", "no")), Verdict.INCONCLUSIVE),
    ("Majority (26 letters)", missing(reported("yes", "yes", "yes", "yes")), Verdict.INCONCLUSIVE),
    ("Sort", missing(reported("yes", "yes", "yes", "yes")), Verdict.INCONCLUSIVE),
    ("Copy (unique)", missing(reported("no", "yes", "yes", "no")), Verdict.INCONCLUSIVE),
    ("Copy (repeat)", via_rows(comm.copy_marked_family, reported("no", "no", "no", "no")), Verdict.CONFIRMED),
    ("Parity", parity, Verdict.INCONCLUSIVE),
    ("Addition", via_rows(comm.addition_zero_family, reported("no", "no", "no", "no")), Verdict.CONFIRMED),
)

THEOREM = Theorem(
    id="HYB24.TAB3",
    title="Table 3: the 8 algorithmic tasks, C-RASP evidence and reported length generalization",
    paper=PaperRef("Huang et al. 2024 (arXiv 2410.02140)", "Sec. 6, Table 3; Fig. 1", "", "huang2024formal"),
    statement=sp.Symbol("APE_success") >> sp.Symbol("in_CRASP_periodic_local"),
    params=ParamSpace((
        Param("binary_len", int, 20, "exhaustive length for binary alphabets", min=1, max=24),
        Param("N", int, 8, "largest split N for the row counts", min=1, max=12),
    )),
    assumptions=(),
    claims=tuple(Computed(name, "conclusion", "Table 3", name, run) for name, run, _ in ROWS),
    expect={name: v for name, _, v in ROWS},
)
