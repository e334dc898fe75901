"""The sweep folder: ``sweep.json`` (the manifest: the spec's canonical form and its SHA-256),
``points/<key>.json`` (one result per point) and ``records/`` (counterexample records of the search).

Every file is written atomically (:mod:`proofkit.storage.atomic`): a sweep killed at any moment leaves each
point file either absent or complete, so a rerun resumes from the completed points and loses at most the
points that were being computed. A point's key is a short SHA-256 of its identity (theorem, every parameter
value including defaults, seed, dps, search), so the file name is safe and one name is one point; the identity
is stored in the file too and checked when the point is resumed. A point file that cannot be read, does not
conform to its published schema (``proofkit/schemas/sweep-point.schema.json``; the manifest's is
``sweep-manifest.schema.json``; docs/formats.md) or does not hold the point its name says is recomputed (the
caller warns).

A point file or manifest that is a symbolic link is replaced by a regular file (the link's target is never
written); a ``points/`` folder that is a link is refused.

Point files are deterministic: the same point gives the same bytes in every run, except ``elapsed_s``
(the one timing field). Counterexample records are named relative to the folder, so a sweep folder can
be moved or compared with another.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine.scan import HOLDS, INCONCLUSIVE, REFUTED, ScanRow
from ..errors import InputError
from ..language.spec import Theorem
from ..storage import atomic, formats, safejson
from .spec import Point, SweepSpec, canonical_json

MANIFEST, POINTS, RECORDS = "sweep.json", "points", "records"
MANIFEST_FORMAT, POINT_FORMAT = "proofkit-sweep/1", "proofkit-sweep-point/1"
#: hex digits of a point key: 80 bits, no collision among MAX_POINTS points in practice (and a file that
#: holds another point than its name says is detected from the identity stored in it)
KEY_HEX = 20
STATUSES = (HOLDS, REFUTED, INCONCLUSIVE)


def identity(spec: SweepSpec, theorem: Theorem, point: Point) -> dict[str, Any]:
    """What decides a point's result: theorem, every parameter (defaults resolved), seed, dps, search."""
    return {"theorem": spec.theorem, "params": theorem.params.resolve(point.overrides), "seed": point.seed,
            "dps": spec.dps, "search": spec.search}


def key(ident: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(dict(ident)).encode()).hexdigest()[:KEY_HEX]


def point_path(out: Path, point_key: str) -> Path:
    return out / POINTS / f"{point_key}.json"


def open_folder(out: Path, spec: SweepSpec, *, force: bool) -> None:
    """Make ``out`` the folder of this sweep: created with ``points/`` when new; an existing sweep folder
    must hold the same spec (same SHA-256), else bad input unless ``force`` (the manifest is then
    replaced; point files are kept and reused where a point of the new spec has the same key). A folder
    that holds other files and no manifest is refused unless ``force``: it is not a sweep's."""
    atomic.prepare_folder(out, "--out", create=True)
    manifest = out / MANIFEST
    if manifest.exists() and not force:
        try:
            old = safejson.load(manifest, str(manifest))
            formats.validate("sweep-manifest", old, MANIFEST)
            old_hash = old["spec_sha256"]
        except InputError as exc:
            raise InputError("--out", f"a sweep folder with a readable {MANIFEST} (--force starts it "
                             f"afresh, keeping the point files)", f"{out}: {exc}") from None
        if old_hash != spec.sha256():
            differs = _differences(old["spec"], spec.canonical())
            raise InputError("SPEC", f"the spec of the sweep already in {out} (sha256 {str(old_hash)[:12]}), "
                             f"or --force to replace it", f"a different spec ({differs}; sha256 "
                             f"{spec.sha256()[:12]})")
    elif not manifest.exists() and not force and any(not _ours(p.name) for p in out.iterdir()):
        raise InputError("--out", f"a new or empty folder or a sweep folder (one with {MANIFEST}); "
                         "--force uses it anyway", str(out))
    atomic.prepare_folder(out / POINTS, "--out", create=True, own=True)
    if force or not manifest.exists():
        body = {"format": MANIFEST_FORMAT, "spec": spec.canonical(), "spec_sha256": spec.sha256(),
                "points": spec.size(), "description": spec.description, "proofkit_version": __version__}
        atomic.write_file(manifest, _dump(body), "--out", replace_link=True)


def _ours(name: str) -> bool:
    """A name a sweep killed before its manifest was written can leave: the points folder, or the hidden
    temporary file of an interrupted atomic write."""
    return name == POINTS or (name.startswith(".proofkit-") and name.endswith(".tmp"))


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """The fields in which two canonical specs differ, for the message (``old``: a manifest's spec, valid)."""
    fields = [k for k in new if old.get(k) != new[k]]
    return "differs in " + ", ".join(fields) if fields else "differs"


def _dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=True) + "\n"


def point_body(ident: Mapping[str, Any], point_key: str, row: ScanRow, out: Path) -> dict[str, Any]:
    """The content of a point file: the identity, the status as ``scan`` classifies it and why, the check
    verdict with each decisive claim's, the search summary, the counterexample record (relative to the
    sweep folder), the proofkit version and, apart, the elapsed seconds."""
    search = None if row.search is None else {k: v for k, v in asdict(row.search).items() if k != "record"}
    record = row.search.record if row.search is not None else None
    if record is not None:
        record = Path(os.path.relpath(record, out.resolve())).as_posix()
    return {"format": POINT_FORMAT, "key": point_key, **ident, "status": row.status, "reason": row.reason,
            "check_verdict": row.check_verdict, "conclusions": dict(row.conclusions),
            "counterexample_search": search, "record": record,
            "violated_assumptions": list(row.violated_assumptions), "proofkit_version": __version__,
            "elapsed_s": round(row.elapsed_s, 3)}


def write_point(out: Path, body: Mapping[str, Any]) -> Path:
    return atomic.write_file(point_path(out, body["key"]), _dump(dict(body)), "--out", replace_link=True)


def read_point(out: Path, point_key: str, ident: Mapping[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """(the stored result, "") when the point's file exists and holds this point; (None, "") when there
    is no file; (None, why) when the file is unreadable or holds something else (to be recomputed)."""
    path = point_path(out, point_key)
    if not path.exists():
        return None, ""
    try:
        body = safejson.load(path, str(path))
    except InputError as exc:
        return None, f"unreadable point file: {exc}"
    if not isinstance(body, dict) or body.get("format") != POINT_FORMAT or body.get("status") not in STATUSES:
        return None, f"{path}: not a point file"
    try:
        formats.validate("sweep-point", body, str(path))
    except InputError as exc:
        return None, f"{path}: not a point file ({exc})"
    if body.get("key") != point_key or any(body.get(k) != v for k, v in ident.items()):
        return None, f"{path}: holds another point than its name says"
    return body, ""
