"""pytest plugin (entry point ``proofkit`` of ``pytest11``; ``-p no:proofkit`` turns it off).

- ``--proofkit-theorems[=SEL]``: one regression test per selected registered theorem (the built-in set,
  every installed theorem package, ``$PROOFKIT_THEOREMS`` and ``--proofkit-folder`` folders),
  ``proofkit[ID]``, asserting that its verdicts at the default parameters (dps 60, seed 0) equal the
  theorem's ``expect``, as ``proofkit check --all`` does per theorem. ``SEL``: ``all`` (the bare option),
  ``none``, or comma-separated paper prefixes and theorem ids, case ignored (``toy25,AM24.T4``); an
  unknown one is a usage error with a suggestion. The selection only adds items: the suite's own tests
  are never deselected. Opt-in, so a suite that already tests its theorems (this repository's
  ``pytest theorems/``) runs nothing twice. Each item carries the marker ``proofkit`` and one per paper,
  the id's prefix in lower case (``AM24.T4`` -> ``am24``), registered as the items are made
  (``--strict-markers`` passes): ``-m am24``, ``-k AM24.T4`` select among them as usual.
- ``--proofkit-folder DIR`` (repeatable): theorem folders added for the run, as ``proofkit --theorems``.
- ``--proofkit-update[=diff|write]``: after the run, the unified diff (per file) that brings each
  ``proofkit[ID]`` test's theorem ``expect={...}`` to the verdicts it computed (:mod:`.expect_update`);
  ``diff`` (the bare option) only prints it, ``write`` prints it and then writes the files.
- A failing theorem test shows the claims not as expected and a runnable reproduce line; every failing
  test shows the seed and precision; the run ends with a summary of the verdicts computed (the checks
  and falsifications of every test, carried from xdist workers to the controller on the test reports).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from ..errors import InputError, cap_text, did_you_mean
from ..language import registry
from ..language.evidence import render as render_scope
from ..language.tolerances import MIN_DPS
from ..language.verdict import ClaimResult, TheoremResult
from ..render import reproduce
from . import expect_update, testing

#: the seed of a theorem's regression test (``proofkit check --all``'s default)
SEED = 0
_FOLDERS = pytest.StashKey[ExitStack]()
ALL, NONE = "all", "none"
UPDATE_MODES = ("diff", "write")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("proofkit", "proofkit theorem regression tests")
    group.addoption("--proofkit-theorems", nargs="?", const=ALL, default=None, metavar="SEL",
                    help="add one test per selected registered theorem, proofkit[ID], checking that its "
                         "default verdicts equal its expect (markers: proofkit and the paper, e.g. am24); "
                         "SEL: all (the default), none, or comma-separated papers and theorem ids, e.g. "
                         "--proofkit-theorems=toy25,AM24.T4; the suite's own tests still run")
    group.addoption("--proofkit-update", nargs="?", const="diff", default=None, choices=UPDATE_MODES,
                    help="after the run, show the diff that brings each proofkit[ID] test's expect to the "
                         "verdicts it computed (diff, the default), or show it and write it (write)")
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
    config.pluginmanager.register(_Summary(config), "proofkit-summary")
    spec = config.getoption("proofkit_theorems")
    if spec is not None and _tokens(spec) and not hasattr(config, "workerinput"):
        try:  # a bad selection stops the run before anything runs (under xdist: here, not per worker)
            selected(registry.load_all(), spec)
        except InputError as exc:
            raise pytest.UsageError(f"proofkit: bad input: {exc}") from None


def pytest_unconfigure(config: pytest.Config) -> None:
    if _FOLDERS in config.stash:
        config.stash[_FOLDERS].close()


def paper_marker(theorem_id: str) -> str:
    """The per-paper marker of a theorem: its id up to the first dot, lower case, as an identifier."""
    name = re.sub(r"\W", "_", theorem_id.split(".", 1)[0].lower())
    return name if name.isidentifier() else f"_{name}"


def _tokens(spec: str) -> list[str]:
    """The names of a selection; [] for every theorem."""
    names = [t.strip() for t in spec.split(",") if t.strip()]
    return [] if [n.casefold() for n in names] in ([], [ALL]) else names


def selected(theorems: dict[str, Any], spec: str) -> list[str]:
    """The ids a ``--proofkit-theorems`` selection names, in the registry's order: ``all``, ``none``, or
    paper prefixes (or their markers) and theorem ids, case ignored; an unknown name is bad input naming
    the closest one."""
    names = _tokens(spec)
    if not names:
        return list(theorems)
    if [n.casefold() for n in names] == [NONE]:
        return []
    papers: dict[str, str] = {}
    for tid in theorems:
        prefix = tid.split(".", 1)[0]
        papers.setdefault(prefix.casefold(), prefix.lower())
        papers.setdefault(paper_marker(tid), prefix.lower())
    ids = {tid.casefold(): tid for tid in theorems}
    chosen: set[str] = set()
    for name in names:
        key = name.casefold()
        if key in ids:
            chosen.add(ids[key])
        elif key in papers:
            chosen.update(t for t in theorems if papers.get(t.split(".", 1)[0].casefold()) == papers[key])
        else:
            pathlike = "/" in name or "::" in name or name.endswith(".py") or Path(name).exists()
            hint = (" (it looks like a path: write --proofkit-theorems=SEL, or put the option after the "
                    "paths)") if pathlike else ""
            choices = sorted(set(papers.values())) + list(theorems)
            raise InputError("--proofkit-theorems", "a paper (" + ", ".join(sorted(set(papers.values())))
                             + "), a theorem id, all or none, comma-separated" + did_you_mean(name, choices)
                             + hint, name)
    return [tid for tid in theorems if tid in chosen]


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect, so they select among these items too
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    spec = config.getoption("proofkit_theorems")
    if spec is None:
        return
    try:
        theorems = registry.load_all()
        chosen = selected(theorems, spec)
    except InputError as exc:
        raise pytest.UsageError(f"proofkit: bad input: {exc}") from None
    registered = {line.split(":", 1)[0].strip() for line in config.getini("markers")}
    for thm in (theorems[tid] for tid in chosen):
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
        self.result: TheoremResult | None = None

    def runtest(self) -> None:
        self.result = result = testing.checked(self.theorem_id, dps=MIN_DPS, seed=SEED)
        if result.errors:  # a claim's own code raised: a failure whether or not expect names it
            raise NotAsExpected(result, list(result.errors))
        if not any(c.expected is not None for c in result.claims):
            pytest.skip(f"{self.theorem_id} declares no expected verdicts (its expect is empty): checked "
                        f"({result.verdict}), nothing to compare")
        wrong = [c for c in result.claims if c.expected is not None and c.verdict != c.expected]
        if wrong:
            raise NotAsExpected(result, wrong)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if not isinstance(excinfo.value, NotAsExpected):
            return super().repr_failure(excinfo, style)
        res, wrong = excinfo.value.result, excinfo.value.wrong
        lines = [f"{res.id}: {len(wrong)} of {len(res.claims)} claims not as expected (theorem verdict "
                 f"{res.label}; dps {res.dps}, seed {res.seed}; {self.file}, {self.source.origin})"]
        for c in wrong:
            lines.append(f"  {c.name!r} ({c.role}): raised {c.error} (the claim's own code: no verdict)"
                         if c.error else f"  {c.name!r} ({c.role}): {c.label}, expected {c.expected}")
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
    # the verdict summary and update data travel on the report: xdist carries them to the controller
    fresh = testing.fresh_summary()
    if fresh:
        rep.proofkit_summary = fresh
    if isinstance(item, TheoremItem) and item.result is not None and call.when == "call":
        rep.proofkit_expect = _expect_data(item)
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


def _expect_data(item: TheoremItem) -> dict[str, Any]:
    """What ``--proofkit-update`` needs of one theorem test, as plain data (xdist serializes it)."""
    res = item.result
    assert res is not None
    return {"id": item.theorem_id, "file": str(item.file),
            "expect": [str(k) for k in registry.get(item.theorem_id).expect],
            "claims": [[c.name, c.verdict.name, bool(c.error),
                        None if c.expected is None else c.expected.name] for c in res.claims]}


class _Summary:
    """Per session (registered on each config, so in-process pytester runs keep their own): the summary
    entries and update data that reach this process's reports: a worker's own, or under xdist, the
    controller's from every worker."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.entries: dict[str, str] = {}
        self.updates: dict[str, dict[str, Any]] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, line in getattr(report, "proofkit_summary", None) or ():
            self.entries.setdefault(key, line)
        data = getattr(report, "proofkit_expect", None)
        if data:
            self.updates[data["id"]] = data

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if hasattr(self.config, "workerinput"):
            return
        for key, line in testing.fresh_summary():  # checks made outside every test's phases
            self.entries.setdefault(key, line)
        lines = testing.order(self.entries)
        if lines:
            terminalreporter.section("proofkit verdicts")
            for line in lines:
                terminalreporter.write_line(line)
        mode = self.config.getoption("proofkit_update")
        if mode is not None:
            terminalreporter.section(f"proofkit expect update ({mode})")
            for line in update_report(self.updates, write=mode == "write"):
                terminalreporter.write_line(line)


def update_report(updates: Mapping[str, Mapping[str, object]], *, write: bool) -> Iterator[str]:
    """The report of an update, line by line: first the unified diff of every file to change, then (when
    ``write``) each write, then one line per file that cannot be rewritten and a count. A generator: the
    diff is out before the first write."""
    if not updates:
        yield ("no proofkit[ID] test ran its check: nothing to update (select theorems with "
               "--proofkit-theorems[=SEL])")
        return
    files: dict[Path, list[expect_update.Wanted]] = {}
    notes = []
    for tid in sorted(updates):
        wanted, errored = expect_update.wanted_from(updates[tid])
        files.setdefault(Path(str(updates[tid]["file"])), []).append(wanted)
        for name in errored:
            notes.append(f"{tid}: claim {name!r} raised an error; its expectation is left as it is")
    changes, refused, same = [], [], 0
    for path in sorted(files):
        ids = ", ".join(w.theorem_id for w in files[path])
        try:
            old, new = expect_update.plan(path, files[path])
        except expect_update.Unsafe as exc:
            refused.append(f"{path} ({ids}): not rewritten: {exc}")
            continue
        if old == new:
            same += 1
        else:
            changes.append((path, new))
            yield from expect_update.diff(path, old, new)
    written = 0
    if write:
        for path, new in changes:
            try:
                expect_update.save(path, new)
            except InputError as exc:
                refused.append(f"{path}: not written: {exc}")
                continue
            written += 1
            yield f"wrote {path}"
    yield from notes
    yield from refused
    tail = (f"{written} file(s) written" if write else
            "nothing written (write it with --proofkit-update=write)" if changes else "nothing to write")
    yield (f"proofkit expect update: {len(changes)} file(s) to change, {same} already as computed, "
           f"{len(refused)} not rewritten; {tail}")
