"""Citing (issue 15): CITATION.cff, the papers' BibTeX files beside the theorems, the minimal BibTeX
parser, and ``proofkit cite ID`` (paper entry, proofkit's @software entry, the evidence bundle's hash)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import proofkit
from proofkit.errors import InputError
from proofkit.interface import cli
from proofkit.interface.testing import run_cli
from proofkit.language import registry
from proofkit.publish import bib, bundle, cite, env

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def run(capsys, monkeypatch):
    """The command line with the publish subcommands registered (once, whether or not cli lists them)."""
    if "proofkit.publish.cli" not in cli.COMMAND_MODULES:
        monkeypatch.setattr(cli, "COMMAND_MODULES", (*cli.COMMAND_MODULES, "proofkit.publish.cli"))
    return lambda *argv: run_cli(capsys, *argv)


# ----------------------------------------------------------------------------------------------- CITATION.cff
def _cff_top_level(text: str) -> dict[str, str]:
    """Top-level ``key: value`` lines of a CFF file (block values as their first line), by hand: no YAML
    parser is a dependency of proofkit."""
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"(?m)^([a-z][a-z-]*):(.*)$", text)}


def test_citation_cff_has_the_required_fields_and_the_package_version():
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    top = _cff_top_level(text)
    assert {"cff-version", "message", "title", "authors", "version", "date-released", "license"} <= set(top)
    assert top["cff-version"] == "1.2.0" and top["title"] == cite.SOFTWARE["title"]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(rf'(?m)^version = "{re.escape(top["version"])}"$', pyproject)
    assert top["version"] == proofkit.__version__
    assert top["license"] == cite.SOFTWARE["license"]
    assert top["date-released"] == cite.SOFTWARE["date-released"]
    assert re.search(r"(?m)^authors:\n  - name: (.+)$", text).group(1) == cite.SOFTWARE["author"]
    assert "repository-code" not in top  # not known: left out rather than guessed


def test_citation_cff_is_valid_yaml_where_a_parser_is_installed():
    yaml = pytest.importorskip("yaml")
    data = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert data["cff-version"] == "1.2.0" and data["version"] == proofkit.__version__
    assert data["authors"] == [{"name": cite.SOFTWARE["author"]}]
    assert str(data["date-released"]) == cite.SOFTWARE["date-released"]


# ----------------------------------------------------------------------------------------------- BibTeX
SAMPLE = """% text between entries is skipped, as BibTeX skips it
@comment{ignored, {nested}}
@Article{key1,
  title = {A {Nested} Title},
  author = "Doe, J. and Roe, R.",
  year = 2024,
}
@inproceedings{key2, title={T}, booktitle = {B}}
"""


def test_parser_reads_the_subset_used():
    e1, e2 = bib.parse(SAMPLE, Path("sample.bib"))
    assert (e1.type, e1.key, e2.type, e2.key) == ("article", "key1", "inproceedings", "key2")
    assert e1.fields == {"title": "A {Nested} Title", "author": "Doe, J. and Roe, R.", "year": "2024"}
    assert e1.text.startswith("@Article{key1,") and e1.text.endswith("}") and e1.text in SAMPLE
    assert e2.fields == {"title": "T", "booktitle": "B"}


@pytest.mark.parametrize("text, why", [
    ("@article{k, title = {open}", "balanced braces"),
    ("@article{k, title = {a}, title = {b}}", "each field once"),
    ("@article{title = {a}}", "@type{key"),
    ("@article{k, title {a}}", "name = value"),
    ("@article{k, title = {a} year = 1}", "','"),
])
def test_malformed_bibtex_is_bad_input_naming_the_line(text, why):
    with pytest.raises(InputError) as err:
        bib.parse("\n" + text, Path("x.bib"))
    assert why in str(err.value) and "x.bib:2" in str(err.value)


def test_every_bibkey_a_theorem_cites_resolves_to_exactly_one_entry():
    index = bib.index()
    for tid, thm in registry.load_all().items():
        key = thm.paper.bibkey
        assert key, f"{tid} names no BibTeX key"
        assert len(index.get(key, [])) == 1, f"{tid}: {key} in {[str(e.path) for e in index.get(key, [])]}"
        assert bib.entry(key).fields["title"] and bib.entry(key).fields["year"]


def test_one_bib_file_per_paper_folder_and_no_stray_keys():
    cited = {t.paper.bibkey for t in registry.load_all().values()}
    files = bib.bib_files()
    assert {p.parent.name for p in files} == {p.stem for p in files}  # theorems/<paper>/<paper>.bib
    assert {e.key for p in files for e in bib.load(p)} == cited


def test_bib_entries_carry_paper_refs_bibliographic_facts():
    """paper_refs.md prints a BibTeX entry for each paper: the .bib files hold the same fields."""
    text = (ROOT / "paper_refs.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bibtex\n(.*?)```", text, re.DOTALL)
    printed = {e.key: e for block in blocks for e in bib.parse(block, Path("paper_refs.md"))}
    assert printed
    for key, entry in printed.items():
        ours = bib.entry(key)
        norm = {k: " ".join(v.split()) for k, v in entry.fields.items()}
        assert ours is not None and (ours.type, {k: " ".join(v.split()) for k, v in ours.fields.items()}) == \
            (entry.type, norm), key


def test_a_key_in_two_files_is_bad_input_naming_both(tmp_path, monkeypatch):
    for name in ("a", "b"):
        (tmp_path / f"{name}.bib").write_text("@misc{same, title = {x}}\n", encoding="utf-8")
    monkeypatch.setattr(bib, "bib_files", lambda: sorted(tmp_path.glob("*.bib")))
    with pytest.raises(InputError) as err:
        bib.entry("same")
    assert "a.bib" in str(err.value) and "b.bib" in str(err.value)
    assert bib.entry("other") is None


# ----------------------------------------------------------------------------------------------- cite
def test_cite_prints_the_paper_entry_proofkits_entry_and_the_commit(run):
    code, out, err = run("cite", "AM24.L1", "--no-bundle")
    assert code == 0, err
    assert bib.entry("ahuja2024provable").text in out
    assert "@software{proofkit," in out and f"version = {{{proofkit.__version__}}}" in out
    assert "author  = {{proofkit developers}}" in out and "license = {MIT}" in out
    commit = env.git()["commit"]
    assert commit in out and "not computed (--no-bundle)" in out


def test_cite_json_hash_is_the_bundles(run):
    code, out, err = run("cite", "AM24.L1", "--json")
    assert code == 0, err
    c = json.loads(out)
    assert c["bibkey"] == "ahuja2024provable" and c["paper_bibtex"] == bib.entry("ahuja2024provable").text
    assert c["proofkit"]["version"] == proofkit.__version__
    built = bundle.build(registry.get("AM24.L1"), records_folder=ROOT / "counterexamples")
    assert c["bundle_sha256"] == built["sha256"] == bundle.digest(built)
    assert c["bundle"].startswith("proofkit bundle AM24.L1 --out")


def test_cite_unknown_id_is_one_line_exit_2(run):
    code, out, err = run("cite", "NOPE.T1", "--no-bundle")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "NOPE.T1" in err


def test_installed_package_cites_an_unknown_commit(monkeypatch):
    monkeypatch.setattr(env, "_checkout", lambda: None)
    env.git.cache_clear()
    try:
        assert env.git() == {"commit": env.UNKNOWN_COMMIT, "dirty": None}
        assert f"note    = {{{env.UNKNOWN_COMMIT}}}" in cite.software_bibtex()
    finally:
        env.git.cache_clear()


def test_a_theorem_without_a_bibkey_says_so():
    from dataclasses import replace

    thm = registry.get("AM24.L1")
    c = cite.citation(replace(thm, paper=replace(thm.paper, bibkey="")), None)
    assert c["paper_bibtex"] is None and "names no BibTeX key" in cite.text(c)
    c = cite.citation(replace(thm, paper=replace(thm.paper, bibkey="nosuchkey2099")), None)
    assert "no .bib beside the theorem files has the key nosuchkey2099" in cite.text(c)
