"""Known counterexamples first: before ``falsify`` searches, it replays the stored records that bear on
the theorem and the assumptions dropped (as Hypothesis replays its example database before it generates).

A stored record bears on a request to drop the set S when

* it is a record of this theorem whose own dropped assumptions lie within S, and whose parameters agree
  with every parameter the user set explicitly (a record at other explicit settings answers another
  question); or
* it is a record of a theorem this theorem names in ``Theorem.refuted_by`` (e.g. the ball example's
  records refute Theorem 2 without full pair support), where every assumption the link names lies in S
  and the record drops none of its own theorem's assumptions.

Each candidate is replayed (:func:`proofkit.engine.replay.replay`: every stored field recomputed); the first
that reproduces, certified ones first, is the answer, so ``falsify`` never reports an empty search for a drop
that a stored record refutes. A record that does not reproduce is passed over and named in the effort.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..language.spec import Theorem
from ..storage import record


@dataclass(frozen=True)
class Known:
    """A stored counterexample that reproduces: its file, content, whether certified, and why it bears
    on the request."""

    path: Path
    data: dict[str, Any]
    certified: bool
    how: str
    why: str
    passed_over: tuple[str, ...]


def candidates(theorem: Theorem, dropped: set[str], explicit: Mapping[str, Any],
               folder: Path) -> list[tuple[Path, dict[str, Any], str]]:
    """(path, record, why) of every stored record that bears on dropping ``dropped`` (module docstring),
    certified ones first, then by file name. A record that does not load is bad input naming its file."""
    links = {other: set(needs) for other, needs in theorem.refuted_by}
    out = []
    for path in sorted(folder.glob("*.json")):
        try:
            rec = record.load(path)
        except InputError as exc:
            raise InputError(f"record {path}: {exc.field}", exc.expected, exc.got) from None
        own = set(str(d) for d in rec["dropped"])
        if rec["theorem"] == theorem.id:
            params = rec["params"]
            if own <= dropped and all(params.get(k) == v for k, v in explicit.items()):
                out.append((path, rec, f"a record of {theorem.id} dropping "
                                       f"{', '.join(sorted(own)) or 'nothing'}"))
        elif rec["theorem"] in links and links[rec["theorem"]] <= dropped and not own:
            out.append((path, rec, f"a record of {rec['theorem']}, which {theorem.id} links: its setting "
                                   f"violates {', '.join(sorted(links[rec['theorem']]))} of {theorem.id}"))
    return sorted(out, key=lambda c: (not c[1]["certificate"]["certified"], c[0].name))


def violates(theorem: Theorem, rec: Mapping[str, Any], aid: str) -> bool:
    """Whether a candidate record's setting violates the assumption ``aid``: a record of the theorem that
    drops it, or a linked theorem's record whose link names it."""
    if rec["theorem"] == theorem.id:
        return aid in rec["dropped"]
    return aid in dict(theorem.refuted_by).get(rec["theorem"], ())


def first_reproducing(theorem: Theorem, dropped: set[str], explicit: Mapping[str, Any],
                      folder: Path | None, violating: str | None = None) -> Known | None:
    """The first candidate that reproduces under replay, or None (no folder, no candidate, none
    reproduces); with ``violating``, only candidates whose setting violates that assumption
    (:func:`violates`: the drop table asks for refutations of one assumption)."""
    from .replay import replay

    if folder is None:
        return None
    passed: list[str] = []
    for path, rec, why in candidates(theorem, dropped, explicit, folder):
        if violating is not None and not violates(theorem, rec, violating):
            continue
        try:
            res = replay(path)
        except InputError as exc:
            passed.append(f"{path.name} (does not replay: {exc.field})")
            continue
        if res.reproduces:
            return Known(path, rec, res.certified, res.how, why, tuple(passed))
        passed.append(f"{path.name} (does not reproduce)")
    return None
