"""pytest imports test modules by basename (no packages under tests/ or theorems/): two test files with the
same name in different folders stop collection of the whole suite. Each name must be unique."""

from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_test_file_basenames_are_unique():
    names = Counter(p.name for folder in ("tests", "theorems") for p in (ROOT / folder).rglob("test_*.py"))
    assert not [n for n, c in names.items() if c > 1], [n for n, c in names.items() if c > 1]
