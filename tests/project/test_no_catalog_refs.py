"""Outputs and docs stand on their own (issue 15): proofkit was built from private technical catalogs of the
papers, which users do not have, so no user-visible text may cite "the catalog". Every theorem's ``show
--json`` output and the cheap parts of its ``check`` output (claim names, sources and statements, parameter
help, assumption meanings and notes, theorem notes: read from the Theorem objects, no check is run), the
docs, the README, the program library, the generated task programs and the stored counterexample records
cite the paper (or say in words that something is derived here) instead."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from proofkit.interface.testing import run_cli
from proofkit.language import registry

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile("catalog", re.IGNORECASE)
THEOREMS = sorted(registry.load_all())


def _offending(text: str) -> list[str]:
    """The lines of ``text`` that mention the word, for a readable failure."""
    return [line.strip() for line in text.splitlines() if WORD.search(line)]


def _strings(obj: object) -> list[str]:
    """Every str field of a dataclass instance (claims carry name, role, source, text, ...)."""
    return [v for f in dataclasses.fields(obj) if isinstance(v := getattr(obj, f.name), str)]


def _theorem_texts(thm) -> list[str]:
    texts = [thm.id, thm.title, str(thm.paper), str(thm.statement), thm.notes, *thm.expect]
    for a in thm.assumptions:
        texts += [a.id, a.meaning, a.note, json.dumps(dict(a.drop), default=str)]
    for c in thm.claims:
        texts += [*_strings(c), c.statement()]
    for p in thm.params.params:
        texts += [p.name, p.help, p.allowed(), repr(p.default)]
    return texts


def test_the_word_is_caught():
    assert _offending("ok\nsee the Catalog, section 5\n") == ["see the Catalog, section 5"]


@pytest.mark.parametrize("tid", THEOREMS)
def test_theorem_texts_cite_the_paper_not_a_catalog(tid):
    thm = registry.get(tid)
    bad = [line for text in _theorem_texts(thm) for line in _offending(text)]
    assert not bad, f"{tid}: {bad}"


@pytest.mark.parametrize("tid", THEOREMS)
def test_show_json_cites_the_paper_not_a_catalog(capsys, tid):
    code, out, err = run_cli(capsys, "show", tid, "--json")
    assert code == 0, err
    json.loads(out)
    assert not _offending(out), f"{tid}: {_offending(out)}"
    code, out, _ = run_cli(capsys, "show", tid)
    assert code == 0 and not _offending(out), f"{tid}: {_offending(out)}"


def test_list_cites_the_paper_not_a_catalog(capsys):
    code, out, _ = run_cli(capsys, "list", "--json")
    assert code == 0 and not _offending(out), _offending(out)


DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_docs_cite_the_paper_not_a_catalog(path):
    bad = _offending(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.relative_to(ROOT)}: {bad}"


def test_program_library_and_records_cite_the_paper_not_a_catalog():
    """Library programs are printed and stored verbatim in counterexample records."""
    files = sorted((ROOT / "theorems").rglob("*.crasp")) + sorted((ROOT / "counterexamples").glob("*.json"))
    assert files
    bad = {str(f.relative_to(ROOT)): _offending(f.read_text(encoding="utf-8")) for f in files}
    assert not {k: v for k, v in bad.items() if v}


def test_generated_task_programs_cite_the_paper_not_a_catalog():
    from proofkit.crasp.tasks import task_programs as TP

    texts = [TP.majority_program_text(3), TP.sort_program_text(3), TP.sort_sketch_program_text(3),
             TP.copy_program_text(3), TP.copy_position_program_text(3)]
    assert not [line for t in texts for line in _offending(t)]
