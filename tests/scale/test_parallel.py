"""Checks in a process pool (``-j N``) give the same results as a serial run, in input order, and a
bad-input error in a worker is the same one-line error in the parent."""

import json

import pytest

from proofkit.engine.check import check_id
from proofkit.errors import InputError
from proofkit.interface.testing import run_cli
from proofkit.scale import parallel

FAST = ["AM24.L1", "INL25.P37", "AM24v2.C4", "R24.T31"]


def _comparable(result) -> dict:
    d = result.as_dict()
    d.pop("elapsed_s", None)
    d.get("diagnostics", {}).pop("timings_s", None)
    return json.loads(json.dumps(d, default=str))


def test_pool_checks_equal_serial_checks_in_order():
    calls = [(tid, 60, 0) for tid in FAST]
    serial = parallel.run_all(check_id, calls, 1)
    pooled = parallel.run_all(check_id, calls, 2)
    assert [r.id for r in pooled] == FAST
    assert [_comparable(r) for r in pooled] == [_comparable(r) for r in serial]


def test_scan_rows_equal_serial(capsys):
    args = ["scan", "INL25.P37", "--param", "p", "--values", "3,1,2", "--json"]
    code1, out1, _ = run_cli(capsys, *args)
    code2, out2, _ = run_cli(capsys, *args, "-j", "2")
    rows1, rows2 = json.loads(out1)["rows"], json.loads(out2)["rows"]
    for r in rows1 + rows2:
        r.pop("elapsed_s", None)
    assert code1 == code2 == 0 and rows1 == rows2 and [r["value"] for r in rows2] == [1, 2, 3]


def bad_input(x):
    raise InputError("field", "something else", x)


def test_worker_input_error_is_raised_again():
    with pytest.raises(InputError, match="field: expected something else, got"):
        parallel.run_all(bad_input, [(1,), (2,)], 2)


@pytest.mark.parametrize("text", ["-1", "two", "１", "4097", "9" * 5000])
def test_bad_jobs_is_bad_input(capsys, text):
    code, out, err = run_cli(capsys, "check", "--all", "-j", text)
    assert code == 2 and not out and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("cpus,memory,jobs,tasks,want", [
    (2, 64 << 30, 1000, 30, 2),  # issue 27: -j 1000 on 2 CPUs started 29 processes
    (16, 1 << 30, 16, 30, 2),  # 1 GiB available: two workers of 400 MiB
    (16, None, 8, 30, 8),  # memory unknown: CPUs and tasks only
    (16, 64 << 30, 8, 3, 3),  # never more than one per task
    (4, 100 << 20, 4, 30, 1),  # less than one worker's memory: serial
])
def test_the_pool_is_capped_by_cpus_memory_and_tasks(monkeypatch, cpus, memory, jobs, tasks, want):
    monkeypatch.setattr(parallel, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(parallel, "available_memory", lambda: memory)
    n, why = parallel.workers(jobs, tasks)
    assert n == want and bool(why) == (want < min(jobs, tasks))
    assert not why or (f"-j {jobs}: {want} worker process" in why and f"{cpus} usable CPU" in why)


def test_a_capped_pool_says_so_and_runs_serially(monkeypatch):
    import io

    from proofkit.runtime import progress

    monkeypatch.setattr(parallel, "usable_cpus", lambda: 1)
    monkeypatch.delenv(progress.ENV, raising=False)
    stream = io.StringIO()
    with progress.reporting(True, stream):
        assert parallel.run_all(abs, [(-1,), (2,), (-3,)], 64) == [1, 2, 3]
    assert stream.getvalue().startswith("proofkit: note: -j 64: 1 worker process (1 usable CPU")


def full_disk(_: int) -> None:
    from proofkit.storage.atomic import WriteError

    raise WriteError("--out", "/full/records/x.json", "No space left on device")


def test_a_workers_write_error_keeps_the_os_reason():
    """Issue 27, item 6: on a full disk the per-point message dropped the OS's reason."""
    with pytest.raises(InputError, match=r"x\.json'? \(No space left on device\)"):
        parallel.run_all(full_disk, [(1,), (2,)], 2)
