"""One cost guard for every enumeration and compilation whose work grows with its input.

A command first estimates its work and refuses when the estimate exceeds the cap: an :class:`InputError`
(exit 2, one line) that names the input responsible, gives the estimate with its formula (strings x
positions, the period Delta, the alphabet size, the network size) and the cap, and says how to raise it.
Nothing is started that the cap would stop half-way, so nothing is lost.

The unit is one array-cell operation of the vectorized evaluators (about 1.5 ns, measured with the C-RASP
interpreter at 6.8e8 cell-ops/s on the development machine). Slower kinds of work are weighted in it:
one exact (rational) or float64 scalar forward step of a compiled network costs :data:`NETWORK_STEP`
units per non-zero weight (measured 0.4-2 us), one compiler pair of the periodic gadget
:data:`COMPILE_PAIR` units (measured 0.55 us). The default cap, :data:`DEFAULT_MAX_WORK`, is about a
minute of such work; the cap is a parameter: ``--max-work`` on the command line, ``$PROOFKIT_MAX_WORK`` in
the environment, or :func:`work_cap` in code.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal

from ..errors import InputError

#: default cap in work units: 4e10 units = about 60 s at the measured 6.8e8 cell-ops/s
DEFAULT_MAX_WORK = 4 * 10**10
#: the largest cap accepted (a cap is a promise to finish; 1e15 units is weeks)
MAX_CAP = 10**15
#: units per (forward step x non-zero weight) of a compiled network run by the scalar stepper
NETWORK_STEP = 1000
#: units per (absolute residue, SOS residue) pair examined by the periodic gadget of the compiler
COMPILE_PAIR = 400
#: units per (position x op) of the scalar reference interpreter with its printed table (measured about
#: 140 ns)
SCALAR_CELL = 100
ENV = "PROOFKIT_MAX_WORK"
#: units per second of a theorem's declared running time (:class:`proofkit.language.cost.Cost`): the
#: measured cell-op rate, so the default cap is about a minute of a check as well
UNITS_PER_SECOND = 680_000_000

_cap: ContextVar[int | None] = ContextVar("proofkit_max_work", default=None)


_CAP_TEXT = re.compile(r"[0-9]{1,16}(\.[0-9]{1,16})?(e\+?[0-9]{1,2})?")


def parse_cap(text: str, field: str) -> int:
    """A cap given as text: a positive integer number of units, plain (40000000000) or scientific (4e10,
    1.5e9, 1.0e+13) with ASCII digits; InputError naming ``field`` otherwise."""
    expected = f"a positive whole number of work units such as 4e10, at most {MAX_CAP:.0e}"
    s = text.strip().lower()
    if not _CAP_TEXT.fullmatch(s):
        raise InputError(field, expected, text)
    value = Decimal(s)
    if value != value.to_integral_value() or not 1 <= value <= MAX_CAP:
        raise InputError(field, expected, text)
    return int(value)


def max_work() -> int:
    """The cap in force: :func:`work_cap`'s, else ``$PROOFKIT_MAX_WORK``, else DEFAULT_MAX_WORK."""
    cap = _cap.get()
    if cap is not None:
        return cap
    env = os.environ.get(ENV)
    return parse_cap(env, f"${ENV}") if env else DEFAULT_MAX_WORK


@contextmanager
def work_cap(cap: int) -> Iterator[None]:
    """Run a block under another cap (``--max-work`` sets it for a whole command)."""
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_CAP:
        raise InputError("max_work", f"a positive integer number of work units, at most {MAX_CAP:.0e}", cap)
    token = _cap.set(cap)
    try:
        yield
    finally:
        _cap.reset(token)


@dataclass(frozen=True)
class Work:
    """An estimate: ``units`` and the formula it came from, as a reader checks it."""

    units: int
    formula: str

    def __add__(self, other: Work) -> Work:
        return Work(self.units + other.units, f"{self.formula} + {other.formula}")


def _sci(x: int) -> str:
    return f"{x:.1e}" if x >= 10**6 else str(x)


def _suggest(units: int) -> str:
    """The next power of ten at or above ``units``, written as --max-work accepts it."""
    return f"1e{len(str(units - 1)) if units > 1 else 0}"


def guard(field: str, work: Work, cap: int | None = None, lower: str | None = None) -> None:
    """Refuse (InputError naming ``field``) when the estimated work exceeds the cap in force; ``lower``
    says what the user can make smaller (default: the field)."""
    cap = max_work() if cap is None else cap
    if work.units > cap:
        how = (f", or raise the cap with --max-work {_suggest(work.units)} (or ${ENV})"
               if work.units <= MAX_CAP else f" (the estimate is beyond the largest cap {MAX_CAP:.0e})")
        raise InputError(field, f"work within the cap of {_sci(cap)} units; estimated {work.formula} = "
                         f"{_sci(work.units)} units. Lower {lower or field}{how}")


def strings(alphabet_size: int, max_len: int, min_len: int = 0) -> int:
    """|Sigma^{min_len..max_len}|, exactly."""
    return sum(alphabet_size**m for m in range(min_len, max_len + 1))


def enumeration(alphabet_size: int, max_len: int, per_cell: int, what: str = "ops") -> Work:
    """Vectorized exhaustive evaluation of every prefix of every string of length max_len (which covers the
    shorter ones): k^n strings x (n + 1) positions x ``per_cell`` cell operations."""
    k, n = alphabet_size, max_len
    units = k**n * (n + 1) * max(per_cell, 1)
    return Work(units, f"{k}^{n} strings x {n + 1} positions x {max(per_cell, 1)} {what}")


def network_run(alphabet_size: int, max_len: int, nonzeros: int, heads: int, prefix_tree: bool) -> Work:
    """Scalar forward runs of a compiled network on every string up to max_len: one step per prefix-tree
    node when outputs cannot depend on the length, else every string at its own length (a position attends
    to every earlier one: (m + 1) x (nonzeros + heads x (m + 1)) per string of length m)."""
    k, n = alphabet_size, max_len
    if prefix_tree:
        units = strings(k, n) * nonzeros * NETWORK_STEP
        formula = (f"{_sci(strings(k, n))} prefix-tree nodes (alphabet {k}, length <= {n}) x "
                   f"{nonzeros} weights")
    else:
        units = sum(k**m * (m + 1) * (nonzeros + heads * (m + 1)) for m in range(n + 1)) * NETWORK_STEP
        formula = (f"{_sci(strings(k, n))} strings (alphabet {k}, length <= {n}) x positions x "
                   f"({nonzeros} weights + {heads} heads x positions)")
    return Work(units, f"{formula} x {NETWORK_STEP}")


def compilation(delta: int, periodic_ops: int, width: int) -> Work:
    """The compiler's periodic gadgets examine Delta^2 residue pairs each and the positional block has
    Delta rows of the stream width."""
    units = (periodic_ops * delta * delta + delta * width) * COMPILE_PAIR
    return Work(units, f"({periodic_ops} periodic ops x Delta^2 + Delta x {width} dims) x {COMPILE_PAIR} "
                       f"with Delta = {delta}")


def seconds(estimate: float, formula: str) -> Work:
    """A running time estimated in seconds (a theorem's declared cost) as work units."""
    units = estimate * UNITS_PER_SECOND
    return Work(int(min(units, 10.0**30)), f"{formula} = {estimate:.3g} s x {UNITS_PER_SECOND:.1e} units/s")
