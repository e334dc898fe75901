"""What dropping assumptions searches: every parameter setting of the theorem the remaining assumptions
allow, not one fixed variant.

A theorem's parameters span its true models (instances, singular blocks, activations), its training
supports and its learner families; its assumptions say which settings are instances of the theorem. So
dropping the set S makes every setting that violates some assumption in S and no assumption outside S
(plus those the declared drop itself violates) a legitimate place for a counterexample. The theorem file
says *what* to try first (``Assumption.drop``, the declared variant, and ``Assumption.search``, further
strategies); this module enumerates the rest (*how*: single changes of choice and boolean parameters,
integer parameters one step down and to their minimum, the theorem's dimension groups moved down together)
and orders them simplest first, as Hypothesis orders its examples. Parameters the user set explicitly
are never changed. Floats other than those a strategy sets are left as they are.

Contract for theorem files: a setting that violates none of the assumptions is an instance of the
theorem (``check`` relies on the same), so a counterexample found at an enumerated setting refutes the
theorem without exactly the assumptions that setting violates.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..language.spec import Theorem
from . import MAX_SETTINGS  # settings enumerated at most (each costs a problem build)


@dataclass(frozen=True)
class Setting:
    """One parameter setting to search: resolved params, the changes from the defaults, and where it
    came from (the declared drop, a declared strategy, or enumerated)."""

    params: dict[str, Any]
    changes: dict[str, Any]
    origin: str
    violated: tuple[str, ...]

    def label(self) -> str:
        return _changes(self.changes)


def _changes(changes: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(changes.items())) or "the defaults"


def label(theorem: Theorem, params: Mapping[str, Any]) -> str:
    """A setting as its changes from the theorem's defaults (``k=v, ...``, or "the defaults")."""
    defaults = theorem.params.defaults()
    return _changes({k: v for k, v in params.items() if defaults.get(k) != v})


@dataclass(frozen=True)
class Space:
    """The settings a drop searches, and how many candidates were considered and set aside (they
    violate an assumption that is not dropped, or are not valid parameter combinations)."""

    settings: list[Setting]
    considered: int
    excluded: int
    truncated: bool

    def describe(self, searched: int | None = None) -> str:
        """One line naming the space: how many settings, which (the first few), what was left out."""
        n = len(self.settings) if searched is None else searched
        shown = "; ".join(s.label() for s in self.settings[:n][:6])
        more = f"; and {n - 6} more" if n > 6 else ""
        out = (f"{n} parameter setting(s) the remaining assumptions allow ({shown}{more}); "
               f"{self.considered} candidates considered, {self.excluded} set aside (they violate an "
               "assumption that is not dropped, or are not valid)")
        return out + (f"; enumeration capped at {MAX_SETTINGS}" if self.truncated else "")


def _neighbours(theorem: Theorem, base: Mapping[str, Any], fixed: set[str]) -> list[dict[str, Any]]:
    """Single changes of ``base``: another choice or boolean value, an integer at its minimum or one step
    down, each dimension group at its smallest or one step down (together); then every single change
    with all dimension groups at their smallest. The single changes are interleaved across parameters
    (the first alternative of every parameter, then the second, ...), so the first few settings vary the
    true model, the support, the learner and the readout rather than one parameter's every value."""
    per_param: list[list[dict[str, Any]]] = []
    for p in theorem.params.params:
        if p.name in fixed or p.follows is not None:
            continue
        if p.choices is not None:
            per_param.append([{p.name: c} for c in p.choices if c != base[p.name]])
        elif p.type is bool:
            per_param.append([{p.name: not base[p.name]}])
        elif p.type is int and p.min is not None:  # the minimum (simplest first), then one step down
            per_param.append([{p.name: v} for v in sorted({int(base[p.name]) - 1, int(p.min)})
                              if int(p.min) <= v < int(base[p.name])])
    groups = [g for g in theorem.dims if not set(g) & fixed]
    smallest: dict[str, Any] = {}
    for g in groups:
        lowest = min(int(base[d]) - int(theorem.params.get(d).min or 1) for d in g)
        per_param.append([{d: int(base[d]) - delta for d in g} for delta in sorted({1, lowest}, reverse=True)
                          if delta <= lowest])
        smallest.update({d: int(base[d]) - lowest for d in g})
    singles = [ch for rank in itertools.zip_longest(*per_param) for ch in rank if ch is not None]
    out = [dict(smallest)] if smallest else []
    out += singles
    out += [dict(ch, **{k: v for k, v in smallest.items() if k not in ch}) for ch in singles if smallest]
    return out


def space(theorem: Theorem, drops: Sequence[str], explicit: Mapping[str, Any],
          valid: Callable[[dict[str, Any]], bool] | None = None) -> Space:
    """The settings dropping ``drops`` searches, declared ones first, then enumerated ones simplest first
    (fewest changes from the declared setting, smallest dimensions). ``valid``: a further filter (the
    setting builds a problem), counted with the set-aside candidates."""
    defaults = theorem.params.defaults()
    declared: dict[str, Any] = {}
    alternatives: list[tuple[str, dict[str, Any]]] = []
    for aid in drops:
        a = theorem.assumption(aid)
        declared.update(a.drop)
        alternatives += [(f"strategy {k + 1} of {aid}", dict(s)) for k, s in enumerate(a.search)]
    bases = [("declared drop" if declared else "the defaults", dict(declared))] + alternatives
    target = set(drops)
    try:
        target |= set(theorem.violated(theorem.params.resolve({**declared, **explicit})))
    except InputError:
        pass
    fixed = set(explicit)
    seen: set[tuple] = set()
    settings: list[Setting] = []
    considered = excluded = 0
    candidates: list[tuple[int, str, dict[str, Any]]] = []
    for rank, (origin, change) in enumerate(bases):
        candidates.append((rank, origin, {**change, **explicit}))
    for origin, change in bases:
        try:
            base = theorem.params.resolve({**change, **explicit})
        except InputError:
            continue
        for extra in _neighbours(theorem, base, fixed):
            candidates.append((len(bases) + len(extra), f"enumerated from the {origin}",
                               {**change, **extra, **explicit}))
    candidates.sort(key=lambda c: c[0])  # stable: declared first, then by number of changes
    truncated = False
    for _, origin, change in candidates:
        try:
            params = theorem.params.resolve(change)
        except InputError:
            considered, excluded = considered + 1, excluded + 1
            continue
        key = tuple(sorted((k, repr(v)) for k, v in params.items()))
        if key in seen:  # the same setting reached twice counts once
            continue
        seen.add(key)
        considered += 1
        if valid is not None and not valid(params):
            excluded += 1
            continue
        violated = set(theorem.violated(params))
        if not violated & set(drops) or not violated <= target:
            excluded += 1
            continue
        if len(settings) >= MAX_SETTINGS:
            truncated = True
            break
        changes = {k: v for k, v in params.items() if v != defaults[k]}
        settings.append(Setting(params, changes, origin, tuple(sorted(violated))))
    return Space(settings, considered, excluded, truncated)
