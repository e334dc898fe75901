"""Evidence bundles: one JSON file with everything needed to re-check a theorem's verdict elsewhere.

A bundle holds the theorem's specification (:func:`proofkit.publish.spec_json.theorem_json`), the
paper's BibTeX entry, the check's inputs (overrides, resolved parameters, seed, working precision), the
verdict JSON (``TheoremResult.as_dict()`` without timing fields, which are not reproducible), every stored
counterexample record of the theorem (full JSON), the pins (the theorem file's content hash, the true
model's parameters, proofkit's version: what was checked), the environment (:mod:`proofkit.publish.env`)
and a SHA-256 over its canonical form: sorted keys, no whitespace, UTF-8, the ``sha256`` field left out.

Same inputs, same code and same environment give the same bytes (the file is the canonical data printed
with sorted keys and one-space indentation). Like a record's, the hash detects damage and edits, not
forgery: anyone can recompute it. What a bundle claims is established by ``verify-bundle``
(:mod:`proofkit.publish.verify`), which re-derives every field here and compares. Loading goes through
the bounded JSON loader and validates every field this module reads, then the published schema (the
version is the ``format`` field); nothing in a bundle is evaluated.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__
from ..errors import InputError
from ..language import registry
from ..language.spec import Theorem
from ..language.tolerances import MAX_DPS, MIN_DPS
from ..language.verdict import TheoremResult, Verdict
from ..storage import formats, safejson
from ..storage.safejson import MAX_INT_DIGITS
from . import bib, env, records
from .spec_json import theorem_json

FORMAT = "proofkit-bundle/2"
#: byte cap of a bundle file (a theorem's verdict and records are tens of kB; the largest hundreds)
MAX_BUNDLE_BYTES = 32 << 20
#: keys of timing fields, dropped from the verdict JSON wherever they occur (wall clock is not evidence)
TIMING_KEYS = frozenset({"elapsed_s", "timings_s", "timings", "seconds"})
FIELDS = {"format": str, "sha256": str, "theorem": dict, "citation": dict, "check": dict, "verdict": dict,
          "records": list, "pins": dict, "environment": dict}
_SHA256 = re.compile(r"[0-9a-f]{64}", re.ASCII)
#: a verdict, or "error" where a claim's own code raised (the label check --json prints)
_LABELS = frozenset(str(v) for v in Verdict) | {"error"}


def jsonable(obj: Any, drop: frozenset[str] = frozenset()) -> Any:
    """``obj`` as plain JSON data: mpmath numbers as decimal strings, numpy scalars and arrays as Python
    values and lists, tuples as lists, integers beyond the loaders' digit cap and non-finite floats as
    strings, anything else by ``str``; keys in ``drop`` left out of every mapping."""
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v, drop) for k, v in obj.items() if str(k) not in drop}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v, drop) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist(), drop)
    if isinstance(obj, np.generic):
        return jsonable(obj.item(), drop)
    if obj is None or isinstance(obj, bool):
        return obj
    if isinstance(obj, str):
        return str(obj)
    if isinstance(obj, int):
        return obj if len(str(abs(obj))) <= MAX_INT_DIGITS else str(obj)
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else str(obj)
    return str(obj)  # mpmath numbers (all their digits), sympy expressions, enums


def canonical(obj: Any) -> bytes:
    """The hashed form: sorted keys, no whitespace, UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def digest(bundle: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical form of everything but the ``sha256`` field."""
    return hashlib.sha256(canonical({k: v for k, v in bundle.items() if k != "sha256"})).hexdigest()


def verdict_json(res: TheoremResult) -> dict[str, Any]:
    """The verdict JSON without timing fields."""
    return jsonable(res.as_dict(), TIMING_KEYS)


def citation(thm: Theorem) -> dict[str, Any]:
    """The paper's BibTeX key and entry text (None when no .bib beside the theorem files has it)."""
    entry = bib.entry(thm.paper.bibkey) if thm.paper.bibkey else None
    return {"bibkey": thm.paper.bibkey, "bibtex": None if entry is None else entry.text}


def exact_text(obj: Any) -> Any:
    """A true model's parameters as text, so that no float rounding hides a change: strings kept,
    integers and fractions as exact ``p`` or ``p/q`` (their ``str``), floats as their shortest round-trip
    decimal, mpmath numbers with all their digits; lists, tuples and arrays as lists, mappings as
    mappings."""
    if isinstance(obj, Mapping):
        return {str(k): exact_text(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return exact_text(obj.tolist())
    if isinstance(obj, (list, tuple)):
        return [exact_text(v) for v in obj]
    if isinstance(obj, np.generic):
        return exact_text(obj.item())
    return repr(obj) if isinstance(obj, float) else str(obj)


def pins(thm: Theorem, params: Mapping[str, Any]) -> dict[str, Any]:
    """What was checked, beyond the specification: proofkit's version, the theorem file (its path within
    the folder or package it was registered from, and the SHA-256 of its bytes: an edit anywhere in it,
    the claims' code included, changes it) and the true model's parameters at ``params`` (the resolved
    parameters; None for a theorem without a learning setup)."""
    path, source = registry.where(thm.id)
    true = None if thm.setup is None else exact_text(thm.setup.true_params(params))
    return {"proofkit": __version__,
            "theorem_file": {"path": path.relative_to(source.folder).as_posix(),
                             "sha256": hashlib.sha256(path.read_bytes()).hexdigest()},
            "true_params": true}


def carried(theorem_id: str, records_folder: Path | None) -> list[dict[str, Any]]:
    """The records of ``theorem_id`` in the folder, as a bundle carries them: ``{file, record}`` sorted
    by file name (none without a folder). The record set is complete when it is exactly this list."""
    stored = records.for_theorem(records.load_folder(records_folder), theorem_id)
    return [{"file": s.path.name, "record": jsonable(s.data)} for s in stored]


def build(thm: Theorem, overrides: Mapping[str, Any] | None = None, *, seed: int = 0, dps: int = MIN_DPS,
          records_folder: Path | None = None) -> dict[str, Any]:
    """Check ``thm`` at these inputs and return its bundle, hash included. ``records_folder``: where its
    stored records are (None: none carried)."""
    from ..engine.check import check

    overrides = dict(overrides or {})
    res = check(thm, overrides, dps=dps, seed=seed)
    bundle = {
        "format": FORMAT,
        "theorem": jsonable(theorem_json(thm)),
        "citation": citation(thm),
        "check": jsonable({"overrides": overrides, "params": res.params, "seed": seed, "dps": res.dps}),
        "verdict": verdict_json(res),
        "records": carried(thm.id, records_folder),
        "pins": pins(thm, res.params),
        "environment": dict(env.environment()),
    }
    bundle["sha256"] = digest(bundle)
    return bundle


def dumps(bundle: Mapping[str, Any]) -> str:
    """The file text: sorted keys, one-space indentation, UTF-8, a final newline (byte-stable)."""
    return json.dumps(bundle, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


# ----------------------------------------------------------------------------------------------- loading
def _expect(ok: bool, field: str, expected: str, got: Any = None) -> None:
    if not ok:
        raise InputError(f"bundle {field}", expected, got)


def _label(value: Any) -> bool:
    """A verdict label (a list or object there is not one: never hashed, which would raise)."""
    return isinstance(value, str) and value in _LABELS


def _int_in(value: Any, field: str, lo: int, hi: int) -> None:
    _expect(isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi, field,
            f"an integer in [{lo}, {hi}]", value)


def validate(data: Any) -> dict[str, Any]:
    """``data`` if it is a bundle of this format, every field read by verification of the right kind;
    InputError naming the first field that is not."""
    _expect(isinstance(data, dict), "", "a JSON object", type(data).__name__)
    _expect(set(data) == set(FIELDS), "fields", "exactly " + ", ".join(sorted(FIELDS)), sorted(data))
    for name, kind in FIELDS.items():
        _expect(isinstance(data[name], kind), name, f"a JSON {'object' if kind is dict else kind.__name__}",
                type(data[name]).__name__)
    _expect(data["format"] == FORMAT, "format", FORMAT, data["format"])
    _expect(_SHA256.fullmatch(data["sha256"]) is not None, "sha256", "64 lowercase hex digits",
            data["sha256"])
    tid = data["theorem"].get("id")
    _expect(isinstance(tid, str) and tid != "", "theorem.id", "a theorem id", tid)
    check = data["check"]
    _expect(set(check) == {"overrides", "params", "seed", "dps"}, "check", "overrides, params, seed, dps",
            sorted(check))
    _expect(isinstance(check["overrides"], dict), "check.overrides", "a JSON object")
    _expect(isinstance(check["params"], dict), "check.params", "a JSON object")
    _int_in(check["seed"], "check.seed", 0, 2**32 - 1)
    _int_in(check["dps"], "check.dps", MIN_DPS, MAX_DPS)
    verdict = data["verdict"]
    _expect(verdict.get("id") == tid, "verdict.id", f"the theorem id {tid}", verdict.get("id"))
    _expect(_label(verdict.get("verdict")), "verdict.verdict", "a verdict", verdict.get("verdict"))
    claims = verdict.get("claims")
    _expect(isinstance(claims, list), "verdict.claims", "a list")
    for i, c in enumerate(claims):
        _expect(isinstance(c, dict) and isinstance(c.get("name"), str) and _label(c.get("verdict")),
                f"verdict.claims[{i}]", "an object with a name and a verdict")
        _expect(c.get("certificate") is None or isinstance(c["certificate"], dict),
                f"verdict.claims[{i}].certificate", "an object or null")
    for i, r in enumerate(data["records"]):
        _expect(isinstance(r, dict) and set(r) == {"file", "record"} and isinstance(r["file"], str)
                and isinstance(r["record"], dict), f"records[{i}]", "an object {file, record}")
        _expect(r["record"].get("theorem") == tid, f"records[{i}].record.theorem", tid,
                r["record"].get("theorem"))
    _validate_pins(data["pins"])
    for key, value in data["environment"].items():
        _expect(value is None or isinstance(value, (str, bool)), f"environment.{key}",
                "text, true/false or null", value)
    return data


def _validate_pins(p: dict[str, Any]) -> None:
    _expect(set(p) == {"proofkit", "theorem_file", "true_params"}, "pins",
            "exactly proofkit, theorem_file, true_params", sorted(p))
    _expect(isinstance(p["proofkit"], str), "pins.proofkit", "a version", p["proofkit"])
    tf = p["theorem_file"]
    _expect(isinstance(tf, dict) and set(tf) == {"path", "sha256"} and isinstance(tf["path"], str)
            and isinstance(tf["sha256"], str) and _SHA256.fullmatch(tf["sha256"]) is not None,
            "pins.theorem_file", "an object {path, sha256 (64 lowercase hex digits)}")
    _expect(p["true_params"] is None or isinstance(p["true_params"], (list, dict)), "pins.true_params",
            "a list, an object or null", type(p["true_params"]).__name__)


def load(path: str | Path) -> dict[str, Any]:
    """Read a bundle file with the loader's caps and validate it: the field checks above, then, when its
    content matches its hash, the published schema (proofkit/schemas/bundle.schema.json, docs/formats.md).
    A bundle whose hash does not match is left to verification, which reports it as altered (exit 1)
    rather than as bad input."""
    data = validate(safejson.load(path, "bundle", max_bytes=MAX_BUNDLE_BYTES))
    if digest(data) == data["sha256"]:
        formats.validate("bundle", data, within="bundle")
    return data
