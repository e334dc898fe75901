"""Counterexample records: one JSON file each, numbers as decimal strings, SHA-256 over the content.

Same inputs give a byte-identical file (sorted keys, no timestamps). Loading validates every field and
raises InputError naming the field; nothing in a record is ever evaluated or unpickled.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from pathlib import Path
from typing import Any

from . import __version__
from .errors import InputError
from .tolerances import MAX_DPS

FORMAT = "proofkit-counterexample/1"
#: the lowest precision proofkit ever wrote records at. A record's dps is information (how it was
#: written); replay evaluates it at tolerances.effective_dps(dps), never at fewer digits
OLDEST_DPS = 30
_DECIMAL = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
#: an exact rational p/q (learned parameters of an exact zero-risk learner need not be decimals)
_FRACTION = re.compile(r"^[+-]?\d{1,2000}/0*[1-9]\d{0,2000}$")
MODEL_FIELDS = {
    "format": str, "kind": str, "theorem": str, "claim": str, "params": dict, "overrides": dict,
    "dropped": list, "learned_params": list, "true_params": list, "witness": list, "witness_length": int,
    "train_residual": str, "test_discrepancy": str, "dps": int, "seed": int, "search": str,
    "certificate": dict, "proofkit_version": str, "sha256": str,
}
WITNESS_FIELDS = {
    "format": str, "kind": str, "theorem": str, "claim": str, "params": dict, "overrides": dict,
    "dropped": list, "witness": dict, "seed": int, "search": str, "certificate": dict,
    "proofkit_version": str, "sha256": str,
}


def digest(record: dict[str, Any]) -> str:
    """SHA-256 of the canonical serialisation of everything but the hash itself."""
    body = {k: v for k, v in record.items() if k != "sha256"}
    return hashlib.sha256(canonical(body).encode()).hexdigest()


def canonical(obj: Any) -> str:
    """The one serialisation records are written and hashed in (sorted keys), so files are byte-stable."""
    return json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=True) + "\n"


def finalize(record: dict[str, Any]) -> dict[str, Any]:
    """Stamp the format and proofkit version, then the hash over all of it."""
    record = dict(record, format=FORMAT, proofkit_version=__version__)
    record["sha256"] = digest(record)
    return record


def slug(text: str) -> str:
    """A file-name-safe form of text (no separators, spaces or shell metacharacters)."""
    text = text.replace(">=", "ge").replace("<=", "le")
    return re.sub(r"[^A-Za-z0-9.=-]+", "_", text).strip("_")


def filename(record: dict[str, Any]) -> str:
    """Theorem, dropped assumptions, overrides and seed: one file per variant and seed."""
    variant = "+".join(record["dropped"]) or "none"
    sets = ",".join(f"{k}={v}" for k, v in sorted(record["overrides"].items()))
    parts = [record["theorem"], "drop-" + variant] + ([sets] if sets else []) + [f"seed{record['seed']}"]
    return slug("__".join(parts)) + ".json"


def write(record: dict[str, Any], directory: Path) -> Path:
    """Write the record canonically under directory; returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / filename(record)
    path.write_text(canonical(record))
    return path


def check_decimal(value: Any, field: str) -> str:
    """value is a finite decimal number written as a string (never evaluated); InputError names field."""
    if not isinstance(value, str) or not _DECIMAL.match(value.strip()):
        raise InputError(field, "a decimal number written as a string", value)
    if not math.isfinite(float(value)):
        raise InputError(field, "a decimal number of float range", value)
    return value


def check_number(value: Any, field: str) -> str:
    """A decimal string as :func:`check_decimal`, or an exact fraction "p/q" of ASCII integers."""
    if isinstance(value, str) and value.isascii() and _FRACTION.match(value):
        return value
    if isinstance(value, str) and "/" in value:
        raise InputError(field, "a fraction p/q of decimal integers (q > 0, at most 2000 digits each)", value)
    return check_decimal(value, field)


def load(path: str | Path) -> dict[str, Any]:
    """Read and validate a record; every problem is reported with the field it concerns."""
    p = Path(path)
    if not p.is_file():
        raise InputError("record", "an existing JSON file", str(path))
    try:
        data = json.loads(p.read_text(), parse_constant=_reject_constant)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError("record", f"valid JSON ({exc.__class__.__name__} at {getattr(exc, 'pos', '?')})",
                         p.name) from None
    if not isinstance(data, dict):
        raise InputError("record", "a JSON object", type(data).__name__)
    if data.get("format") != FORMAT:
        raise InputError("format", repr(FORMAT), data.get("format"))
    fields = MODEL_FIELDS if data.get("kind") == "model" else WITNESS_FIELDS
    if data.get("kind") not in ("model", "witness"):
        raise InputError("kind", "'model' or 'witness'", data.get("kind"))
    for name, typ in fields.items():
        if name not in data:
            raise InputError(name, f"a field of type {typ.__name__} (missing)")
        if not isinstance(data[name], typ) or (typ is int and isinstance(data[name], bool)):
            raise InputError(name, f"type {typ.__name__}", type(data[name]).__name__)
    if data["kind"] == "model":
        if not OLDEST_DPS <= data["dps"] <= MAX_DPS:
            raise InputError("dps", f"an integer in [{OLDEST_DPS}, {MAX_DPS}]", data["dps"])
        for i, v in enumerate(data["learned_params"]):
            check_number(v, f"learned_params[{i}]")
        for i, v in enumerate(data["true_params"]):
            check_decimal(v, f"true_params[{i}]")
        for i, row in enumerate(data["witness"]):
            if not isinstance(row, list) or len(row) != len(data["witness"][0]):
                raise InputError(f"witness[{i}]", "a list of decimal strings, as long as witness[0]",
                                 row)
            for j, v in enumerate(row):
                check_decimal(v, f"witness[{i}][{j}]")
        check_decimal(data["train_residual"], "train_residual")
        check_decimal(data["test_discrepancy"], "test_discrepancy")
    if not 0 <= data["seed"] < 2**32:
        raise InputError("seed", "an integer in [0, 2^32)", data["seed"])
    if digest(data) != data["sha256"]:
        raise InputError("sha256", "the SHA-256 of the record's content (file was modified)",
                         data["sha256"][:16] + "...")
    return data


def _reject_constant(name: str) -> None:
    raise InputError("record", "finite numbers only (no NaN or Infinity)", name)
