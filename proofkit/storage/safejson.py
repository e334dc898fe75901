"""The one bounded loader for every JSON document proofkit reads (records, DFA files, network weights, the
C-RASP library index), and the checks for the numbers written in them as strings.

Why: a loader is an input boundary. Each document is read with a byte cap from a regular file only (a FIFO
or a device such as /dev/zero is refused without blocking or reading it), decoded as UTF-8, checked for
nesting depth before it is parsed (no RecursionError on 100 000 brackets), and parsed with duplicate keys,
NaN/Infinity and over-long numbers rejected. Every failure is an :class:`InputError` naming the field,
one line, never a traceback, and never a quote of the file beyond the echo cap of ``errors``.

Numbers that matter are stored as strings and checked here: ASCII digits only (Python's ``\\d`` and
``str.isdigit`` accept Arabic-Indic and fullwidth digits; these checks do not), a length cap and an exponent
cap, so that no stored number can make an exact evaluation run for minutes (``"1e-999999"`` is an exact
rational with a 10^999999 denominator). The caps are constants of this module, never read from an input.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from ..language.tolerances import MAX_DPS

#: default byte cap of a JSON document (records are a few kB; 1 MiB leaves room for --dps 500 and large
#: models)
MAX_BYTES = 1 << 20
#: nesting depth cap (a record nests 3 levels, a Limit Transformer's weights 8)
MAX_DEPTH = 32
#: digits of a bare JSON integer (counts, lengths, seeds, parameters)
MAX_INT_DIGITS = 40
#: characters of a bare JSON float (parameters such as 0.5; a float has at most 17 significant digits)
MAX_FLOAT_CHARS = 64
#: characters of a decimal string: a --dps MAX_DPS value has MAX_DPS significant digits, plus sign, point,
#: leading zeros and exponent
MAX_DECIMAL_CHARS = MAX_DPS + 40
#: |decimal exponent| of a decimal string, below (smaller magnitudes than 10^-cap are refused: a residual
#: at MAX_DPS digits is about 10^-MAX_DPS; twice that is margin). Above, the float range (10^308) applies
MAX_DECIMAL_EXPONENT = 2 * MAX_DPS
#: digits of each part of an exact fraction p/q (the longest stored part is 61 digits; exact learners on
#: larger dimensions grow with the determinants, hence the margin)
MAX_FRACTION_DIGITS = 1000

_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,6})?", re.ASCII)
INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FRACTION = re.compile(r"[+-]?([0-9]+)/(0*[1-9][0-9]*)", re.ASCII)
#: a JSON string token, also when it is not terminated (then to the end of the text): always matches, so
#: the scan is linear (no backtracking over a failed match)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")


# ----------------------------------------------------------------------------------------------- reading
def read_bytes(path: str | Path, field: str, max_bytes: int = MAX_BYTES) -> bytes:
    """The content of a regular file of at most ``max_bytes`` bytes. A folder, device, FIFO or socket is
    refused from its ``stat`` before it is opened (opening a FIFO would block, /dev/zero never ends), the
    open is non-blocking and the read stops at the cap even if the file grows meanwhile."""
    where = str(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(field, "an existing file", where) from None
    except (OSError, ValueError) as exc:
        raise InputError(field, "a readable file", f"{where}: {_reason(exc)}") from None
    _regular(st, field, where, max_bytes)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | \
        getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise InputError(field, "a readable file", f"{where}: {_reason(exc)}") from None
    try:
        _regular(os.fstat(fd), field, where, max_bytes)  # the file opened is the file checked
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise InputError(field, "a readable file", f"{where}: {_reason(exc)}") from None
    finally:
        os.close(fd)
    if total > max_bytes:
        raise InputError(field, f"a file of at most {max_bytes} bytes (the cap on this input)",
                         f"{where}: more than {max_bytes} bytes")
    return b"".join(chunks)


def _regular(st: os.stat_result, field: str, where: str, max_bytes: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a file")
        raise InputError(field, "a regular file (not a folder, device, FIFO or socket)", f"{where}: {kind}")
    if st.st_size > max_bytes:
        raise InputError(field, f"a file of at most {max_bytes} bytes (the cap on this input)",
                         f"{where}: {st.st_size} bytes")


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or type(exc).__name__


def decode(data: bytes, field: str) -> str:
    """UTF-8 text (strict; a leading byte-order mark is dropped)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(field, f"UTF-8 text (invalid byte at offset {exc.start})") from None
    return text[1:] if text.startswith("\ufeff") else text


def read_text(path: str | Path, field: str, max_bytes: int = MAX_BYTES) -> str:
    """A bounded regular file as UTF-8 text (see :func:`read_bytes`)."""
    return decode(read_bytes(path, field, max_bytes), field)


# ----------------------------------------------------------------------------------------------- parsing
def load(path: str | Path, field: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Read and parse a JSON file with every cap (:func:`read_bytes`, :func:`loads`)."""
    return loads(read_bytes(path, field, max_bytes), field, max_bytes=max_bytes, max_depth=max_depth)


def loads(data: str | bytes, field: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse a JSON document strictly: at most ``max_bytes`` (bytes, or characters of text), UTF-8, nested
    at most ``max_depth`` levels, every object key once, no NaN or Infinity, integers of at most
    MAX_INT_DIGITS digits, floats finite and of at most MAX_FLOAT_CHARS characters, no unpaired surrogate
    escapes. ``field`` names the document in errors (a failing key or element is named by its path)."""
    if not isinstance(data, (str, bytes)):
        raise InputError(field, "JSON text", type(data).__name__)
    if len(data) > max_bytes:
        raise InputError(field, f"JSON of at most {max_bytes} bytes (the cap on this input)",
                         f"{len(data)} {'bytes' if isinstance(data, bytes) else 'characters'}")
    text = decode(data, field) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    depth = nesting_depth(text)
    if depth > max_depth:
        raise InputError(field, f"JSON nested at most {max_depth} levels", f"{depth} levels")
    try:
        obj = json.loads(text, object_pairs_hook=_unique_keys(field), parse_int=_integer(field),
                         parse_float=_float(field), parse_constant=_constant(field))
    except json.JSONDecodeError as exc:
        raise InputError(field, f"valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:  # backstop; the depth scan above bounds nesting first
        raise InputError(field, f"JSON nested at most {max_depth} levels") from None
    _check_strings(obj, field)
    return obj


def nesting_depth(text: str) -> int:
    """The deepest bracket nesting of a JSON text, brackets inside strings not counted; linear time, no
    recursion (strings are blanked by one regular-expression pass, brackets summed by numpy)."""
    skeleton = _STRING.sub("", text)
    codes = np.frombuffer(skeleton.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    steps = np.zeros(len(codes), dtype=np.int8)
    steps[(codes == ord("[")) | (codes == ord("{"))] = 1
    steps[(codes == ord("]")) | (codes == ord("}"))] = -1
    marks = steps[steps != 0]
    return int(np.cumsum(marks, dtype=np.int64).max()) if len(marks) else 0


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_.\-]{1,80}", re.ASCII)


def key_name(key: object) -> str:
    """A JSON key as a field name in an error: as is when plain (``theorem``), else quoted (``''``,
    ``'a b'``), so a field is never empty or confusing."""
    return key if isinstance(key, str) and _PLAIN_KEY.fullmatch(key) else repr(key)


def _unique_keys(field: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise InputError(key_name(key),
                                 f"each key once per JSON object (duplicate key in the {field})")
            out[key] = value
        return out
    return hook


def _integer(field: str) -> Callable[[str], int]:
    def hook(text: str) -> int:
        digits = len(text.lstrip("-"))
        if digits > MAX_INT_DIGITS or not text.isascii():
            raise InputError(field, f"JSON integers of at most {MAX_INT_DIGITS} ASCII digits",
                             f"an integer of {digits} digits")
        return int(text)
    return hook


def _float(field: str) -> Callable[[str], float]:
    def hook(text: str) -> float:
        if len(text) > MAX_FLOAT_CHARS or not text.isascii():
            raise InputError(field, f"JSON numbers of at most {MAX_FLOAT_CHARS} ASCII characters "
                             "(write long numbers as decimal strings)", f"a number of {len(text)} characters")
        value = float(text)
        if not math.isfinite(value):
            raise InputError(field, "finite JSON numbers (within the float range)", text)
        return value
    return hook


def _constant(field: str) -> Callable[[str], Any]:
    def hook(name: str) -> Any:
        raise InputError(field, "finite numbers only (no NaN or Infinity)", name)
    return hook


def _check_strings(obj: Any, field: str) -> None:
    """Every string (keys included) encodes as UTF-8: no unpaired surrogate escapes such as "\\ud800",
    which would fail later in whatever writes or hashes them. Iterative (depth is already bounded)."""
    stack: list[tuple[Any, str]] = [(obj, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                raise InputError(path or field, "text without unpaired surrogate escapes (\\ud800-\\udfff)")
        elif isinstance(node, dict):
            for key, value in node.items():
                sub = f"{path}.{key_name(key)}" if path else key_name(key)
                if _SURROGATE.search(key):
                    raise InputError(path or field, "keys without unpaired surrogate escapes")
                stack.append((value, sub))
        elif isinstance(node, list):
            stack.extend((value, f"{path}[{i}]") for i, value in enumerate(node))


# ----------------------------------------------------------------------------------------------- numbers
def check_decimal(value: Any, field: str) -> str:
    """A finite decimal number written as a string, never evaluated: ASCII digits, optional sign, point
    and exponent, no spaces; at most MAX_DECIMAL_CHARS characters; magnitude at most the float range
    and (unless zero) at least 10^-MAX_DECIMAL_EXPONENT."""
    if not isinstance(value, str) or len(value) > MAX_DECIMAL_CHARS or not _DECIMAL.fullmatch(value):
        raise InputError(field, f"a decimal number written as a string (ASCII digits, at most "
                         f"{MAX_DECIMAL_CHARS} characters)", value)
    exponent = Decimal(value).adjusted()
    if exponent > 308 or not math.isfinite(float(value)):
        raise InputError(field, "a decimal number of float range", value)
    if exponent < -MAX_DECIMAL_EXPONENT:
        raise InputError(field, f"a decimal number of magnitude at least 1e-{MAX_DECIMAL_EXPONENT} "
                         "(or a plain zero)", value)
    return value


def check_fraction(value: Any, field: str) -> str:
    """An exact fraction "p/q" of ASCII integers, q > 0, at most MAX_FRACTION_DIGITS digits each."""
    match = _FRACTION.fullmatch(value) if isinstance(value, str) else None
    if match is None or max(len(match.group(1)), len(match.group(2))) > MAX_FRACTION_DIGITS:
        raise InputError(field, f"a fraction p/q of ASCII decimal integers (q > 0, at most "
                         f"{MAX_FRACTION_DIGITS} digits each)", value)
    return value


def check_number(value: Any, field: str) -> str:
    """A decimal string (:func:`check_decimal`) or an exact fraction "p/q" (:func:`check_fraction`)."""
    if isinstance(value, str) and "/" in value:
        return check_fraction(value, field)
    return check_decimal(value, field)


def check_rational(value: Any, field: str) -> str:
    """An exact rational as written by ``str(Fraction)``: an integer "p" or a fraction "p/q" (ASCII, at
    most MAX_FRACTION_DIGITS digits each); what network weights are stored as."""
    if isinstance(value, str) and "/" not in value:
        if len(value) <= MAX_FRACTION_DIGITS + 1 and INTEGER.fullmatch(value):
            return value
        raise InputError(field, f"an exact rational 'p' or 'p/q' of ASCII integers (at most "
                         f"{MAX_FRACTION_DIGITS} digits each)", value)
    return check_fraction(value, field)
