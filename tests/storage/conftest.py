"""Fixtures of the record tests: one falsify run of AM24.T4 with the assumption T >= 2 dropped (a certified
counterexample record) per module, and that record as a dict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proofkit.engine.falsify import falsify
from proofkit.language import registry
from tests.storage.record_helpers import THM


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("rec1")
    res = falsify(registry.get(THM), ["T>=2"], shrink=False, out_dir=out)  # n = 2: 12 parameters
    assert res.found and res.record_path is not None
    return res


@pytest.fixture()
def rec(made) -> dict:
    return json.loads(Path(made.record_path).read_text())
