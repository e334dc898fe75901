"""Theorem packages (docs/theorem_packages.md): discovery through the ``proofkit.theorems`` entry-point
group (faked here by replacing the registry's ``entry_points``), the errors of a broken package (one
line, exit 2, naming the entry point), duplicate ids across sources, and the pytest plugin's one
regression test per theorem (run with pytester on a tiny theorem folder)."""

from __future__ import annotations

import itertools
import json
import re
import shlex
import sys
import types
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from proofkit.interface import testing
from proofkit.interface.testing import run_cli as run
from proofkit.language import registry

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
_NAMES = itertools.count()

THEOREM = """
from proofkit.language.params import ParamSpace
from proofkit.language.spec import Computed, PaperRef, Theorem
from proofkit.language.verdict import Verdict

THEOREM = Theorem(
    id={tid!r}, title="a tiny theorem", paper=PaperRef("tiny paper", "Lemma 1"), params=ParamSpace(()),
    assumptions=(),
    claims=(Computed("c", "conclusion", "Lemma 1", text="it holds",
                     run=lambda p: (Verdict.{verdict}, "0", "exact: by construction")),),
    expect={expect},
)
"""


def theorem_file(tid: str, verdict: str = "CERTIFIED", expect: str = "CERTIFIED") -> str:
    """A theorem whose one conclusion is decided ``verdict`` and expected ``expect`` ("" for none)."""
    return THEOREM.format(tid=tid, verdict=verdict, expect=f"{{'c': Verdict.{expect}}}" if expect else "{}")


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv(registry.ENV, raising=False)


@pytest.fixture
def site(monkeypatch, tmp_path):
    """A folder on the import path where a test lays out packages (names unique in the process)."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    return folder


def package(site: Path, files: dict[str, str]) -> str:
    """A new package in ``site`` holding ``files`` (relative paths); returns its import name."""
    name = f"theorem_pkg_{next(_NAMES)}"
    write(site / name, {"__init__.py": '"""a theorem package"""\n', **files})
    return name


@pytest.fixture
def plugins(monkeypatch):
    """plugins({name: value}): exactly these entry points in the group, as if installed."""

    def install(eps: dict[str, str]) -> None:
        fake = [EntryPoint(name, value, registry.GROUP) for name, value in eps.items()]
        monkeypatch.setattr(registry, "entry_points", lambda group: [e for e in fake if e.group == group])
        registry._plugins.cache_clear()

    yield install
    registry._plugins.cache_clear()


def one_line(code: int, out: str, err: str, *needles: str) -> str:
    assert code == 2 and out == "" and "Traceback" not in err, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("proofkit: bad input: "), err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def test_an_installed_package_is_discovered_listed_and_checked(capsys, site, plugins):
    name = package(site, {
        "mypaper/t1.py": "from ._shared import VERDICT\n" + theorem_file("PKG.T1").replace(
            "Verdict.CERTIFIED, \"0\"", "VERDICT, \"0\""),
        "mypaper/_shared.py": "from proofkit.language.verdict import Verdict\nVERDICT = Verdict.CERTIFIED\n",
        "mypaper/test_t1.py": "raise SystemExit('a test module is never imported as a theorem')\n",
    })
    plugins({"mine": name})
    code, out, err = run(capsys, "list", "--json")
    assert code == 0 and err == ""
    ids = [t["id"] for t in json.loads(out)]
    assert "PKG.T1" in ids and "AM24.T4" in ids and ids == sorted(ids)
    code, out, err = run(capsys, "check", "PKG.T1")
    assert code == 0 and out.startswith("PKG.T1: certified"), out + err
    path, source = registry.where("PKG.T1")
    assert path == (site / name / "mypaper" / "t1.py").resolve()
    assert source.kind == "package" and "entry point mine" in source.origin and source.package == name
    assert f"{name}.mypaper.t1" in sys.modules  # its own dotted name: the relative import above worked
    assert [s.kind for s in registry.sources()] == ["builtin", "package"]


def test_an_entry_point_may_name_a_folder_path(capsys, site, plugins, tmp_path):
    folder = write(tmp_path / "elsewhere", {"t2.py": theorem_file("PKG.T2")})
    name = package(site, {"paths.py": f"FOLDER = {str(folder)!r}\n"})
    plugins({"paths": f"{name}.paths:FOLDER"})
    code, out, _ = run(capsys, "check", "PKG.T2", "--json")
    assert code == 0 and json.loads(out)["as_expected"] is True
    assert registry.where("PKG.T2")[1].package is None  # a private module name, as for --theorems


def test_duplicate_ids_name_both_files_and_both_sources(capsys, site, plugins, tmp_path):
    first = package(site, {"p/a.py": theorem_file("PKG.DUP")})
    second = package(site, {"p/b.py": theorem_file("PKG.DUP")})
    plugins({"one": first, "two": second})
    line = one_line(*run(capsys, "list"), "theorem id PKG.DUP", "entry point one", "entry point two",
                    f"{first}/p/a.py and {second}/p/b.py")
    assert "found in entry point one" in line
    plugins({"one": first})
    mine = write(tmp_path / "mine", {"c.py": theorem_file("PKG.DUP")})
    one_line(*run(capsys, "--theorems", str(mine), "list"), "entry point one", "and in --theorems",
             str(mine / "c.py"))


def _missing_module(site: Path) -> str:
    return "no_such_theorem_package_xyz"


def _raising_package(site: Path) -> str:
    name = package(site, {})
    (site / name / "__init__.py").write_text("raise RuntimeError('boom at import')\n")
    return name


def _missing_folder(site: Path) -> str:
    return package(site, {"where.py": f"FOLDER = {str(site / 'gone')!r}\n"}) + ".where:FOLDER"


def _plain_module(site: Path) -> str:
    name = f"theorem_mod_{next(_NAMES)}"
    (site / f"{name}.py").write_text("X = 1\n")
    return name


def _wrong_object(site: Path) -> str:
    return package(site, {"what.py": "FOLDER = 42\n"}) + ".what:FOLDER"


def _no_theorems(site: Path) -> str:
    return package(site, {"p/helper.py": "X = 1\n"})


def _broken_theorem_file(site: Path) -> str:
    return package(site, {"p/t.py": "import sympy\n\nTHEOREM = undefined_name\n"})


BROKEN = [
    (_missing_module, ["theorem package bad", "ModuleNotFoundError", "no_such_theorem_package_xyz"]),
    (_raising_package, ["theorem package bad", "RuntimeError: boom at import"]),
    (_missing_folder, ["theorem package bad", "an existing folder", "gone"]),
    (_plain_module, ["theorem package bad", "a module that is no package"]),
    (_wrong_object, ["theorem package bad", "a package or a folder path", "a int"]),
    (_no_theorems, ["theorem package bad", "at least one theorem file defining THEOREM"]),
    (_broken_theorem_file, ["t.py:3", "NameError", "entry point bad"]),
]


@pytest.mark.parametrize("make, needles", BROKEN, ids=[make.__name__.strip("_") for make, _ in BROKEN])
def test_a_broken_package_is_one_line_naming_its_entry_point(capsys, site, plugins, make, needles):
    value = make(site)
    plugins({"bad": value})
    one_line(*run(capsys, "list"), *needles, value.split(":")[0])
    one_line(*run(capsys, "check", "AM24.T4"), "bad")  # every command: the set is broken


def test_the_builtin_entry_point_is_the_installed_builtin_set(monkeypatch, plugins):
    """proofkit registers its own theorems as ``builtin = proofkit_theorems``. From the source tree that
    entry point is not loaded (theorems/ is the same set); installed, it is the built-in set."""
    plugins({"builtin": registry.BUILTIN_PACKAGE})
    monkeypatch.setitem(sys.modules, registry.BUILTIN_PACKAGE, None)  # importing it would fail
    assert [(s.kind, s.folder) for s in registry.sources()] == [("builtin", ROOT / "theorems")]
    installed = types.ModuleType(registry.BUILTIN_PACKAGE)
    installed.__path__ = [str(ROOT / "theorems")]
    monkeypatch.setitem(sys.modules, registry.BUILTIN_PACKAGE, installed)
    monkeypatch.setattr(registry, "builtin_dir", lambda: None)
    (source,) = registry.sources()
    assert source.kind == "builtin" and source.package == registry.BUILTIN_PACKAGE
    assert source.folder == ROOT / "theorems" and "entry point builtin" in source.origin


# --- the pytest plugin --------------------------------------------------------------------------------

TINY = {"ok.py": theorem_file("TINY.OK"), "bad.py": theorem_file("TINY.BAD", verdict="REFUTED"),
        "none.py": theorem_file("TINY.NONE", expect="")}


@pytest.fixture
def tiny(monkeypatch, tmp_path):
    """The tiny theorem folder; the checks the inner runs compute stay out of this run's summary."""
    monkeypatch.setattr(testing, "_CHECKS", {})
    return write(tmp_path / "tiny", TINY)


def test_pytest_plugin_adds_one_test_per_theorem_with_paper_markers(pytester, tiny):
    builtin = len(registry.load_all())
    result = pytester.runpytest_inprocess("--proofkit-theorems", "--proofkit-folder", str(tiny), "-m", "tiny",
                                          "--strict-markers", "-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(passed=1, failed=1, skipped=1, deselected=builtin)
    out = result.stdout.str()
    assert "proofkit[TINY.BAD]" in out and "1 of 1 claims not as expected" in out
    assert "'c' (conclusion): refuted, expected certified" in out
    reproduce = shlex.join(["proofkit", "--theorems", str(tiny), "check", "TINY.BAD", "--seed", "0",
                            "--dps", "60"])
    assert f"reproduce: {reproduce}" in out
    assert "TINY.NONE declares no expected verdicts" in out


def test_pytest_plugin_ids_are_k_friendly(pytester, tiny):
    result = pytester.runpytest_inprocess("--proofkit-theorems", "--proofkit-folder", str(tiny), "-k",
                                          "TINY.OK", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, deselected=len(registry.load_all()) + 2)


def test_pytest_plugin_is_opt_in(pytester, tiny):
    result = pytester.runpytest_inprocess("--proofkit-folder", str(tiny), "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_pytest_plugin_bad_input_is_a_usage_error(pytester, plugins, tmp_path):
    result = pytester.runpytest_inprocess("--proofkit-folder", str(tmp_path / "gone"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "proofkit: bad input: --proofkit-folder: expected an existing folder" in result.stderr.str()
    plugins({"bad": "no_such_theorem_package_xyz"})
    result = pytester.runpytest_inprocess("--proofkit-theorems")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "proofkit: bad input: theorem package bad" in result.stderr.str()
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_a_failing_test_prints_runnable_reproduce_lines(pytester):
    """Any failing test: the pytest line that reruns it; a test of a registered theorem: also the check."""
    pytester.makepyfile(test_fail="""
        import pytest

        @pytest.mark.parametrize("tid", ["AM24.T4"])
        def test_theorem(tid):
            assert False

        def test_plain():
            assert False
    """)
    result = pytester.runpytest_inprocess("-p", "proofkit")
    result.assert_outcomes(failed=2)
    result.stdout.re_match_lines([re.escape(line) for line in (
        "reproduce: python -m pytest 'test_fail.py::test_theorem[AM24.T4]'",
        "reproduce the check: proofkit check AM24.T4 --seed 0 --dps 60",
        "reproduce: python -m pytest test_fail.py::test_plain",
    )])


def test_the_session_summary_does_not_look_theorems_up_again(monkeypatch):
    """The summary of cached checks is text fixed when each check ran: a registry that breaks later (an
    uninstalled theorem package, a bad --proofkit-folder in the same process) cannot crash the session's
    terminal summary into an internal error."""
    from proofkit.errors import InputError
    from proofkit.interface import testing

    testing.checked("AM24.EX1")

    def broken(*_a, **_k):
        raise InputError("theorem package bad", "an importable package", "gone")

    monkeypatch.setattr(registry, "get", broken)
    monkeypatch.setattr(registry, "load_all", broken)
    lines = testing.summary_lines()
    assert any(line.startswith("check   AM24.EX1") for line in lines), lines


USER_TEST = "def test_mine():\n    assert True\n"


@pytest.mark.parametrize("sel, outcomes", [
    ("tiny", {"passed": 2, "failed": 1, "skipped": 1}),
    ("TINY.OK,tiny.none", {"passed": 2, "skipped": 1}),
    ("Tiny.Ok", {"passed": 2}),
    ("none", {"passed": 1}),
])
def test_the_selection_adds_theorem_tests_and_deselects_nothing(pytester, tiny, sel, outcomes):
    """--proofkit-theorems=SEL adds only the selected theorems' tests; the suite's own test still runs
    (the old advice, ``-m tiny`` in addopts, deselected it)."""
    pytester.makepyfile(test_user=USER_TEST)
    result = pytester.runpytest_inprocess(f"--proofkit-theorems={sel}", "--proofkit-folder", str(tiny),
                                          "-p", "no:cacheprovider", "--strict-markers")
    result.assert_outcomes(**outcomes)
    assert "deselected" not in result.stdout.str()
    assert "test_user.py ." in result.stdout.str()


def test_the_selection_in_addopts_and_the_markers_on_the_command_line(pytester, tiny):
    pytester.makepyprojecttoml(f'[tool.pytest.ini_options]\naddopts = "--proofkit-theorems=tiny '
                               f'--proofkit-folder {tiny}"\n')
    pytester.makepyfile(test_user=USER_TEST)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-m", "proofkit and not tiny")
    result.assert_outcomes(deselected=4)  # the markers still select by hand, among every test
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--proofkit-theorems=TINY.BAD")
    result.assert_outcomes(passed=1, failed=1)  # the command line overrides addopts


@pytest.mark.parametrize("sel, needles", [
    ("tiny,tnyi.ok", ["got 'tnyi.ok'", "(did you mean TINY.OK?)", "a paper (am24"]),
    ("am42", ["(did you mean am24?)"]),
    ("tests/test_x.py", ["it looks like a path", "--proofkit-theorems=SEL"]),
])
def test_an_unknown_selection_is_a_one_line_usage_error(pytester, tiny, sel, needles):
    result = pytester.runpytest_inprocess(f"--proofkit-theorems={sel}", "--proofkit-folder", str(tiny))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = [line for line in result.stderr.str().splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("ERROR: proofkit: bad input: --proofkit-theorems: "), err
    for needle in needles:
        assert needle in err[0], (needle, err[0])


def _verdicts_section(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if "proofkit verdicts" in line)
    section = []
    for line in lines[start + 1:]:
        if line.startswith("====") or line.startswith("FAILED") or line.startswith("SKIPPED"):
            break
        section.append(line)
    return section


def test_the_verdict_summary_is_the_same_under_xdist(pytester, tiny):
    """Workers compute the checks; the summary lines ride on the test reports to the controller. A user
    test that calls testing.checked() counts as a theorem test does."""
    pytester.makepyfile(test_user="""
        from proofkit.interface import testing

        def test_mine():
            assert testing.checked("TINY.OK").id == "TINY.OK"
    """)
    args = ["--proofkit-theorems=tiny", "--proofkit-folder", str(tiny), "-p", "no:cacheprovider"]
    plain = pytester.runpytest_subprocess(*args)
    plain.assert_outcomes(passed=2, failed=1, skipped=1)
    spread = pytester.runpytest_subprocess(*args, "-p", "xdist", "-n", "2")
    spread.assert_outcomes(passed=2, failed=1, skipped=1)
    lines = _verdicts_section(plain.stdout.str())
    assert [line.split()[1] for line in lines] == ["TINY.BAD", "TINY.NONE", "TINY.OK"], lines
    assert _verdicts_section(spread.stdout.str()) == lines


def test_a_claim_that_raised_fails_its_test_even_with_an_empty_expect(pytester, monkeypatch, tmp_path):
    """Skipping it as 'declares no expected verdicts: checked (refuted)' hid an internal error that
    ``proofkit check`` reports with exit 4."""
    monkeypatch.setattr(testing, "_CHECKS", {})
    text = theorem_file("RAISE.T1", expect="").replace('lambda p: (Verdict.CERTIFIED, "0", "exact: by '
                                                       'construction")', "lambda p: 1 / 0")
    folder = write(tmp_path / "raise", {"raise.py": text})
    result = pytester.runpytest_inprocess("--proofkit-theorems=raise", "--proofkit-folder", str(folder),
                                          "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    assert "'c' (conclusion): raised ZeroDivisionError" in result.stdout.str()
