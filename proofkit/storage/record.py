"""Counterexample records: one JSON file each, numbers as decimal strings, SHA-256 over the content.

Same inputs give a byte-identical file (sorted keys, no timestamps), written atomically and never over a
different record (``proofkit.storage.atomic``). Loading goes through the bounded loader
(``proofkit.storage.safejson``:
size, depth, duplicate keys, number caps), checks every field (the types of MODEL_FIELDS and
WITNESS_FIELDS, number strings, ranges, the hash), then validates the record against its published
schema (``proofkit/schemas/record.schema.json``, version 1 = FORMAT; docs/formats.md), raising InputError
naming the field; nothing in a record is ever evaluated or unpickled. A certificate may carry structured
``data`` (an optional field, added within version 1) that the independent kernel re-checks
(:mod:`proofkit.kernel`, docs/trust.md).

The SHA-256 detects accidental damage (a truncated copy, an edited digit), not forgery: anyone can
recompute it. What a record claims is established by replay, which recomputes every field.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import InputError
from ..language.tolerances import MAX_DPS
from . import atomic, formats, safejson

FORMAT = "proofkit-counterexample/1"
#: the lowest precision proofkit ever wrote records at. A record's dps is information (how it was
#: written); replay evaluates it at tolerances.effective_dps(dps), never at fewer digits
OLDEST_DPS = 30
#: byte cap of a record file (stored records are a few kB; a --dps 500 model of a few hundred parameters
#: stays well below)
MAX_RECORD_BYTES = 1 << 20
_SHA256 = re.compile(r"[0-9a-f]{64}", re.ASCII)
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


#: bytes a record's file name may take at most (file systems allow 255; room is left for "_v1000")
MAX_NAME_BYTES = 200
#: bytes of a long name kept before its hashed tail
_KEEP_BYTES = 160


def filename(record: dict[str, Any]) -> str:
    """One file per result: theorem, dropped assumptions, overrides, working precision (model records:
    a 30-digit and a 60-digit search are different results) and seed. A name longer than MAX_NAME_BYTES
    keeps its first _KEEP_BYTES bytes and replaces the rest by a hash of the whole name (still one name
    per result, and under the 255-byte limit of common file systems)."""
    variant = "+".join(record["dropped"]) or "none"
    sets = ",".join(f"{k}={v}" for k, v in sorted(record["overrides"].items()))
    precision = [f"dps{record['dps']}"] if record.get("kind") == "model" else []
    parts = [record["theorem"], "drop-" + variant] + ([sets] if sets else []) + precision + \
        [f"seed{record['seed']}"]
    stem = slug("__".join(parts))
    if len(stem.encode()) + len(".json") > MAX_NAME_BYTES:
        stem = stem.encode()[:_KEEP_BYTES].decode(errors="ignore") + \
            "_h" + hashlib.sha256(stem.encode()).hexdigest()[:16]
    return stem + ".json"


def write(record: dict[str, Any], directory: Path) -> Path:
    """Write the record canonically under ``directory`` (created if missing), atomically, and return the
    path written. An existing file of the same name is never replaced: with the same content it is kept,
    with other content the record goes to NAME_v2.json (then _v3, ...); docs/records.md.

    If the write fails (a file in the way of the folder, no permission, a full device), the finished
    result is not lost silently: the record is saved under the system's temporary folder instead when
    possible, and the RecordWriteError says where it could not be written, why, and where it is."""
    text = canonical(record)
    try:
        return atomic.write_new(Path(directory) / filename(record), text, "--out")
    except atomic.WriteError as exc:
        raise RecordWriteError(exc, text, _rescue(record, text)) from None


class RecordWriteError(atomic.WriteError):
    """A record that could not be written where asked; ``text`` is the record, ``saved`` where it was
    saved instead (None if nowhere)."""

    def __init__(self, failure: atomic.WriteError, text: str, saved: Path | None) -> None:
        self.text, self.saved = text, saved
        note = (f"; the finished record was saved as {saved} instead" if saved is not None
                else "; the finished record could not be saved anywhere")
        super().__init__(failure.field, failure.path, failure.reason, failure.expected, note)


def _rescue(record: dict[str, Any], text: str) -> Path | None:
    """Save a record that could not be written where asked under <tmp>/proofkit-records (best effort)."""
    try:
        return atomic.write_new(Path(tempfile.gettempdir()) / "proofkit-records" / filename(record), text,
                                "record")
    except (atomic.WriteError, OSError):
        return None


def check_decimal(value: Any, field: str) -> str:
    """value is a finite decimal number written as a string (never evaluated); InputError names field.
    ASCII digits, length and exponent caps: :func:`proofkit.storage.safejson.check_decimal`."""
    return safejson.check_decimal(value, field)


def check_number(value: Any, field: str) -> str:
    """A decimal string as :func:`check_decimal`, or an exact fraction "p/q" of ASCII integers."""
    return safejson.check_number(value, field)


def load(path: str | Path) -> dict[str, Any]:
    """Read and validate a record; every problem is reported with the field it concerns."""
    return loads(safejson.read_bytes(path, "record", MAX_RECORD_BYTES))


def loads(text: str | bytes) -> dict[str, Any]:
    """Parse and validate a record's content (what :func:`load` reads from its file)."""
    data = safejson.loads(text, "record", max_bytes=MAX_RECORD_BYTES)
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
    for name in data:
        if name not in fields:
            raise InputError(safejson.key_name(name),
                             f"only the fields of a {data['kind']} record: {', '.join(sorted(fields))}")
    _check_common(data)
    if data["kind"] == "model":
        _check_model(data)
    if not _SHA256.fullmatch(data["sha256"]):
        raise InputError("sha256", "64 lower-case hexadecimal digits", data["sha256"])
    if digest(data) != data["sha256"]:
        raise InputError("sha256", "the SHA-256 of the record's content (file was modified)",
                         data["sha256"][:16] + "...")
    formats.validate("record", data)  # the published contract: what no field check above covers
    return data


def _check_common(data: dict[str, Any]) -> None:
    """Fields every record has: parameters as flat JSON scalars, dropped ids as strings, the seed, the
    certificate's fields."""
    for name in ("params", "overrides"):
        for key, value in data[name].items():
            if not isinstance(value, (str, int, float, bool)):
                raise InputError(f"{name}.{safejson.key_name(key)}", "a JSON string, number or true/false",
                                 type(value).__name__)
    for i, aid in enumerate(data["dropped"]):
        if not isinstance(aid, str):
            raise InputError(f"dropped[{i}]", "an assumption id (a string)", type(aid).__name__)
    if not 0 <= data["seed"] < 2**32:
        raise InputError("seed", "an integer in [0, 2^32)", data["seed"])
    cert = data["certificate"]
    if sorted(cert) not in (["certified", "how"], ["certified", "data", "how"]):
        raise InputError("certificate", "an object with the keys 'certified', 'how' and optionally 'data'",
                         sorted(cert))
    if not isinstance(cert["certified"], bool):
        raise InputError("certificate.certified", "true or false", cert["certified"])
    if not isinstance(cert["how"], str):
        raise InputError("certificate.how", "a string", type(cert["how"]).__name__)
    if "data" in cert:
        _check_certificate_data(cert["data"])


def _check_certificate_data(data: Any) -> None:
    """Structured certificate data (docs/records.md): an object with a string ``kind`` and no float
    anywhere in it (numbers are exact strings; integers count things). Whether it belongs on the record
    (a certified one) and is what the certification computes is replay's to decide."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise InputError("certificate.data", "an object with a string 'kind'", type(data).__name__)
    todo: list[tuple[str, Any]] = [("certificate.data", data)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, float):
            raise InputError(where, "an exact number string or an integer (never a float)", value)
        if isinstance(value, dict):
            todo += [(f"{where}.{safejson.key_name(k)}", v) for k, v in value.items()]
        elif isinstance(value, list):
            todo += [(f"{where}[{i}]", v) for i, v in enumerate(value)]


def _check_model(data: dict[str, Any]) -> None:
    """A model record's numbers: every one a capped decimal string (learned parameters may also be exact
    fractions), the witness a rectangular table of them."""
    if not OLDEST_DPS <= data["dps"] <= MAX_DPS:
        raise InputError("dps", f"an integer in [{OLDEST_DPS}, {MAX_DPS}]", data["dps"])
    for i, v in enumerate(data["learned_params"]):
        check_number(v, f"learned_params[{i}]")
    for i, v in enumerate(data["true_params"]):
        check_decimal(v, f"true_params[{i}]")
    for i, row in enumerate(data["witness"]):
        if not isinstance(row, list) or len(row) != len(data["witness"][0]):
            raise InputError(f"witness[{i}]", "a list of decimal strings, as long as witness[0]", row)
        for j, v in enumerate(row):
            check_decimal(v, f"witness[{i}][{j}]")
    check_decimal(data["train_residual"], "train_residual")
    check_decimal(data["test_discrepancy"], "test_discrepancy")
