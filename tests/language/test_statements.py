"""Statements a reader can check (issue 11): every theorem's statement is built from the objects its
checks use, ``Implies(And(*hypotheses), conclusion)``, one hypothesis per assumption (a sympy predicate)
and the conclusion from the conclusion claims; dropping an assumption removes exactly its conjunct;
``show`` prints it labelled, ``show --latex`` prints LaTeX a paper can include."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import sympy as sp

from proofkit.errors import InputError
from proofkit.interface.testing import run_cli as run
from proofkit.language import registry
from proofkit.language.params import ParamSpace
from proofkit.language.spec import Assumption, PaperRef, Statement, Theorem, predicate

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples" / "my_theorems"
IDS = sorted(registry.load_all())


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv(registry.ENV, raising=False)


def test_every_builtin_theorem_has_a_built_statement():
    for tid in IDS:
        thm = registry.get(tid)
        st = thm.statement_parts()
        assert st.plain is None, f"{tid}: a placeholder statement, not built from its assumptions"
        assert st.conclusion, f"{tid}: no conclusion"
        hyp_ids = [aid for aid, _ in st.hypotheses]
        for a in thm.assumptions:
            assert a.predicate is not None, f"{tid}: assumption {a.id} has no predicate"
            assert isinstance(a.predicate, sp.logic.boolalg.Boolean), (tid, a.id)
            assert a.id in hyp_ids
        for _, c in st.conclusion:
            assert isinstance(c, sp.logic.boolalg.Boolean), tid
        for name, _ in st.conclusion:
            assert name == "conclusion" or name in {c.name for c in thm.claims}, (tid, name)


@pytest.mark.parametrize("tid", IDS)
def test_dropping_each_assumption_removes_exactly_its_conjunct(tid):
    thm = registry.get(tid)
    full = thm.statement_parts()
    for a in thm.assumptions:
        for variant in (thm.statement_parts([a.id]), thm.dropped([a.id]).statement_parts()):
            assert variant.hypotheses == tuple(h for h in full.hypotheses if h[0] != a.id)
            assert variant.conclusion == full.conclusion
        expr = thm.formula([a.id])
        assert expr == Statement(tuple(h for h in full.hypotheses if h[0] != a.id), full.conclusion).expr
        if len(full.hypotheses) > 2:  # the hypotheses are the conjuncts of the implication's premise
            want = {c for aid, h in full.hypotheses if aid != a.id for c in sp.And.make_args(h)}
            assert set(expr.args[0].args) == want
    if thm.assumptions:
        everything = thm.statement_parts([a.id for a in thm.assumptions])
        assert everything.hypotheses == tuple(thm.given)


def _balanced(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        if ch in "{}" and i and text[i - 1] == "\\":
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _latex_ok(tex: str) -> None:
    body = "\n".join(line for line in tex.splitlines() if not line.startswith("%"))
    assert _balanced(body), body
    assert body.count(r"\left") == body.count(r"\right"), body
    assert body.count(r"\begin{aligned}") == body.count(r"\end{aligned}")
    for m in re.finditer(r"\\text\{", body):  # every \text{ closes, with nothing unescaped inside
        depth, j = 1, m.end()
        while depth and j < len(body):
            if body[j] == "\\":
                j += 2
                continue
            depth += {"{": 1, "}": -1}.get(body[j], 0)
            j += 1
        assert depth == 0, body[m.start():m.start() + 60]
        inner = body[m.end():j - 1]
        assert not re.search(r"(?<!\\)[#$%&_^~]", inner), inner
    assert not re.search(r"(?<!\\)[#%]", body), body  # LaTeX specials never raw
    assert not re.search(r"(?<!\\)[$~]", body), body


@pytest.mark.parametrize("tid", IDS)
def test_show_labels_every_assumption_and_claim(capsys, tid):
    thm = registry.get(tid)
    code, out, err = run(capsys, "show", tid)
    assert code == 0 and err == ""
    head = out.split("\n  assumptions:")[0]
    for a in thm.assumptions:
        assert f"[{a.id}]" in head, a.id  # labelled in the statement itself
    for c in thm.claims:
        assert c.name in out, c.name
    for name, _ in thm.statement_parts().conclusion:
        assert f"[{name}]" in head
    code, tex, err = run(capsys, "show", tid, "--latex")
    assert code == 0 and err == ""
    for a in thm.assumptions:
        assert "(" + _escaped(a.id) + ")" in tex, a.id
    _latex_ok(tex)
    code, out, _ = run(capsys, "show", tid, "--json")
    obj = json.loads(out)
    assert code == 0 and obj["statement_latex"] == tex.rstrip("\n")
    hyps = thm.statement_parts().hypotheses
    assert [h["assumption"] for h in obj["hypotheses"]] == [aid for aid, _ in hyps]
    assert obj["statement"] == str(thm.statement_parts())


def _escaped(text: str) -> str:
    from proofkit.language.spec import latex_text

    return latex_text(text)


def test_show_drop_leaves_out_the_hypothesis(capsys):
    code, out, _ = run(capsys, "show", "AM24.T4", "--drop", "T>=2")
    assert code == 0 and "[T>=2]" not in out.split("\n  assumptions:")[0] and "without T>=2" in out
    code, tex, _ = run(capsys, "show", "AM24.T4", "--latex", "--drop", "T>=2")
    assert code == 0 and "T \\geq 2" not in tex and "(A5.square)" in tex
    code, _, err = run(capsys, "show", "AM24.T4", "--drop", "nope")
    assert code == 2 and "nope" in err


def test_am24_t4_reads_as_the_paper():
    thm = registry.get("AM24.T4")
    hyps = dict(thm.statement_parts().hypotheses)
    assert sp.sstr(hyps["A5.A-invertible"]) == "Q.invertible(A)"
    assert sp.sstr(hyps["T>=2"]) == "T >= 2"
    tex = thm.latex()
    assert r"\tilde{k} = n" in tex and r"T \geq 2" in tex and r"\Lambda" in tex


def test_latex_escapes_odd_symbol_names():
    odd = sp.Symbol("x#y_%")
    thm = Theorem(id="X.T", title="t", paper=PaperRef("p", "s"), params=ParamSpace(()), claims=(),
                  assumptions=(Assumption("a&b", "m", predicate=predicate("P", "wording")(odd)),),
                  conclusion=sp.Eq(odd, 1))
    from proofkit.render.report import statement_latex

    tex = statement_latex(thm)
    _latex_ok(tex)
    assert r"\text{x\#y\_\%}" in tex and r"(a\&b)" in tex


def test_plain_statement_still_works(capsys, tmp_path):
    """A user theorem with one sympy ``statement`` (docs/user_theorems.md's example) keeps it."""
    thm = registry.load_all([EXAMPLES])["MY.T1"]
    st = thm.statement_parts()
    assert st.plain == thm.statement and thm.formula() == thm.statement
    assert thm.dropped(["T>=2"]).formula() == thm.statement
    code, out, err = run(capsys, "--theorems", str(EXAMPLES), "show", "MY.T1")
    assert code == 0 and err == "" and "statement: Implies(Eq(R(T), 0), Eq(h(t), f(t)))" in out
    code, tex, _ = run(capsys, "--theorems", str(EXAMPLES), "show", "MY.T1", "--latex")
    assert code == 0 and r"\Rightarrow" in tex
    _latex_ok(tex)
    with pytest.raises(InputError):
        thm.statement_parts(["nope"])


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="no LaTeX engine installed")
def test_latex_compiles(capsys, tmp_path):
    from proofkit.render.report import statement_latex

    body = "\n".join(rf"\[{statement_latex(registry.get(t))}\]" for t in IDS)
    doc = (r"\documentclass{article}\usepackage{amsmath}\begin{document}" + "\n" + body
           + "\n" + r"\end{document}")
    (tmp_path / "s.tex").write_text(doc)
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "s.tex"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout[-2000:]
