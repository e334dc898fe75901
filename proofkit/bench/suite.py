"""Run the benchmark sections, assemble one result, store it, and find the latest stored result.

A result is one JSON object (schema below, version SCHEMA): the mode and settings, the machine, the
ratio rows of every section in table order, and each section's detailed figures. Each run is stored as
``<UTC timestamp>_<machine tag>_<mode>.json`` under ``benchmarks/results/`` (never replacing a file);
``docs/benchmarks.md`` is generated from the latest full run.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError, one_of
from ..storage import formats, safejson
from ..storage.atomic import write_new
from . import crasp, drops, fit, machine, namespace, precision, rows, stages, targets
from .common import Section, Settings, progress

SCHEMA = 1
#: sections in table order (rows 1-6, the stage details, then the absolute targets with row 7)
SECTIONS: dict[str, Callable[[Settings], Section]] = {
    "fit": fit.bench, "precision": precision.bench, "namespace": namespace.bench, "crasp": crasp.bench,
    "rows": rows.bench, "drops": drops.bench, "stages": stages.bench, "targets": targets.bench}
REQUIRED = ("schema", "mode", "started_utc", "total_s", "machine", "settings", "sections_run", "ratios",
            "details")
NAME = re.compile(r"^[0-9]{8}T[0-9]{6}Z_[a-z0-9-]+_(quick|full)(_v[0-9]+)?\.json$")


def parse_sections(text: str | None) -> tuple[str, ...]:
    """``--only a,b``: section names in table order (all when None)."""
    if text is None:
        return tuple(SECTIONS)
    names = [t.strip() for t in text.split(",") if t.strip()]
    bad = [n for n in names if n not in SECTIONS]
    if bad or not names:
        raise one_of("--only", SECTIONS, bad[0] if bad else text, "comma-separated sections among")
    return tuple(n for n in SECTIONS if n in names)


def jsonable(obj: Any) -> Any:
    """Plain JSON values: numpy scalars as Python numbers, non-finite floats as None, tuples as lists."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    return str(obj)


def run(settings: Settings, sections: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the named sections (all by default) and return the result object."""
    names = tuple(SECTIONS) if sections is None else tuple(sections)
    started = datetime.now(timezone.utc)
    t0 = time.perf_counter()
    info = machine.describe()
    ratios: list[dict[str, Any]] = []
    details: dict[str, Any] = {}
    skipped: dict[str, str] = {}
    for name in names:
        try:
            sec = SECTIONS[name](settings)
        except InputError as exc:  # e.g. an installed package without the theorem files: say so, go on
            skipped[name] = str(exc)
            progress(f"{name}: not run: {exc}")
            continue
        ratios += [r.as_dict() for r in sec.ratios]
        details[name] = sec.details
    try:
        info["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        info["load_average_end"] = None
    result = {"schema": SCHEMA, "tool": "proofkit bench", "mode": settings.mode,
              "started_utc": started.strftime("%Y-%m-%dT%H:%M:%SZ"), "total_s": time.perf_counter() - t0,
              "machine": info, "settings": settings.as_dict(), "sections_run": [n for n in names
                                                                                if n not in skipped],
              "sections_skipped": skipped, "ratios": ratios, "details": details}
    return jsonable(result)


def file_name(result: dict[str, Any]) -> str:
    """``<UTC timestamp>_<machine tag>_<mode>.json``: sorts by time."""
    stamp = result["started_utc"].replace("-", "").replace(":", "")
    return f"{stamp}_{machine.tag(result['machine'])}_{result['mode']}.json"


def save(result: dict[str, Any], folder: str | Path) -> Path:
    """Write the result under ``folder`` (created if needed); never replaces an existing file."""
    return write_new(Path(folder) / file_name(result), json.dumps(result, indent=1) + "\n", "--out")


def complete(result: dict[str, Any]) -> bool:
    """A full run of every section: what docs/benchmarks.md is generated from."""
    return result.get("mode") == "full" and list(result.get("sections_run", [])) == list(SECTIONS)


def load(path: str | Path, field: str = "--render") -> dict[str, Any]:
    """A stored result, checked for the fields the table and the docs read."""
    obj = safejson.load(path, field)
    if not isinstance(obj, dict) or any(k not in obj for k in REQUIRED):
        raise InputError(field, f"a proofkit bench result (fields {', '.join(REQUIRED)})", str(path))
    if obj["schema"] != SCHEMA or not isinstance(obj["ratios"], list):
        raise InputError(field, f"a proofkit bench result of schema {SCHEMA}", str(path))
    formats.validate("bench", obj, field)  # the published structure (docs/formats.md)
    return obj


def latest(folder: str | Path) -> Path | None:
    """The newest complete full run stored in ``folder`` (by the timestamp in its name), or None."""
    root = Path(folder)
    if not root.is_dir():
        return None
    for path in sorted((p for p in root.iterdir() if NAME.match(p.name)), reverse=True):
        if path.name.split("_")[2].startswith("full") and complete(load(path, str(path))):
            return path
    return None
