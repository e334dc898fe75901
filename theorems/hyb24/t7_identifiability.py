"""HYB24.T7: length generalization in the limit (Huang et al. 2024, Thm 7 = Thm 14, Lemma 17, Cor. 18,
Thm 23 / Cor. 24, Lemmas 48 and 52, Prop. 31 / Remark 32, App. D.2) -- honest finite proxies only.

Theorem 7 is asymptotic (an infimum over infinite hypothesis classes and an unspecified n0), so nothing here
proves it. Every claim is an exact computation about a finite object that the proof's argument predicts:
the assumption-drop families (window majority, offset-D trigger and threshold g_{n0}: constructed here, not
in the paper; the f_alpha thresholds: a reconstruction of the App. D.2 function), the NoPE structure of
compiled C-RASP[] programs, a lookup-table illustration of Thm 23 / Cor. 24, weights-only extraction of
period and locality, the Lemma-48 necessity families and the MAJ2 even-length witness. Claims end with
"consistent with ..."; the asymptotic statement is never certified.
"""

from pathlib import Path

import sympy as sp

from proofkit import (
    Assumption,
    Computed,
    ExpressibleLT,
    Local,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Periodic,
    Proof,
    Step,
    SymbolicStep,
    Theorem,
    Verdict,
    fails,
    forall,
    holds,
    predicate,
)
from proofkit.crasp.search import occam
from proofkit.crasp.semantics import labelled_strings
from proofkit.crasp.tasks import length_for, load_index
from proofkit.crasp.theory import agrees_on_powers, length_predicate_failure, maj2, resolve
from proofkit.crasp.theory import drop_evidence as de
from proofkit.crasp.theory import drop_families as df
from proofkit.crasp.theory import init_width as iw
from proofkit.crasp.theory import library_weights as lw
from proofkit.crasp.theory import limits as lim

f_target = sp.Symbol("f")
GeneralizesInTheLimit = predicate("GeneralizesInTheLimit", "every run of the Inference Procedure (Def. 6: "
                                  "fit f on lengths <= n, minimal regularizer (8)) matches f up to length 2n "
                                  "for all sufficiently large n")
FixedPrecision = predicate("FixedPrecision", "parameters are represented at a fixed precision (App. D.2)")

PROGRAMS = Path(__file__).parent / "programs"
AB = ("a", "b")
OFFSETS = range(0, 21)
SCHEDULES = {"t(n) = n": lambda n: n, "t(n) = floor(n/2)": lambda n: n // 2,
             "t(n) = floor(log2 n)": lambda n: max(n.bit_length() - 1, 0)}


def occam_evidence(target: str, fragment: str, ns: range, size: int, final_len: int, learned: bool):
    """The Occam learner on ``target`` at training lengths ``ns`` (programs of size <= ``size``, each learned
    program checked on every string of length <= 2n). ``learned``: the claim is that the run stabilizes on a
    program correct up to 2n (and to ``final_len``); otherwise that no learned program is correct up to 2n."""
    t = resolve(target)
    r = occam(t, t.alphabet, fragment, list(ns), size, final_len=final_len if learned else None)
    domain = (f"{target}, C-RASP{fragment} programs of size <= {size}, training lengths "
              f"n = {ns[0]}..{ns[-1]} "
              "(each learned program checked on every string of length <= 2n)")
    text = r.summary()
    if learned:
        if r.stable_from is None or not r.final_generalizes:
            return fails(Method.ENUMERATION, "never stable on a correct program" if r.stable_from is None
                         else f"the final program fails at length <= {final_len}", domain=domain,
                         count=len(ns), residual=str(r.stable_from), detail=text)
        return holds(Method.ENUMERATION, domain + f", the final one on every string <= {final_len}",
                     count=len(ns), residual=f"stable from n0 = {r.stable_from}", detail=text)
    wrong = [s.n for s in r.steps if s.expression is not None and s.agrees_2n]
    if wrong:
        return fails(Method.ENUMERATION, f"the learned program agrees up to 2n at n = {wrong}", domain=domain,
                     count=len(ns), residual=str(wrong), detail=text)
    return holds(Method.ENUMERATION, domain, count=len(ns), residual="no n with a program correct up to 2n",
                 detail=text)


def nope_offsets(p):
    """C18: compiled C-RASP[] programs have p = 0 and phi = 0 and equal outputs at offsets 0..20."""
    domain = ("every C-RASP[] library program: its compiled weights, and every string of length <= n at "
              f"every prefix at each offset 0..20 (binary n = {p['c18_len']}; other alphabets: the same "
              "string count) ((offset, string) cases)")
    r = lw.offset_runs(load_index(PROGRAMS)[0], "[]", lambda k: length_for(k, p["c18_len"]), OFFSETS,
                       require_nope=True)
    if r.failure is not None:
        return fails(Method.ENUMERATION, r.failure, domain=domain, residual=r.failure.split(":")[0])
    return holds(Method.ENUMERATION, domain, count=r.cases, residual=f"{len(r.done)} programs",
                 detail="exact: every C-RASP[] library program compiles to a network with p_i = 0 for all i "
                        "and phi = 0 in every head (structural), and its exact run equals the interpreter "
                        f"at every prefix of every string at each offset o = 0..20: {', '.join(r.done)}; "
                        "consistent with Corollary 18 (NoPE)")


def naive_offset_control(p):
    """Control: the naive periodic encoding of (aa)* is offset-invariant (false, Remark 28)."""
    e = next(x for x in load_index(PROGRAMS)[0] if x.file == "aa_star.crasp")
    domain = ("aa_star.crasp (naive periodic encoding), every string over {a, b} of length <= 4 at offsets "
              "0..20")
    bad = lw.program_offset_mismatch(e.program, 4, OFFSETS, periodic_encoding="naive")
    if bad is None:
        return holds(Method.ENUMERATION, domain, count=len(OFFSETS) * sum(2**i for i in range(5)),
                     residual="none",
                     detail="no offset in 0..20 changes the naive network's verdicts")
    o, m = bad
    word = "".join(m.word) or "eps"
    return fails(Method.EXACT, f"offset {o}, {word!r}: the network says {m.got}, offset 0 (= the "
                 f"interpreter) says {m.expected} (position {m.position})", domain=domain,
                 residual=f"offset {o}: {word}",
                 detail="aa_star.crasp compiled with the naive periodic encoding")


def robust_offsets(p):
    """The default (robust) periodic encoding is offset-invariant for the periodic library programs."""
    domain = (f"every C-RASP[periodic] library program, every string of length <= min(4, n) at every prefix "
              f"at each offset 0..20 (binary n = {p['c18_len']}; other alphabets: the same string count) "
              f"((offset, string) cases)")
    r = lw.offset_runs(load_index(PROGRAMS)[0], "[periodic]", lambda k: min(4, length_for(k, p["c18_len"])),
                       OFFSETS)
    if r.failure is not None:
        return fails(Method.ENUMERATION, r.failure, domain=domain, residual=r.failure.split(":")[0])
    return holds(Method.ENUMERATION, domain, count=r.cases, residual=f"{len(r.done)} programs",
                 detail="exact runs at offsets 0..20 equal the interpreter at every prefix: "
                        f"{', '.join(r.done)} (the SOS residue read makes the periodic read relative; cf. "
                        "Remark 28 / Lemma 47)")


def schedules(p):
    """Thm 23 / Cor. 24 illustration: least-measure lookup tables for COPY = {ww} under schedules t(n)."""
    n_max = p["copy_n"]
    domain = (f"{len(SCHEDULES)} schedules t(n), n = 1..{n_max}, lookup tables checked on every string over "
              f"{{a, b}} of length <= {2 * n_max} ((schedule, n) cases)")
    sums = lim.schedule_summaries(SCHEDULES, n_max)
    bad = next((s for s in sums if not s.monotone), None)
    if bad is not None:
        return fails(Method.ENUMERATION, f"measure not monotone under {bad.name}: {bad.measures}",
                     domain=domain, count=len(SCHEDULES) * n_max, residual=bad.name)
    fail_n = {s.name: s.fails_by_n_late for s in sums}
    out = [f"{s.name}: measures {s.measures}, first failures {s.first_failures}, fail at length <= n for "
           f"every n > {n_max // 2}: {s.fails_by_n_late}, fail by 2n: {s.fails_by_2n}" for s in sums]
    if fail_n["t(n) = n"] or not fail_n["t(n) = floor(n/2)"]:
        return fails(Method.ENUMERATION, f"fails at length <= n: {fail_n}", domain=domain,
                     count=len(SCHEDULES) * n_max, residual=str(fail_n), detail="; ".join(out))
    return holds(
        Method.ENUMERATION, domain, count=len(SCHEDULES) * n_max, residual="illustrative",
        detail=f"ILLUSTRATIVE (one hand-picked hypothesis family, not the Inference Procedure): H_m = lookup "
        f"table of the copy strings ww with |w| <= m, measure = table entries 2^(m+1) - 1; for each n "
        f"the least m whose table matches COPY on every string of length <= t(n) (exhaustive over "
        f"Sigma^{{<=2n}} as integer codes, n <= {n_max}). " + "; ".join(out)
        + ". Matching up to t(n) forces the measure to grow with t(n) at these n; under t(n) = n the tables "
        "never fail at length <= n but fail by 2n, under t(n) = floor(n/2) and floor(log2 n) they fail at "
        "length <= n (the schedule of Corollary 24); consistent with Theorem 23 / Corollary 24 (COPY is "
        "not expressible, Cor. 13)")


def extraction(p):
    """L52 proxy: period of p and locality of phi read from the weights equal the static analyses."""
    programs, _ = load_index(PROGRAMS)
    domain = "the compiled weights of every library program"
    readings = lw.weight_readings(programs)
    bad = next((r for r in readings if not r.agrees), None)
    if bad is not None:
        return fails(Method.EXACT, f"{bad.file}: weights give period {bad.period}, locality {bad.locality}; "
                     f"analysis {bad.static_period}, {bad.static_locality}", domain=domain,
                     count=len(programs), residual=bad.file)
    rows = [f"{r.file}: Delta {r.static_period}, tau {r.static_locality}" for r in readings
            if r.static_period > 1 or r.static_locality > 0]
    return holds(Method.EXACT, domain, count=len(programs), residual=f"{len(programs)} programs",
                 detail="exact, weights only: the minimal period of i -> p_i, the lcm of the periods of "
                        "every one-PE product r . p_i (r a row of K, Q, V, A or U), the support of every "
                        "head's phi and its radius equal analysis.period, the program's set of local "
                        f"offsets and analysis.locality for all {len(programs)} library programs "
                        f"(non-trivial: {'; '.join(rows)}; all others Delta 1, tau 0); consistent with Lemma "
                        "52 (the translated Limit Transformer is Periodic and Local)")


def l48(p):
    """L48 necessity families cos(delta), delta, [delta = 0]: values at delta = 0..horizon - 1 (cos at 40
    digits: sampled, not proven)."""
    fams = lim.l48_families(p["l48_horizon"])
    horizon = fams[0].horizon
    domain = (f"{len(fams)} families, g(delta) at delta = 0..{horizon - 1} (cos at 40 digits, tolerance "
              "1e-30) and translation invariance on a grid of positions < 40 ((family, delta) points)")
    lines = [f"{f.name} (drops {f.dropped}): translation-invariant {f.translation_invariant}, rank {f.rank}, "
             f"norm {f.norm}, fixed precision {f.fixed_precision}, period from 0 {f.period_from_0}, eventual "
             f"period (from {f.horizon // 2}) {f.eventual_period}" for f in fams]
    if not lim.l48_as_predicted(fams):
        return fails(Method.SAMPLED, "; ".join(lines), domain=domain, count=len(fams) * horizon,
                     residual="; ".join(lines))
    return holds(Method.SAMPLED, domain, count=len(fams) * horizon, residual=f"{len(fams)} families",
                 detail=f"horizon {horizon}, cos at 40 digits (tolerance 1e-30): " + "; ".join(lines)
                 + ". Each drops exactly one hypothesis of Lemma 48 and g is not periodic; [delta = 0] is "
                 "eventually periodic, so it only witnesses necessity for the 'periodic from delta = 0' "
                 "reading; consistent with Lemma 48")


def _even(n):
    return n % 2 == 0


def maj2_even(p):
    """R32: exists y (not Maj x (x <= y) and not Maj x (x > y)) holds iff |w| is even, for 1 <= |w| <= 199.
    The formula has no letter predicate, so its value depends on |w| only and a^n decides every string of
    length n (exhaustive per length); a formula with letters would be sampled only (two seeded strings)."""
    f = maj2.parse(maj2.EVEN_LENGTH, AB, sentence=True)
    letter_free = "Q(" not in maj2.to_text(f)
    top, ex = p["maj2_max"], p["maj2_exhaustive"]
    method = Method.ENUMERATION if letter_free else Method.SAMPLED
    domain = (f"every length 1..{top} (a^n and 2 seeded strings each; letter-free: {letter_free}), every "
              f"string over {{a, b}} of length <= {ex}, and the empty string")
    count = top + sum(2**n for n in range(1, ex + 1)) + 1
    bad = length_predicate_failure(f, AB, _even, top, ex, seed=0)
    if bad is not None:
        w = bad.word
        return fails(Method.EXACT, f"the formula is wrong on {w!r}" if bad.exhaustive else
                     f"{w!r}: the formula says {bad.value} on a word of length {len(w)}", domain=domain,
                     residual=w)
    eps = maj2.accepts(f, "")
    if not agrees_on_powers(maj2.parse(maj2.EVEN_LENGTH + " or not exists x (true)", AB, sentence=True), "a",
                            _even, top):
        return fails(Method.EXACT, "the formula or 'not exists x (true)' is not (aa)*", domain=domain,
                     residual="eps completion")
    return holds(method, domain, count=count, residual=f"1 <= |w| <= {top}",
                 detail=f"exact MAJ2 evaluation of '{maj2.EVEN_LENGTH}' (parsed, never eval'd): true iff |w| "
                        f"is even for every length 1..{top} (a^n and 2 seeded random strings per length; the "
                        f"formula has no letter predicate (letter-free: {letter_free}), so its value depends "
                        f"on |w| only) and for all strings of length <= {ex}; on the empty string it is "
                        f"{eps} (no position y exists), so it defines the even NON-EMPTY lengths; adding 'or "
                        "not exists x (true)' (true only on the empty string) gives exactly the even "
                        f"lengths 0..{top}. Even length is not in C-RASP[] (Lemma 38), so this is consistent "
                        "with Remark 32 (C-RASP[] strictly inside MAJ2[<])")


def maj2_majority(p):
    """P31 (one program): the MAJ2 sentence not Maj x Q(b, x) equals the C-RASP[] MAJORITY on Sigma^{<=L}."""
    f = maj2.parse(maj2.MAJORITY, AB, sentence=True)
    L = p["maj2_exhaustive"]
    domain = f"every string over {{a, b}} of length <= {L} (empty string included)"

    def differs(case):
        w, a = case
        return None if maj2.accepts(f, w) == a else f"MAJ2 and C-RASP disagree on {w or 'eps'!r}"

    return forall(labelled_strings(lim.majority(), L), differs, method=Method.ENUMERATION, domain=domain,
                  detail=lambda count: f"exhaustive, exact: '{maj2.MAJORITY}' equals M := #Q(b) <= #Q(a) on "
                                       f"all {count} strings of length <= {L} (empty string included: both "
                                       "accept); one instance of Proposition 31's translation (the general "
                                       "translation is not implemented)")


def control_distinguishable(p):
    """Control: W_{n+1} is distinguishable from MAJORITY on strings of length <= n (false)."""
    n = p["n_max"]
    d = df.window_disagreement(n + 1, n)
    domain = f"every string over {{a, b}} of length <= {n} at every prefix"
    if d.word is None:
        return fails(Method.ENUMERATION, f"no string of length <= {n} distinguishes W_{n + 1} from MAJORITY "
                     f"(all {d.strings} compared at every prefix)", domain=domain, count=d.strings,
                     residual=f"0 of {d.strings}")
    return holds(Method.EXACT, f"the string {d.word!r}", count=1, residual=d.word,
                 detail=f"distinguished by {d.word!r}")


def control_generalizes(p):
    """Control: W_{n+1} agrees with MAJORITY on all strings of length <= 2n (false for n >= 1)."""
    n = p["n_max"]
    d = df.window_disagreement(n + 1, 2 * n)
    domain = f"every string over {{a, b}} of length <= {2 * n} at every prefix"
    if d.word is None:
        return holds(Method.ENUMERATION, domain, count=d.strings, residual="none",
                     detail=f"agrees on Sigma^{{<={2 * n}}}")
    return fails(Method.ENUMERATION, f"{d.word!r} (length {d.length} <= {2 * n}): W_{n + 1} and MAJORITY "
                 f"differ", domain=domain, count=d.strings, residual=d.word)


# claim names the proof walk refers to
OCC_POS = "Thm 7 (1 => 2) proxy: the Occam learner stabilizes on MAJORITY"
OCC_NEG = "Thm 7 (2 => 1) proxy: no Occam-learned program matches PARITY up to 2n"
R8 = "drop Local: R_minus blind to the trigger offset, (8) charges it"
L47 = "robust periodic encoding is offset-invariant"
G1 = "G.1: E(p_i^T K^T Q p_j)^2 = 1/d (i != j), (d + 2)/d^2 (i = j)"
G1_MC = "G.1: Monte Carlo of (8) and (67) at N(0, 1/d)"
G1_8 = "G.1: (8) bounded when the width d grows linearly with N"
G1_67 = "G.1: (67) bounded when the width d grows linearly with N"
G1_67C = "G.1 corrected: (67) bounded when d grows as N^2"
LOST = "the math of this display is lost in the extracted text; "
ARB = "an argument about arbitrary transformers / Limit Transformers (no finite computation); "


def occam_pos(p):
    """The Occam learner (finite proxy of Def. 6) on MAJORITY, C-RASP[] programs of size <= 6."""
    return occam_evidence("MAJORITY", "[]", range(1, p["occam_n"] + 1), 6, 2 * p["occam_n"], learned=True)


def occam_neg(p):
    """The Occam learner on PARITY (not in C-RASP, Lemma 11), C-RASP[] programs of size <= 8."""
    return occam_evidence("PARITY", "[]", range(1, p["occam_n"] + 1), 8, 0, learned=False)


THEOREM = Theorem(
    id="HYB24.T7",
    title="Length generalization in the limit: finite proxies (drop families, NoPE, schedules, L48/L52, "
          "MAJ2)",
    paper=PaperRef("Huang et al. 2024 (arXiv 2410.02140)",
                   "Sec. 3, Thm 7 (= Thm 14), Lemma 17, Cor. 18, Thm 23 / Cor. 24; App. D.2; Lemmas 48, 52; "
                   "Prop. 31 / Remark 32", "", "huang2024formal"),
    # Theorem 7 itself (asymptotic; the conclusion claims are finite proxies of what each hypothesis buys)
    conclusion=sp.Equivalent(ExpressibleLT(f_target), GeneralizesInTheLimit(f_target)),
    params=ParamSpace((
        Param("n_max", int, 8, "largest training length n for the Local drop families (D < 2n)", min=2,
              max=9),
        Param("net_len", int, 8, "exhaustive length for compiled-network runs of f_{n+1}", min=1, max=10),
        Param("n0_max", int, 12, "largest n0 of the threshold family g_n0", min=1, max=16),
        Param("precision_p", int, 6, "largest p for the L* <= 2^p grid check", min=0, max=8),
        Param("c18_len", int, 5, "exhaustive length (binary; same string count otherwise) for offsets 0..20",
              min=1, max=8),
        Param("copy_n", int, 10, "largest n in the schedule tables (strings up to 2n enumerated)", min=2,
              max=11),
        Param("l48_horizon", int, 10000, "horizon of the Lemma-48 aperiodicity checks", min=8, max=100000),
        Param("maj2_max", int, 199, "largest length for the MAJ2 even-length check", min=1, max=400),
        Param("maj2_exhaustive", int, 10, "exhaustive length for the MAJ2 checks", min=0, max=12),
        Param("occam_n", int, 6, "largest training length of the Occam runs", min=1, max=7),
    )),
    assumptions=(
        Assumption("local", "phi translation-invariant and local with a uniform radius (the (8) penalty)",
                   note="window-majority and trigger families show what is lost without it",
                   predicate=Local(sp.Symbol("phi"))),
        Assumption("periodic", "positional encodings periodic", note="threshold family g_n0",
                   predicate=Periodic(sp.Symbol("p"))),
        Assumption("fixed-precision", "parameters at fixed precision (App. D.2)", note="f_alpha family",
                   predicate=FixedPrecision(sp.Symbol("theta"))),
    ),
    claims=(
        Computed("drop Local: window majority fits n and fails by 2n", "conclusion",
                 "Thm 7 without Local (a family constructed here, not in the paper); Lemma 17",
                 "W_D = MAJORITY on Sigma^{<=D}; for D in (n, 2n) it fits length n and fails at D + 1 <= 2n",
                 de.window_family, reading="proxy"),
        Computed("drop Local: trigger f_D = MAJORITY on lengths <= D", "conclusion",
                 "Thm 7 without Local (a family constructed here, not in the paper)",
                 "f_D = MAJORITY xor [w_{i-D} = a] agrees with MAJORITY on Sigma^{<=D}", de.trigger_family,
                 reading="proxy"),
        Computed("drop Local: R_minus blind to the trigger offset, (8) charges it", "identification",
                 "Def. 5 / Def. 16 (a reconstructed reading); Lemma 17",
                 "R_minus(H_D) is the same for all D in (n, 2n]; the (8) term is beta^2 iff D < 2n",
                 de.regularizer_demo, reading="our reading"),
        Computed("drop Periodic: g_n0 = MAJORITY below n0, differs at n0", "conclusion",
                 "Thm 7 without Periodic (a family constructed here, not in the paper)",
                 "g_n0 = MAJORITY xor [i >= n0] agrees on lengths < n0 and differs at n0",
                 de.threshold_family,
                 reading="proxy"),
        Computed("drop fixed precision: L*(alpha, beta) unbounded, <= 2^p on the grid", "conclusion",
                 "App. D.2 (the function f_alpha reconstructed)",
                 "L*(alpha, beta) = min{L : exists k, alpha < k/L <= beta}; -> infinity as beta -> alpha; "
                 "<= 2^p on the 2^-p grid", de.precision_family, reading="our reading"),
        Computed("C18: compiled C-RASP[] programs are NoPE and offset-invariant", "conclusion", "Cor. 18",
                 "p = 0 and phi = 0 structurally; identical outputs at offsets 0..20", nope_offsets,
                 reading="proxy"),
        Computed("robust periodic encoding is offset-invariant", "identification", "Remark 28; Lemma 47",
                 "the default periodic encoding gives identical outputs at offsets 0..20", robust_offsets,
                 reading="proxy"),
        Computed("T23/C24 illustration: lookup tables for COPY", "conclusion",
                 "Thm 23 / Cor. 24 (illustrative)",
                 "matching COPY up to t(n) forces the lookup measure to infinity; t(n) = n/2 fails at <= n",
                 schedules, reading="proxy"),
        Computed("L52 proxy: period and locality from the weights", "identification", "Lemma 52; Lemma 48",
                 "weights-only period of p and locality of phi equal the static analyses", extraction,
                 reading="proxy"),
        Computed("L48 drop families cos(delta), delta, [delta = 0]", "identification", "Lemma 48",
                 "each family is translation-invariant, drops one hypothesis and is not periodic", l48,
                 reading="proxy"),
        Computed("R32: MAJ2 even-length witness", "conclusion", "Remark 32; App. C.3.3",
                 "exists y (not Maj x (x <= y) and not Maj x (x > y)) iff |w| even, 1 <= |w| <= 199",
                 maj2_even, reading="proxy"),
        Computed("P31 instance: MAJORITY in MAJ2", "identification", "Prop. 31",
                 "not Maj x Q(b, x) defines MAJORITY on Sigma^{<=10}", maj2_majority, reading="proxy"),
        Computed(OCC_POS, "conclusion", "Thm 7 = Thm 14, 1 => 2; Lemma 17, last paragraph (finitely many "
                 "algorithms, stationary from some n0)", "C-RASP[] programs of size <= 6 stand for finitely "
                 "many Limit Transformers: the least program fitting lengths <= n is the same and correct up "
                 "to 2n for every n >= n0", occam_pos, reading="proxy"),
        Computed(OCC_NEG, "conclusion", "Thm 7 = Thm 14, 2 => 1 (contrapositive, on the proxy class)",
                 "PARITY (outside C-RASP): no least program fitting lengths <= n is correct up to 2n",
                 occam_neg, reading="proxy"),
        Computed(G1, "identification", "App. G.1 / Prop. 54 proof (i.i.d. N(0, 1/d), d_k = d: our reading)",
                 "exact Gaussian moments of every monomial at d = 1..6", lambda p: iw.moments_evidence(
                     range(1, 7)), reading="our reading"),
        Computed(G1_MC, "identification", "App. G.1 (eqs. 66-67 at N(0, 1/d): our reading)",
                 "(8) = (N-1)/d + (d+2)/d^2, (67) = N(N-1)/(2d) + N(d+2)/d^2 within 5 standard errors",
                 lambda p: iw.monte_carlo_evidence(((32, 32), (32, 128), (128, 128)), 400, 0, 5.0),
                 reading="our reading"),
        SymbolicStep(G1_8, "identification", "App. G.1 ('as long as the width grows linearly with N'); Sec. "
                     "3.2 ('bounded values for (8) when d is large')", "lim_N E(8) at d = cN is 1/c",
                     lambda: iw.limit_at_width(iw.E8, iw.c * iw.N) - 1 / iw.c, reading="our reading"),
        Computed(G1_67, "identification", "App. G.1 on (67): 'Here, the same conclusion holds'",
                 "E(67) at d = cN stays bounded as N -> oo", lambda p: iw.unbounded_evidence(
                     iw.E67, iw.c * iw.N, "E(67)"), reading="our reading"),
        SymbolicStep(G1_67C, "identification", "App. G.1 / Prop. 54 with d = Theta(N^2) (derived here)",
                     "lim_N E(67) at d = cN^2 is 1/(2c)",
                     lambda: iw.limit_at_width(iw.E67, iw.c * iw.N**2) - 1 / (2 * iw.c), reading="corrected"),
        Computed("control: W_{n+1} distinguishable from MAJORITY on lengths <= n", "control",
                 "deliberately false", "some string of length <= n separates W_{n+1} and MAJORITY",
                 control_distinguishable, reading="proxy"),
        Computed("control: W_{n+1} = MAJORITY on lengths <= 2n", "control", "deliberately false",
                 "W_{n+1} agrees with MAJORITY on Sigma^{<=2n}", control_generalizes, reading="proxy"),
        Computed("control: naive periodic encoding is offset-invariant", "control",
                 "deliberately false (R28)",
                 "the naive encoding of (aa)* gives identical outputs at offsets 0..20",
                 naive_offset_control, reading="proxy"),
    ),
    expect={
        "drop Local: window majority fits n and fails by 2n": Verdict.CERTIFIED,
        "drop Local: trigger f_D = MAJORITY on lengths <= D": Verdict.CERTIFIED,
        R8: Verdict.CERTIFIED,
        "drop Periodic: g_n0 = MAJORITY below n0, differs at n0": Verdict.CERTIFIED,
        "drop fixed precision: L*(alpha, beta) unbounded, <= 2^p on the grid": Verdict.CERTIFIED,
        "C18: compiled C-RASP[] programs are NoPE and offset-invariant": Verdict.CERTIFIED,
        L47: Verdict.CERTIFIED,
        "T23/C24 illustration: lookup tables for COPY": Verdict.CERTIFIED,
        "L52 proxy: period and locality from the weights": Verdict.CERTIFIED,
        "L48 drop families cos(delta), delta, [delta = 0]": Verdict.CONFIRMED,
        "R32: MAJ2 even-length witness": Verdict.CERTIFIED,
        "P31 instance: MAJORITY in MAJ2": Verdict.CERTIFIED,
        "control: W_{n+1} distinguishable from MAJORITY on lengths <= n": Verdict.REFUTED,
        "control: W_{n+1} = MAJORITY on lengths <= 2n": Verdict.REFUTED,
        "control: naive periodic encoding is offset-invariant": Verdict.REFUTED,
        OCC_POS: Verdict.CERTIFIED,
        OCC_NEG: Verdict.CERTIFIED,
        G1: Verdict.CERTIFIED,
        G1_MC: Verdict.CONFIRMED,
        G1_8: Verdict.CERTIFIED,
        G1_67: Verdict.REFUTED,
        G1_67C: Verdict.CERTIFIED,
    },
    proofs=(Proof("Theorem 7", "App. B.1: proof of Lemma 17, then of Thm 14 (= Thm 7)", (
        Step("(7)", "Def. 16: R_minus = R without the (8) term", kind="definition",
             why_not="a definition; our reading of its components is computed by " + R8),
        Step("(8)", "Lemma 17's hypothesis: sup_n R(T_n) < oo for the Inference Procedure's sequence",
             kind="definition", why_not="a hypothesis, no truth value of its own"),
        Step("(9)", "Lemma 52 gives Limit Transformers T^_n equivalent to T_n with R_minus bounded",
             why_not=LOST + "an appeal to Lemma 52 for arbitrary transformers (the L52 proxy reads period "
                     "and locality off compiled weights, not this translation)"),
        Step("(10)", "each T^_n has periodic p and translation-invariant, local phi",
             why_not=LOST + "a property of Lemma 52's output for arbitrary T_n"),
        Step("finitely many settings", "bounded R_minus at fixed precision: finitely many T^_n up to phi",
             why_not=ARB + "a counting argument over parameter settings"),
        Step("R_minus converges", "R_minus(T_n) is bounded and monotonically increasing in n",
             why_not=ARB + "monotonicity of an infimum over shrinking hypothesis classes"),
        Step("(11)", "limit of R_minus along the sequence", why_not=LOST + "a limit of an abstract sequence"),
        Step("(12)", "choice of the radius in terms of that limit",
             why_not=LOST + "a choice, no computation"),
        Step("(13)", "for some index the (8) mass beyond the radius is small",
             why_not=LOST + "a limit argument over arbitrary sequences"),
        Step("(14)", "the complementary bound", why_not=LOST + "a limit argument over arbitrary sequences"),
        Step("(15)-(16)", "the limit of a sum of bounded sequences (footnote 2)",
             why_not=LOST + "real analysis on arbitrary bounded sequences (footnote 2's formulas lost)"),
        Step("(17)", "F(tau) is monotone and at fixed precision attains its supremum at some tau",
             why_not=LOST + "a pigeonhole over the fixed-precision values of arbitrary phi"),
        Step("T'_n", "restricting phi of a traversed T^ to offsets <= tau gives T'_n that fits f up to n",
             why_not=ARB + "a construction on arbitrary Limit Transformers"),
        Step("(18)", "Def. 6: R(T_n) <= R(T'_n) + 1/n", why_not=LOST + "the defining property of the "
             "Inference Procedure's choice, not a computation"),
        Step("(19)", "R(T'_n) bounded by R_minus plus the (8) mass within tau", why_not=LOST + ARB),
        Step("(20)", "(18) and (19) combined", why_not=LOST + ARB),
        Step("(21)", "infinitely many T_n not tau-local: the (8) term charges the far offsets while R_minus "
             "is unchanged, contradicting (20)", by=R8),
        Step("end of Lemma 17", "finitely many Limit Transformers traversed, stationary from some n0, each "
             "equal to f: T_n matches f for n > n0", by=OCC_POS),
        Step("Thm 14, 2 => 1", "directly from Lemma 17", by=OCC_NEG),
        Step("Thm 14, 1 => 2 (Lemma 47)", "a Periodic, Local Limit Transformer for f gives transformers in "
             "the hypothesis classes matching f at every offset (text lost: our reconstruction)", by=L47),
        Step("Thm 14, 1 => 2 (bounded R)", "their R is bounded, so the Inference Procedure's R(T_n) <= "
             "R(T^47_n) + 1/n is bounded",
             why_not=LOST + "Lemma 47's norm bound for arbitrary Limit Transformers"),
        Step("Thm 14, 1 => 2 (Lemma 17)", "Lemma 17 applies: T_n matches f up to 2n for n > n0", by=OCC_POS),
    )),),
    notes="Every verdict is about a finite computation; the theorem-level verdict 'confirmed' means "
          "'consistent with Theorem 7 on these proxies', never 'proved'.",
)
