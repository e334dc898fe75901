"""Checks of single steps of Huang et al. 2024's proofs of Theorems 7, 9 (= Thm 27) and 12 (= Thm 19), each
on stated finite instances (the proof walks of HYB24.T7, T9, T12 name which step each checks).

* :func:`simulation_evidence`: the invariant of the proof of Thm 27 (App. B.6), one case at a time. The
  proof says a network *simulates* a program when every operation has a dimension holding its value at
  every position: a Boolean as 0/1, a count C(i) as C(i)/(i+1). The induction then adds one case per kind
  of operation. Here every compiled library program is run exactly on every string of a fixed length and,
  for the operation kinds of one case only, each operation's dimension is compared with the interpreter's
  value at every position 1..n. ``sos-mask`` checks the SOS step instead: every masked copy of a counted
  predicate is 0 at the SOS and equals the predicate at every other position.
* :func:`cond_gadget`: the conditional case's one-layer ReLU identity (the compiler's form; the printed
  formula is lost in the extracted text) on its whole domain, as sympy residuals.
* :func:`equality_rows`: the remark after Thm 12 that checking x = y needs Alice's full half: the exact
  number of one-way rows of {ww} at split N.

"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import product

import sympy as sp

from ...language.evidence import Evidence, Method, fails, holds
from ..communication import comm
from ..compilation.compiler import compile_program, value_dims
from ..compilation.forward import trace
from ..semantics.interp import evaluate
from ..tasks.checks import length_for
from ..tasks.library import Entry

#: operation kinds whose value is a count (stored as C(i)/(i+1)); the others are Boolean (stored as 0/1)
COUNT_KINDS = frozenset({"count", "local", "cond", "add", "sub", "const"})
#: the cases of the proof of Thm 27, by the operation kinds each one builds
CASES = {
    "initial": ("sym", "true"),
    "Yang-Chiang": ("not", "and", "add", "sub", "const"),
    "positional": ("periodic",),
    "conditional": ("cond",),
    "comparison": ("le",),
    "counting": ("count",),
    "local counting": ("local",),
}


def _expected(kind: str, value: int | bool, i: int) -> Fraction:
    return Fraction(int(value), i + 1) if kind in COUNT_KINDS else Fraction(int(value))


def _string_mismatch(entry: Entry, net, dims: dict[str, int], word: Sequence[str],
                     kinds: frozenset[str]) -> str | None:
    """The first (operation, position) of ``word`` whose dimension differs from the simulated value."""
    streams = trace(net, [net.alphabet.index(s) for s in word])[-1]
    values = evaluate(entry.program, list(word))
    if kinds == frozenset({"sos-mask"}):
        for op in (o for o in entry.program.ops if o.kind in ("count", "local")):
            name = f"mask:{op.args[0]}"
            if name not in net.dims:
                return f"{op.name} counts {op.args[0]} with no masked copy"
            col = net.dims.index(name)
            pred = values[op.args[0]]
            for i, y in enumerate(streams):
                want = 0 if i == 0 else int(pred[i])
                if Fraction(y[col]) != want:
                    return f"{name} at position {i}: {y[col]}, expected {want}"
        return None
    for op in entry.program.ops:
        if op.kind not in kinds or op.name not in dims:
            continue
        for i in range(1, len(word) + 1):
            got, want = Fraction(streams[i][dims[op.name]]), _expected(op.kind, values[op.name][i], i)
            if got != want:
                return f"{op.name} ({op.kind}) at position {i}: {got}, expected {want}"
    return None


def simulation_evidence(entries: Iterable[Entry], case: str, binary_len: int, **knobs: object) -> Evidence:
    """Evidence that every library program's compiled network (``knobs`` as for ``compile_program``)
    simulates the operations of ``case`` (a key of :data:`CASES`, or ``sos-mask``) exactly, at every position
    of every string of length ``length_for(|alphabet|, binary_len)`` (hence of every prefix)."""
    kinds = frozenset(CASES.get(case, (case,)))
    counted = kinds == {"sos-mask"}
    wanted = frozenset({"count", "local"}) if counted else kinds
    used = [e for e in entries if any(o.kind in wanted for o in e.program.ops)]
    what = ("masked counted predicates" if case == "sos-mask" else
            f"operations of kind {', '.join(sorted(kinds))}")
    domain = (f"{len(used)} compiled library programs with {what}, every string of length n at every "
              f"position (binary n = {binary_len}; other alphabets: the same string count)"
              + (f", compiler knobs {knobs}" if knobs else ""))
    strings, ops = 0, 0
    for e in used:
        net = compile_program(e.program, **knobs)
        dims = value_dims(net)
        n = length_for(len(e.program.alphabet), binary_len)
        ops += sum(o.kind in wanted for o in e.program.ops)
        for word in product(e.program.alphabet, repeat=n):
            strings += 1
            bad = _string_mismatch(e, net, dims, word, kinds)
            if bad is not None:
                w = "".join(word) or "eps"
                return fails(Method.EXACT, f"{e.file}, {w!r}: {bad}", domain=domain, count=strings,
                             residual=f"{e.file}: {bad}")
    files = ", ".join(e.file for e in used)
    return holds(Method.ENUMERATION, domain, count=strings,
                 residual=f"{len(used)} programs, {ops} operations",
                 detail=f"exact runs: the dimension of every {what.removeprefix('operations of kind ')} "
                        f"operation holds its simulated value (Boolean 0/1, count C(i)/(i+1)) at every "
                        f"position, in {files}")


def cond_gadget() -> list[sp.Expr]:
    """The conditional case: for b in {0, 1} and counts |c| <= M, g(c, b) = ReLU(c - M(1-b)) - ReLU(-c -
    M(1-b)) equals b c, so g(c1, b) + g(c2, 1-b) = (b ? c1 : c2) in one ReLU layer. Residuals: b = 1 on c >= 0
    and c <= 0; b = 0 on both ReLUs over c in [-M, M] (c = M - t and c = -M + t, 0 <= t)."""
    t, M = sp.Symbol("t", nonnegative=True), sp.Symbol("M", positive=True)

    def g(c, b):
        return sp.Max(c - M * (1 - b), 0) - sp.Max(-c - M * (1 - b), 0)

    return [g(t, 1) - t, g(-t, 1) + t,  # b = 1: identity on both signs
            sp.Max((M - t) - M, 0), sp.Max(-(-M + t) - M, 0)]  # b = 0: each ReLU is 0 on [-M, M]


def equality_rows(Ns: Sequence[int]) -> Evidence:
    """Exact one-way rows of {ww : w in {a, b}*} at split N (Alice holds x, Bob y, |x| = |y| = N): 2^N each,
    so Alice's message must single out her whole half (N bits)."""
    got = {N: comm.rows(comm.copy_language, 2, N) for N in Ns}
    domain = f"{{ww}} over {{a, b}} at N = {', '.join(map(str, Ns))}, every string of length 2N"
    off = next((N for N, r in got.items() if r != 2**N), None)
    if off is not None:
        return fails(Method.ENUMERATION, f"N = {off}: {got[off]} rows, not 2^N = {2**off}", domain=domain,
                     count=len(got), residual=str(got))
    return holds(Method.ENUMERATION, domain, count=len(got), residual=str(list(got.values())),
                 detail=f"exact rows {list(got.values())} = 2^N at N = {list(got)}: every Alice half has its "
                        "own row, so a one-way protocol needs log2(2^N) = N bits (checking x = y needs all "
                        "of Alice's half)")


def far_logit_evidence(entries: Sequence[Entry]) -> Evidence:
    """Every compiled library head's positional term phi(k - j), read from the weights, has support within
    the program's locality radius (the static analysis), so beyond it a logit is key . query alone."""
    from .library_weights import weight_readings

    readings = weight_readings(entries)
    domain = f"the compiled weights of {len(entries)} library programs (every head's phi)"
    bad = next((r for r in readings if not r.agrees), None)
    if bad is not None:
        return fails(Method.EXACT, f"{bad.file}: phi from the weights {bad.locality}, static locality "
                     f"{bad.static_locality}", domain=domain, count=len(readings), residual=bad.file)
    local = [f"{r.file}: tau {r.static_locality}" for r in readings if r.static_locality > 0]
    return holds(Method.EXACT, domain, count=len(readings), residual=f"{len(readings)} programs",
                 detail="exact, weights only: the support of every head's phi and its radius equal the "
                        f"program's local offsets and locality ({'; '.join(local)}; all others: phi = 0), so "
                        "at |k - j| beyond the radius the logit has no positional term")


def precision_evidence(program, Ns: Sequence[int], name: str) -> Evidence:
    """The fractional bits the rounded compiled network of ``program`` (called ``name`` in the detail) needs
    at each n of ``Ns`` (precision_needed): they increase with n and exceed ceil(log2(n + 1)) by an amount
    that stays within one bit, so they grow as log2 n at these n."""
    from ..compilation.compiler import precision_needed

    bits = {n: precision_needed(program, n) for n in Ns}
    excess = {n: b - n.bit_length() for n, b in bits.items()}  # n.bit_length() = ceil(log2(n + 1))
    domain = "n = " + ", ".join(map(str, Ns))
    rising = all(bits[a] < bits[b] for a, b in zip(Ns, Ns[1:]))
    if not rising or max(excess.values()) - min(excess.values()) > 1:
        return fails(Method.EXACT, f"bits {bits}, excess over ceil(log2(n + 1)) {excess}", domain=domain,
                     count=len(bits), residual=str(bits))
    return holds(Method.EXACT, domain, count=len(bits), residual=str(bits),
                 detail=f"fractional bits the rounded network needs for {name}: {bits} (increasing; "
                        f"excess over ceil(log2(n + 1)): {excess}, within one bit, so they grow as log2 n at "
                        "these n)")
