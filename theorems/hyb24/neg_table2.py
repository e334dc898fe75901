"""HYB24.NEG: computational evidence for the Table-2 "no" entries of Huang et al. 2024 (Tomita 3, 5, 6, #17,
PARITY; the C-RASP[] side of Tomita 4, (aa)*, (aaaa)*, (abab)*).

Two kinds of evidence, neither a proof of non-membership:
  * reductions (Lemmas 34-36, 40-42): h^{-1}(L) == L' checked exhaustively, which turns "L not in C-RASP"
    into "L not in C-RASP iff L' not in C-RASP" (or one direction of it); certified over the checked
    lengths (read as a proxy: the lemmas are about every length);
  * bounded exhaustive program search (proofkit/crasp/search/enumerate.py): the claim is the printed "L is
  not in
    the fragment" and the search ("none found up to size s on strings <= n") cannot decide it: the
    statement is "no program of any size exists", and a search over sizes <= s covers none of the larger
    programs, so the evidence is returned undecided (inconclusive, with the search's domain and count). A
    found program that also agrees on every longer string checked refutes it only as an uncertified
    candidate counterexample (a search, to be reviewed).
Positive controls show that the same search finds programs where they exist (certified over the
verification length); the Occam learner is the finite proxy of the Inference Procedure (Definition 6) and
its runs are "consistent with Theorem 7", never a proof of it. Three deliberately false controls must be
refuted.
"""

from functools import cache
from pathlib import Path

import sympy as sp

from proofkit import (
    Computed,
    Cost,
    InCRASP,
    Method,
    PaperRef,
    Param,
    ParamSpace,
    Theorem,
    Verdict,
    fails,
    function,
    holds,
    undecided,
)
from proofkit.crasp.search import Fragment, occam, search_all
from proofkit.crasp.semantics import CounterTruth, exhaustive_check
from proofkit.crasp.tasks import length_for, load_index, strings_domain
from proofkit.crasp.theory import REDUCTIONS, Preimage, check_preimage, morphism, resolve, transform_cases

L_lang, L_prime, F_frag, h_morph = (sp.Symbol(n) for n in ("L", "L'", "F", "h"))
preimage = function("preimage", "h^-1(L) = {w : h(w) in L}, the inverse image of L under the morphism h")

PROGRAMS = Path(__file__).parent / "programs"


def _frag(p, spec):
    return Fragment.of(spec, max_modulus=p["max_modulus"], max_offset=p["max_offset"])


# Search groups: one enumeration per (alphabet size, fragment, n), shared by every language in the group.
GROUPS = {
    "binary [periodic,local]": ("[periodic,local]", ("PARITY", "Tomita3", "Tomita5", "Tomita6", "MOD3"),
                                "size", "n"),
    "binary []": ("[]", ("Tomita4", "(aa)*", "(aaaa)*", "(abab)*", "MAJORITY", "Tomita1", "a*b*",
                         "Sigma*abSigma*"), "plain_size", "plain_n"),
    "unary []": ("[]", ("(aa)*/unary", "(aaaa)*/unary"), "unary_size", "unary_n"),
    "ternary [periodic,local]": ("[periodic,local]", ("#17", "Sigma*be*"), "ternary_size", "ternary_n"),
    "binary [periodic]": ("[periodic]", ("(aa)*", "Tomita2"), "positive_size", "positive_n"),
    "binary [local]": ("[local]", ("Sigma*abSigma*",), "positive_size", "positive_n"),
}


@cache
def _group(key, frozen):
    p = dict(frozen)
    spec, names, size_key, n_key = GROUPS[key]
    truths = [(name, resolve(name).alphabet, resolve(name)) for name in names]
    results = search_all(truths, _frag(p, spec), p[size_key], p[n_key],
                         verify_len=verify_length(p, len(truths[0][1]), p[n_key]),
                         max_behaviours=p["max_behaviours"])
    return dict(zip(names, results))


def verify_length(p, k, n):
    """Where a found program is checked exactly: verify_len is the binary length; other alphabets get the
    same string count (3^20 ternary strings would never finish), and always longer strings than the
    sample's (checking at length <= n would pass every found program vacuously)."""
    return max(length_for(k, p["verify_len"]), n + 1)


def result(p, key, name):
    return _group(key, tuple(sorted(p.items())))[name]


def search_domain(r, size):
    """The domain of a bounded search: the grammar, the sizes covered and the sample."""
    return f"C-RASP{r.fragment} programs of size <= {size}, on every string of length <= {r.n}"


def negative(key, name, paper):
    """Bounded search: undecided, 'none found up to size s' (see the module docstring)."""
    def run(p):
        r = result(p, key, name)
        if not r.found:
            return undecided(f"{r.summary()}: no program of size <= {r.size_completed} agrees on strings <= "
                             f"{r.n} (a bounded search, not a proof of non-existence; paper: {paper}, cited)",
                             method=Method.SEARCH, domain=search_domain(r, r.size_completed),
                             count=r.candidates, residual=f"none <= {r.size_completed}")
        if r.generalizes:
            return fails(Method.SEARCH, f"{r.expression} agrees with {name} on every string of length <= "
                         f"{r.verify_len}: CANDIDATE COUNTEREXAMPLE to the paper, review",
                         domain=search_domain(r, r.size), count=r.candidates, residual=r.expression,
                         detail=r.summary())
        return undecided(f"{r.summary()}: no program of size <= {r.size - 1} agrees on strings <= {r.n}; the "
                         f"size-{r.size} program found overfits (a bounded search, not a proof of "
                         f"non-existence; paper: {paper}, cited)", method=Method.SEARCH,
                         domain=search_domain(r, r.size), count=r.candidates,
                         residual=f"none <= {r.size - 1}")
    return run


def positive(key, name):
    """Positive control: the search finds a program and it agrees at the longer verification length
    (exhaustive, exact; longer strings are not covered)."""
    def run(p):
        r = result(p, key, name)
        if not r.found:
            return fails(Method.ENUMERATION, f"none found up to size {r.size_completed}",
                         domain=search_domain(r, r.size_completed), count=r.candidates,
                         residual=f"none <= {r.size_completed}", detail=r.summary())
        A = resolve(name).alphabet
        domain = strings_domain(A, r.verify_len)
        count = sum(len(A) ** i for i in range(r.verify_len + 1))
        if not r.generalizes:
            return fails(Method.ENUMERATION, f"{r.expression} fails at {r.witness!r}", domain=domain,
                         count=count, residual=r.expression, detail=r.summary())
        return holds(Method.ENUMERATION, domain, count=count, residual=r.expression,
                     detail=f"{r.summary()}; longer strings not covered")
    return run


def reduction(key):
    red = next(r for r in REDUCTIONS if r.key == key)

    def run(p):
        n = length_for(len(red.source), p["reduction_len"])
        c = red.check(n)
        domain = strings_domain(red.source, n)
        if not c.holds:
            return fails(Method.ENUMERATION, f"w = {c.witness!r}", domain=domain, count=c.strings,
                         residual=c.witness, detail=c.how())
        return holds(Method.ENUMERATION, domain, count=c.strings, residual="0",
                     detail=f"{c.how()}; {red.meaning}")
    return run


def tomita5_intersection(p):
    """Tomita 5 = PARITY and swap^{-1}(PARITY): with Lemma 42 and closure under and, PARITY in => T5 in."""
    swap = morphism({"0": "1", "1": "0"}, "01", "01", "swap")
    par, sw = resolve("PARITY"), Preimage(swap, "PARITY")
    both = CounterTruth("PARITY & swap^-1(PARITY)", ("0", "1"),
                        lambda X: par.accepts_prefixes(X) & sw.accepts_prefixes(X))
    n = p["reduction_len"]
    d = exhaustive_check(both, resolve("Tomita5"), 2, n)
    how = (f"Tomita 5 vs PARITY(w) and PARITY(swap(w)) (swap: 0<->1), exhaustive over all strings of length "
           f"<= {n} at every prefix")
    domain, count = strings_domain("01", n), 2 ** (n + 1) - 1
    if d is not None:
        return fails(Method.ENUMERATION, f"w = {d.text('01')!r}", domain=domain, count=count,
                     residual=d.text("01"), detail=how)
    return holds(Method.ENUMERATION, domain, count=count, residual="0",
                 detail=f"{how}: equal. With 'T5->PARITY' this gives Tomita 5 in C-RASP[p,l] iff PARITY in "
                        f"C-RASP[p,l] (Lemma 42 + closure under 'and')")


def transformer(p):
    """Lemma 42's construction (morphism.transform) on every library program over <= 3 letters."""
    programs, _ = load_index(PROGRAMS)
    n = p["transform_len"]
    cases = transform_cases(programs, n, max_letters=3)
    bad = next((c for c in cases if not c.ok), None)
    if bad is not None:
        differs = "" if bad.check.holds else f", differs at w = {bad.check.witness!r}"
        return fails(Method.ENUMERATION, f"{bad.file} with h = {bad.morphism}: fragments {bad.fragment} -> "
                     f"{bad.image_fragment}{differs}",
                     domain=TRANSFORM_DOMAIN.format(n=n), residual=bad.file, detail=bad.check.how())
    done, strings = len(cases), sum(c.check.strings for c in cases)
    return holds(Method.ENUMERATION, TRANSFORM_DOMAIN.format(n=n) + f" ({done} pairs x strings)",
                 count=strings, residual=f"{done} (program, morphism) pairs",
                 detail=f"transform(P, h) accepts w iff P accepts h(w) on every string of length <= {n} "
                        f"over {{x, y}}, for {done} (library program, morphism) pairs with K = 1, 2, 3, and "
                        f"never leaves P's fragment (so it maps C-RASP[] to C-RASP[]); a check of the "
                        f"construction, not a proof")


TRANSFORM_DOMAIN = ("every (library program over <= 3 letters, one of 3 morphisms) pair and every string "
                    "over {{x, y}} of length <= {n}")


def occam_positive(name, spec):
    """Evidence: the Occam learner's run at training lengths n = 1..top, each learned program checked
    exactly up to 2n and the final one to verify_len (a finite proxy of the Inference Procedure)."""
    def run(p):
        t = resolve(name)
        top = p["occam_n"] - (1 if name == "Tomita2" else 0)
        domain = f"training lengths n = 1..{top} (each learned program checked on every string <= 2n)"
        if top < 1:
            return holds(Method.ENUMERATION, domain, count=0, residual="no training length")
        r = occam(t, t.alphabet, _frag(p, spec), list(range(1, top + 1)), p["positive_size"],
                  final_len=p["verify_len"], max_behaviours=p["max_behaviours"])
        text = r.summary() + f"; first agreeing up to 2n at n = {r.first_agrees}"
        if r.stable_from is None or not r.final_generalizes:
            return fails(Method.ENUMERATION, "never stable on a correct program" if r.stable_from is None
                         else f"the final program fails at length <= {r.final_verified_len}", domain=domain,
                         count=top, residual=str(r.stable_from), detail=text)
        return holds(Method.ENUMERATION,
                     domain + f", the final one on every string <= {r.final_verified_len}", count=top,
                     residual=f"stable from n = {r.stable_from}",
                     detail=text + " (consistent with Theorem 7)")
    return run


def occam_parity(p):
    """Evidence: no program the Occam learner picks at n = 1..occam_n agrees with PARITY up to 2n."""
    t = resolve("PARITY")
    top = p["occam_n"]
    r = occam(t, t.alphabet, _frag(p, "[periodic,local]"), list(range(1, top + 1)),
              p["occam_parity_size"], max_behaviours=p["max_behaviours"])
    wrong = [s for s in r.steps if s.expression is not None and s.agrees_2n]
    text = r.summary() + " (consistent with Theorem 7's converse direction; not a proof)"
    domain = (f"training lengths n = 1..{top}, programs of size <= {p['occam_parity_size']} (each learned "
              f"program checked on every string <= 2n)")
    if wrong or r.stable_from is not None:
        return fails(Method.ENUMERATION, f"the learned program agrees up to 2n at n = {[s.n for s in wrong]}",
                     domain=domain, count=top, residual=str([s.n for s in wrong]), detail=text)
    changes = len({s.expression for s in r.steps if s.expression})
    return holds(Method.ENUMERATION, domain, count=top,
                 residual=f"{changes} distinct learned programs, none correct up to 2n", detail=text)


def _control_preimage(c, domain, extra=""):
    """A deliberately false reduction: refuted by its smallest witness (exhaustive)."""
    if c.holds:
        return holds(Method.ENUMERATION, domain, count=c.strings, residual="0", detail=c.how())
    return fails(Method.ENUMERATION, f"w = {c.witness!r}", domain=domain, count=c.strings, residual=c.witness,
                 detail=f"smallest witness {c.witness!r}: {c.how()}{extra}")


def false_morphism(p):
    """Control: the Tomita-5 morphism claimed to reduce Tomita 6 to MOD3 (false)."""
    h = morphism({"0": "00", "1": "01"}, "01", "01")
    n = p["reduction_len"]
    return _control_preimage(check_preimage(h, "Tomita6", "MOD3", n),
                             strings_domain("01", n))


def block_morphism_odd_k(p):
    """Control (an earlier reading of the Lemma 40/41 block proxy, refuted here): h(a) = b^(K-1) a with
    PARITY counting b (b = 1, a = 0), K = 3."""
    h = morphism({"a": "110"}, "a", "01")
    n = length_for(1, p["reduction_len"])
    return _control_preimage(
        check_preimage(h, "PARITY", "(aa)*/unary", n), f"a^m for m = 0..{n}",
        ". An earlier reading of the Lemma 40/41 proxy paired PARITY = 'even number of b's' with "
        "h(a) = b^(K-1) a; #b(h(a^m)) = m(K-1) is always even for odd K, so the block reduction needs K even "
        "or PARITY counting a (h(a) = 0^(K-1) 1 works for every K)")


def false_search(p):
    """Control: 'no program of size <= s in C-RASP[periodic] agrees with Tomita 2' (false)."""
    r = result(p, "binary [periodic]", "Tomita2")
    if r.found:
        return fails(Method.EXACT, f"{r.expression} (size {r.size}) agrees with Tomita 2 on every string <= "
                     f"{r.n}", domain=search_domain(r, r.size), count=r.candidates, residual=r.expression,
                     detail=f"found: {r.summary()}")
    return holds(Method.ENUMERATION, search_domain(r, r.size_completed), count=r.candidates,
                 residual=f"none <= {r.size_completed}", detail=r.summary())


NEG = (
    ("Tomita3", "binary [periodic,local]", "C-RASP[periodic,local]", "Table 2 row 3; App. E.1.2 (Krebs)"),
    ("Tomita5", "binary [periodic,local]", "C-RASP[periodic,local]", "row 5; as PARITY, Lemma 41"),
    ("Tomita6", "binary [periodic,local]", "C-RASP[periodic,local]", "row 6; MOD3 + Lemma 42"),
    ("PARITY", "binary [periodic,local]", "C-RASP[periodic,local]", "Lemma 41"),
    ("MOD3", "binary [periodic,local]", "C-RASP[periodic,local]", "App. E.1.2 'in analogy to PARITY'"),
    ("#17", "ternary [periodic,local]", "C-RASP[periodic,local]", "row 17; Lemmas 35/36 (Krebs)"),
    ("Sigma*be*", "ternary [periodic,local]", "C-RASP[periodic,local]", "Lemma 35 (Krebs)"),
    ("Tomita4", "binary []", "C-RASP[]", "row 4; Krebs (2008) / DA argument"),
    ("(aa)*", "binary []", "C-RASP[]", "Lemma 38"),
    ("(aaaa)*", "binary []", "C-RASP[]", "Lemma 38"),
    ("(abab)*", "binary []", "C-RASP[]", "row 14; 'analogous' to Lemma 38"),
    ("(aa)*/unary", "unary []", "C-RASP[]", "row 12; Lemma 38"),
    ("(aaaa)*/unary", "unary []", "C-RASP[]", "row 13; Lemma 38"),
)
POS = (
    ("MAJORITY", "binary []", "C-RASP[]"), ("Tomita1", "binary []", "C-RASP[]"),
    ("a*b*", "binary []", "C-RASP[]"), ("Sigma*abSigma*", "binary [local]", "C-RASP[local]"),
    ("Sigma*abSigma*", "binary []", "C-RASP[]"), ("(aa)*", "binary [periodic]", "C-RASP[periodic]"),
    ("Tomita2", "binary [periodic]", "C-RASP[periodic]"),
)


def neg_name(lang, frag):
    return f"search: {lang} in {frag}"


def pos_name(lang, frag):
    return f"control+: {lang} in {frag}"


CLAIMS = (
    *(Computed(f"reduction {r.key}", "conclusion", "Lemmas 34-36, 40-42; App. E.1.2",
               f"h = {', '.join(a + '->' + w for a, w in r.images)}: "
               f"w in {r.preimage} <=> {r.prefix + '.' if r.prefix else ''}h(w) in {r.language} "
               f"on all strings of length <= reduction_len (rows {', '.join(r.rows)})", reduction(r.key),
               reading="proxy")
      for r in REDUCTIONS),
    Computed("reduction Tomita5 = PARITY & swap^-1(PARITY)", "conclusion", "App. E.1.2 (Tomita 5)",
             "w in Tomita 5 <=> w and swap(w) both have an even number of 1s", tomita5_intersection,
             reading="proxy"),
    Computed("Lemma 42 transformer on the library", "identification", "Lemma 42 (proof)",
             "transform(P, h) accepts w iff P accepts h(w), and stays within P's fragment", transformer,
             reading="proxy"),
    *(Computed(neg_name(lang, frag), "conclusion", paper,
               f"{lang} is not in {frag} (no program of any size decides it); evidence: a bounded search of "
               f"the {frag} programs of size <= s on all strings of length <= n (s, n: parameters of the "
               f"group '{key}')", negative(key, lang, paper), reading="as printed")
      for lang, key, frag, paper in NEG),
    *(Computed(pos_name(lang, frag), "identification", "positive control",
               f"the search finds a smallest {frag} program for {lang} and it agrees on all strings of "
               f"length <= verify_len", positive(key, lang), reading="proxy") for lang, key, frag in POS),
    *(Computed(f"occam: {lang} in {spec}", "identification", "Def. 6 / Thm 7 (finite proxy)",
               f"the smallest consistent {spec} program at training length n stabilizes on one that agrees "
               f"with {lang} up to 2n (consistent with Theorem 7, not a proof)", occam_positive(lang, spec),
               reading="proxy")
      for lang, spec in (("MAJORITY", "[]"), ("Tomita1", "[]"), ("(aa)*", "[periodic]"),
                         ("Tomita2", "[periodic]"))),
    Computed("occam: PARITY in [periodic,local]", "identification", "Def. 6 / Thm 7 (finite proxy)",
             "for n = 1..occam_n no learned program (size <= occam_parity_size) agrees with PARITY up to 2n",
             occam_parity, reading="proxy"),
    Computed("control: Tomita6 = h^-1(MOD3) with 0->00, 1->01", "control", "deliberately false",
             "MOD3 = h^-1(Tomita 6) for h: 0->00, 1->01 (the Tomita-5 morphism)", false_morphism,
             reading="proxy"),
    Computed("control: block morphism b^(K-1)a, K = 3", "control",
             "Lemmas 40/41 (PARITY, App. C.3.3): an earlier reading of the block proxy, refuted here",
             "on block words h(a^m), h(a) = bba (b = 1), PARITY (even number of b) is (aa)*",
             block_morphism_odd_k, reading="our reading"),
    Computed("control: no small Tomita2 program in [periodic]", "control", "deliberately false",
             "no C-RASP[periodic] program of size <= positive_size agrees with Tomita 2 on strings <= "
             "positive_n", false_search, reading="proxy"),
)

EXPECT = {c.name: Verdict.CERTIFIED for c in CLAIMS if c.name.startswith("reduction")}
EXPECT.update({neg_name(lang, frag): Verdict.INCONCLUSIVE for lang, _, frag, _ in NEG})
EXPECT.update({pos_name(lang, frag): Verdict.CERTIFIED for lang, _, frag in POS})
EXPECT.update({c.name: Verdict.CERTIFIED for c in CLAIMS if c.name.startswith("occam")})
EXPECT.update({"Lemma 42 transformer on the library": Verdict.CERTIFIED,
               "control: Tomita6 = h^-1(MOD3) with 0->00, 1->01": Verdict.REFUTED,
               "control: block morphism b^(K-1)a, K = 3": Verdict.REFUTED,
               "control: no small Tomita2 program in [periodic]": Verdict.REFUTED})

THEOREM = Theorem(
    id="HYB24.NEG",
    title="Table 2 'no' rows: morphism / padding reductions (checked exhaustively) and bounded program "
          "search ('none found up to size s'), with positive controls and an Occam-learner demo",
    paper=PaperRef("Huang et al. 2024 (arXiv 2410.02140)", "App. C.3 (Lemmas 34-42), App. E.1.2, Table 2; "
                   "Def. 6, Thm 7", "", "huang2024formal"),
    # the reductions' form (Lemmas 34-36, 40-42): h^-1(L) = L' turns L' not in F into L not in F
    conclusion=sp.Implies(sp.Eq(preimage(h_morph, L_lang), L_prime, evaluate=False),
                          sp.Implies(sp.Not(InCRASP(L_prime, F_frag)), sp.Not(InCRASP(L_lang, F_frag)))),
    params=ParamSpace((
        Param("reduction_len", int, 12, "exhaustive length of the reduction checks (binary; others: same "
              "string count)", min=1, max=16),
        Param("transform_len", int, 8, "exhaustive length of the Lemma-42 transformer check", min=1, max=12),
        Param("size", int, 10, "largest size searched, binary C-RASP[periodic,local]", min=1, max=16),
        Param("n", int, 6, "sample length, binary C-RASP[periodic,local]", min=0, max=10),
        Param("plain_size", int, 12, "largest size searched, binary C-RASP[]", min=1, max=16),
        Param("plain_n", int, 7, "sample length, binary C-RASP[]", min=0, max=10),
        Param("unary_size", int, 16, "largest size searched, unary C-RASP[]", min=1, max=24),
        Param("unary_n", int, 24, "sample length, unary C-RASP[]", min=0, max=60),
        Param("ternary_size", int, 8, "largest size searched, ternary C-RASP[periodic,local]", min=1, max=14),
        Param("ternary_n", int, 5, "sample length, ternary", min=0, max=7),
        Param("positive_size", int, 12, "largest size for the positive controls and Occam runs", min=1,
              max=16),
        Param("positive_n", int, 6, "sample length for the positive controls", min=0, max=10),
        Param("occam_n", int, 6, "largest training length of the Occam runs", min=1, max=8),
        Param("occam_parity_size", int, 10, "largest size of the Occam run on PARITY", min=1, max=14),
        Param("max_modulus", int, 2, "largest modulus of periodic leaves", min=1, max=6),
        Param("max_offset", int, 1, "largest local offset", min=0, max=4),
        Param("verify_len", int, 14, "exact verification length of found programs (binary; other "
              "alphabets: the same string count; always beyond the sample length)", min=1, max=20),
        Param("max_behaviours", int, 400_000, "kept behaviours per sort (memory bound)", min=1000,
              max=5_000_000),
    )),
    assumptions=(),
    claims=CLAIMS,
    expect=EXPECT,
    cost=Cost(7.72, {"max_behaviours": 0.12}, per_unit={
        "max_modulus": 1.317, "max_offset": 1.275, "n": 1.287, "occam_n": 1.634, "occam_parity_size": 1.165,
        "plain_n": 1.208, "plain_size": 1.199, "positive_n": 1.431, "positive_size": 1.102, "size": 1.075,
        "ternary_n": 1.252, "ternary_size": 1.113, "transform_len": 1.064, "unary_n": 1.011,
        "unary_size": 1.107, "verify_len": 1.054}),
)
