"""Checking a compiled network against a reference prefix function: every word up to a length (a
prefix-tree walk with the exact or float64 forward pass), the smallest failing word first, and the work
such a check costs, estimated before it runs (Huang et al. 2024, Thm 9: the network must agree with the
program at every length)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ...runtime import workguard
from ..language.ir import Program
from .compiler import compile_program
from .forward import Stepper, prepare, run
from .network import Network

Reference = Callable[[tuple[str, ...]], Sequence[bool]]


@dataclass(frozen=True)
class Mismatch:
    """First disagreement: the word, the prefix position, the reference value and the network's value."""

    word: tuple[str, ...]
    position: int
    expected: bool
    got: bool

    def __str__(self) -> str:
        word = "".join(self.word) or "eps"
        return f"{word} at position {self.position}: expected {self.expected}, got {self.got}"


def words(alphabet: Sequence[str], max_len: int, min_len: int = 0) -> Iterator[tuple[str, ...]]:
    """All words in (length, lexicographic-by-alphabet-order) order."""
    for n in range(min_len, max_len + 1):
        yield from itertools.product(alphabet, repeat=n)


def _trie_failures(net: Network, reference: Reference, max_len: int, mode: str,
                   offset: int | None) -> Mismatch | None:
    """Prefix-tree DFS (length-independent networks only: a node's verdict is then its own), one push per
    node, iterative deepening in stages of 4 so the (length, alphabet-order)-smallest disagreement wins."""
    st = Stepper(net, mode, None, offset)
    got = st.push(net.sos)
    exp = bool(reference(())[-1])
    if got != exp:
        return Mismatch((), 0, exp, got)
    lo = 0
    while lo < max_len:
        hi = min(max_len, lo + 4)
        best: list[Mismatch] = []
        _dfs(st, net.alphabet, reference, (), lo, hi, best)
        if best:
            return best[0]
        lo = hi
    return None


def _dfs(st: Stepper, alphabet: tuple[str, ...], reference: Reference, word: tuple[str, ...], lo: int,
         hi: int, best: list[Mismatch]) -> None:
    """Keep in ``best`` the (length, alphabet-order)-smallest disagreement among extensions of ``word`` with
    length in (lo, hi]; DFS visits alphabet order, so only a strictly shorter hit replaces the current one."""
    for t, s in enumerate(alphabet):
        w = word + (s,)
        if best and len(w) >= len(best[0].word):
            return
        got = st.push(t)
        if len(w) > lo:
            exp = bool(reference(w)[-1])
            if got != exp:
                best[:] = [Mismatch(w, len(w), exp, got)]
        if len(w) < hi:
            _dfs(st, alphabet, reference, w, lo, hi, best)
        st.pop()


def _sort_key(net: Network, w: tuple[str, ...]) -> tuple[int, list[int]]:
    return len(w), net.encode(w)


def smallest_failure(net: Network, reference: Reference, max_len: int = 8, precision: str = "exact",
                     offset: int | None = None,
                     family: Iterable[Sequence[str]] | None = None) -> Mismatch | None:
    """Smallest word (by length, then alphabet order) whose verdict at its own length N = n + 1 differs from
    the reference, enumerating Sigma^{<=max_len} (prefix-tree DFS when the network is length-independent) or
    only the words of ``family``; None when every word agrees. Enumerations are estimated and refused
    above the work cap first (InputError naming max_len)."""
    if family is None:
        workguard.guard("max_len", run_work(net, max_len))
    if family is not None:
        weights = prepare(net, precision)
        for w in sorted((tuple(x) for x in family), key=lambda x: _sort_key(net, x)):
            got = run(net, net.encode(w), precision, offset, prepared=weights)[-1]
            exp = bool(reference(w)[-1])
            if got != exp:
                return Mismatch(w, len(w), exp, got)
        return None
    if net.length_independent():
        return _trie_failures(net, reference, max_len, precision, offset)
    return smallest_failure(net, reference, precision=precision, offset=offset,
                            family=words(net.alphabet, max_len))


def network_size(net: Network) -> tuple[int, int]:
    """(non-zero weights, attention heads) of ``net``: what one forward step costs."""
    nonzeros = sum(len(h.K.entries) + len(h.Q.entries) + len(h.V.entries) + len(h.phi)
                   for lay in net.layers for h in lay.heads)
    nonzeros += sum(len(lay.mlp.A.entries) + len(lay.mlp.B.entries) for lay in net.layers if lay.mlp)
    return nonzeros + len(net.U.entries), sum(len(lay.heads) for lay in net.layers)


def run_work(net: Network, max_len: int) -> workguard.Work:
    """The estimated work of running ``net`` on every string up to max_len
    (:mod:`proofkit.runtime.workguard`)."""
    nonzeros, heads = network_size(net)
    return workguard.network_run(len(net.alphabet), max_len, nonzeros, heads, net.length_independent())


def check_against(program: Program | Network, reference_prefix_fn: Reference, max_len: int,
                  precision: str = "exact", offset: int | None = None, field: str = "max_len",
                  **variant_knobs: object) -> Mismatch | None:
    """Run the compiled network on every word up to max_len and compare with the reference at every prefix.

    Each word is run at its own length N = n + 1 and all its positions 0..n are compared (position k < n is
    then w[:k] inside a longer context; w[:k] is also enumerated on its own). Length-independent networks use
    a prefix-tree DFS, where both readings coincide. Returns the first mismatch or None. The work is
    estimated first and refused above the cap (InputError naming ``field``,
    :mod:`proofkit.runtime.workguard`).
    """
    net = program if isinstance(program, Network) else compile_program(program, **variant_knobs)
    workguard.guard(field, run_work(net, max_len))
    if net.length_independent():
        return _trie_failures(net, reference_prefix_fn, max_len, precision, offset)
    weights = prepare(net, precision)
    for w in words(net.alphabet, max_len):
        got = run(net, net.encode(w), precision, offset, prepared=weights)
        exp = [bool(x) for x in reference_prefix_fn(w)]
        if len(exp) != len(got):
            raise ValueError(f"reference returned {len(exp)} values for a word of length {len(w)}")
        for k, (g, e) in enumerate(zip(got, exp)):
            if g != e:
                return Mismatch(tuple(w), k, e, g)
    return None
