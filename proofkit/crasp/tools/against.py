"""Checking a C-RASP program against its user's own ground truth, written in Python: any language, regular or
not (a^n b^n, palindromes, Dyck words, ...), where ``crasp check --against`` knows only regular expressions,
DFA files and the built-in library.

:func:`check_against` compares the program with the ground truth on every string of length <= ``max_len``
(exhaustively, by length, in lexicographic order, so the first disagreement found is the shortest, then the
lexicographically least in alphabet order), and then on ``extra`` strings of any length the user picks
(long members and near-members of a sparse language, which uniform enumeration never reaches). The program
is run by the vectorized interpreter (exact integers); the ground truth is the user's function, called

- per string (default): ``truth(word) -> bool``, ``word`` a ``str`` when every alphabet symbol is one
  character, else a tuple of symbols; or
- per batch (``vectorized=True``): ``truth(X) -> bool array (B,)``, ``X`` an int64 array (B, n) of symbol
  indices in alphabet order (all rows one length);

or it is a :class:`proofkit.crasp.semantics.truth.GroundTruth` (a library language, a DFA) over the same
alphabet. The work (program cells plus one ground-truth call per string) is estimated first and refused above
the cap (:mod:`proofkit.runtime.workguard`, InputError naming ``max_len``). An exception raised by the user's
function propagates unchanged: it is the user's code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import InputError
from ...runtime import workguard
from ..language.analysis import validate
from ..language.ir import Program
from ..semantics.compare import iter_string_chunks
from ..semantics.truth import GroundTruth
from ..semantics.vector import accepts_batch, encode

#: work units per call of a per-string ground truth (about 1.5 us; a slower function takes longer than
#: the estimate says)
USER_CALL = 1000
#: strings per batch handed to the program and to a vectorized ground truth
CHUNK = 1 << 14

Word = str | tuple[str, ...]


@dataclass(frozen=True)
class TruthCheck:
    """The outcome: ``agrees``, and when not, the shortest (then least) ``counterexample`` with both
    verdicts on it; ``strings`` is the number of strings compared, ``extra`` how many were given."""

    agrees: bool
    counterexample: Word | None
    program_accepts: bool | None
    truth_accepts: bool | None
    max_len: int
    strings: int
    extra: int = 0

    def __str__(self) -> str:
        if self.agrees:
            more = f" and {self.extra} extra strings" if self.extra else ""
            return (f"agrees on all {self.strings} strings compared (every string of length <= {self.max_len}"
                    f"{more})")
        return (f"disagrees on {self.counterexample!r}: the program "
                f"{'accepts' if self.program_accepts else 'rejects'} it, the ground truth "
                f"{'accepts' if self.truth_accepts else 'rejects'} it")


def _word(program: Program, row: Sequence[int]) -> Word:
    """A row of symbol indices as the per-string ground truth receives it."""
    symbols = tuple(program.alphabet[i] for i in row)
    return "".join(symbols) if all(len(s) == 1 for s in program.alphabet) else symbols


def _verdicts(program: Program, truth: Any, vectorized: bool, X: np.ndarray) -> np.ndarray:
    """The ground truth on every row of X: a bool array (B,), checked."""
    if isinstance(truth, GroundTruth):
        return truth.accepts_batch(X)
    if vectorized:
        out = np.asarray(truth(X))
        if out.shape != (X.shape[0],) or out.dtype != bool:
            raise InputError("truth", f"a bool array of shape ({X.shape[0]},) from the vectorized "
                             "ground truth", f"{out.dtype} array of shape {out.shape}")
        return out
    verdicts = []
    for row in X.tolist():
        word = _word(program, row)
        v = truth(word)
        if not isinstance(v, (bool, np.bool_)):
            raise InputError("truth", "a bool for each string (True: the string is in the language)",
                             f"{type(v).__name__} for {word!r}")
        verdicts.append(bool(v))
    return np.asarray(verdicts, dtype=bool).reshape(len(verdicts))


def _work(program: Program, max_len: int, per_string: bool) -> workguard.Work:
    k, ops = len(program.alphabet), len(program.ops) + 1
    cells = sum(k**m * (m + 1) for m in range(max_len + 1))
    count = workguard.strings(k, max_len)
    program_work = workguard.Work(cells * ops, f"sum over m <= {max_len} of {k}^m strings x (m + 1) "
                                               f"positions x {ops} ops")
    if per_string:
        return program_work + workguard.Work(count * USER_CALL, f"{count} ground-truth calls x {USER_CALL}")
    return program_work + workguard.Work(cells, "the same cells of the ground truth")


def _first_disagreement(program: Program, truth: Any, vectorized: bool, X: np.ndarray) -> TruthCheck | None:
    """The first row of X (rows in the order wanted) on which program and ground truth differ."""
    mine = accepts_batch(program, X)
    theirs = _verdicts(program, truth, vectorized, X)
    bad = np.flatnonzero(mine != theirs)
    if not bad.size:
        return None
    r = int(bad[0])
    return TruthCheck(False, _word(program, X[r].tolist()), bool(mine[r]), bool(theirs[r]), 0, 0)


def check_against(program: Program, truth: Callable[[Any], Any] | GroundTruth, max_len: int, *,
                  vectorized: bool = False, extra: Iterable[str | Sequence[str]] = ()) -> TruthCheck:
    """Compare ``program`` with the user's ground truth ``truth`` on every string of length <= ``max_len``,
    then on the ``extra`` strings (module docstring); the counterexample is the shortest, then the least in
    alphabet order. Bad input is an InputError naming ``max_len``, ``truth`` or ``extra``."""
    validate(program)
    if isinstance(max_len, bool) or not isinstance(max_len, int) or max_len < 0:
        raise InputError("max_len", "an integer >= 0", max_len)
    if isinstance(truth, GroundTruth):
        if tuple(truth.alphabet) != tuple(program.alphabet):
            raise InputError("truth", f"a ground truth over the program's alphabet {list(program.alphabet)}",
                             list(truth.alphabet))
    elif not callable(truth):
        raise InputError("truth", "a function of one string (or, vectorized, of a batch) or a GroundTruth",
                         type(truth).__name__)
    try:
        rows = [encode(program, [w])[0].tolist() for w in extra]
    except InputError as exc:
        raise InputError("extra", exc.expected, exc.got) from None
    workguard.guard("max_len", _work(program, max_len, not vectorized and not isinstance(truth, GroundTruth)))
    k, count = len(program.alphabet), 0
    for m in range(max_len + 1):
        for X in iter_string_chunks(k, m, CHUNK):
            count += X.shape[0]
            found = _first_disagreement(program, truth, vectorized, X)
            if found is not None:
                return TruthCheck(False, found.counterexample, found.program_accepts, found.truth_accepts,
                                  max_len, count)
    for row in sorted(rows, key=lambda r: (len(r), r)):  # one string at a time: lengths differ
        count += 1
        found = _first_disagreement(program, truth, vectorized, np.asarray([row], dtype=np.int64))
        if found is not None:
            return TruthCheck(False, found.counterexample, found.program_accepts, found.truth_accepts,
                              max_len, count, len(rows))
    return TruthCheck(True, None, None, None, max_len, count, len(rows))
