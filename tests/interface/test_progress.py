"""Live progress on stderr: finished units stream as they finish, a stage shows once it has lasted the
delay, nothing with -q or $PROOFKIT_QUIET, and stdout is never touched."""

from __future__ import annotations

import io
import time

import pytest

from proofkit.interface.cli import main
from proofkit.runtime import progress
from proofkit.scale import parallel


@pytest.fixture
def loud(monkeypatch):
    monkeypatch.delenv(progress.ENV, raising=False)
    monkeypatch.setattr(progress, "DELAY_S", 0.05)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_stage_shows_only_once_it_lasts(loud):
    buf = io.StringIO()
    with progress.reporting(stream=buf):
        progress.stage("quick")
        progress.stage("slow")  # replaces "quick" before its delay: "quick" is never printed
        time.sleep(0.3)
        progress.done("[1/1] row")
        progress.stage("cut short")  # the block ends before the delay: not printed
    time.sleep(0.2)
    assert buf.getvalue() == "proofkit: slow\n[1/1] row\n"


@pytest.mark.parametrize("enabled,env", [(False, None), (True, "1")])
def test_quiet_prints_nothing(loud, monkeypatch, enabled, env):
    if env is not None:
        monkeypatch.setenv(progress.ENV, env)
    buf = io.StringIO()
    with progress.reporting(enabled, stream=buf):
        progress.stage("slow")
        time.sleep(0.2)
        progress.done("row")
    assert buf.getvalue() == ""


def test_outside_reporting_is_silent(loud, capsys):
    progress.stage("x")
    progress.done("y")
    assert capsys.readouterr() == ("", "")


def test_terminal_gets_a_live_status_and_rows(loud):
    buf = _Tty()
    with progress.reporting(stream=buf):
        progress.stage("fitting")
        time.sleep(0.3)
        progress.done("[1/2] AM24.T4 certified")
    assert "[1/2] AM24.T4 certified" in buf.getvalue()
    assert "fitting" in buf.getvalue()  # the status line was drawn (and removed at the end)


def test_counter_pads_to_the_total():
    assert progress.counter(3, 28) == "[ 3/28]"


def test_rows_count_in_the_order_they_finish():
    """A pool finishes out of input order; its rows must still count up ([2/33] before [1/33] read as a
    bug), whatever position each unit had."""
    tally = progress.Tally(12)
    assert [tally() for _ in range(3)] == ["[ 1/12]", "[ 2/12]", "[ 3/12]"]


@pytest.mark.slow
def test_a_pooled_check_all_counts_up_and_aligns_long_ids(loud, capsys):
    """check --all -j 2 (about a minute): rows count up in completion order and every verdict starts in
    one column, the longest id (INL25.SCALING) included."""
    assert main(["check", "--all", "-j", "2", "--json"]) in (0, 1)
    rows = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[")]
    assert [int(r[1:r.index("/")]) for r in rows] == list(range(1, len(rows) + 1)) and len(rows) > 30
    bodies = [r.split("] ", 1)[1] for r in rows]  # "AM24.L1       confirmed (0.1 s)"
    assert len({len(b) - len(b.split(None, 1)[1]) for b in bodies}) == 1, rows


def test_pool_reports_each_call_once_and_returns_input_order():
    seen: list[int] = []
    out = parallel.run_all(pow, [(2, k) for k in range(5)], 2, on_done=lambda i, r: seen.append(i))
    assert out == [1, 2, 4, 8, 16] and sorted(seen) == list(range(5))


def test_scan_streams_rows_on_stderr_and_leaves_stdout_alone(loud, capsys):
    argv = ["scan", "AM24.T4", "--param", "T", "--values", "2,3", "--no-search"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    rows = [line for line in err.splitlines() if line.startswith("[")]
    assert [r.split(" (")[0] for r in rows] == ["[1/2] AM24.T4 T=2: holds", "[2/2] AM24.T4 T=3: holds"]
    assert "T=2: HOLDS" in out and "[1/2]" not in out


def test_quiet_flag_silences_the_cli(loud, capsys, monkeypatch):
    monkeypatch.setattr("proofkit.engine.scan.scan_value", lambda *a, **k: _fake_row(a[2]))
    argv = ["scan", "AM24.T4", "--param", "T", "--values", "2,3", "--no-search"]
    assert main(argv) == 0 and "[2/2] AM24.T4 T=3: holds" in capsys.readouterr().err
    for quiet in (["-q", *argv], [*argv, "--quiet"]):
        assert main(quiet) == 0 and capsys.readouterr().err == ""


def _fake_row(value):
    from proofkit.engine.scan import HOLDS, ScanRow

    return ScanRow(value, HOLDS, "fake", "certified", {}, None)


def test_a_stage_set_after_the_delay_still_shows_with_a_bar(loud):
    """Issue 28, item 2: on a terminal the one-shot timer fired while theorems were still loading (no stage
    yet) and never retried, so `check AM24.T5` showed nothing for 20 s. Now the line is due once the delay
    has passed, whatever comes later, and counted units draw a bar with done/total."""
    buf = _Tty()
    with progress.reporting(stream=buf):
        time.sleep(0.2)  # loading: no stage yet when the delay passes
        progress.stage("AM24.T5: fit")
        time.sleep(0.3)
        progress.done("[1/3] AM24.T1 certified", total=3)
        time.sleep(0.3)
    text = buf.getvalue()
    assert "AM24.T5: fit" in text and "[1/3] AM24.T1 certified" in text
    assert "1/3" in text.split("certified")[-1]  # the bar after the row
