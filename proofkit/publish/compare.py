"""Field-by-field comparison of a bundle's JSON with the JSON re-derived here, and the escaping of
everything ``verify-bundle`` prints.

Two JSON values are the same when their canonical forms are (sorted keys, no whitespace): ``1`` and
``1.0`` or ``true`` differ, as they do in the hashed bytes. A difference names the JSON path of the field
(``how``, ``scope.count``, ``claims[2].statement``) and shows both values; for two strings it shows the
text around the first character where they part, so a figure changed inside a long how-text is visible.
Every string shown is escaped: no newline, control or format character of a bundle reaches the
terminal raw, so a name cannot forge a line of the report.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import cap_text

#: characters of context shown on each side of the first difference between two strings
CONTEXT = 30
#: characters of a name (claim, record file, theorem id) printed at most
NAME_CHARS = 160
#: differences listed per field group at most (the count of the rest is given)
MAX_LISTED = 12


def name(text: Any) -> str:
    """A name from a bundle as printed: one line, every control or format character escaped, capped."""
    return cap_text(str(text), NAME_CHARS)


def show(value: Any, limit: int = 2 * CONTEXT + 20) -> str:
    """A JSON value as printed: its JSON text (strings quoted, their control characters escaped), then
    every remaining non-printable character escaped, capped at ``limit`` characters."""
    return cap_text(json.dumps(value, ensure_ascii=False, sort_keys=True), limit)


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, separators=(",", ":")) == \
        json.dumps(b, sort_keys=True, separators=(",", ":"))


def _strings(path: str, a: str, b: str) -> str:
    """Two different strings around their first difference."""
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, i - CONTEXT)

    def cut(s: str) -> str:
        part = s[lo:i + CONTEXT]
        return ("..." if lo else "") + show(part, 4 * CONTEXT) + ("..." if i + CONTEXT < len(s) else "")

    return f"{path}: {cut(a)} in the bundle, {cut(b)} now"


def differences(stored: Any, now: Any, path: str) -> list[str]:
    """Every leaf where ``stored`` (the bundle's) and ``now`` (re-derived) differ, by JSON path: a key
    only one side has, a list of another length (then its common entries), a different value."""
    if isinstance(stored, dict) and isinstance(now, dict):
        out = []
        for key in sorted(set(stored) | set(now)):
            sub = f"{path}.{key}" if path else str(key)
            if key not in now:
                out.append(f"{name(sub)}: {show(stored[key])} in the bundle, absent now")
            elif key not in stored:
                out.append(f"{name(sub)}: absent in the bundle, {show(now[key])} now")
            else:
                out += differences(stored[key], now[key], sub)
        return out
    if isinstance(stored, list) and isinstance(now, list):
        out = [] if len(stored) == len(now) else \
            [f"{name(path)}: {len(stored)} entries in the bundle, {len(now)} now"]
        for i, (a, b) in enumerate(zip(stored, now)):
            out += differences(a, b, f"{path}[{i}]")
        return out
    if _same(stored, now):
        return []
    if isinstance(stored, str) and isinstance(now, str):
        return [_strings(name(path), stored, now)]
    return [f"{name(path)}: {show(stored)} in the bundle, {show(now)} now"]


def listed(diffs: list[str]) -> list[str]:
    """At most MAX_LISTED differences, then how many more there are."""
    if len(diffs) <= MAX_LISTED:
        return diffs
    return [*diffs[:MAX_LISTED], f"... and {len(diffs) - MAX_LISTED} more differences"]
