"""Shared by the record tests: writing a (re-stamped) record, and the errors that loading and replaying
give."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from proofkit.engine.replay import replay
from proofkit.errors import InputError
from proofkit.storage import record

THM = "AM24.T4"






def _write(tmp_path: Path, data: dict, *, rehash: bool, name: str = "r.json") -> Path:
    data = copy.deepcopy(data)
    if rehash:
        data["sha256"] = record.digest(data)
    p = tmp_path / name
    p.write_text(record.canonical(data))
    return p


def _load_error(path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        record.load(path)
    return info.value


def _replay_error(path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        replay(path)
    return info.value


def _change_digit(value: str, i: int) -> str:
    """Change the digit at index i (negative: from the end) of a decimal string."""
    i = i % len(value)
    assert value[i].isdigit(), (value, i)
    return value[:i] + ("1" if value[i] != "1" else "2") + value[i + 1:]
