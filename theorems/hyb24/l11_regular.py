"""HYB24.L11: regular languages and C-RASP: (aa)* needs periodic predicates, piecewise-testable
languages are in C-RASP[], and PARITY / Sigma*be* are not expressible (Huang et al. 2024, Lemma 11)."""

from pathlib import Path

import sympy as sp

from proofkit import (
    CRASP_PERIODIC,
    CRASP_PLAIN,
    Assumption,
    Available,
    Computed,
    InCRASP,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Theorem,
    Verdict,
    fails,
    holds,
    undecided,
)
from proofkit.crasp.semantics import LIBRARY
from proofkit.crasp.tasks import agreement, length_for, load_index, truth_rows
from proofkit.crasp.theory import eventual_fuzz, nonrecognition

PROGRAMS = Path(__file__).parent / "programs"


def member(file, fragment):
    """Evidence: the program agrees with its ground truth on every string up to the exhaustive length
    and lies in the fragment (a bounded proxy of membership, which is about every length)."""
    return lambda p: agreement(PROGRAMS, file, p["binary_len"], fragment)


def constant_rows(name):
    """Regular languages have O(1) rows, so Theorem 12 cannot witness non-expressibility: undecided."""
    def run(p):
        k = len(LIBRARY[name].alphabet)
        top = max(1, length_for(k, 2 * p["N"]) // 2)  # same string count
        r = truth_rows(name, range(1, top + 1))
        return undecided(f"one-way rows {r} for N = 1..{top} are constant, as for every regular language, "
                         f"so the communication bound cannot decide it; the paper's proof (Lemmas 40/41, "
                         f"Krebs 2008) is cited, not executed", method=Method.ENUMERATION,
                         domain=f"{name}: one-way rows at N = 1..{top}, all {k}^(2N) strings at each N",
                         count=top, residual=str(r))
    return run


DOMAIN37 = "the library programs without periodic predicates whose alphabet has a, on a^n for every n"


def lemma37_certificates(p):
    """Per-program Lemma-37 certificate: on a^n every library program without periodic predicates is
    eventually constant, so it cannot recognize (aa)* (exact symbolic evaluation + interpreter witness)."""
    programs, _ = load_index(PROGRAMS)
    certs = nonrecognition.certify_library(programs, nonrecognition.aa_star(), "a", language_period=2)
    bad = next(((file, c) for file, c in certs if not c.certified), None)
    if bad is not None:
        return fails(Method.EXACT, f"{bad[0]} is not certified: {bad[1].reason}", domain=DOMAIN37,
                     residual=bad[0])
    done = [f"{file} (n0 {c.threshold}, witness n = {c.witness})" for file, c in certs]
    rep = eventual_fuzz.fuzz(p["fuzz"], seed=0, n_max=300)
    if rep.mismatches:
        return fails(Method.EXACT, f"eventual forms disagree with the interpreter: {rep.failures[:3]}",
                     domain=f"{rep.programs} seeded random programs up to n = 300",
                     residual=str(rep.mismatches))
    return holds(Method.EXACT, DOMAIN37, count=len(done), residual=f"{len(done)} programs",
                 detail="exact per-program certificates (not a proof over all programs): " + "; ".join(done)
                        + f". The symbolic evaluator agrees with the interpreter on {rep.eventual_checks} "
                          f"(op, position) pairs of {rep.programs} seeded random programs up to n = 300")


THEOREM = Theorem(
    id="HYB24.L11",
    title="Regular languages: (aa)* in C-RASP[periodic], piecewise testable in C-RASP[], PARITY and "
          "Sigma*be* not in C-RASP[periodic,local]",
    paper=PaperRef("Huang et al. 2024 (arXiv 2410.02140)", "Sec. 4, Lemma 11 (= Lemma 29); App. C.2.3, "
                   "C.1.4-C.1.5", "", "huang2024formal"),
    params=ParamSpace((
        Param("binary_len", int, 20, "exhaustive length for binary alphabets", min=1, max=24),
        Param("N", int, 8, "largest split N for the communication rows", min=1, max=12),
        Param("fuzz", int, 200, "random programs cross-checking the symbolic evaluator", min=0, max=5000),
    )),
    assumptions=(
        Assumption("periodic", "periodic positional predicates are available",
                   note="dropping it: (aa)* has no C-RASP[] program (Lemma 37, cited; the per-program "
                        "Lemma-37 certificates are the claim below, the bounded search is HYB24.NEG)",
                   predicate=Available(sp.Symbol("periodic"))),
        Assumption("local", "local counts are available",
                   note="dropping it: Tomita 4 has a local program but none in C-RASP[] (Krebs 2008, "
                        "cited; HYB24.NEG: none found up to size 12). Not Sigma*abSigma* over {a,b}, as an "
                        "earlier reading had it: it equals Sigma*aSigma*bSigma*, which is in C-RASP[]",
                   predicate=Available(sp.Symbol("local"))),
    ),
    claims=(
        Computed("(aa)* in C-RASP[periodic] over {a,b}", "conclusion", "Lemma 11 (2); App. C.2.3",
                 "L := #Q(b) == 0 and mod(2, 0)", member("aa_star.crasp", "[periodic]"), reading="proxy",
                 predicate=InCRASP(sp.Symbol("(aa)* over {a,b}"), CRASP_PERIODIC)),
        Computed("(aa)* in C-RASP[periodic] over {a}", "conclusion", "benchmark alphabet",
                 "L := mod(2, 0)", member("aa_star_unary.crasp", "[periodic]"), reading="proxy",
                 predicate=InCRASP(sp.Symbol("(aa)* over {a}"), CRASP_PERIODIC)),
        Computed("subsequence aab in C-RASP[]", "conclusion", "Lemma 11 (4); App. C.1.4",
                 "strict-past chain E1, E2, E3", member("subseq_aab.crasp", "[]"), reading="proxy",
                 predicate=InCRASP(sp.Symbol("Sigma*aSigma*aSigma*bSigma*"), CRASP_PLAIN)),
        Computed("avoiding subsequence 1010 (Tomita 7) in C-RASP[]", "conclusion", "Lemma 11 (4); C.1.5",
                 "strict-past chain E1..E4, #E4 == 0", member("tomita7_pt.crasp", "[]"), reading="proxy",
                 predicate=InCRASP(sp.Symbol("Tomita7"), CRASP_PLAIN)),
        Computed("Sigma*abSigma* over {a,b} in C-RASP[] (needs no Local)", "identification",
                 "Lemma 11 / App. E.1.2 without Local: an earlier reading named Sigma*abSigma* over {a,b} "
                 "as needing Local; the computation shows it does not (Tomita 4 does)",
                 "over two letters ab is a factor iff some b follows an a: #(Q(b) and #Q(a) >= 1) >= 1",
                 member("contains_ab_plain.crasp", "[]"), reading="proxy"),
        Computed("PARITY not in C-RASP[periodic,local]", "identification", "Lemma 11 (1); L40/L41",
                 "no program decides PARITY", constant_rows("PARITY"), reading="as printed"),
        Computed("Sigma*be* not in C-RASP[periodic,local]", "identification", "Lemma 11 (3); #17",
                 "no program decides Sigma*be*", constant_rows("Sigma*be*"),
                 reading="as printed"),
        Computed("no library C-RASP[] program recognizes (aa)* (Lemma 37 certificates)", "identification",
                 "Lemma 11 (2); Lemma 37", "each program without periodic predicates is eventually constant "
                 "on a^n, hence differs from (aa)*", lemma37_certificates, reading="proxy"),
        Computed("control: (aa)* program without mod(2,0) is (aa)*", "control", "deliberately false",
                 "L := #Q(b) == 0 decides (aa)*", member("aa_star_no_period.crasp", None),
                 reading="proxy"),
    ),
    expect={
        "(aa)* in C-RASP[periodic] over {a,b}": Verdict.CERTIFIED,
        "(aa)* in C-RASP[periodic] over {a}": Verdict.CERTIFIED,
        "subsequence aab in C-RASP[]": Verdict.CERTIFIED,
        "avoiding subsequence 1010 (Tomita 7) in C-RASP[]": Verdict.CERTIFIED,
        "Sigma*abSigma* over {a,b} in C-RASP[] (needs no Local)": Verdict.CERTIFIED,
        "PARITY not in C-RASP[periodic,local]": Verdict.INCONCLUSIVE,
        "Sigma*be* not in C-RASP[periodic,local]": Verdict.INCONCLUSIVE,
        "no library C-RASP[] program recognizes (aa)* (Lemma 37 certificates)": Verdict.CERTIFIED,
        "control: (aa)* program without mod(2,0) is (aa)*": Verdict.REFUTED,
    },
)
