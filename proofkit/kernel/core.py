"""The kernel's own ground floor: results, rejections, exact numbers, balls, bounded JSON, escaping.

Nothing here (or anywhere in :mod:`proofkit.kernel`) imports the rest of proofkit: the kernel reads
certificate data with the standard library, computes with :class:`fractions.Fraction` and python-flint
balls, and trusts nothing else (docs/trust.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import flint

#: statuses a re-check can end in; only CHECKED counts as re-checked
CHECKED, FAILED, NOT_RECHECKED, NONE = "checked", "failed", "not re-checked", "no certificate"
#: byte cap of a file the kernel reads (records are kB, bundles up to 32 MiB)
MAX_FILE_BYTES = 32 << 20
#: characters of one number string, and the largest decimal exponent accepted (a 10^10^6 Fraction would
#: take seconds to build: refused before it is built)
MAX_NUMBER_CHARS, MAX_EXPONENT = 2100, 1100
_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,5})?", re.ASCII)
_FRACTION = re.compile(r"[+-]?\d+/\d+", re.ASCII)


class KernelInputError(Exception):
    """A file the kernel cannot read as a record or bundle (exit 2): one line."""


class Reject(Exception):  # noqa: N818 (a verdict, not an error)
    """A certificate does not check: ``field`` names the certificate field, ``figure`` what was found."""

    def __init__(self, field: str, figure: str) -> None:
        super().__init__(f"{field}: {figure}")
        self.field, self.figure = field, figure


class NotRechecked(Exception):  # noqa: N818 (an outcome, not an error)
    """The kernel cannot re-derive this certificate (e.g. over its work cap): the reason, never "checked"."""


@dataclass(frozen=True)
class Result:
    """One certificate's re-check: where it came from (``source``: a file, a record inside a bundle, a
    claim), the certificate field, its kind, the status (CHECKED, FAILED, NOT_RECHECKED, NONE) and what
    was re-derived (figures) or why it failed / was not re-checked."""

    source: str
    field: str
    kind: str
    status: str
    detail: str

    def line(self) -> str:
        """One printable line, every name escaped (no raw control characters from a file)."""
        return f"[{self.status}] {escape(self.source)} {escape(self.field)} ({escape(self.kind)}): " \
               f"{escape(self.detail)}"

    def as_dict(self) -> dict[str, str]:
        """The result as JSON-ready data (for callers such as the bundle verifier)."""
        return {"source": self.source, "field": self.field, "kind": self.kind, "status": self.status,
                "detail": self.detail}


def escape(text: Any, limit: int = 400) -> str:
    """``text`` with control characters, quotes' escapes and non-ASCII as Python escapes, capped."""
    s = str(text).encode("unicode_escape").decode("ascii")
    return s if len(s) <= limit else s[:limit] + f"... ({len(s)} characters)"


# ------------------------------------------------------------------------------------------ exact numbers
def number(value: Any, field: str) -> Fraction:
    """An exact rational from a certificate string: a decimal ("-1.5e-3") or a fraction "p/q" of ASCII
    digits. Floats, booleans, other types and huge exponents are refused (Reject naming ``field``)."""
    if not isinstance(value, str) or len(value) > MAX_NUMBER_CHARS:
        raise Reject(field, f"expected a decimal or p/q string, got {escape(repr(value), 80)}")
    if _FRACTION.fullmatch(value):
        num, den = value.split("/")
        if int(den) == 0:
            raise Reject(field, f"a zero denominator in {escape(value, 80)}")
        return Fraction(int(num), int(den))
    m = _DECIMAL.fullmatch(value)
    if m is None:
        raise Reject(field, f"expected a decimal or p/q string, got {escape(repr(value), 80)}")
    if m.group(3) and abs(int(m.group(3)[1:])) > MAX_EXPONENT:
        raise Reject(field, f"exponent beyond 10^+-{MAX_EXPONENT} in {escape(value, 80)}")
    return Fraction(value)


def vector(value: Any, field: str, length: int | None = None) -> list[Fraction]:
    """A list of exact numbers (of ``length`` entries when given)."""
    if not isinstance(value, list) or (length is not None and len(value) != length):
        want = "a list" if length is None else f"a list of {length} numbers"
        raise Reject(field, f"expected {want}, got {escape(repr(value), 80)}")
    return [number(v, f"{field}[{i}]") for i, v in enumerate(value)]


def matrix(value: Any, field: str, rows: int | None = None, cols: int | None = None) -> list[list[Fraction]]:
    """A rectangular list of lists of exact numbers (shape checked when given; at least one row)."""
    if not isinstance(value, list) or not value or (rows is not None and len(value) != rows):
        raise Reject(field, f"expected a matrix{'' if rows is None else f' of {rows} rows'}")
    width = len(value[0]) if isinstance(value[0], list) else -1
    out = [vector(r, f"{field}[{i}]", width if cols is None else cols) for i, r in enumerate(value)]
    if not width:
        raise Reject(field, "expected rows of at least one number")
    return out


def integer(value: Any, field: str, lo: int, hi: int) -> int:
    """A JSON integer in [lo, hi] (booleans refused)."""
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise Reject(field, f"expected an integer in [{lo}, {hi}], got {escape(repr(value), 80)}")
    return value


def fields(data: Any, where: str, required: Sequence[str], optional: Sequence[str] = ()) -> dict[str, Any]:
    """``data`` as an object with exactly these keys (the optional ones may be missing)."""
    if not isinstance(data, dict):
        raise Reject(where, f"expected an object, got {type(data).__name__}")
    missing = [k for k in required if k not in data]
    extra = [k for k in data if k not in required and k not in optional]
    if missing or extra:
        unknown = [escape(k, 40) for k in extra]
        raise Reject(where, f"expected the fields {', '.join(required)} (optional: "
                            f"{', '.join(optional) or '-'}); missing {missing or 'none'}, unknown "
                            f"{unknown or 'none'}")
    return data


# ------------------------------------------------------------------------------------------------- balls
@contextmanager
def precision(digits: int) -> Iterator[None]:
    """flint at ``digits`` decimal digits plus 20 guard digits for the block, restored after."""
    old = flint.ctx.prec
    flint.ctx.prec = int((digits + 20) * 3.33) + 8
    try:
        yield
    finally:
        flint.ctx.prec = old


def ball(q: Fraction | int) -> flint.arb:
    """A ball that contains the exact rational ``q`` (at the current precision)."""
    q = Fraction(q)
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def lower_bound(x: flint.arb) -> Fraction:
    """An exact rational <= every point of the ball (its lower end, as flint computes it outward)."""
    return _exact(x.lower())


def upper_bound(x: flint.arb) -> Fraction:
    """An exact rational >= every point of the ball."""
    return _exact(x.upper())


def _exact(x: flint.arb) -> Fraction:
    """The exact value of a ball's (binary) midpoint; used on the zero-radius ends of a ball."""
    man, exp = x.mid().man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def figure(x: Fraction | flint.arb, digits: int = 6) -> str:
    """A short decimal for messages (never compared)."""
    if isinstance(x, flint.arb):
        return f"{x.mid().str(digits, radius=False)} +/- {float(upper_bound(x.rad())):.2g}"
    return f"{float(x):.{digits}g}" if x.denominator != 1 or abs(x) > 10**15 else str(x)


def claimed_gap(d: dict[str, Any], gap: Fraction, what: str) -> Fraction:
    """The certificate's ``gap_lower``, which must be > 0 and at most the re-derived ``gap`` (``what``
    names that figure in the rejection)."""
    claimed = number(d["gap_lower"], "data.gap_lower")
    if claimed <= 0 or gap < claimed:
        raise Reject("data.gap_lower", f"{what} is {figure(gap)}, the certificate says >= {figure(claimed)} "
                                       "(which must be > 0)")
    return claimed


# -------------------------------------------------------------------------------------------------- JSON
def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise KernelInputError(f"the key {escape(repr(k), 60)} appears twice in one object")
        out[k] = v
    return out


def _const(name: str) -> Any:
    raise KernelInputError(f"the constant {name} is not JSON")


def read_json(path: str | Path) -> Any:
    """A JSON file: a regular file of at most MAX_FILE_BYTES, UTF-8, no duplicate keys, no NaN or
    Infinity, nesting within Python's recursion limit. KernelInputError (one line) otherwise."""
    p = Path(path)
    try:
        if not p.is_file():
            raise KernelInputError(f"{escape(p)}: not a regular file")
        with p.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise KernelInputError(f"{escape(p)}: cannot be read ({escape(exc.strerror or exc)})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise KernelInputError(f"{escape(p)}: larger than {MAX_FILE_BYTES} bytes")
    try:
        return json.loads(raw.decode("utf-8-sig"), object_pairs_hook=_pairs, parse_constant=_const)
    except UnicodeDecodeError:
        raise KernelInputError(f"{escape(p)}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise KernelInputError(f"{escape(p)}: not JSON (line {exc.lineno}, column {exc.colno})") from None
    except (RecursionError, ValueError):  # nesting beyond the recursion limit, integers beyond 4300 digits
        raise KernelInputError(f"{escape(p)}: nested too deeply or a number too long") from None
