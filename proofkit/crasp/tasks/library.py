"""A folder of C-RASP programs with their ground truths (``index.json``), checked exhaustively.

The index is data: ``{"programs": [{"program": FILE, "truth": NAME, "table2_row": ROW|null,
"max_len": N}, ...], "controls": [...]}`` where NAME is a key of
:data:`proofkit.crasp.semantics.truth.LIBRARY`.
A program that disagrees with its ground truth is a finding, reported with the shrunk string.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...storage import safejson
from ..language import analysis
from ..language.ir import Program
from ..language.parser import load
from ..semantics.compare import exhaustive_check, sample_check
from ..semantics.truth import LIBRARY
from ..semantics.vector import accepts_prefixes


@dataclass(frozen=True)
class Entry:
    program: Program
    file: str
    truth: str
    table2_row: int | None
    max_len: int


@dataclass(frozen=True)
class EntryCheck:
    entry: Entry
    agrees: bool
    strings: int  # strings of length <= max_len compared (every prefix of every length-max_len string)
    disagreement: str | None  # the shortest, then least, disagreeing string
    sample_agrees: bool
    sample_len: int
    samples: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        s = analysis.summary(self.entry.program)
        return {"program": self.entry.file, "truth": self.entry.truth, "table2_row": self.entry.table2_row,
                "fragment": s["fragment"], "depth": s["depth"], "max_len": self.entry.max_len,
                "strings": self.strings, "agrees": self.agrees, "disagreement": self.disagreement,
                "sample_len": self.sample_len, "samples": self.samples, "sample_agrees": self.sample_agrees,
                "seconds": round(self.seconds, 3)}


def _entries(folder: Path, items: Any, field: str) -> list[Entry]:
    if not isinstance(items, list):
        raise InputError(f"index.json {field}", "a list of entries", type(items).__name__)
    out = []
    for i, item in enumerate(items):
        where = f"index.json {field}[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("program"), str):
            raise InputError(where, "an object with a 'program' file name", item)
        if item.get("truth") not in LIBRARY:
            raise InputError(f"{where}.truth",
                             "a ground-truth name of proofkit.crasp.semantics.truth.LIBRARY",
                             item.get("truth"))
        max_len = item.get("max_len")
        if not isinstance(max_len, int) or not 0 <= max_len <= 40:
            raise InputError(f"{where}.max_len", "an integer in [0, 40]", max_len)
        program = load(folder / item["program"])
        if program.alphabet != LIBRARY[item["truth"]].alphabet:
            raise InputError(f"{where}.program", f"alphabet {LIBRARY[item['truth']].alphabet}",
                             program.alphabet)
        out.append(Entry(program, item["program"], item["truth"], item.get("table2_row"), max_len))
    return out


def load_index(folder: str | Path) -> tuple[list[Entry], list[Entry]]:
    """(programs, controls) of a library folder."""
    folder = Path(folder)
    data = safejson.load(folder / "index.json", "index.json")
    if not isinstance(data, dict):
        raise InputError("index.json", "a JSON object {\"programs\": [...], \"controls\": [...]}",
                         type(data).__name__)
    return _entries(folder, data.get("programs"), "programs"), _entries(folder, data.get("controls", []),
                                                                        "controls")


def check_entry(entry: Entry, max_len: int | None = None, sample_len: int = 1000, samples: int = 32,
                seed: int = 0) -> EntryCheck:
    """Exhaustive agreement at every prefix up to max_len, then a seeded sample of long strings."""
    t0 = time.perf_counter()
    n = entry.max_len if max_len is None else max_len
    k = len(entry.program.alphabet)
    truth = LIBRARY[entry.truth]

    def f(X: Any) -> Any:
        return accepts_prefixes(entry.program, X)

    bad = exhaustive_check(f, truth, k, n)
    sample_bad = sample_check(f, truth, k, sample_len, samples, seed) if samples else None
    strings = sum(k**m for m in range(n + 1))
    text = None if bad is None else repr(bad.text(entry.program.alphabet))
    return EntryCheck(entry, bad is None, strings, text, sample_bad is None, sample_len, samples,
                      time.perf_counter() - t0)
