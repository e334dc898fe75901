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

from fractions import Fraction
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
    Theorem,
    Verdict,
    fails,
    forall,
    holds,
    predicate,
)
from proofkit.crasp.semantics import labelled_strings
from proofkit.crasp.tasks import length_for, load_index
from proofkit.crasp.theory import agrees_on_powers, length_predicate_failure, maj2
from proofkit.crasp.theory import drop_families as df
from proofkit.crasp.theory import library_weights as lw
from proofkit.crasp.theory import limits as lim

f_target = sp.Symbol("f")
GeneralizesInTheLimit = predicate("GeneralizesInTheLimit", "every run of the Inference Procedure (Def. 6: "
                                  "fit f on lengths <= n, minimal regularizer (8)) matches f up to length 2n "
                                  "for all sufficiently large n")
FixedPrecision = predicate("FixedPrecision", "parameters are represented at a fixed precision (App. D.2)")

PROGRAMS = Path(__file__).parent / "programs"
AB = ("a", "b")
T7 = "consistent with Theorem 7"
OFFSETS = range(0, 21)
SCHEDULES = {"t(n) = n": lambda n: n, "t(n) = floor(n/2)": lambda n: n // 2,
             "t(n) = floor(log2 n)": lambda n: max(n.bit_length() - 1, 0)}


def window_family(p):
    """Drop Local: W_D = MAJORITY on Sigma^{<=D}, differs at D + 1; for D in (n, 2n) fits n, fails by 2n."""
    n_max = p["n_max"]
    prof = df.window_profile(2 * n_max - 1)
    domain = f"D = 1..{2 * n_max - 1}, every string over {{a, b}} of length <= D + 1 at every prefix"
    for D, d in prof.items():
        if d.length != D + 1:
            return fails(Method.ENUMERATION, f"D = {D}: W_{D} vs MAJORITY: first disagreement {d.word!r}",
                         domain=domain, count=len(prof), residual=f"D={D}: {d.word}")
    pairs, bad = df.fit_fail_pairs(prof, n_max)
    if bad:
        return fails(Method.ENUMERATION, f"(n, D) = {bad[0]} does not fit n or does not fail by 2n",
                     domain=domain, count=len(prof), residual=str(bad[0]))
    wit = ", ".join(f"W_{D}: {prof[D].word}" for D in sorted(prof))
    return holds(Method.ENUMERATION, domain, count=len(prof), residual=f"{len(pairs)} (n, D) pairs",
                 detail=f"exhaustive, exact: for D = 1..{2 * n_max - 1} the C-RASP[local] program W_D "
                        "(generated as text, locality D - 1) agrees with MAJORITY on every string of length "
                        f"<= D and the smallest failing string has length D + 1 ({wit}); hence for every n = "
                        f"1..{n_max} and D in (n, 2n) ({len(pairs)} pairs) W_D fits all training strings of "
                        "length <= n and fails at length D + 1 <= 2n. A uniform locality bound (the (8) "
                        f"penalty) is what excludes choosing D = D(n) forever; {T7} (Local is needed), not a "
                        "proof")


def trigger_family(p):
    """Drop Local (trigger): f_D = MAJORITY on Sigma^{<=D}, smallest difference a^{D+1}."""
    top = 2 * p["n_max"]
    domain = f"D = 1..{top}, every string over {{a, b}} of length <= D + 1 at every prefix"
    prof = df.trigger_profile(top)
    for D, d in prof.items():
        if d.length != D + 1:
            return fails(Method.ENUMERATION, f"D = {D}: f_{D} vs MAJORITY: first disagreement {d.word!r}",
                         domain=domain, count=top, residual=f"D={D}")
    rows = [f"f_{D}: a^{D + 1}" if d.word == "a" * (D + 1) else f"f_{D}: {d.word}" for D, d in prof.items()]
    return holds(Method.ENUMERATION, domain, count=top, residual=f"D = 1..{top}",
                 detail="exhaustive, exact: f_D = MAJORITY xor [exists j: i - j = D and w_j = a] "
                        "(C-RASP[local] text, locality D) equals MAJORITY on all strings of length <= D and "
                        f"first differs at length D + 1 ({', '.join(rows)}); {T7}: without a locality "
                        "penalty no training length separates the family")


def regularizer_demo(p):
    """R_minus vs R on the compiled networks of MAJORITY and f_D, D in (n, 2n], at context N = 2n."""
    s = df.offset_penalty_study(p["n_max"], p["net_len"])
    n, N, beta2, fit = s.n, s.context, s.beta_sq, s.fit_len
    lines = [f"MAJORITY: R_minus {s.majority[0]:.4f}, R {s.majority[1]:.4f}"]
    lines += [f"f_{r.D}: R_minus {r.regularizer[0]:.4f}, (8) {r.locality_term}, R {r.regularizer[1]:.4f}, "
              f"first failure vs MAJORITY {r.first_failure if r.first_failure is not None else f'> {N}'}"
              for r in s.rows]
    domain = (f"the compiled networks of f_D, D = {n + 1}..{N}, at context N = {N} (exact components), and "
              f"of f_{n + 1} on every string of length <= {fit} and on a^{n + 2}")
    if not s.ok:
        flags = (f"same={s.components_equal}, charge={s.charges_inside}, fits={s.fits}, "
                 f"fails={s.fails_at_witness}")
        return fails(Method.EXACT, flags, domain=domain, count=N - n, residual=flags, detail="; ".join(lines))
    return holds(
        Method.EXACT, domain, count=N - n,
        residual=f"R_minus constant, (8) = {beta2} for D < {N}, 0 at D = {N}",
        detail=f"exact components from the compiled weights at N = 2n = {N}: " + "; ".join(lines)
        + f". The R_minus components (layers, heads, rank V, max squared Frobenius norm, max sum |phi|, "
        f"precision bits) are identical for every D in ({n}, {N}], so R_minus cannot prefer f_{N} "
        f"(correct up to length {N}) over f_{n + 1} (fails at {n + 2}); the (8)-type term "
        f"sum_c<N phi(c)^2 charges "
        f"beta^2 = {beta2} exactly when the offset D < N is inside the context. The compiled network of "
        f"f_{n + 1} equals MAJORITY on every string of length <= {fit} (exact run) and "
        f"misclassifies a^{n + 2}. Computed: a proxy of R (our reading of Def. 5, reconstructed) and the "
        f"Lemma-47 image of term (8). Illustrative of Lemma 17's mechanism within one architecture: "
        f"MAJORITY's own network has the smaller R_minus, so this is not a claim about what the "
        f"Inference Procedure picks for MAJORITY; {T7} / Lemma 17 (the (8) penalty forces a uniform "
        f"locality)")


def threshold_family(p):
    """Drop Periodic: g_{n0} = MAJORITY xor [i >= n0] agrees below n0, differs at n0."""
    top = p["n0_max"]
    domain = (f"n0 = 1..{top}, every string over {{a, b}} of length <= n0 (the C-RASP[] encoding: <= "
              f"min(n0 + 2, 16))")
    rows = df.threshold_profile(top)
    bad = next((r for r in rows if not r.ok), None)
    if bad is not None:
        return fails(Method.ENUMERATION, f"n0 = {bad.n0}: g_{bad.n0}: first difference {bad.first.word!r}, "
                     f"encoding {bad.encoding.word!r}", domain=domain, count=top, residual=f"n0={bad.n0}")
    weights = [f"{n0}: {w}" for n0, w in df.threshold_weights((2, 4, 8, 16)).items()]
    first, last = rows[0].first.word, rows[-1].first.word
    return holds(Method.ENUMERATION, domain, count=top, residual=f"n0 = 1..{top}",
                 detail="exhaustive, exact: g_n0 agrees with MAJORITY on every string of length < n0 and "
                        f"differs on every string of length n0 (smallest witnesses a^n0: {first!r} .. "
                        f"{last!r}). Finding: g_n0 is also C-RASP[] (P := #true >= n0; checked equal on "
                        "Sigma^{<=n0+2}), so it IS a NoPE Limit Transformer; what grows is the constant: "
                        f"largest compiled weight per n0 = {', '.join(weights)}. With an arbitrary "
                        "(non-periodic) p_i = [i >= n0] the same family would have bounded norms (stated, "
                        f"not constructed). {T7} (Periodic or the norm penalty is what excludes the family)")


def precision_family(p):
    """App. D.2: minimal distinguishing length of f_alpha, f_beta; formula = brute force; table; 2^p bound."""
    pb = p["precision_p"]
    domain = (f"every pair alpha < beta on the 1/16 grid of [0, 1] under '>' and '>=' (strings of length "
              f"<= 16), beta - alpha = 2^-m at alpha = 1/3 for m = 1..16, and every pair of the 2^-p grid "
              f"for p = 0..{pb}")
    formula = lim.formula_vs_brute(16, 16)
    checked = formula.checked
    if formula.mismatch is not None:
        a, b, L = formula.mismatch
        return fails(Method.EXACT, f"({a}, {b}): formula {L} differs from brute force", domain=domain,
                     residual=f"({a}, {b})")
    table = lim.distinguishing_growth(Fraction(1, 3), range(1, 17))
    grows = all(x[1] <= y[1] for x, y in zip(table, table[1:])) and table[-1][1] > 2**14
    grids = lim.grid_bounds(pb)
    bad = next((g for g in grids if g.violation), None)
    if bad is not None:
        return fails(Method.EXACT, f"p = {bad.p}: L* > 2^{bad.p} for the pair {bad.violation}", domain=domain,
                     residual=f"p={bad.p}: {bad.violation}")
    bounds = [f"p={g.p}: {g.pairs} pairs, max L* {g.worst} (= 2^p: {g.worst == 2**g.p})" for g in grids]
    if not grows:
        return fails(Method.EXACT, f"L* does not grow as beta -> alpha: {table}", domain=domain,
                     residual=str(table))
    tab = ", ".join(f"2^-{m}: {L}" for m, L in table)
    return holds(Method.EXACT, domain, count=checked + len(table) + sum(g.pairs_both for g in grids),
                 residual=f"L*(1/3, 1/3 + 2^-16) = {table[-1][1]}",
                 detail="exact (Fractions): L*(alpha, beta) = min{L : exists k in 0..L, alpha < k/L <= "
                        "beta} equals the brute-force minimum over all strings of length <= 16 for all "
                        f"{checked // 2} pairs on the 1/16 grid under both '>' and '>=' thresholds; beta - "
                        f"alpha -> L*(1/3, 1/3 + beta - alpha): {tab} (grows without bound); L* <= 2^p for "
                        f"every pair on the 2^-p grid of [0, 1]: {'; '.join(bounds)}. {T7} (App. D.2: "
                        "unbounded parameter precision defeats identification)")


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
                 window_family, reading="proxy"),
        Computed("drop Local: trigger f_D = MAJORITY on lengths <= D", "conclusion",
                 "Thm 7 without Local (a family constructed here, not in the paper)",
                 "f_D = MAJORITY xor [w_{i-D} = a] agrees with MAJORITY on Sigma^{<=D}", trigger_family,
                 reading="proxy"),
        Computed("drop Local: R_minus blind to the trigger offset, (8) charges it", "identification",
                 "Def. 5 / Def. 16 (a reconstructed reading); Lemma 17",
                 "R_minus(H_D) is the same for all D in (n, 2n]; the (8) term is beta^2 iff D < 2n",
                 regularizer_demo, reading="our reading"),
        Computed("drop Periodic: g_n0 = MAJORITY below n0, differs at n0", "conclusion",
                 "Thm 7 without Periodic (a family constructed here, not in the paper)",
                 "g_n0 = MAJORITY xor [i >= n0] agrees on lengths < n0 and differs at n0", threshold_family,
                 reading="proxy"),
        Computed("drop fixed precision: L*(alpha, beta) unbounded, <= 2^p on the grid", "conclusion",
                 "App. D.2 (the function f_alpha reconstructed)",
                 "L*(alpha, beta) = min{L : exists k, alpha < k/L <= beta}; -> infinity as beta -> alpha; "
                 "<= 2^p on the 2^-p grid", precision_family, reading="our reading"),
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
        "drop Local: R_minus blind to the trigger offset, (8) charges it": Verdict.CERTIFIED,
        "drop Periodic: g_n0 = MAJORITY below n0, differs at n0": Verdict.CERTIFIED,
        "drop fixed precision: L*(alpha, beta) unbounded, <= 2^p on the grid": Verdict.CERTIFIED,
        "C18: compiled C-RASP[] programs are NoPE and offset-invariant": Verdict.CERTIFIED,
        "robust periodic encoding is offset-invariant": Verdict.CERTIFIED,
        "T23/C24 illustration: lookup tables for COPY": Verdict.CERTIFIED,
        "L52 proxy: period and locality from the weights": Verdict.CERTIFIED,
        "L48 drop families cos(delta), delta, [delta = 0]": Verdict.CONFIRMED,
        "R32: MAJ2 even-length witness": Verdict.CERTIFIED,
        "P31 instance: MAJORITY in MAJ2": Verdict.CERTIFIED,
        "control: W_{n+1} distinguishable from MAJORITY on lengths <= n": Verdict.REFUTED,
        "control: W_{n+1} = MAJORITY on lengths <= 2n": Verdict.REFUTED,
        "control: naive periodic encoding is offset-invariant": Verdict.REFUTED,
    },
    notes="Every verdict is about a finite computation; the theorem-level verdict 'confirmed' means "
          "'consistent with Theorem 7 on these proxies', never 'proved'.",
)
