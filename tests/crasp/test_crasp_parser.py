"""C-RASP parser: grammar, sugar, and syntax errors (one line, naming a line and column)."""

from __future__ import annotations

import numpy as np
import pytest

from proofkit.crasp import (
    accepts,
    accepts_batch,
    accepts_prefixes,
    all_strings,
    encode,
    evaluate,
    evaluate_batch,
    load,
    parse,
)
from proofkit.crasp.language.parser import MAX_CHARS, CraspSyntaxError, to_text
from proofkit.errors import InputError
from tests.crasp.crasp_programs import (
    AA_STAR,
    ANBNCN,
    DYCK_PARENS,
    MAJORITY,
    SIGMA_AB_SIGMA,
    TOMITA4,
    _at,
    _error,
)


# ----------------------------------------------------------------------------- parser
def test_majority_parses_to_primitives():
    p = parse(MAJORITY, name="majority")
    assert p.alphabet == ("a", "b") and p.output == "M" and p.name == "majority"
    assert [op.kind for op in p.ops] == ["sym", "sym", "count", "count", "le"]
    m = p.op("M")
    assert [p.op(a).args for a in m.args] == [(p.ops[0].name,), (p.ops[1].name,)]
    assert p.ops[0].symbol == "b" and p.ops[1].symbol == "a"


def test_hash_consing_shares_equal_subexpressions():
    p = parse("alphabet: a b\nX := #Q(a) + #Q(a) <= #Q(a)\nY := #Q(a) >= 2\n")
    assert sum(op.kind == "count" for op in p.ops) == 1
    assert sum(op.kind == "sym" for op in p.ops) == 1
    q = parse("alphabet: a b\nA := Q(a)\nC := #Q(a) <= #A\n")  # Q(a) is the op named A
    assert [op.kind for op in q.ops] == ["sym", "count", "le"] and q.op("C").args[0] == q.op("C").args[1]


def test_round_trip_through_text():
    for text in (MAJORITY, DYCK_PARENS, ANBNCN, TOMITA4, AA_STAR, SIGMA_AB_SIGMA):
        p = parse(text)
        assert parse(text) == p and parse(p.source) == p
        printed = to_text(p)
        q = parse(printed)
        assert to_text(q) == printed and len(q.ops) == len(p.ops)
        assert [op.kind for op in q.ops] == [op.kind for op in p.ops]
        X = all_strings(len(p.alphabet), 6)
        np.testing.assert_array_equal(accepts_prefixes(p, X), accepts_prefixes(q, X))


def test_quoted_and_numeric_symbols():
    p = parse("alphabet: '(' \")\" \"'\" 0 SEP\nA := Q('(') or Q(')') or Q(\"'\") or Q(0) or Q(SEP)\n")
    assert p.alphabet == ("(", ")", "'", "0", "SEP")
    assert {op.symbol for op in p.ops if op.kind == "sym"} == set(p.alphabet)
    assert accepts(p, ["SEP"]) and accepts(p, "( 0") and not accepts(p, "")


@pytest.mark.parametrize(
    "loose,explicit",
    [
        ("Q(a) or Q(b) and not Q(a)", "Q(a) or (Q(b) and (not Q(a)))"),
        ("not #Q(a) <= 1 and Q(b)", "(not (#Q(a) <= 1)) and Q(b)"),
        ("#Q(a) + 1 - #Q(b) <= 2", "((#Q(a) + 1) - #Q(b)) <= 2"),
        ("Q(a) -> Q(b) -> Q(a)", "Q(a) -> (Q(b) -> Q(a))"),
        ("(Q(a) ? 1 : Q(b) ? 2 : 3) > 0", "(Q(a) ? 1 : (Q(b) ? 2 : 3)) > 0"),
        ("Q(a) or Q(b) <-> Q(b)", "(Q(a) or Q(b)) <-> Q(b)"),
        ("#not Q(a) - #< Q(a) == 0", "((#(not Q(a))) - (#< Q(a))) == 0"),
        ("- #Q(a) + 2 >= 0", "((0 - #Q(a)) + 2) >= 0"),
    ],
)
def test_precedence_matches_parenthesized_form(loose, explicit):
    p = parse(f"alphabet: a b\nA := {loose}\nB := {explicit}\n")
    a, b = p.op("A"), p.op("B")
    assert (a.kind, a.args) == (b.kind, b.args)


def test_comments_blank_lines_and_accept():
    p = parse("// header comment\n\nalphabet: a b   // symbols\n\nX := Q(a)\n// c\nY := Q(b)\naccept X\n\n")
    assert p.output == "X"
    p = parse("alphabet: a b\nX := Q(a)\nC := #X\n")
    assert p.output == "X"  # default: the last Boolean statement


def test_sugar_definitions_on_all_short_strings():
    text = """alphabet: a b
A := #Q(a)
B := #Q(b)
lt := A < B
ge := A >= B
gt := A > B
ne := A != B
mn := min(A, B) == A
mx := max(A, B)
ex := exists Q(b)
sp := #< Q(a)
neg := -A
fl := false
ip := Q(a) <-> Q(b)
loc := #[{0, 2}] Q(a)
loc1 := #[1] Q(a)
per := mod(3, 1)
"""
    p = parse(text)
    X = all_strings(2, 8)
    v = evaluate_batch(p, X)
    for r, row in enumerate(X[::7]):
        w = ["ab"[x] for x in row]
        for i in range(len(w) + 1):
            na, nb = w[:i].count("a"), w[:i].count("b")
            got = {name: v[name][7 * r, i] for name in v}
            assert got["lt"] == (na < nb) and got["ge"] == (na >= nb) and got["gt"] == (na > nb)
            assert got["ne"] == (na != nb) and got["mn"] == (min(na, nb) == na) and got["mx"] == max(na, nb)
            assert got["ex"] == (nb >= 1) and got["neg"] == -na and not got["fl"]
            assert got["sp"] == w[: max(i - 1, 0)].count("a")  # strict past: j in 1..i-1
            assert got["ip"] == ((i >= 1 and w[i - 1] == "a") == (i >= 1 and w[i - 1] == "b"))
            assert got["loc"] == (i >= 1 and w[i - 1] == "a") + (i >= 3 and w[i - 3] == "a")
            assert got["loc1"] == (i >= 2 and w[i - 2] == "a")
            assert got["per"] == (i % 3 == 1)


def test_strict_past_equals_its_definition():
    p = parse("alphabet: a b\nP := Q(a) and #Q(b) >= 1\nS := #< P\nT := #P - (P ? 1 : 0)\n")
    X = all_strings(2, 10)
    v = evaluate_batch(p, X)
    np.testing.assert_array_equal(v["S"], v["T"])
    expected = np.zeros_like(v["S"])  # S(i) = #{j in 1..i-1 : P(j)}, straight from the definition
    expected[:, 2:] = np.cumsum(v["P"][:, 1:-1], axis=1)
    np.testing.assert_array_equal(v["S"], expected)
    for row in X[::37]:
        ref = evaluate(p, [p.alphabet[x] for x in row])
        assert ref["S"] == ref["T"] == [sum(ref["P"][1:i]) for i in range(len(row) + 1)]


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "text,line,column,fragment",
    [
        ("alphabet: a b\nM := Q(a) <= 3\n", 2, 6, "count expression as left operand of '<='"),
        ("alphabet: a b\nM := 3 <= Q(a)\n", 2, 11, "count expression as right operand of '<='"),
        ("alphabet: a b\nM := #3 <= 1\n", 2, 7, "Boolean expression as operand of '#'"),
        ("alphabet: a b\nM := not #Q(a)\n", 2, 10, "Boolean expression as operand of 'not'"),
        ("alphabet: a b\nM := Q(a) + 1 <= 2\n", 2, 6, "count expression as left operand of '+'"),
        ("alphabet: a b\nM := #Q(a) and Q(b)\n", 2, 6, "Boolean expression as operand of 'and'"),
        ("alphabet: a b\nM := Q(a) ? Q(b) : 1\n", 2, 13, "count expression as branch"),
        ("alphabet: a b\nM := #Q(a) ? 1 : 0\n", 2, 6, "Boolean expression as condition"),
        ("alphabet: a b\nM := Q(a) ? 1 : 3 > 0\n", 2, 17, "count expression as branch"),
        ("alphabet: a b\nM := min(Q(a), 1) == 0\n", 2, 10, "count expression as first argument of min"),
        ("alphabet: a b\nM := Q(a)\nN := M <= 1\n", 3, 6, "count expression as left operand"),
        ("alphabet: a b\nM := #Q(a) <= X\n", 2, 15, "unknown name"),
        ("alphabet: a b\nM := Q(c)\n", 2, 8, "a symbol of the alphabet a b"),
        ("alphabet: a b\nM := Q(a)\nM := Q(b)\n", 3, 1, "a new name ('M' is already defined)"),
        ("alphabet: a b\nM := mod(0, 0)\n", 2, 10, "modulus >= 1"),
        ("alphabet: a b\nM := mod(3, 3)\n", 2, 13, "residue in [0, 3)"),
        ("alphabet: a b\nM := mod(3, -1)\n", 2, 13, "residue in [0, 3)"),
        ("alphabet: a b\nM := #[-1] Q(a) >= 1\n", 2, 8, "offset >= 0"),
        ("alphabet: a b\nM := #[{0, -2}] Q(a) >= 1\n", 2, 12, "offset >= 0"),
        ("alphabet: a b\nM := #[{}] Q(a) >= 1\n", 2, 9, "at least one offset"),
        ("alphabet: a b\nM := #Q(a) <= #Q(b) <= 3\n", 2, 21, "comparisons do not chain"),
        ("alphabet: a b\nM := (#Q(a) <= 1\n", 2, 17, "')' closing the '(' at column 6"),
        ("alphabet: a b\nM := #Q(a) <= 1 )\n", 2, 17, "end of line after the statement"),
        ("alphabet: a b\nM := #Q(a) @ 1\n", 2, 12, "an operator"),
        ("alphabet: a b\nM = Q(a)\n", 2, 3, "':=' to define"),
        ("alphabet: a b\nM := Q(a)\naccept Z\n", 3, 8, "defined statement"),
        ("alphabet: a b\nC := #Q(a)\naccept C\n", 3, 8, "Boolean statement after 'accept'"),
        ("alphabet: a b\nM := Q(a)\naccept M\nN := Q(b)\n", 4, 1, "end of program after the accept line"),
        ("alphabet: a b\nC := #Q(a)\n", 3, 1, "at least one Boolean statement"),
        ("M := Q(a)\n", 1, 1, "'alphabet:' as the first line"),
        ("alphabet: ( )\nM := Q(a)\n", 1, 11, "a quoted character like '('"),
        ("alphabet: a ( )\nM := Q(a)\n", 1, 13, "quote punctuation symbols"),
        ("alphabet: a b\nM := #Q(a) <= 1\nN := #Q(a) <= 1 +\nO := 'ab'\n", 3, 18, "an expression"),
        ("alphabet: a a\nM := Q(a)\n", 1, 13, "distinct alphabet symbols"),
        ("alphabet:\nM := Q(a)\n", 1, 10, "at least one alphabet symbol"),
        ("alphabet: a b\nand := Q(a)\n", 2, 1, "keywords are reserved"),
        ("alphabet: a b\n_t1 := Q(a)\n", 2, 1, "reserved for generated"),
        ("alphabet: a b\nM := _t1\n", 2, 6, "earlier statement"),
        ("alphabet: a b\nM := Q('ab')\n", 2, 8, "quoted single non-blank character"),
        ("alphabet: a b\nM := #Q(a) <= 1234567890123456789\n", 2, 15, "at most 18 digits"),
        ("alphabet: a b\nM := exists 3\n", 2, 13, "Boolean expression as operand of 'exists'"),
        ("alphabet: a b\nM := Q(a) == Q(b)\n", 2, 6, "count expression as left operand of '=='"),
    ],
)
def test_syntax_and_type_errors_name_line_and_column(text, line, column, fragment):
    exc = _error(text)
    _at(exc, line, column)
    assert fragment in str(exc), str(exc)
    assert isinstance(exc, InputError)


def test_too_long_and_too_many_ops():
    exc = _error("alphabet: a b\n" + "// padding\n" * (MAX_CHARS // 10))
    assert "at most 100000 characters" in str(exc) and exc.line > 1
    lines = [f"s{i} := #Q(a) != {i}" for i in range(2100)]  # 5 ops a line after expansion
    exc = _error("alphabet: a b\n" + "\n".join(lines) + "\n")
    assert "at most 10000 operations" in str(exc) and 1900 < exc.line < 2100


def test_deep_nesting_is_a_syntax_error_not_a_recursion_error():
    exc = _error("alphabet: a b\nM := " + "(" * 500 + "Q(a)" + ")" * 500 + "\n")
    assert "nested at most 50 levels" in str(exc) and exc.line == 2
    exc = _error("alphabet: a b\nM := " + "not " * 5000 + "Q(a)\n")
    assert "nested at most 50 levels" in str(exc)
    parse("alphabet: a b\nM := " + " and ".join(["Q(a)"] * 3000) + "\n")  # long flat chains are fine


def test_program_text_is_never_executed(tmp_path):
    marker = tmp_path / "marker"
    attack = f"__import__('os').system('touch {marker}')"
    texts = (attack, f"alphabet: a\n{attack}\n", f"alphabet: a\nM := {attack}\n", "alphabet: a\nM := f(9)\n")
    for text in texts:
        with pytest.raises(CraspSyntaxError):
            parse(text)
    f = tmp_path / "evil.crasp"
    f.write_text(f"alphabet: a\nM := Q(a)\n{attack}\n")
    with pytest.raises(CraspSyntaxError) as info:
        load(f)
    _at(info.value, 3, 1)
    assert not marker.exists()


def test_load_reads_files_and_reports_unreadable_ones(tmp_path):
    f = tmp_path / "majority.crasp"
    f.write_text(MAJORITY)
    p = load(f)
    assert p.name == "majority" and p.output == "M" and accepts(p, "ab")
    for bad in (tmp_path / "missing.crasp", tmp_path):
        with pytest.raises(InputError) as info:
            load(bad)
        assert info.value.field == "program file"
    g = tmp_path / "latin1.crasp"
    g.write_bytes(b"alphabet: a\n\xff\n")
    with pytest.raises(InputError) as info:
        load(g)
    assert info.value.field == "program file"


def test_interpreters_reject_bad_strings_and_arrays():
    p = parse(MAJORITY)
    with pytest.raises(InputError) as info:
        evaluate(p, "abcab")
    assert info.value.field == "string" and "'c' at position 3" in str(info.value)
    with pytest.raises(InputError):
        accepts(p, ["a", "x"])
    with pytest.raises(InputError):
        encode(p, ["ab", "abb"])
    for X in (np.array([[0, 2]]), np.array([0, 1]), np.array([[0.5, 1.0]]), np.array([[-1, 0]])):
        with pytest.raises(InputError) as info:
            accepts_batch(p, X)
        assert info.value.field == "X"


def test_int64_overflow_is_refused_not_wrapped():
    lines = ["c0 := 999999999999999999"] + [f"c{i} := c{i - 1} + c{i - 1}" for i in range(1, 8)]
    p = parse("alphabet: a\n" + "\n".join(lines) + "\nM := c7 >= 0\n")
    assert evaluate(p, "aa")["c7"][-1] == 999999999999999999 * 128
    with pytest.raises(InputError):
        evaluate_batch(p, np.zeros((1, 2), dtype=np.int64))


@pytest.mark.parametrize("n,width", [(1000, np.int16), (3000, np.int32)])
def test_narrow_count_types_hold_every_count(n, width):
    """Counts are stored in the narrowest type the static bound allows; near the int16 limit the
    vectorized interpreter must switch type and still equal the reference interpreter exactly."""
    from proofkit.crasp.semantics.vector import _count_dtype

    terms = " + ".join(["#Q(a)"] * 10)
    p = parse(f"alphabet: a b\nS := {terms} - #Q(b) - 5\nM := S >= 9\n")
    assert _count_dtype(p, n, np) == width
    rng = np.random.default_rng(7)
    X = np.vstack([np.zeros((1, n), dtype=np.int64), rng.integers(0, 2, (3, n))])
    got = evaluate_batch(p, X)["S"]
    assert got.dtype == np.int64
    for row, values in zip(X, got):
        assert evaluate(p, "".join("ab"[k] for k in row))["S"] == values.tolist()
    assert accepts_prefixes(p, X).tolist() == (got >= 9).tolist()
