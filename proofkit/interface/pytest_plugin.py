"""pytest plugin (entry point ``proofkit`` of ``pytest11``; ``-p no:proofkit`` turns it off).

- ``--proofkit-theorems``: one regression test per registered theorem (the built-in set, every installed
  theorem package, ``$PROOFKIT_THEOREMS`` and ``--proofkit-folder`` folders), ``proofkit[ID]``, asserting
  that its verdicts at the default parameters (dps 60, seed 0) equal the theorem's ``expect``, as
  ``proofkit check --all`` does per theorem. Opt-in, so a suite that already tests its theorems (this
  repository's ``pytest theorems/``) runs nothing twice. Each item carries the marker ``proofkit`` and
  one per paper, the id's prefix in lower case (``AM24.T4`` -> ``am24``), registered as the items are made
  (``--strict-markers`` passes): ``pytest --proofkit-theorems -m am24``, ``-k AM24.T4``.
- ``--proofkit-folder DIR`` (repeatable): theorem folders added for the run, as ``proofkit --theorems``.
- A failing theorem test shows the claims not as expected and a runnable reproduce line; every failing
  test shows the seed and precision; the run ends with a summary of the verdicts computed.
"""

from __future__ import annotations

import re
import shlex
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from ..errors import InputError, cap_text
from ..language import registry
from ..language.evidence import render as render_scope
from ..language.tolerances import MIN_DPS
from ..language.verdict import ClaimResult, TheoremResult
from ..render import reproduce
from . import testing

#: the seed of a theorem's regression test (``proofkit check --all``'s default)
SEED = 0
_FOLDERS = pytest.StashKey[ExitStack]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("proofkit", "proofkit theorem regression tests")
    group.addoption("--proofkit-theorems", action="store_true", default=False,
                    help="add one test per registered theorem, proofkit[ID], checking that its default "
                         "verdicts equal its expect (markers: proofkit and the paper, e.g. am24)")
    group.addoption("--proofkit-folder", action="append", default=[], metavar="DIR",
                    help="a folder of theorem files added for this run (repeatable), as proofkit --theorems")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: long searches and sweeps (run with -m slow)")
    config.addinivalue_line("markers", "proofkit: a theorem's regression test (--proofkit-theorems)")
    folders = [Path(config.invocation_params.dir, f) for f in config.getoption("proofkit_folder")]
    for folder in folders:
        if not folder.is_dir():
            bad = InputError("--proofkit-folder", "an existing folder with theorem files", str(folder))
            raise pytest.UsageError(f"proofkit: bad input: {bad}")
    if folders:
        stack = ExitStack()
        stack.enter_context(registry.using(folders))
        config.stash[_FOLDERS] = stack


def pytest_unconfigure(config: pytest.Config) -> None:
    if _FOLDERS in config.stash:
        config.stash[_FOLDERS].close()


def paper_marker(theorem_id: str) -> str:
    """The per-paper marker of a theorem: its id up to the first dot, lower case, as an identifier."""
    name = re.sub(r"\W", "_", theorem_id.split(".", 1)[0].lower())
    return name if name.isidentifier() else f"_{name}"


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect, so they select among these items too
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if not config.getoption("proofkit_theorems"):
        return
    try:
        theorems = registry.load_all()
    except InputError as exc:
        raise pytest.UsageError(f"proofkit: bad input: {exc}") from None
    registered = {line.split(":", 1)[0].strip() for line in config.getini("markers")}
    for thm in theorems.values():
        marker = paper_marker(thm.id)
        if marker not in registered:
            config.addinivalue_line("markers", f"{marker}: proofkit theorems of {thm.paper.paper}")
            registered.add(marker)
        item = TheoremItem.from_parent(session, name=f"proofkit[{thm.id}]", nodeid=f"proofkit[{thm.id}]",
                                       theorem_id=thm.id)
        item.add_marker("proofkit")
        item.add_marker(marker)
        items.append(item)


class NotAsExpected(AssertionError):
    """Claims whose verdict at the default parameters is not the one the theorem's ``expect`` gives."""

    def __init__(self, result: TheoremResult, wrong: list[ClaimResult]) -> None:
        super().__init__(f"{result.id}: {len(wrong)} claim(s) not as expected")
        self.result, self.wrong = result, wrong


class TheoremItem(pytest.Item):
    """One theorem's regression test: ``proofkit check ID`` at the defaults must give every claim the
    verdict its ``expect`` names."""

    def __init__(self, *, theorem_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.theorem_id = theorem_id
        self.file, self.source = registry.where(theorem_id)

    def runtest(self) -> None:
        result = testing.checked(self.theorem_id, dps=MIN_DPS, seed=SEED)
        if not any(c.expected is not None for c in result.claims):
            pytest.skip(f"{self.theorem_id} declares no expected verdicts (its expect is empty): checked "
                        f"({result.verdict}), nothing to compare")
        wrong = [c for c in result.claims
                 if c.error or (c.expected is not None and c.verdict != c.expected)]
        if wrong:
            raise NotAsExpected(result, wrong)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if not isinstance(excinfo.value, NotAsExpected):
            return super().repr_failure(excinfo, style)
        res, wrong = excinfo.value.result, excinfo.value.wrong
        lines = [f"{res.id}: {len(wrong)} of {len(res.claims)} claims not as expected (theorem verdict "
                 f"{res.label}; dps {res.dps}, seed {res.seed}; {self.file}, {self.source.origin})"]
        for c in wrong:
            lines.append(f"  {c.name!r} ({c.role}): {c.label}, expected {c.expected}")
            if c.scope is not None:
                lines.append(f"      scope: {render_scope(c.scope)}")
            lines.append(f"      how: {cap_text(c.how, 400)}")
        return "\n".join(lines)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.file, None, self.name

    def reproduce_line(self) -> str:
        return reproduce.line("check", self.theorem_id, seed=SEED, dps=MIN_DPS)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]):
    outcome = yield
    rep = outcome.get_result()
    if not rep.failed or call.when != "call":
        return
    if isinstance(item, TheoremItem):
        rep.sections.append(("proofkit", f"reproduce: {item.reproduce_line()}"))
        return
    spec = getattr(item, "callspec", None)
    params = spec.params if spec is not None else {}
    lines = [f"reproduce: python -m pytest {shlex.quote(item.nodeid)}  (every test is seeded)"]
    ids = _theorem_ids(params)
    if ids:  # a test of a registered theorem: the CLI line that recomputes its check
        lines.append("reproduce the check: " + reproduce.line(
            "check", ids[0], seed=params.get("seed", SEED), dps=params.get("dps", MIN_DPS)))
    rep.sections.append(("proofkit", "\n".join(lines)))


def _theorem_ids(params: dict[str, Any]) -> list[str]:
    """The registered theorem ids among a parametrized test's string parameters."""
    names = [v for v in params.values() if isinstance(v, str)]
    if not names:
        return []
    try:
        known = registry.load_all()
    except Exception:  # a broken theorem set must not hide the test's own failure
        return []
    return [v for v in names if v in known]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = testing.summary_lines()
    if lines:
        terminalreporter.section("proofkit verdicts")
        for line in lines:
            terminalreporter.write_line(line)
