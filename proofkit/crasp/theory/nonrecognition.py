"""Target languages on the family u^n and the per-program certificate that a C-RASP program does not
recognize one (Lemma 37: u = a, target (aa)*; the Lemma 40/41 proxy: u = b^(K-1) a, target PARITY), read
off the program's exact eventual form (:mod:`proofkit.crasp.theory.eventual`).

What a certificate proves. For the one program given: its acceptance of u^n is, for every n >= n0,
``pattern[n % L']`` (the symbolic computation of its eventual form), and at the witness n >= n0 it differs
from the target language (this one fact is also re-checked with the reference interpreter when u^n is short
enough). A witness alone already shows the program does not recognize the language; the eventual pattern
shows more: every n >= n0 in the witness's residue class modulo lcm(L', language period) is a
counterexample. It is **not** a proof of Lemma 37 over all programs: that is the paper's induction on depth,
of which :mod:`proofkit.crasp.theory.eventual` is an executable instance (trusted as code, and
cross-checked against the interpreter by ``fuzz`` in :mod:`proofkit.crasp.theory.eventual_fuzz`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import InputError
from ..language.analysis import fragment, locality, period
from ..language.ir import Program
from ..semantics.interp import accepts
from ..tasks.library import Entry
from .eventual import EventualForm, eventual_form


# ----------------------------------------------------------------------------- target languages on u^n
@dataclass(frozen=True)
class NLanguage:
    """A language restricted to the family u^n, as a predicate on n (``fn(n)``: is u^n in it?).

    ``period``: a known period of fn in n (used to turn a witness into a whole residue class of
    counterexamples); None if unknown."""

    name: str
    fn: Callable[[int], bool]
    period: int | None = None

    def __call__(self, n: int) -> bool:
        return bool(self.fn(n))


def n_mod(m: int, r: int = 0, name: str = "") -> NLanguage:
    """u^n is in the language iff n = r (mod m); (aa)* on a^n is n_mod(2)."""
    return NLanguage(name or f"n = {r} mod {m}", lambda n: n % m == r, m)


def symbol_parity(u: Sequence[str] | str, symbol: str = "b", name: str = "") -> NLanguage:
    """PARITY (an even number of ``symbol``) on u^n: n * (occurrences of symbol in u) is even."""
    occ = list(u).count(symbol)  # a str u is read as characters; pass a sequence for longer symbol names
    return NLanguage(name or f"PARITY({symbol})", lambda n: n * occ % 2 == 0, 2)


def on_words(pred: Callable[[list[str]], bool], u: Sequence[str] | str, name: str = "",
             period: int | None = None) -> NLanguage:  # fmt: skip
    """A predicate on words (lists of symbols) turned into one on n (builds u^n: small n only)."""
    word = list(u)  # a str u is read as characters; pass a sequence for longer symbol names
    return NLanguage(name or getattr(pred, "__name__", "language"), lambda n: pred(word * n), period)


def aa_star() -> NLanguage:
    """(aa)* on a^n: accepted iff n is even."""
    return n_mod(2, 0, "(aa)*")


def block_word(program: Program, filler: str = "b", marker: str = "a", even: bool = True) -> tuple[str, ...]:
    """The Lemma 40/41 block h(a) = filler^(K-1) marker, K the least multiple of the program's period
    (of lcm(period, 2) when ``even``) with K > locality. With ``even``, PARITY of ``filler`` alternates
    on h(a^n) = (filler^(K-1) marker)^n (n(K-1) fillers); with K odd it would be constant."""
    step = math.lcm(period(program), 2 if even else 1)
    k = step * (locality(program) // step + 1)
    return (filler,) * (k - 1) + (marker,)


@dataclass(frozen=True)
class Certificate:
    """Result of ``certify_not_recognizing``; ``certified`` says whether a witness was found.

    For n >= threshold the program accepts u^n iff pattern[n % n_modulus] (symbolic, exact). ``witness``
    is the least n >= threshold in the searched window where that differs from the language;
    ``counterexample_residues`` (mod ``span``) lists every class of n >= threshold where they differ
    when the language's period is known (span = lcm(n_modulus, language period)). ``certified`` False
    means only that the *eventual* pattern agrees with the language on the window searched: the program
    may still err below the threshold (``early_disagreements``, from the exact symbolic acceptance)."""

    certified: bool
    program: str
    fragment: str
    language: str
    u: tuple[str, ...]
    threshold: int
    n_modulus: int
    pattern: tuple[bool, ...]
    witness: int | None
    program_accepts: bool | None
    language_accepts: bool | None
    interpreter_checked: bool
    span: int | None
    counterexample_residues: tuple[int, ...]
    early_disagreements: tuple[int, ...]  # n < threshold (scanned up to 1000) where program != language
    reason: str

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["u"] = list(self.u)
        d["pattern"] = list(self.pattern)
        d["counterexample_residues"] = list(self.counterexample_residues)
        d["early_disagreements"] = list(self.early_disagreements)
        return d


def certify_not_recognizing(
    program: Program,
    language_fn: Callable[[int], bool],
    u: str | Sequence[str] = "a",
    *,
    language_period: int | None = None,
    search: int | None = None,
    interp_max_len: int = 100_000,
    form: EventualForm | None = None,
) -> Certificate:
    """Per-program certificate that ``program`` does not recognize a language, on the family u^n.

    ``language_fn(n)``: whether u^n is in the target language (an ``NLanguage`` carries its period; or
    pass ``language_period``). The program's eventual acceptance (n0, pattern) is computed exactly; the
    witness is the least n >= n0 where it differs from the language, searched over one full period
    lcm(L', language period) when the period is known, else over ``search`` values (default
    max(64, 4 L')). The witness is re-checked with the reference interpreter when n * |u| <=
    ``interp_max_len``. For C-RASP[] (or [local]) on u = a, L' = 1: the acceptance is eventually
    constant, so (aa)* (period 2) always yields a witness among n0, n0 + 1 (Lemma 37 / 38)."""
    ev = form if form is not None else eventual_form(program, u)
    n0, pattern = ev.acceptance()
    lp = len(pattern)
    lang_period = language_period if language_period is not None else getattr(language_fn, "period", None)
    lang_name = getattr(language_fn, "name", getattr(language_fn, "__name__", "language"))
    if lang_period is not None:
        if not (isinstance(lang_period, int) and lang_period >= 1):
            raise InputError("language_period", "an int >= 1", lang_period)
        span: int | None = math.lcm(lp, lang_period)
        window = span
    else:
        span = None
        window = search if search is not None else max(64, 4 * lp)
    witness = prog = lang = None
    bad: list[int] = []
    for n in range(n0, n0 + window):
        p_acc, l_acc = pattern[n % lp], bool(language_fn(n))
        if p_acc != l_acc:
            if witness is None:
                witness, prog, lang = n, p_acc, l_acc
            if span is not None:
                bad.append(n % span)
    early = tuple(n for n in range(min(n0, 1000)) if ev.accepts(n) != bool(language_fn(n)))
    common = dict(program=program.name, fragment=fragment(program), language=lang_name, u=ev.u, threshold=n0,
                  n_modulus=lp, pattern=pattern, span=span, early_disagreements=early)  # fmt: skip
    if witness is None:
        what = f"one period ({window})" if span is not None else f"{window} values"
        reason = (f"the eventual acceptance pattern {pattern} (n >= {n0}) agrees with the language on "
                  f"{what} of n: no witness")  # fmt: skip
        if early:
            reason += f" (it differs only below the threshold, at n in {list(early)[:10]})"
        return Certificate(False, witness=None, program_accepts=None, language_accepts=None,
                           interpreter_checked=False, counterexample_residues=(), reason=reason,
                           **common)  # fmt: skip
    checked = False
    if witness * len(ev.u) <= interp_max_len:
        interp = accepts(program, list(ev.u) * witness)
        if interp != prog:
            msg = f"symbolic acceptance {prog} but the interpreter says {interp} at n={witness}"
            raise AssertionError(msg)
        checked = True
    residues = f", and on every n >= {n0} with n % {span} in {sorted(bad)}" if span is not None else ""
    reason = (f"for n >= {n0} the program accepts u^n iff pattern[n % {lp}] = {pattern}; at n = {witness} it "
              f"{'accepts' if prog else 'rejects'} while the language {'accepts' if lang else 'rejects'}"
              f"{residues}")  # fmt: skip
    return Certificate(True, witness=witness, program_accepts=prog, language_accepts=lang,
                       interpreter_checked=checked, counterexample_residues=tuple(sorted(bad)), reason=reason,
                       **common)  # fmt: skip


def certify_library(entries: Sequence[Entry], language_fn: Callable[[int], bool], u: str = "a", *,
                    language_period: int | None = None) -> list[tuple[str, Certificate]]:
    """(file, :func:`certify_not_recognizing`) for every library program without periodic predicates whose
    alphabet has the letter u, on the family u^n, up to and including the first program that is not
    certified."""
    out = []
    for e in entries:
        if u not in e.program.alphabet or any(op.kind == "periodic" for op in e.program.ops):
            continue
        cert = certify_not_recognizing(e.program, language_fn, u, language_period=language_period)
        out.append((e.file, cert))
        if not cert.certified:
            break
    return out
