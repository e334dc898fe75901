"""``proofkit report --format latex`` (issue 28): a fragment for one column of a two-column paper,
booktabs rules, one table per paper with the paper as its heading, the theorem and section once per
theorem, every special character escaped, proofkit's version, commit, seed and precision in its header,
and a real build in ``\\documentclass[twocolumn]{article}`` without overfull or underfull boxes (when
pdflatex is installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from proofkit import __version__
from proofkit.language import registry
from proofkit.publish import env, render, table
from proofkit.publish.cli import REPORT_STEM
from tests.publish.test_publish_report import report

#: cheap theorems (well under a second each; two papers, records and none)
CHEAP = ("AM24.L1", "AM24.EX1", "INL25.P37", "R24.T31")
TRICKY = r"a_b & 50% $x$ #1 {y} ~ ^ \ <|> --drop – Λ̃ ψ ≤ naïve “q” … x₀ 日"

APT = ("apt-get install -y --no-install-recommends texlive-latex-base texlive-latex-recommended "
       "texlive-latex-extra")
needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None,
                                    reason=f"no pdflatex here (install TeX: {APT}); the structural checks "
                                           "stand in")
PROV = table.Provenance("9.9.9", "0123456789abcdef0123456789abcdef01234567", True)
#: the template a paper puts the fragment in
TEMPLATE = ("\\documentclass[twocolumn]{article}\n\\usepackage{" + ",".join(render.LATEX_PACKAGES) + "}\n"
            "\\begin{document}\n\\section{Results}\nText before the table.\n\\input{table.tex}\n"
            "Text after the table.\n\\end{document}\n")


@pytest.fixture(scope="module")
def fragment(tmp_path_factory) -> str:
    """The LaTeX report of CHEAP, written into a folder."""
    out = tmp_path_factory.mktemp("latex")
    code, _, err = report(*CHEAP, "--format", "latex", "--out", str(out))
    assert code == 0, err
    return (out / f"{REPORT_STEM}.tex").read_text(encoding="utf-8")


def hostile(n: int = 160) -> list[table.Row]:
    """``n`` rows over two papers and many theorems whose every text field is hostile: LaTeX specials,
    unicode pdflatex cannot typeset as is, long tokens without a break, claims of one to six lines."""
    out = []
    for i in range(n):
        paper = f"Paper {i % 2} & {TRICKY}"
        key = "safe:key-1" if i % 2 else "bad key{#}"
        claim = " ".join([TRICKY] * (i % 4)) + f" c{i} " + "x" * (i % 70) + " ψ∘φ−λ≥Λ→" + "日" * (i % 9)
        finding = ("", "erratum", "our reading refuted", "as printed refuted outside the assumptions")[i % 4]
        verdict = ("certified", "refuted", "refuted", "refuted", "confirmed", "inconclusive")[i % 6]
        role = "control" if i % 5 == 0 else "conclusion"
        finding = finding if verdict == "refuted" else ""
        arithmetic = ("exact", "ball", "dps 60", "float64")[i % 4]
        tid = f"X{i % 2}.T{i // 7}_{TRICKY[:9]}"
        out.append(table.Row(tid, paper, f"Sec. {i // 7} {TRICKY}", claim, role, verdict, finding, TRICKY,
                             arithmetic, i % 3 == 0, TRICKY, TRICKY,
                             (table.RecordLink(f"r_{i}.json", ("A_1",)),), key, 0, 60))
    return out


def _code(text: str) -> str:
    """The fragment without comment lines and with escaped specials removed."""
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("%"))
    return re.sub(r"\\[\\{}&%$#_]", "", body)


def _cells(text: str) -> list[str]:
    """The data rows' cells and the heading rows' text: everything the table got from the rows."""
    body = text[text.index(r"\begin{xtabular}"):]
    out = []
    for line in body.splitlines():
        if line.startswith(r"\multicolumn"):
            out.append(line[line.index("}}{") + 3:])
        elif line.endswith(("\\\\", "\\\\[3pt]", "\\cr")) and "&" in line:
            out += re.split(r"(?<!\\)&", line)
    heads = re.findall(r"\\bfseries (.*?)} \\\\ \\midrule", text)
    return out + heads


def check_structure(text: str, rows: list[table.Row]) -> None:
    """booktabs rules and no vertical ones, balanced braces and environments, three cells a data row,
    the paper once as a table heading (and in its continuation head), each theorem and section once, no
    unescaped special in anything taken from the rows."""
    code = _code(text)
    depth = 0
    for ch in code:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0
    stack: list[str] = []
    for kind, env_name in re.findall(r"\\(begin|end)\{(\w+)\}", code):
        if kind == "begin":
            stack.append(env_name)
        else:
            assert stack.pop() == env_name
    assert stack == []
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert rule in text
    assert r"\hline" not in text and r"\vline" not in text
    for spec in re.findall(r"\\begin\{xtabular\}\{(.*)\}$", text, re.M):
        assert "|" not in spec
    papers = list(dict.fromkeys((r.paper, r.bibkey) for r in rows))
    assert text.count(r"\begin{xtabular}") == text.count(r"\tablefirsthead") == len(papers)
    data = [ln for ln in code.splitlines() if "&" in ln and not ln.startswith("\\table")]
    assert len(data) == len(rows) and all(ln.count("&") == 2 for ln in data)
    for paper, _ in papers:
        heading = render._breakable(paper)
        assert text.count(heading) == 2  # the first head and the continuation head
    for tid in dict.fromkeys(r.theorem for r in rows):
        assert text.count(rf"\textbf{{{render._breakable(tid)}}}") == 1
    for cell in _cells(text):
        plain = re.sub(r"\\ensuremath\{(?:[^{}]|\{[^{}]*\})*\}", "", re.sub(r"\\[\\{}&%$#_]", "", cell))
        plain = plain.replace(r"\textasciitilde{}", "").replace(r"\textasciicircum{}", "")
        assert not re.search(r"[#%$_^~&]", plain), cell


def test_report_fragment_structure_and_header(fragment):
    thms = [registry.get(t) for t in CHEAP]
    assert fragment.startswith("% proofkit report: the verdict table")
    assert f"% written by proofkit {__version__} (" in fragment
    assert "seed 0, working precision 60 decimal digits" in fragment
    git = env.git()
    known = git["commit"] != env.UNKNOWN_COMMIT
    assert (git["commit"] in fragment) if known else "commit unknown" in fragment
    assert r"\usepackage{array,booktabs,xtab}" in fragment
    for t in thms:
        assert fragment.count(rf"\textbf{{{render._breakable(t.id)}}}") == 1
        assert fragment.count(render._breakable(t.paper.paper)) == 2
    assert len(re.findall(r"\\proofkitcite\{", fragment)) == 2 * len({t.paper.paper for t in thms}) + 1
    code = _code(fragment)
    assert all(ln.count("&") == 2 for ln in code.splitlines() if "&" in ln)


def test_hostile_names_are_escaped_everywhere():
    rows = hostile()
    text = render.to_latex(rows, PROV)
    check_structure(text, rows)
    assert r"\proofkitcite{safe:key-1}" in text and r"\proofkitcite{bad" not in text
    assert "bad key\\{\\#\\}" in text  # a key \cite cannot take is printed as text
    assert "% written by proofkit 9.9.9 (commit 0123456789abcdef0123456789abcdef01234567, with " in text
    assert "(commit 0123456789ab, with uncommitted changes)" in text
    assert render.to_latex(rows, PROV) == text  # deterministic
    assert render.latex_escape("Λ̃ ≤ ã 日 --") == \
        r"\ensuremath{\tilde{\Lambda}} \ensuremath{\leq} \~{a} [U+65E5] -{}-"


def test_long_tokens_get_break_points_and_long_claims_are_cut():
    assert render._breakable("a_b/c") == r"a\_\allowbreak{}b/\allowbreak{}c"
    assert render._breakable("x" * 30).count(r"\allowbreak{}") == 2
    assert r"\allowbreak" not in render._breakable("identification generalization")
    assert render._clip("short claim") == "short claim"
    cut = render._clip("word " * 60)
    assert cut.endswith("word \u2026") and len(cut) <= render.MAX_CLAIM + 2
    assert render._clip("日" * 40) == "日" * 15 + " \u2026"  # each written as [U+65E5]: 8 characters


def test_unknown_commit_is_said():
    text = render.to_latex(hostile(3), table.Provenance("1.0", env.UNKNOWN_COMMIT, None))
    assert "proofkit 1.0 (commit unknown (installed package))" in text


def _pdflatex(folder: Path, name: str) -> str:
    """Two pdflatex runs (xtab reads back where its tables ended), the log of the second."""
    for _ in range(2):
        run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name], cwd=folder,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout[-3000:]
    return (folder / name).with_suffix(".log").read_text(encoding="latin-1")


def _boxes(log: str) -> tuple[list[str], list[str]]:
    lines = log.splitlines()
    return ([ln for ln in lines if ln.startswith(("Overfull \\hbox", "Overfull \\vbox"))],
            [ln for ln in lines if ln.startswith(("Underfull \\hbox", "Underfull \\vbox"))])


@needs_pdflatex
def test_report_builds_in_a_two_column_paper_without_bad_boxes(fragment, tmp_path):
    """The real report of CHEAP, then 160 hostile rows that break across columns and pages."""
    more = render.to_latex(hostile(), PROV)
    (tmp_path / "table.tex").write_text(fragment + more, encoding="utf-8")
    (tmp_path / "doc.tex").write_text(TEMPLATE, encoding="utf-8")
    log = _pdflatex(tmp_path, "doc.tex")
    overfull, underfull = _boxes(log)
    assert overfull == [] and underfull == []
    assert not re.search(r"^! ", log, re.M)
    pages = int(re.search(r"Output written on doc\.pdf \((\d+) pages?", log).group(1))
    assert pages >= 2  # the hostile rows alone fill more than a page: the tables did break


@needs_pdflatex
@pytest.mark.parametrize("n", [40, 82, 117, 173])
def test_standalone_document_builds(tmp_path, n):
    """Row counts at which a row many lines taller than the one before it fell at a column's foot (before
    the tail's reserve, xtab then misplaced rows: overlapping lines and an underfull column)."""
    (tmp_path / "report.tex").write_text(render.to_latex_document(hostile(n), PROV), encoding="utf-8")
    overfull, underfull = _boxes(_pdflatex(tmp_path, "report.tex"))
    assert overfull == [] and underfull == []


def test_standalone_flag_writes_a_document(tmp_path):
    code, out, err = report("AM24.L1", "--format", "latex", "--standalone")
    assert code == 0, err
    assert out.startswith("\\documentclass[twocolumn]{article}\n") and out.endswith("\\end{document}\n")
