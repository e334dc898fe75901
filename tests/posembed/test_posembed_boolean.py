"""proofkit.posembed.boolean: the tokenizer, the two precedence conventions, equivalence."""

import pytest
import sympy as sp

from proofkit.posembed import boolean

p0, p1, p2, p3 = boolean.P


def test_conventions_differ_where_precedence_matters():
    assert boolean.parse("p1 | p2 & p3", "sympy") == sp.Or(p1, sp.And(p2, p3))
    assert boolean.parse("p1 | p2 & p3", "left") == sp.And(sp.Or(p1, p2), p3)
    a, b = boolean.parse("p1 | p2 & p3", "sympy"), boolean.parse("p1 | p2 & p3", "left")
    assert not boolean.equivalent(a, b)
    assert boolean.equivalent(boolean.parse("¬p0 & p1 | p2", "sympy"), boolean.parse("~p0 & p1 | p2", "left"))
    assert boolean.parse("true & (false | p0)", "sympy") == p0


def test_bad_text_is_a_value_error():
    with pytest.raises(ValueError):
        boolean.tokens("p1 + p2")
    for text in ("(p1 | p2", "p1 | p2)", "p1 ¬ p2"):
        assert not boolean.parses(text, "sympy")
    with pytest.raises(ValueError, match="unbalanced"):
        boolean.parse("(p1 | p2", "left")


def test_compare_readings():
    same, simp = boolean.compare_readings({"a": "p1 & (p2 | ¬p2)", "b": "p2"}, "p1", "sympy")
    assert same == {"a": True, "b": False} and simp == {"a": p1, "b": p2}


@pytest.mark.parametrize("text", ["", "p0 &", "p0 | ", "(", "¬", "p0 & (p1 |", "~~"])
def test_text_that_ends_where_an_operand_is_due_is_refused_not_an_index_error(text):
    for convention in boolean.CONVENTIONS:
        assert not boolean.parses(text, convention)
        with pytest.raises(ValueError):
            boolean.parse(text, convention)
