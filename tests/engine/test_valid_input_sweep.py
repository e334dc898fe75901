"""Every parameter of every registered theorem at its limits (issue 10, finding 1).

A value that a theorem's ParamSpace allows is valid input: ``check`` must decide it, never raise (a
traceback is exit 1, which reads as "refuted"), never reject it as bad input, and no claim may be
labelled ``error`` (its own code raised: an internal error, exit 4). A value outside the range is bad
input: exit 2, one line naming ``--set NAME`` and the allowed range.

Each parameter is swept at its min, a value inside and its max (ints and floats), every choice (strings)
and both values (bools), one parameter at a time:

* theorems decided by exact computations alone (every HYB24 theorem, AM24.L1): the other parameters at
  their cheapest values (every numeric parameter at its minimum: there they are sizes), and only the
  claims that read the swept parameter (recorded once per theorem at those values); fast suite, except
  the combinations that still take seconds (``SLOW``) and the theorems whose checks take seconds at any
  values (``SLOW_THEOREMS``: INL25 and R24, with sweeps, searches and training experiments);
* every theorem, slow suite: the other parameters at their defaults, the whole theorem, through the
  command line (``check ID --set NAME=VALUE --json``), as a user runs it. (For the theorems with a fitted
  learner the minimum of every parameter is no cheap baseline: AM24.T1 with cut_frac = 0 and T = 25
  samples its cut cube by rejection at an acceptance rate of about 1/25!.)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from proofkit.crasp.communication import comm
from proofkit.crasp.language.parser import MAX_NESTING, CraspSyntaxError, load, parse
from proofkit.crasp.semantics.interp import evaluate
from proofkit.crasp.semantics.vector import accepts_prefixes, max_length
from proofkit.engine.check import check
from proofkit.errors import InputError
from proofkit.interface.testing import run_cli
from proofkit.language import registry
from proofkit.language.params import Param
from proofkit.language.spec import Computed, SymbolicStep, Theorem

THEOREMS: dict[str, Theorem] = registry.load_all()

#: fast-suite combinations (theorem, parameter, value) that take more than about a second here; they
#: run in the slow suite
SLOW: frozenset[tuple[str, str, Any]] = frozenset({
    ("AM24v2.E1", "steps", 100000), ("AM24v2.E1", "steps", 200000),  # 14 s and 28 s of AdamW training
    ("HYB24.C13", "N", 12), ("HYB24.L11", "binary_len", 24), ("HYB24.L11", "N", 12),
    ("HYB24.L11", "fuzz", 5000), ("HYB24.NEG", "size", 16), ("HYB24.NEG", "plain_size", 16),
    ("HYB24.NEG", "unary_size", 24), ("HYB24.NEG", "ternary_size", 14), ("HYB24.NEG", "positive_size", 16),
    ("HYB24.NEG", "occam_parity_size", 14), ("HYB24.NEG", "n", 10), ("HYB24.NEG", "plain_n", 10),
    ("HYB24.NEG", "unary_n", 60), ("HYB24.NEG", "ternary_n", 7), ("HYB24.NEG", "positive_n", 10),
    ("HYB24.NEG", "reduction_len", 16), ("HYB24.NEG", "transform_len", 12), ("HYB24.NEG", "verify_len", 20),
    ("HYB24.T10", "binary_len", 24), ("HYB24.T10", "N", 12), ("HYB24.T12", "N", 12),
    ("HYB24.T12", "protocol_N", 7), ("HYB24.T7", "n_max", 9), ("HYB24.T7", "copy_n", 11),
    ("HYB24.T7", "l48_horizon", 100000), ("HYB24.T7", "l48_horizon", 50004), ("HYB24.T7", "c18_len", 8),
    ("HYB24.T7", "precision_p", 8), ("HYB24.T7", "maj2_exhaustive", 12), ("HYB24.T9", "compile_len", 14),
    ("HYB24.TAB2", "binary_len", 24), ("HYB24.TAB2", "search_size", 14), ("HYB24.TAB2", "N", 10),
    ("HYB24.TAB3", "binary_len", 24), ("HYB24.TAB3", "N", 12), ("HYB24.TAB3", "search_size", 12),
    ("HYB24.TAB3", "task_search_size", 12), ("HYB24.TAB3", "task_search_len", 12),
    ("HYB24.TAB3", "sort_V", 400), ("HYB24.TAB3", "samples", 1000), ("HYB24.TAB3", "task_V", 7),
    ("HYB24.TAB3", "head_len", 10), ("HYB24.L11", "fuzz", 2500), ("HYB24.T9", "compile_len", 7),
    ("HYB24.T7", "c18_len", 4), ("HYB24.T12", "protocol_N", 4), ("HYB24.T7", "maj2_max", 400),
})


#: theorems whose exact checks take seconds even at their cheapest values (sweeps, searches, training
#: experiments): their whole sweep runs in the slow suite
SLOW_THEOREMS: frozenset[str] = frozenset(t for t in THEOREMS if t.startswith(("INL25.", "R24.")))


def sweep_values(p: Param) -> list[Any]:
    """min, a value inside and max (numbers), every choice (strings), both values (bools)."""
    if p.choices is not None:
        return list(p.choices)
    if p.type is bool:
        return [False, True]
    assert p.min is not None and p.max is not None, f"{p.name}: a numeric parameter needs a range"
    if p.type is int:
        lo, hi = int(p.min), int(p.max)
        return sorted({lo, (lo + hi) // 2, hi})
    return sorted({float(p.min), (p.min + p.max) / 2, float(p.max)})


def cheapest(thm: Theorem) -> dict[str, Any]:
    """Every numeric parameter at its minimum, the others at their defaults."""
    return {p.name: (p.type(p.min) if p.type in (int, float) and p.min is not None else p.default)
            for p in thm.params.params}


def computed_only(thm: Theorem) -> bool:
    """Decided by exact computations alone (sympy steps read no parameter; no fitted learner)."""
    return all(isinstance(c, (Computed, SymbolicStep)) for c in thm.claims)


class _Reads(Mapping[str, Any]):
    """The parameters, recording which ones a claim reads."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values, self.read = values, set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self.values[key]

    def __iter__(self) -> Iterator[str]:
        self.read.update(self.values)
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


@cache
def readers(tid: str) -> dict[str, frozenset[str]]:
    """Claim name -> the parameters it read when run at the cheapest values (claims that raise there
    are recorded as reading every parameter, so they run in every case and the sweep reports them)."""
    thm = THEOREMS[tid]
    values = thm.params.resolve(cheapest(thm))
    out = {}
    for c in thm.claims:
        if isinstance(c, Computed):
            reads = _Reads(values)
            try:
                c.run(reads)
            except Exception:
                reads.read.update(values)
            out[c.name] = frozenset(reads.read)
    return out


def narrowed(thm: Theorem, name: str) -> Theorem:
    """The theorem with only the claims that read ``name`` (the whole theorem when none is known to)."""
    if not computed_only(thm):
        return thm
    keep = tuple(c for c in thm.claims if isinstance(c, Computed) and name in readers(thm.id)[c.name])
    if not keep:
        return thm
    return thm.with_claims(keep, {c.name: thm.expect[c.name] for c in keep if c.name in thm.expect})


def _cases(cli: bool = False) -> list[Any]:
    """The sweep: exact-computation theorems at the cheapest baseline (``cli`` False), or every theorem
    at its defaults through the command line (``cli`` True, slow; the defaults themselves are left out,
    every other case runs them but for one parameter)."""
    out = []
    for tid, thm in THEOREMS.items():
        if not (cli or computed_only(thm)):
            continue
        for p in thm.params.params:
            for v in sweep_values(p):
                if cli and v == p.default:
                    continue
                slow = cli or (tid, p.name, v) in SLOW or tid in SLOW_THEOREMS
                out.append(pytest.param(tid, p.name, v, id=f"{tid}-{p.name}={v}",
                                        marks=[pytest.mark.slow] if slow else []))
    return out


def _set(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_sweep_size():
    """The sweep covers every parameter of every theorem (at least two values each)."""
    every = {(t, p.name) for t, thm in THEOREMS.items() for p in thm.params.params}
    assert every and {c.values[:2] for c in _cases(cli=True)} == every
    exact = {(t, name) for t, name in every if computed_only(THEOREMS[t])}
    assert {c.values[:2] for c in _cases()} == exact and len(_cases()) >= 2 * len(exact)
    assert {t for t, _ in exact} >= {t for t in THEOREMS if t.startswith("HYB24.")}


@pytest.mark.parametrize("tid,name,value", _cases())
def test_every_allowed_value_is_decided(tid: str, name: str, value: Any) -> None:
    """No exception escapes, no valid value is refused, no claim's own code raises."""
    thm = THEOREMS[tid]
    overrides = {**cheapest(thm), name: value}
    res = check(narrowed(thm, name), overrides)
    raised = [f"{c.name}: {c.error}" for c in res.claims if c.error]
    assert not raised, f"{tid} --set {name}={value}: " + "; ".join(raised)


@pytest.mark.parametrize("tid,name,value", _cases(cli=True))
def test_every_allowed_value_through_the_cli(capsys: Any, tid: str, name: str, value: Any) -> None:
    """Other parameters at their defaults, the whole theorem, as a user runs it: exit 0..3 (never 2:
    the value is valid), one JSON result, no claim's own code raising."""
    code, out, err = run_cli(capsys, "check", tid, "--set", f"{name}={_set(value)}", "--json")
    assert code in (0, 1, 3), f"{tid} --set {name}={value}: exit {code}: {err.strip()[-300:]}"
    res = json.loads(out)
    raised = [f"{c['name']}: {c['error']}" for c in res["claims"] if c["error"]]
    assert not raised, f"{tid} --set {name}={value}: " + "; ".join(raised)


def _outside(p: Param) -> list[str]:
    """Values just outside the allowed range or set, and one that is no value of the type."""
    if p.choices is not None:
        return ["no-such-choice"]
    if p.type is bool:
        return ["maybe"]
    out = [] if p.min is None else [_set(p.type(p.min - 1) if p.type is int else p.min - 0.5)]
    out += [] if p.max is None else [_set(p.type(p.max + 1) if p.type is int else p.max + 0.5)]
    return [*out, "1e999" if p.type is float else "ten"]


@pytest.mark.parametrize("tid", sorted(THEOREMS))
def test_every_value_outside_the_range_is_bad_input(capsys: Any, tid: str) -> None:
    """Exit 2 and one line naming --set NAME (and, for a number out of range, the allowed range)."""
    for p in THEOREMS[tid].params.params:
        for text in _outside(p):
            code, out, err = run_cli(capsys, "check", tid, "--set", f"{p.name}={text}")
            lines = err.strip().splitlines()
            assert code == 2 and len(lines) == 1 and not out, (tid, p.name, text, code, err)
            assert f"--set {p.name}" in lines[0], lines[0]
            if p.type in (int, float) and text not in ("ten", "1e999"):
                assert p.allowed() in lines[0], lines[0]


# ----------------------------------------------------------------------------------------------------
# C-RASP programs and the crasp command line: valid text and arguments are decided

ROOT = registry.builtin_dir() or Path("theorems")
MAJORITY = ROOT / "hyb24" / "programs" / "majority.crasp"


@pytest.mark.parametrize("N", [1, 2, 3, 6])
def test_crasp_rows_at_every_allowed_N(capsys: Any, N: int) -> None:
    """--N 1 and 2 used to be refused naming the internal 'table' (the growth label needs 3 points)."""
    code, out, err = run_cli(capsys, "crasp", "rows", str(MAJORITY), "--N", str(N), "--json")
    assert code == 0 and not err
    obj = json.loads(out)
    assert [r["N"] for r in obj["rows"]] == list(range(1, N + 1))
    assert obj["trend"] == (None if N < comm.TREND_MIN_POINTS else "polynomial")


@pytest.mark.parametrize("N", ["0", "13", "-1"])
def test_crasp_rows_outside_the_range_is_bad_input(capsys: Any, N: str) -> None:
    code, out, err = run_cli(capsys, "crasp", "rows", str(MAJORITY), "--N", N)
    assert code == 2 and not out and "--N: expected an integer in [1, 12]" in err


def test_a_program_file_may_start_with_a_byte_order_mark(tmp_path: Path, capsys: Any) -> None:
    """Editors on Windows write a UTF-8 BOM; it is no part of the program (it used to be rejected)."""
    path = tmp_path / "majority_bom.crasp"
    path.write_bytes(b"\xef\xbb\xbf" + MAJORITY.read_bytes())
    plain = load(MAJORITY)
    assert load(path).ops == plain.ops and parse("\ufeff" + plain.source).source == plain.source
    code, out, _ = run_cli(capsys, "crasp", "eval", str(path), "--string", "aab")
    assert code == 0 and out.strip().endswith("accepts: true")
    with pytest.raises(CraspSyntaxError) as bom:
        parse("\ufeffalphabet a\n")
    with pytest.raises(CraspSyntaxError) as no_bom:
        parse("alphabet a\n")
    assert str(bom.value) == str(no_bom.value)  # line and column as an editor shows them
    with pytest.raises(CraspSyntaxError):
        parse("alphabet: a\n\ufeffP := true\n")  # only a leading mark is dropped


@pytest.mark.parametrize("k", [MAX_NESTING - 2, MAX_NESTING - 1, 10_000])
def test_the_nesting_limit_counts_unary_minus_like_parentheses(k: int) -> None:
    """k parentheses and k unary minus signs around a count nest equally deep: both parse or both are
    refused with the nesting message (never a RecursionError)."""
    parens = "(" * k + "#Q(a)" + ")" * k
    minus = "- " * k + "#Q(a)"
    outcomes = []
    for expr in (parens, minus):
        try:
            parse(f"alphabet: a\nP := 0 <= {expr}\n")
            outcomes.append("ok")
        except CraspSyntaxError as exc:
            assert f"nested at most {MAX_NESTING} levels deep" in str(exc)
            outcomes.append("too deep")
    assert outcomes[0] == outcomes[1] == ("ok" if k + 2 <= MAX_NESTING else "too deep")


BIG = "999999999999999999"  # the largest constant the parser allows (18 digits)


def test_18_digit_constants_are_exact_or_refused_naming_the_length(capsys: Any, tmp_path: Path) -> None:
    """The reference interpreter is exact at any length; the vectorized one runs up to the length at which
    a count could leave int64 and refuses longer strings naming the limit (it used to say 'X'); crasp
    rows names --N and its allowed range for this program."""
    text = f"alphabet: a b\nP := #Q(a) + {BIG} <= #Q(b) + {BIG}\n"
    program = parse(text)
    assert evaluate(program, "ab" * 20)["P"][-1]
    top = max_length(program)
    assert top == 3 and max_length(parse("alphabet: a\nP := #Q(a) <= 1\n")) > 10**17
    assert accepts_prefixes(program, np.zeros((2, top), dtype=np.int64)).shape == (2, top + 1)
    with pytest.raises(InputError) as exc:
        accepts_prefixes(program, np.zeros((2, top + 1), dtype=np.int64))
    assert exc.value.field == "string length" and f"at most {top}" in str(exc.value)
    path = tmp_path / "big.crasp"
    path.write_text(text)
    code, out, err = run_cli(capsys, "crasp", "rows", str(path), "--N", "2")
    assert code == 2 and not out and "--N: expected an integer in [1, 1] for this program" in err
    code, out, err = run_cli(capsys, "crasp", "rows", str(path), "--N", "1")
    assert code == 0 and not err
