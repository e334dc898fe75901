"""C-RASP core: static analyses, reference vs vectorized interpreters, ground truth."""

from __future__ import annotations

import itertools
import random
import re

import numpy as np
import pytest

from proofkit.crasp import (
    Program,
    accepts,
    accepts_batch,
    accepts_prefixes,
    all_strings,
    encode,
    evaluate,
    evaluate_batch,
    parse,
)
from proofkit.crasp.language import analysis
from proofkit.crasp.language.parser import to_text
from proofkit.errors import InputError
from tests.crasp.crasp_programs import (
    AA_STAR,
    ANBNCN,
    ASTAR_BSTAR,
    DYCK_AB,
    DYCK_PARENS,
    MAJORITY,
    SIGMA_AB_SIGMA,
    TOMITA4,
)


# ----------------------------------------------------------------------------- analyses
@pytest.mark.parametrize(
    "text,depth,fragment,period,locality",
    [
        (MAJORITY, 1, "[]", 1, 0),
        (DYCK_PARENS, 2, "[]", 1, 0),
        (ANBNCN, 2, "[]", 1, 0),
        (ASTAR_BSTAR, 2, "[]", 1, 0),
        (TOMITA4, 2, "[local]", 1, 2),
        (AA_STAR, 1, "[periodic]", 2, 0),
        (SIGMA_AB_SIGMA, 2, "[local]", 1, 1),
        ("alphabet: a b\nX := mod(4, 1) and mod(6, 0) and #[{0, 5}] Q(a) >= 1\n", 1, "[periodic,local]", 12,
         5),
        ("alphabet: a b\nX := true\n", 0, "[]", 1, 0),
    ],
)
def test_static_analyses(text, depth, fragment, period, locality):
    p = parse(text)
    assert analysis.depth(p) == depth
    assert analysis.fragment(p) == fragment
    assert analysis.period(p) == period
    assert analysis.locality(p) == locality
    s = analysis.summary(p)
    assert (s["depth"], s["fragment"], s["period"], s["locality"]) == (depth, fragment, period, locality)
    assert s["ops"] == len(p.ops) == s["bool_ops"] + s["count_ops"]


def test_count_kinds_and_bounds():
    p = parse("alphabet: a b\nA := #[{0,1,2}] Q(a) + -3 - #Q(b)\nB := Q(a) ? A : 7\nM := B >= 0\n")
    assert analysis.op_counts(p) == {"plain": 1, "local": 1, "const": 3}
    bounds = analysis.count_bounds(p)
    assert bounds["A"] == 3 + 3 + 1 and bounds["B"] == 7
    assert set(bounds) == {op.name for op in p.ops if op.sort == "count"}
    assert analysis.op_counts(parse(DYCK_AB)) == {"plain": 3, "local": 0, "const": 2}
    X = all_strings(2, 8)
    v = evaluate_batch(p, X)
    for name, m in bounds.items():  # the bound holds at every position
        assert (np.abs(v[name]) <= m * (np.arange(9) + 1)).all()


def test_validate_rejects_malformed_ir():
    p = parse(MAJORITY)
    bad_ops = (p.ops[2], p.ops[0], p.ops[1], p.ops[3], p.ops[4])  # count before its operand
    for bad in (Program(p.alphabet, bad_ops, "M"), Program(p.alphabet, p.ops, p.ops[2].name),
                Program(("a", "a"), p.ops, "M"), Program(("a",), p.ops, "M")):
        with pytest.raises(InputError) as info:
            accepts(bad, "")
        assert info.value.field == "program"


# ----------------------------------------------------------------------------- interpreters
def _assert_agree(p: Program, alphabet_size: int, n: int, shorter: bool = True) -> None:
    """Reference and vectorized interpreters agree on every op at every prefix of every string of
    length <= n: the length-n strings carry all shorter prefixes (the value at position i is the
    value on the prefix of length i); with ``shorter``, the shorter lengths are also run on their own."""
    X = all_strings(alphabet_size, n)
    vec = evaluate_batch(p, X)
    strings = X.tolist()
    refs = [evaluate(p, [p.alphabet[x] for x in row]) for row in strings]
    for name, values in vec.items():
        ref = [r[name] for r in refs]
        if ref != values.tolist():
            b = next(b for b, row in enumerate(ref) if row != values[b].tolist())
            raise AssertionError(f"{p.name} op {name} on {strings[b]}: {ref[b]} != {values[b].tolist()}")
        sort = bool if p.op(name).sort == "bool" else int
        assert values.dtype == (np.bool_ if sort is bool else np.int64) and type(ref[-1][-1]) is sort
    assert np.array_equal(accepts_prefixes(p, X), vec[p.output])
    for m in range(n) if shorter else ():  # shorter strings evaluated on their own: the prefix columns
        short = evaluate_batch(p, all_strings(alphabet_size, m))
        rows = np.arange(alphabet_size**m) * alphabet_size ** (n - m)
        assert all(np.array_equal(short[name], vec[name][rows, : m + 1]) for name in short)


@pytest.mark.parametrize(
    "text,n",
    [(MAJORITY, 10), (DYCK_AB, 10), (ANBNCN, 7), (ASTAR_BSTAR, 10), (TOMITA4, 10), (AA_STAR, 10),
     (SIGMA_AB_SIGMA, 10), (DYCK_PARENS, 10)],
)
def test_reference_and_vectorized_agree(text, n):
    p = parse(text)
    _assert_agree(p, len(p.alphabet), n)


def _random_bool(rng: random.Random, d: int, names: dict[str, str]) -> str:
    """A random well-typed Boolean expression (fully parenthesized where needed)."""
    leaves = ["Q(a)", "Q(b)", "true", "false", f"mod({rng.randint(1, 4)}, 0)", "mod(3, 2)"]
    leaves += [n for n, s in names.items() if s == "bool"]
    if d == 0 or rng.random() < 0.2:
        return rng.choice(leaves)
    pick = rng.randrange(7)
    if pick == 0:
        return f"not ({_random_bool(rng, d - 1, names)})"
    if pick in (1, 2):
        op = rng.choice(["and", "or", "->", "<->"])
        return f"({_random_bool(rng, d - 1, names)}) {op} ({_random_bool(rng, d - 1, names)})"
    if pick == 3:
        return f"exists ({_random_bool(rng, d - 1, names)})"
    op = rng.choice(["<=", "<", ">=", ">", "==", "!="])
    return f"({_random_count(rng, d - 1, names)}) {op} ({_random_count(rng, d - 1, names)})"


def _random_count(rng: random.Random, d: int, names: dict[str, str]) -> str:
    """A random well-typed count expression."""
    leaves = [str(rng.randint(-3, 3)), "#Q(a)", "#[1] Q(b)"] + [n for n, s in names.items() if s == "count"]
    if d == 0 or rng.random() < 0.2:
        return rng.choice(leaves)
    pick = rng.randrange(8)
    inner = _random_bool(rng, d - 1, names)
    if pick == 0:
        return f"#({inner})"
    if pick == 1:
        offsets = sorted(rng.sample(range(4), rng.randint(1, 3)))
        return f"#[{{{', '.join(map(str, offsets))}}}] ({inner})"
    if pick == 2:
        return f"#< ({inner})"
    if pick in (3, 4):
        op = rng.choice(["+", "-"])
        return f"({_random_count(rng, d - 1, names)}) {op} ({_random_count(rng, d - 1, names)})"
    if pick == 5:
        return f"({inner}) ? ({_random_count(rng, d - 1, names)}) : ({_random_count(rng, d - 1, names)})"
    if pick == 6:
        f = rng.choice(["min", "max"])
        return f"{f}({_random_count(rng, d - 1, names)}, {_random_count(rng, d - 1, names)})"
    return f"-({_random_count(rng, d - 1, names)})"


def random_program(rng: random.Random) -> str:
    """Program text with 2-5 random statements over {a, b}, ending in a Boolean one."""
    names: dict[str, str] = {}
    lines = ["alphabet: a b"]
    for k in range(rng.randint(2, 5)):
        sort = "bool" if k == 0 or rng.random() < 0.5 else "count"
        expr = _random_bool(rng, 2, names) if sort == "bool" else _random_count(rng, 2, names)
        lines.append(f"x{k} := {expr}")
        names[f"x{k}"] = sort
    lines.append(f"out := {_random_bool(rng, 2, names)}")
    return "\n".join(lines) + "\n"


def test_random_programs_agree():
    rng = random.Random(20241002)
    kinds: set[str] = set()
    for k in range(50):
        p = parse(random_program(rng), name=f"random{k}")
        kinds |= {op.kind for op in p.ops}
        _assert_agree(p, 2, 10, shorter=k < 5)
        assert parse(to_text(p)).ops[-1].kind == p.ops[-1].kind
    assert kinds == set(analysis.ARG_SORTS)  # the generator exercises every IR kind


# ----------------------------------------------------------------------------- ground truth
def _dyck(w: str) -> bool:
    depth = 0
    for c in w:
        depth += 1 if c == "(" else -1
        if depth < 0:
            return False
    return depth == 0


GROUND_TRUTH = [
    (MAJORITY, "ab", lambda w: w.count("a") >= w.count("b")),
    (DYCK_PARENS, "()", _dyck),
    (TOMITA4, "01", lambda w: "000" not in w),
]


@pytest.mark.parametrize("text,letters,truth", GROUND_TRUTH)
def test_ground_truth_to_length_12(text, letters, truth):
    p = parse(text)
    X = all_strings(2, 12)
    acc = accepts_prefixes(p, X)
    for b, row in enumerate(X):
        w = "".join(letters[x] for x in row)
        if b % 16 == 0:  # every prefix of these strings; the last symbols of the others vary below
            assert acc[b].tolist() == [truth(w[:i]) for i in range(13)], w
        else:
            assert acc[b, 9:].tolist() == [truth(w[:i]) for i in range(9, 13)], w
    for w in ("".join(t) for t in itertools.product(letters, repeat=7)):
        assert accepts(p, w) == truth(w)


def test_empty_string_conventions():
    for text in (MAJORITY, DYCK_PARENS, ANBNCN, AA_STAR, ASTAR_BSTAR):
        p = parse(text)
        assert accepts(p, "") and accepts(p, [])
        assert all(len(v) == 1 for v in evaluate(p, "").values())
        empty = np.zeros((3, 0), dtype=np.int64)
        assert accepts_batch(p, empty).tolist() == [True] * 3
        assert all(v.shape == (3, 1) for v in evaluate_batch(p, empty).values())
    p = parse(SIGMA_AB_SIGMA)
    assert not accepts(p, "") and not accepts_batch(p, np.zeros((1, 0), dtype=np.int64))[0]
    q = parse("alphabet: a\nC := #Q(a)\nP := mod(2, 0) and (mod(3, 1) <-> false) and C == 0\n")
    assert evaluate(q, "")["P"] == [True] and evaluate(q, "")["C"] == [0]


def test_encode_and_string_forms_agree():
    p = parse(MAJORITY)
    strings = ["abba", ["b", "b", "a", "a"], "aaab"]
    X = encode(p, strings)
    assert X.dtype == np.int64 and X.tolist() == [[0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 0, 1]]
    assert accepts_batch(p, X).tolist() == [accepts(p, s) for s in strings] == [True, True, True]
    multi = parse("alphabet: x SEP\nM := #Q(x) >= 1 and Q(SEP)\n")
    assert accepts(multi, "x x SEP") and accepts(multi, ["x", "SEP"]) and not accepts(multi, "SEP x")
    assert encode(multi, ["x SEP"]).tolist() == [[0, 1]]


def test_all_strings_enumerates_in_lexicographic_order():
    X = all_strings(3, 3)
    assert X.shape == (27, 3) and X.dtype == np.int64
    assert [tuple(r) for r in X.tolist()] == list(itertools.product(range(3), repeat=3))
    assert all_strings(2, 0).shape == (1, 0)
    with pytest.raises(InputError):
        all_strings(2, 40)


def test_batch_values_are_position_major_consistent():
    p = parse(TOMITA4)
    X = encode(p, ["0001000", "1001001"])
    v = evaluate_batch(p, X)
    assert v["T4"].shape == (2, 8) and v["T4"].dtype == bool
    assert v["T4"][0].tolist() == [True, True, True, False, False, False, False, False]
    assert v["T4"][1].all()
    assert re.fullmatch(r"_t\d+", p.ops[0].name)
