"""``--proofkit-update``: the surgical rewrite of a theorem file's ``expect={...}``
(proofkit.interface.expect_update) and the plugin's workflow on a user theorem folder: the diff first and
nothing written (``diff``, the bare option), then written (``write``) with comments and layout kept, and
a rerun passes; under xdist the controller writes once."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from proofkit.interface import expect_update, testing
from proofkit.interface.expect_update import Unsafe, Wanted, rewrite
from proofkit.language import registry
from proofkit.language.verdict import Verdict

pytest_plugins = ["pytester"]

C, R, U = Verdict.CERTIFIED, Verdict.REFUTED, Verdict.INCONCLUSIVE

MULTI = '''from proofkit import Verdict  # the enum

X = 1  # untouched


T = Theorem(
    id="X.T1",  # the id
    expect={
        # leading comment
        "a": Verdict.CERTIFIED,  # keep me
        "b":   Verdict.REFUTED,
        "gone": Verdict.CERTIFIED,  # a claim no longer there
        "c": (Verdict.CERTIFIED)
    },
)
'''


def test_only_changed_values_change_and_comments_survive():
    out = rewrite(MULTI, Wanted("X.T1", {"a": R, "b": R, "c": U, "new": C}, ["a", "b", "c", "new"]))
    assert out == MULTI.replace('"a": Verdict.CERTIFIED', '"a": Verdict.REFUTED').replace(
        '        "gone": Verdict.CERTIFIED,  # a claim no longer there\n', "").replace(
        '"c": (Verdict.CERTIFIED)\n', '"c": (Verdict.INCONCLUSIVE),\n        "new": Verdict.CERTIFIED,\n')


def test_an_inline_expect_that_would_grow_too_long_takes_a_line_per_new_entry():
    """A one-line expect keeps short additions on its line; past INLINE_WIDTH each added entry gets a
    line of its own under the first (a 240-character line before)."""
    one = 'from proofkit import Verdict\nT = Theorem(id="X.T2", expect={"a": Verdict.CERTIFIED})\n'
    short = rewrite(one, Wanted("X.T2", {"a": C, "b": R}, ["a", "b"]))
    assert short.splitlines()[1].endswith('{"a": Verdict.CERTIFIED, "b": Verdict.REFUTED})')
    names = [f"claim number {i} of a long theorem" for i in range(5)]
    long = rewrite(one, Wanted("X.T2", {"a": C, **dict.fromkeys(names, R)}, ["a", *names]))
    assert max(len(line) for line in long.splitlines()) <= expect_update.INLINE_WIDTH
    call = ast.parse(long).body[1].value  # T = Theorem(...): the expect dict as written
    d = next(k.value for k in call.keywords if k.arg == "expect")
    assert {k.value: v.attr for k, v in zip(d.keys, d.values)} == {"a": "CERTIFIED",
                                                                   **dict.fromkeys(names, "REFUTED")}


def test_nothing_to_change_is_the_same_text():
    same = Wanted("X.T1", {"a": C, "b": R, "c": C}, ["a", "b", "c", "gone"])
    assert rewrite(MULTI, same) == MULTI


def test_errored_claims_are_never_written():
    """An errored claim has no verdict: it is left out of ``verdicts``, so its entry stays as it is and
    is not added; it is still a claim, so its entry is no stale one."""
    out = rewrite(MULTI, Wanted("X.T1", {"a": C, "b": R}, ["a", "b", "c", "gone", "err"]))
    assert out == MULTI


@pytest.mark.parametrize("src, wanted, expected", [
    ("T = Theorem('X.T2', expect={'a': V.CERTIFIED, 'gone': V.REFUTED})\n",
     {"a": R, "d": C}, "T = Theorem('X.T2', expect={'a': V.REFUTED, 'd': V.CERTIFIED})\n"),
    ("T = Theorem(id='X.T2', expect={'gone': V.REFUTED,})\n", {}, "T = Theorem(id='X.T2', expect={})\n"),
    ("from proofkit import Verdict as V\nT = Theorem(id='X.T2', expect={})\n", {"a": R, "é": C},
     'from proofkit import Verdict as V\nT = Theorem(id=\'X.T2\', expect={\n    "a": V.REFUTED,\n'
     '    "é": V.CERTIFIED,\n})\n'),
    ("T = proofkit.Theorem(\n    id='X.T2', expect={'b': V.REFUTED, 'a': V.CERTIFIED,},\n)\n",
     {"a": R, "b": R},
     "T = proofkit.Theorem(\n    id='X.T2', expect={'b': V.REFUTED, 'a': V.REFUTED,},\n)\n"),
], ids=["inline", "last-entry-removed", "empty-dict", "dotted-call"])
def test_layouts(src, wanted, expected):
    assert rewrite(src, Wanted("X.T2", wanted, list(wanted))) == expected


@pytest.mark.parametrize("src, reason", [
    ("T = Theorem(id='X.T3', expect=EXPECT)\n", "built by code (Name)"),
    ("T = Theorem(id='X.T3', expect={'a': pick()})\n", "is code (pick())"),
    ("T = Theorem(id=ID, expect={})\n", "no Theorem(id='X.T3', ...)"),
    ("T = Theorem(id='X.T3', expect={})\nU = Theorem(id='X.T3', expect={})\n", "2 Theorem(id='X.T3'"),
    ("T = Theorem(id='X.T3')\n", "has no expect="),
    ("T = Theorem(id='X.T3', expect={'a': V.REFUTED, 'a': V.REFUTED})\n", "names 'a' twice"),
    ("T = Theorem(id='X.T3', expect={})\n", "imports no Verdict"),
    ("T = Theorem(id='X.T3', expect={\n", "does not parse"),
])
def test_what_cannot_be_rewritten_safely_is_refused(src, reason):
    with pytest.raises(Unsafe) as exc:
        rewrite(src, Wanted("X.T3", {"a": C}, ["a"]))
    assert reason in str(exc.value), str(exc.value)


NAMED = '''from proofkit import Verdict
C, R = Verdict.CERTIFIED, Verdict.REFUTED
MAIN = "main claim"
T = Theorem(id="X.T6", expect={MAIN: C, f"step {1}": R, "plain": C})
'''


def test_keys_and_values_written_as_names_and_f_strings():
    """Keys bound to string constants are read from the text; a key the text cannot say (an f-string)
    is the run's expect key at the same position; values written as aliases keep their style."""
    wanted = Wanted("X.T6", {"main claim": R, "step 1": C, "plain": C, "new": R},
                    ["main claim", "step 1", "plain", "new"], expect_keys=["main claim", "step 1", "plain"])
    assert rewrite(NAMED, wanted) == NAMED.replace(
        'expect={MAIN: C, f"step {1}": R, "plain": C}',
        'expect={MAIN: R, f"step {1}": C, "plain": C, "new": R}')
    hidden = Wanted("X.T6", {"step 1": C}, ["step 1"], current={"step 1": R})  # no run keys: unknown
    with pytest.raises(Unsafe, match="'step 1' .X.T6. is not written with a literal key"):
        rewrite(NAMED, hidden)


def test_entries_unpacked_with_stars_are_left_alone():
    src = "T = Theorem(id='X.T7', expect={**BASE, 'a': V.CERTIFIED})\n"
    out = rewrite(src, Wanted("X.T7", {"a": R, "b": C}, ["a", "b"], current={"a": C, "b": C}))
    assert out == src.replace("'a': V.CERTIFIED", "'a': V.REFUTED")
    with pytest.raises(Unsafe, match="not written with a literal key"):
        rewrite(src, Wanted("X.T7", {"a": C, "b": R}, ["a", "b"], current={"a": C, "b": C}))


def test_an_entry_written_as_code_is_kept_when_it_is_right():
    src = "T = Theorem(id='X.T4', expect={'a': EXPECTED, 'b': V.REFUTED})\n"
    assert rewrite(src, Wanted("X.T4", {"a": C, "b": C}, ["a", "b"], {"a": C, "b": R})) == src.replace(
        "'b': V.REFUTED", "'b': V.CERTIFIED")


def test_installed_files_and_bad_files_are_refused(tmp_path):
    site = tmp_path / "lib" / "site-packages" / "pkg"
    site.mkdir(parents=True)
    (site / "t.py").write_text("T = Theorem(id='X.T5', expect={})\n")
    with pytest.raises(Unsafe, match="installed file"):
        expect_update.plan(site / "t.py", [Wanted("X.T5", {"a": C}, ["a"])])
    (tmp_path / "latin.py").write_bytes(b"# caf\xe9\nT = Theorem(id='X.T5', expect={})\n")
    with pytest.raises(Unsafe, match="not UTF-8"):
        expect_update.plan(tmp_path / "latin.py", [Wanted("X.T5", {"a": C}, ["a"])])


TINY = '''"""A tiny user theorem (the update test's copy)."""

from proofkit import Verdict
from proofkit.language.params import ParamSpace
from proofkit.language.spec import Computed, PaperRef, Theorem

# a comment above the theorem
THEOREM = Theorem(
    id="UPD.T1", title="a tiny theorem", paper=PaperRef("tiny paper", "Lemma 1"), params=ParamSpace(()),
    assumptions=(),
    claims=(Computed("holds", "conclusion", "Lemma 1", text="it holds",
                     run=lambda p: (Verdict.CERTIFIED, "0", "exact: by construction")),
            Computed("fails", "conclusion", "Lemma 1", text="it fails",
                     run=lambda p: (Verdict.REFUTED, "1", "exact: by construction")),
            Computed("raises", "conclusion", "Lemma 1", text="its code raises",
                     run=lambda p: 1 / 0)),
    expect={
        "holds": Verdict.REFUTED,  # wrong on purpose: the update fixes it
        "raises": Verdict.CERTIFIED,  # errored: never rewritten
    },
)
'''


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.delenv(registry.ENV, raising=False)
    monkeypatch.setattr(testing, "_CHECKS", {})
    root = tmp_path / "mine"
    root.mkdir()
    (root / "t1.py").write_text(TINY)
    return root


def _run(pytester, monkeypatch, folder: Path, *args: str):
    monkeypatch.setattr(testing, "_CHECKS", {})  # a new run: no check cached from the last one
    return pytester.runpytest_inprocess("--proofkit-theorems=upd", "--proofkit-folder", str(folder),
                                        "-p", "no:cacheprovider", *args)


def test_update_shows_the_diff_then_writes_and_the_rerun_passes(pytester, monkeypatch, folder):
    path = folder / "t1.py"
    result = _run(pytester, monkeypatch, folder, "--proofkit-update")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert path.read_text() == TINY  # diff only
    assert "proofkit expect update (diff)" in out
    for line in ('-        "holds": Verdict.REFUTED,  # wrong on purpose: the update fixes it',
                 '+        "holds": Verdict.CERTIFIED,  # wrong on purpose: the update fixes it',
                 '+        "fails": Verdict.REFUTED,'):
        assert line in out.splitlines(), line
    assert "UPD.T1: claim 'raises' raised an error; its expectation is left as it is" in out
    assert "nothing written (write it with --proofkit-update=write)" in out
    os.utime(path, ns=(0, 0))  # the rewrite changes the text however fast it comes
    result = _run(pytester, monkeypatch, folder, "--proofkit-update=write")
    out = result.stdout.str()
    assert out.index("+        \"fails\": Verdict.REFUTED,") < out.index(f"wrote {path}")
    assert path.read_text() == TINY.replace(
        '"holds": Verdict.REFUTED,', '"holds": Verdict.CERTIFIED,').replace(
        '        "raises": Verdict.CERTIFIED,  # errored: never rewritten\n',
        '        "raises": Verdict.CERTIFIED,  # errored: never rewritten\n'
        '        "fails": Verdict.REFUTED,\n')
    result = _run(pytester, monkeypatch, folder)
    result.assert_outcomes(failed=1)  # only the claim that raises is left: an error is never expected
    out = result.stdout.str()
    assert "1 of 3 claims not as expected" in out and "'raises' (conclusion): raised" in out
    result = _run(pytester, monkeypatch, folder, "--proofkit-update=write")
    assert "0 file(s) to change, 1 already as computed" in result.stdout.str()


def test_a_file_that_cannot_be_rewritten_is_named_and_left_alone(pytester, monkeypatch, folder):
    path = folder / "t1.py"
    text = TINY.replace("THEOREM = Theorem(", 'EXPECT = {"holds": Verdict.REFUTED}\nTHEOREM = Theorem(')
    text = text.replace(
        '    expect={\n        "holds": Verdict.REFUTED,  # wrong on purpose: the update fixes it\n'
        '        "raises": Verdict.CERTIFIED,  # errored: never rewritten\n    },\n', "    expect=EXPECT,\n")
    path.write_text(text)
    result = _run(pytester, monkeypatch, folder, "--proofkit-update=write")
    out = result.stdout.str()
    assert f"{path} (UPD.T1): not rewritten: the expect of UPD.T1 is built by code (Name)" in out
    assert "1 not rewritten; 0 file(s) written" in out
    assert path.read_text() == text


def test_under_xdist_the_controller_writes_once(pytester, folder):
    path = folder / "t1.py"
    result = pytester.runpytest_subprocess("--proofkit-theorems=UPD.T1", "--proofkit-folder", str(folder),
                                           "-p", "no:cacheprovider", "-p", "xdist", "-n", "2",
                                           "--proofkit-update=write")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert out.count(f"wrote {path}") == 1, out
    assert '"fails": Verdict.REFUTED,' in path.read_text()


def test_update_fills_an_empty_expect(pytester, monkeypatch, folder):
    """A theorem with ``expect={}`` is checked (its test fails only for the claim that raised: an error is
    never skipped); the update writes what the check gave, the errored claim left out."""
    path = folder / "t1.py"
    start = TINY.index("    expect={")
    path.write_text(TINY[:start] + "    expect={},\n)\n")
    result = _run(pytester, monkeypatch, folder, "--proofkit-update=write")
    result.assert_outcomes(failed=1)
    assert "'raises' (conclusion): raised" in result.stdout.str()
    assert path.read_text() == TINY[:start] + (
        '    expect={\n        "holds": Verdict.CERTIFIED,\n        "fails": Verdict.REFUTED,\n    },\n)\n')
