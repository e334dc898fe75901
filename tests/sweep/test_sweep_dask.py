"""``proofkit sweep --scheduler ADDRESS`` on a Dask LocalCluster (one worker process, one thread): the
same point files as the local run (timing apart), resume on the cluster, and a scheduler that does not
answer is one line, exit 2. Skipped where Dask is not installed (it is in the dev and dask extras)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from proofkit.interface.testing import run_cli
from proofkit.sweep import runner, store

distributed = pytest.importorskip("distributed")

TOY = str(Path(__file__).resolve().parent / "sweep_theorems")
SPEC = {"theorem": "SWEEP.TOY", "grid": {"n": [1, 3, 5], "mode": ["a", "b"]}}


@pytest.fixture(scope="module")
def scheduler():
    """A LocalCluster whose worker is a separate process: the point function and its arguments really
    travel by pickle, and the worker re-establishes the theorem folders itself."""
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def sweep(capsys, spec: Path, out: Path, *args: str) -> tuple[int, dict]:
    code, text, _ = run_cli(capsys, "--theorems", TOY, "sweep", str(spec), "--out", str(out), *args, "--json")
    return code, json.loads(text)


def untimed(folder: Path) -> dict[str, bytes]:
    return {p.name: re.sub(rb'\n "elapsed_s": [0-9.e+-]+,', b"", p.read_bytes())
            for p in sorted((folder / store.POINTS).glob("*.json"))}


def test_dask_points_equal_local_points_and_resume(capsys, tmp_path, scheduler):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    code, local = sweep(capsys, spec, tmp_path / "local")
    assert code == 0
    code, dask = sweep(capsys, spec, tmp_path / "dask", "--scheduler", scheduler)
    assert code == 0 and (dask["computed"], dask["failed"]) == (6, 0)
    assert len(untimed(tmp_path / "dask")) == 6 and untimed(tmp_path / "dask") == untimed(tmp_path / "local")
    assert [r["status"] for r in dask["rows"]] == [r["status"] for r in local["rows"]]
    assert dask["threshold"] == local["threshold"]
    records = sorted(p.name for p in (tmp_path / "dask" / store.RECORDS).iterdir())
    assert records and records == sorted(p.name for p in (tmp_path / "local" / store.RECORDS).iterdir())
    first = tmp_path / "dask" / dask["rows"][0]["file"]
    first.unlink()
    code, again = sweep(capsys, spec, tmp_path / "dask", "--scheduler", scheduler)
    assert code == 0 and (again["computed"], again["resumed"]) == (1, 5) and first.is_file()


def test_a_scheduler_that_does_not_answer_is_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT_S", 1)
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    code, out, err = run_cli(capsys, "--theorems", TOY, "sweep", str(spec), "--out", str(tmp_path / "out"),
                             "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("proofkit: bad input: --scheduler: expected the address of a running Dask")
    assert not (tmp_path / "out").exists()
