"""User theorem *files*, fuzzed end to end (issue 28, item 1): a folder holding a theorem file written as a
user would -- a linear recurrence learner of drawn state size (concrete 1..3, or the symbolic n), relations
drawn over learned and true symbols (most fail; products and sums that sympy accepts but that fit only at
some sizes, as Bt * Lt with n x 1 and n x n, are among them), an assumption with its drop --
loaded through ``--theorems`` and run through every command a user theorem reaches: ``show``, ``check``,
``scan``, ``falsify --drop`` and ``replay`` of what it found. Each ends in a verdict's exit code (0, 1,
3) with its reproduce line, never bad input, an internal error (4) or a traceback. (The erratum search
alone is fuzzed over many more shapes in tests/engine/test_fuzz_relation_shapes.py.)"""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sympy import Inverse, MatrixSymbol, Transpose
from sympy.matrices.exceptions import ShapeError

from proofkit.interface.cli import main

n = sp.Symbol("n", integer=True, positive=True)

TEMPLATE = '''"""A fuzzed user theorem (tests/interface/test_fuzz_user_files.py)."""

import pytest
import sympy as sp
from sympy import MatrixSymbol

from proofkit import (Assumption, Generalization, PaperRef, ParamSpace, Relation, Setup, Support, Theorem,
                      param_T)
from proofkit.families import LinearRecurrence

n = sp.Symbol("n", integer=True, positive=True)
{symbols}

THEOREM = Theorem(
    id="FUZZ.F1",
    title="fuzzed learner shapes",
    paper=PaperRef("fuzz", "file"),
    statement=sp.Implies(sp.Symbol("T") >= 2, sp.Eq(sp.Function("h")(sp.Symbol("t")),
                                                       sp.Function("f")(sp.Symbol("t")))),
    params=ParamSpace((param_T(2),)),
    assumptions=(Assumption("T>=2", "labels up to length T >= 2", lambda p: p["T"] >= 2, {{"T": 1}},
                            predicate=sp.Symbol("T") >= 2),),
    setup=Setup(
        learned=lambda p: LinearRecurrence(1, {k}, 1),
        true=lambda p: LinearRecurrence(1, 1, 1),
        true_params=lambda p: ["1.5", "0.5", "0.8"],
        support=lambda p: Support("iid", 1, p["T"]),
        learned_symbols={{"A": At, "Lam": Lt, "B": Bt}},
        true_symbols={{"A": A, "Lam": L, "B": B}},
    ),
    claims=(
        Generalization("length generalization", kind="length", source="fuzz"),
{relations}
    ),
)
'''


@st.composite
def theorem_files(draw):
    """The text of a theorem file: learned At (1 x k), Lt (k x k), Bt (k x 1) with k concrete or the
    symbol n, true A, L, B (1 x 1), and 1..3 relations, each side a product of 1..3 factors (a symbol,
    its transpose or, for a square one, its inverse) that may or may not fit the other side."""
    symbolic = draw(st.booleans())
    k = n if symbolic else draw(st.integers(1, 3))
    syms = {"At": MatrixSymbol("At", 1, k), "Lt": MatrixSymbol("Lt", k, k), "Bt": MatrixSymbol("Bt", k, 1),
            "A": MatrixSymbol("A", 1, 1), "L": MatrixSymbol("L", 1, 1), "B": MatrixSymbol("B", 1, 1)}

    def product():
        """Python source of a product, written as a user would (``At * Lt.T * sp.Inverse(A)``): factors
        that sympy accepts, including ones that fit only at some sizes (``Bt * Lt`` fits at n = 1)."""
        out, text = None, []
        for _ in range(draw(st.integers(1, 3))):
            name = draw(st.sampled_from(list(syms)))
            s, kind = syms[name], draw(st.sampled_from(["plain", "T", "inv"]))
            if kind == "inv" and s.shape[0] != s.shape[1]:
                kind = "plain"
            f = Transpose(s) if kind == "T" else Inverse(s) if kind == "inv" else s
            try:
                out = f if out is None else out * f
            except ShapeError:  # sympy refuses it when the file is written: not a file a user keeps
                continue
            text.append(f"{name}.T" if kind == "T" else f"sp.Inverse({name})" if kind == "inv" else name)
        return out, " * ".join(text)

    def side():
        """A product, or (sometimes) the sum of two that sympy accepts (``At + Bt.T``)."""
        first, text = product()
        if draw(st.integers(0, 3)) == 0:
            second, more = product()
            try:
                first + second
                return f"{text} + {more}"
            except ShapeError:
                pass
        return text

    relations = [f'        Relation("r{i}", "identification", "fuzz", {side()}, {side()}),'
                 for i in range(draw(st.integers(1, 3)))]
    dims = {"At": ("1", "k"), "Lt": ("k", "k"), "Bt": ("k", "1"), "A": ("1", "1"), "L": ("1", "1"),
            "B": ("1", "1")}
    size = "n" if symbolic else str(k)
    symbols = "\n".join(f'{name} = MatrixSymbol("{name}", {r.replace("k", size)}, {c.replace("k", size)})'
                        for name, (r, c) in dims.items())
    return TEMPLATE.format(symbols=symbols, k=2 if symbolic else k, relations="\n".join(relations))


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@settings(max_examples=6, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate],  # no shrinking: an example costs seconds, and the
          # failing file is printed whole
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(theorem_files())
def test_a_user_theorem_file_gets_verdicts_through_every_command(tmp_path_factory, capsys, text):
    folder = tmp_path_factory.mktemp("fuzz") / "mypaper"
    folder.mkdir()
    (folder / "fuzzed.py").write_text(text)
    theorems = ["--theorems", str(folder.parent)]
    code, out, err = _run(capsys, "show", "fuzz.f1", *theorems)
    assert code == 0 and "FUZZ.F1" in out, (text, err)
    for argv in (["check", "FUZZ.F1"], ["scan", "FUZZ.F1", "--param", "T", "--values", "1,2", "--no-search"],
                 ["falsify", "FUZZ.F1", "--drop", "T>=2", "--no-known", "--out", str(folder.parent / "cx")]):
        code, out, err = _run(capsys, *argv, *theorems, "-q")
        assert code in (0, 1, 3), (argv, code, err[-2000:], text)
        assert "Traceback" not in out + err and "reproduce" in out, (argv, out[-2000:], err[-2000:], text)
    for record in sorted((folder.parent / "cx").glob("*.json")):  # falsify's counterexample reproduces
        code, out, err = _run(capsys, "replay", str(record), *theorems, "-q")
        assert code == 0, (record.name, out[-2000:], err[-2000:], text)
        code, out, err = _run(capsys, "replay", str(record), "-q")  # without the folder: say where it is
        assert code == 2 and err.count("\n") == 1 and "--theorems DIR" in err and "did you mean" not in err


@pytest.mark.slow
@settings(max_examples=80, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(theorem_files())
def test_a_user_theorem_file_gets_verdicts_through_every_command_large(tmp_path_factory, capsys, text):
    test_a_user_theorem_file_gets_verdicts_through_every_command.hypothesis.inner_test(
        tmp_path_factory, capsys, text)


def _file(tmp_path, **swap: str):
    """The template's file with ``symbols`` concrete (k = 1), one relation, and text swapped in."""
    symbols = "\n".join(f'{name} = MatrixSymbol("{name}", 1, 1)' for name in ("At", "Lt", "Bt", "A", "L",
                                                                                   "B"))
    text = TEMPLATE.format(symbols=symbols, k=1, relations='        Relation("r0", "identification", "x", '
                                                          'Lt, L),')
    for old, new in swap.items():
        assert old in text
        text = text.replace(old, new)
    folder = tmp_path / "mine" / "mypaper"
    folder.mkdir(parents=True)
    (folder / "f.py").write_text(text)
    return ["--theorems", str(folder.parent)]


def test_an_assumption_whose_holds_raises_is_an_error_naming_it(tmp_path, capsys):
    """Not an inconclusive verdict ("the engine could not evaluate"): the theorem file's own code raised."""
    theorems = _file(tmp_path, **{'lambda p: p["T"] >= 2': "lambda p: 1 / 0"})
    code, out, err = _run(capsys, "check", "FUZZ.F1", *theorems, "-q")
    assert code == 4 and "assumption 'T>=2': holds(params) raised ZeroDivisionError" in err
    assert "inconclusive" not in out + err


def test_a_default_a_parameter_does_not_allow_is_one_line_naming_the_file(tmp_path, capsys):
    theorems = _file(tmp_path, **{"param_T(2)": 'param_T(2), Param("n", int, 7, min=1, max=3)'},
                     **{"Theorem,\n": "Theorem, Param,\n"})
    code, out, err = _run(capsys, "check", "FUZZ.F1", *theorems, "-q")
    assert code == 2 and err.count("\n") == 1 and "f.py" in err and "default 7 is not allowed" in err


def test_a_theorem_with_no_conclusion_says_why_it_is_inconclusive(tmp_path, capsys):
    theorems = _file(tmp_path, **{'Generalization("length generalization", kind="length", source="fuzz"),\n':
                                  ""})
    code, out, err = _run(capsys, "check", "FUZZ.F1", *theorems, "-q")
    assert code == 3 and "FUZZ.F1" in out and "no claim is evidence for the theorem itself" in out
