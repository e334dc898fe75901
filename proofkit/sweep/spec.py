"""A sweep spec: which theorem, which parameter grid (the cartesian product of per-parameter value lists),
which fixed parameters, precision, seeds and whether to search for counterexamples at each point.

The spec is data: a JSON file read by the bounded loader (:mod:`proofkit.storage.safejson`), or TOML (Python
3.11+, ``tomllib``) when the file name ends in ``.toml``. Every field is validated before anything runs:
an unknown field, a wrong type, a parameter the theorem does not have, a value outside its range (each
value is typed and checked as ``--set`` would), a parameter both swept and fixed, a repeated value or
too many points is an :class:`InputError` naming the field (one line, exit 2); a spec that passes these
checks is then validated against its published schema (``proofkit/schemas/sweep-spec.schema.json``).

The canonical form (:meth:`SweepSpec.canonical`) holds what decides the points' results: theorem, grid
(numeric values ascending, as ``scan`` orders them), fixed parameters, dps, seeds, search. Its SHA-256
identifies the sweep (``out`` and ``description`` say where and why, not what, and are left out).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..language import registry
from ..language.params import Param
from ..language.spec import Theorem
from ..language.tolerances import MAX_DPS, MIN_DPS
from ..storage import formats, safejson

#: the fields a spec may have
FIELDS = ("theorem", "grid", "fixed", "dps", "seed", "seeds", "search", "out", "description")
#: a spec file is a few hundred bytes; this cap leaves room for long value lists
MAX_SPEC_BYTES = 256 * 1024
#: points of one sweep at most (grid product x seeds), checked before any point is enumerated
MAX_POINTS = 10_000
#: characters of ``description`` and of ``out`` at most
MAX_TEXT = 4096
#: the prefix of every field name in an error, so the message says it is the spec that is wrong
WHERE = "sweep spec"
SEED_LIMIT = 2**32


@dataclass(frozen=True)
class Point:
    """One point: the swept values (in the theorem's parameter order), the seed, and the overrides the
    check runs with (fixed and swept values together)."""

    grid: Mapping[str, Any]
    seed: int
    overrides: Mapping[str, Any]


@dataclass(frozen=True)
class SweepSpec:
    theorem: str
    grid: Mapping[str, list[Any]]
    fixed: Mapping[str, Any]
    dps: int
    seeds: tuple[int, ...]
    search: bool
    out: str | None = None
    description: str = ""

    def canonical(self) -> dict[str, Any]:
        """What decides the results, as plain JSON data (the manifest stores it)."""
        return {"theorem": self.theorem, "grid": {k: list(v) for k, v in self.grid.items()},
                "fixed": dict(self.fixed), "dps": self.dps, "seeds": list(self.seeds), "search": self.search}

    def sha256(self) -> str:
        return hashlib.sha256(canonical_json(self.canonical()).encode()).hexdigest()

    def size(self) -> int:
        return math.prod(len(v) for v in self.grid.values()) * len(self.seeds)

    def points(self) -> list[Point]:
        """Every point: the grid's cartesian product (first parameter outermost), seeds innermost."""
        names = list(self.grid)
        return [Point(dict(zip(names, combo)), seed, {**self.fixed, **dict(zip(names, combo))})
                for combo in itertools.product(*self.grid.values()) for seed in self.seeds]


def canonical_json(obj: Any) -> str:
    """One text per value: sorted keys, no spaces, ASCII (floats as Python's shortest repr)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def load(path: str | Path) -> tuple[SweepSpec, Theorem]:
    """Read, parse and validate a spec file; the spec and its theorem."""
    if str(path).endswith(".toml"):
        data = _toml(path)
    else:
        data = safejson.load(path, "SPEC", max_bytes=MAX_SPEC_BYTES)
    return parse(data)


def _toml(path: str | Path) -> Any:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        raise InputError("SPEC", "a JSON spec (TOML specs need Python 3.11 or later)", str(path)) from None
    text = safejson.read_text(path, "SPEC", MAX_SPEC_BYTES)
    if safejson.nesting_depth(text) > safejson.MAX_DEPTH:  # tomllib recurses on nested arrays
        raise InputError("SPEC", f"TOML nested at most {safejson.MAX_DEPTH} levels", str(path))
    try:
        return tomllib.loads(text)
    except (ValueError, RecursionError) as exc:  # TOMLDecodeError is a ValueError
        raise InputError("SPEC", f"valid TOML ({str(exc)[:200]})", str(path)) from None


def parse(data: Any) -> tuple[SweepSpec, Theorem]:
    """Validate a spec given as parsed data; the spec and its theorem."""
    if not isinstance(data, dict):
        raise InputError(WHERE, "a JSON object of fields: " + ", ".join(FIELDS), type(data).__name__)
    for key in data:
        if key not in FIELDS:
            raise InputError(f"{WHERE} {safejson.key_name(key)}", "a spec field: " + ", ".join(FIELDS))
    if "theorem" not in data or "grid" not in data:
        missing = "theorem" if "theorem" not in data else "grid"
        raise InputError(f"{WHERE} {missing}", "a required field (theorem and grid are)")
    theorem = _theorem(data["theorem"])
    grid = _grid(theorem, data["grid"])
    fixed = _fixed(theorem, data.get("fixed", {}), grid)
    if "seed" in data and "seeds" in data:
        raise InputError(f"{WHERE} seeds", "either seed or seeds, not both")
    if "seeds" in data:
        seeds = _seeds(data["seeds"])
    else:
        seeds = (_integer(data.get("seed", 0), "seed", 0, SEED_LIMIT - 1),)
    spec = SweepSpec(theorem.id, grid, fixed, _integer(data.get("dps", MIN_DPS), "dps", MIN_DPS, MAX_DPS),
                     seeds, _boolean(data.get("search", True), "search"),
                     _relative(data["out"]) if "out" in data else None,
                     _text(data.get("description", ""), "description", empty=True))
    if spec.size() > MAX_POINTS:
        raise InputError(f"{WHERE} grid", f"at most {MAX_POINTS} points (grid values x seeds)",
                         f"{spec.size()} points")
    formats.validate("sweep-spec", data, within=WHERE)  # the published contract (docs/formats.md)
    return spec, theorem


def _theorem(value: Any) -> Theorem:
    if not isinstance(value, str):
        raise InputError(f"{WHERE} theorem", "a theorem id (a string)", value)
    try:
        return registry.get(value)
    except InputError as exc:
        if exc.field != "theorem id":  # a theorem folder that cannot be loaded: its own error
            raise
        raise InputError(f"{WHERE} theorem", exc.expected, value) from None


def _param(theorem: Theorem, name: str, where: str) -> Param:
    try:
        return theorem.params.get(name)
    except InputError:
        raise InputError(f"{WHERE} {where}.{safejson.key_name(name)}",
                         f"a parameter of {theorem.id}: " + ", ".join(theorem.params.names())) from None


def _value(param: Param, value: Any, field: str) -> Any:
    """A value typed and checked as ``--set`` would: a string is parsed as on the command line, a JSON
    number or boolean is validated as it is."""
    try:
        return param.parse(value) if isinstance(value, str) else param.validate(value)
    except InputError as exc:
        raise InputError(f"{WHERE} {field}", exc.expected, exc.got) from None


def _numeric(param: Param) -> bool:
    return param.type in (int, float)


def _grid(theorem: Theorem, value: Any) -> dict[str, list[Any]]:
    if not isinstance(value, dict) or not value:
        raise InputError(f"{WHERE} grid", "an object of parameter -> list of values, at least one parameter",
                         value if not isinstance(value, dict) else "{}")
    parsed: dict[str, list[Any]] = {}
    for name, values in value.items():
        param = _param(theorem, name, "grid")
        field = f"grid.{name}"
        if not isinstance(values, list) or not values or len(values) > MAX_POINTS:
            raise InputError(f"{WHERE} {field}", f"a non-empty list of at most {MAX_POINTS} values "
                             f"({param.allowed()})", values)
        typed = [_value(param, v, f"{field}[{i}]") for i, v in enumerate(values)]
        if (i := _first_repeat(typed)) is not None:
            raise InputError(f"{WHERE} {field}[{i}]", "each value once", values[i])
        parsed[name] = sorted(typed) if _numeric(param) else typed
    return {name: parsed[name] for name in theorem.params.names() if name in parsed}


def _fixed(theorem: Theorem, value: Any, grid: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{WHERE} fixed", "an object of parameter -> value", value)
    fixed = {}
    for name, v in value.items():
        param = _param(theorem, name, "fixed")
        if name in grid:
            raise InputError(f"{WHERE} fixed.{name}", "a parameter that is not also in grid", name)
        fixed[name] = _value(param, v, f"fixed.{name}")
    return {name: fixed[name] for name in theorem.params.names() if name in fixed}


def _integer(value: Any, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InputError(f"{WHERE} {field}", f"an integer in [{lo}, {hi}]", value)
    return value


def _seeds(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not value or len(value) > MAX_POINTS:
        raise InputError(f"{WHERE} seeds", f"a non-empty list of at most {MAX_POINTS} integer seeds", value)
    seeds = [_integer(v, f"seeds[{i}]", 0, SEED_LIMIT - 1) for i, v in enumerate(value)]
    if (i := _first_repeat(seeds)) is not None:
        raise InputError(f"{WHERE} seeds[{i}]", "each seed once", seeds[i])
    return tuple(sorted(seeds))


def _first_repeat(values: list[Any]) -> int | None:
    """The index of the first value equal to an earlier one, or None (values are hashable scalars)."""
    seen: set[Any] = set()
    for i, v in enumerate(values):
        if v in seen:
            return i
        seen.add(v)
    return None


def _relative(value: Any) -> str:
    """The spec's ``out``: a folder relative to the working directory that stays below it (no absolute
    path, no ``..``), so a spec someone else wrote cannot send a sweep's writes elsewhere; ``--out DIR``
    on the command line may name any folder."""
    text = _text(value, "out")
    parts = text.replace("\\", "/").split("/")
    if text.startswith(("/", "~")) or Path(text).is_absolute() or ".." in parts or ":" in parts[0]:
        raise InputError(f"{WHERE} out", "a folder relative to the working directory, without '..' (--out "
                         "DIR names any folder)", value)
    return text


def _boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{WHERE} {field}", "true or false", value)
    return value


def _text(value: Any, field: str, empty: bool = False) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT or "\0" in value or not (empty or value.strip()):
        raise InputError(f"{WHERE} {field}", f"a{'' if empty else ' non-empty'} string of at most {MAX_TEXT} "
                         "characters", value)
    return value
