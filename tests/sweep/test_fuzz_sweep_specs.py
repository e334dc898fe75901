"""Fuzzing sweep specs with Hypothesis (issue 27): generated and mutated specs of the toy theorem
SWEEP.TOY (tests/sweep/sweep_theorems), written as JSON or as TOML, and raw bytes cut into both, are read
with ``proofkit.sweep.spec.load``. Each either loads (then every value is typed and in range, the grid
is within MAX_POINTS and ``out`` stays below the working directory) or raises InputError: one line,
naming a spec field (``sweep spec ...``) or the file (``SPEC``); never another exception, never slower
than the per-case deadline, never code run from the spec (``tests.fuzzguard.no_code_from_input``).

Values drawn: huge integers (beyond 64 bits, beyond Python's digit limit), floats (subnormal, huge,
negative zero), TOML's own values (dates, times, hex, octal, underscores, inf, nan), numbers as text
(unicode digits, fractions, exponents), nesting, duplicates (1 and 1.0, "3" and 3), booleans for
numbers, and odd ``out`` paths (absolute, ``..`` anywhere, ``~``, drive letters, backslashes, NUL, 5000
characters), which must be refused unless they stay below the working directory.

Case counts: the fast run is a derandomized sample of 160 cases (structured 110, raw text 50; about
2 s); ``-m slow`` runs 4 000 random cases.
"""

from __future__ import annotations

import atexit
import copy
import json
import math
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from proofkit.errors import InputError
from proofkit.language import registry
from proofkit.sweep import spec as sweep_spec
from tests.fuzzguard import DEADLINE, no_code_from_input

TOY = str(Path(__file__).resolve().parent / "sweep_theorems")
FOLDER = Path(tempfile.mkdtemp(prefix="fuzz_specs_"))
atexit.register(shutil.rmtree, FOLDER, ignore_errors=True)
PARAMS = {"n": (int, 1, 9), "scale": (float, 0.0, 10.0), "delay": (float, 0.0, 5.0), "mode": (str,),
          "strict": (bool,)}


def _settings(examples: int, fast: bool) -> settings:
    return settings(max_examples=examples, deadline=DEADLINE, database=None, derandomize=fast,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


@pytest.fixture(scope="module", autouse=True)
def toy_registered():
    with registry.using([TOY]):
        registry.load_all()  # imported once, outside the guard
        yield


# ----------------------------------------------------------------------------- strategies
#: a string starting with RAW is written into TOML as the bare text after it (dates, times, hex, inf...)
RAW = "@toml:"
odd_numbers = st.one_of(
    st.integers(-10**30, 10**30), st.sampled_from([2**63, -2**63 - 1, 2**64, 10**4000, -(10**299)]),
    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([5e-324, -0.0, 1e308, 0.1, 9.000001]),
    st.sampled_from(["3", " 3", "3 ", "+3", "0x3", "3.0", "\u0663", "\uff13", "1/2", "1e-99999", "1e309",
                     "nan", "inf", "-0", "1" * 5000, "0." + "5" * 300, "3_0", "", "a", "b", "c", "true",
                     "True"]),
    st.sampled_from([f"{RAW}1979-05-27", f"{RAW}07:32:00", f"{RAW}1979-05-27T07:32:00Z", f"{RAW}0x1F",
                     f"{RAW}0o7", f"{RAW}1_000", f"{RAW}+inf", f"{RAW}-nan", f"{RAW}'lit'", f"{RAW}{{}}"]),
    st.booleans(), st.none())
scalars = st.one_of(odd_numbers, st.text(max_size=12))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=12)
odd_out = st.one_of(
    st.sampled_from(["/tmp/x", "//x", "../x", "a/../b", "a/..", "..", "...", "./a", "a/", "~/x", "~", "C:\\x",
                     "C:x", "a\\..\\b", "\\\\srv\\x", "x\x00y", "", " ", "a" * 5000, "r\u00e9sultats",
                     "a/./b", ".", "a//b", "\n", "a\nb", "..\u2215x", "%2e%2e/x"]),
    st.lists(st.sampled_from(["a", "..", ".", "", "b c", "\u00e9", "~", "C:"]), min_size=1, max_size=4)
    .map("/".join), st.text(max_size=20))


@st.composite
def grid_values(draw: Any, name: str) -> list[Any]:
    kind = PARAMS[name]
    if kind[0] is int:
        ok = st.integers(kind[1], kind[2])
    elif kind[0] is float:
        ok = st.floats(kind[1], kind[2])
    elif kind[0] is str:
        ok = st.sampled_from(["a", "b"])
    else:
        ok = st.booleans()
    return draw(st.lists(st.one_of(ok, ok.map(str), odd_numbers) if draw(st.integers(0, 3)) == 0 else ok,
                         min_size=0 if draw(st.integers(0, 9)) == 0 else 1, max_size=5))


@st.composite
def specs(draw: Any) -> dict[str, Any]:
    """A spec of SWEEP.TOY, valid more often than not, then a few fields replaced, dropped or added."""
    names = draw(st.lists(st.sampled_from(sorted(PARAMS)), min_size=1, max_size=3, unique=True))
    spec: dict[str, Any] = {"theorem": "SWEEP.TOY", "grid": {n: draw(grid_values(n)) for n in names}}
    rest = [n for n in PARAMS if n not in names]
    if rest and draw(st.booleans()):
        n = draw(st.sampled_from(rest))
        spec["fixed"] = {n: (draw(grid_values(n)) or [None])[0] if draw(st.booleans()) else draw(scalars)}
    optional = {"dps": st.one_of(st.integers(10, 120), odd_numbers),
                "seed": st.one_of(st.integers(0, 2**32), odd_numbers),
                "seeds": st.one_of(st.lists(st.integers(0, 2**32), max_size=4), values),
                "search": st.one_of(st.booleans(), scalars), "out": odd_out,
                "description": st.one_of(st.text(max_size=30), scalars)}
    for key in draw(st.lists(st.sampled_from(sorted(optional)), max_size=3, unique=True)):
        spec[key] = draw(optional[key])
    for _ in range(draw(st.integers(0, 2))):
        action = draw(st.sampled_from(["value", "drop", "add", "theorem", "nest", "duplicate"]))
        key = draw(st.sampled_from(sorted(spec)))
        if action == "value":
            spec[key] = draw(values)
        elif action == "drop":
            spec.pop(key)
        elif action == "add":
            name = draw(st.sampled_from(["extra", "Grid", "__class__", "theorem ", "", "\u0000"]))
            spec[name] = draw(values)
        elif action == "theorem":
            spec["theorem"] = draw(st.sampled_from(["sweep.toy", "SWEEP.TOY\n", "AM24.T4", "", "../SWEEP.TOY",
                                                    "SWEEP.TOY\u200b"]))
        elif action == "nest":
            spec[key] = draw(st.integers(1, 40).map(lambda d: json.loads("[" * d + "1" + "]" * d)))
        elif isinstance(spec.get("grid"), dict) and spec["grid"]:
            n = draw(st.sampled_from(sorted(spec["grid"])))
            vals = spec["grid"][n]
            if isinstance(vals, list) and vals:
                v = vals[0]
                small = isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**300
                vals.append(float(v) if small else copy.copy(v))
    return spec


def toml_value(v: Any) -> str:
    """v as a TOML value (None, which TOML lacks, as the string "None")."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v) if abs(v) < 10**4000 else "9" * 4400  # beyond Python's digit limit as text
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(x)}" for k, x in v.items()) + "}"
    return v[len(RAW):] if isinstance(v, str) and v.startswith(RAW) else json.dumps(str(v))


def to_toml(spec: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in spec.items())


def serialize(spec: dict[str, Any], fmt: str) -> bytes:
    text = to_toml(spec) if fmt == "toml" else json.dumps(spec, ensure_ascii=bool(len(spec) % 2))
    return text.encode("utf-8", "surrogatepass")


@st.composite
def raw_specs(draw: Any) -> tuple[bytes, str]:
    """A serialized spec, then bytes cut, inserted or replaced (BOM, CR, NUL, brackets, deep nesting)."""
    fmt = draw(st.sampled_from(["json", "toml"]))
    data = serialize(draw(specs()), fmt)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(data)))
        j = draw(st.integers(i, min(len(data), i + 20)))
        junk = draw(st.one_of(st.binary(max_size=12), st.sampled_from(
            [b"\xef\xbb\xbf", b"\r", b"\x00", b"[" * 3000, b"{a={b={c=1}}}", b"'''", b'"""', b"\\u0000",
             b"[[grid]]\n", b"[grid]\nn=[1]\n", b"1e999", b"\xff\xfe"])))
        data = data[:i] + junk + data[j:]
    return data, fmt


# ----------------------------------------------------------------------------- the property
def _below_working_dir(out: str) -> bool:
    norm = os.path.normpath(out.replace("\\", "/"))
    return not PurePosixPath(norm).is_absolute() and not norm.startswith(("..", "~")) and ".." not in \
        PurePosixPath(out.replace("\\", "/")).parts


def _check_loaded(spec: sweep_spec.SweepSpec) -> None:
    assert spec.theorem == "SWEEP.TOY" and 1 <= spec.size() <= sweep_spec.MAX_POINTS
    for name, vals in spec.grid.items():
        kind = PARAMS[name]
        assert vals and len(set(map(repr, vals))) == len(vals)
        for v in vals:
            assert type(v) is kind[0], (name, v)
            if len(kind) == 3:
                assert kind[1] <= v <= kind[2] and math.isfinite(v)
    assert not set(spec.fixed) & set(spec.grid)
    assert all(isinstance(s, int) and 0 <= s < 2**32 for s in spec.seeds)
    if spec.out is not None:
        assert _below_working_dir(spec.out), spec.out


def _load(data: bytes, fmt: str) -> None:
    path = FOLDER / f"spec.{fmt}"
    path.write_bytes(data)
    with no_code_from_input():
        try:
            spec, _ = sweep_spec.load(path)
        except InputError as exc:
            text = str(exc)
            assert exc.field.startswith((sweep_spec.WHERE, "SPEC")), text
            assert "\n" not in text and len(text) < 1200, text
            event(f"{fmt}: refused ({exc.field.split('[')[0][:30]})")
            return
    event(f"{fmt}: loaded")
    _check_loaded(spec)


@given(specs(), st.sampled_from(["json", "toml"]))
@_settings(110, fast=True)
def test_fuzz_specs(spec, fmt):
    _load(serialize(spec, fmt), fmt)


@given(raw_specs())
@_settings(50, fast=True)
def test_fuzz_spec_bytes(doc):
    _load(*doc)


@pytest.mark.parametrize("out", ["/tmp/x", "../x", "a/../b", "a/..", "..", "~/x", "C:x", "a\\..\\b",
                                 "x\x00y"])
@pytest.mark.parametrize("fmt", ["json", "toml"])
def test_out_outside_the_working_directory_is_refused(out, fmt):
    doc = {"theorem": "SWEEP.TOY", "grid": {"n": [3]}, "out": out}
    with pytest.raises(InputError) as exc:
        (FOLDER / f"out.{fmt}").write_bytes(serialize(doc, fmt))
        sweep_spec.load(FOLDER / f"out.{fmt}")
    assert exc.value.field == "sweep spec out" or "\x00" in out and exc.value.field == "SPEC"


def test_huge_toml_integer_is_one_line():
    (FOLDER / "huge.toml").write_text('theorem = "SWEEP.TOY"\ngrid = {n = [' + "9" * 4400 + "]}\n")
    with pytest.raises(InputError) as exc:
        sweep_spec.load(FOLDER / "huge.toml")
    assert "\n" not in str(exc.value)


@pytest.mark.slow
@given(specs(), st.sampled_from(["json", "toml"]))
@_settings(3000, fast=False)
def test_fuzz_specs_large(spec, fmt):
    _load(serialize(spec, fmt), fmt)


@pytest.mark.slow
@given(raw_specs())
@_settings(1000, fast=False)
def test_fuzz_spec_bytes_large(doc):
    _load(*doc)
