"""``proofkit sweep SPEC`` (docs/sweeps.md): spec validation (each field, one line, exit 2), a local sweep
with its thresholds, resume (only missing or unreadable points recomputed), a sweep killed midway and resumed,
byte-identical point files across runs and pool sizes (timing apart), exit codes of points that could not
be computed, and Dask kept optional. The theorem is tests/sweep/sweep_theorems/toy_sweep.py (SWEEP.TOY), which
costs nothing to check."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from proofkit.engine import scan
from proofkit.engine.scan import HOLDS, REFUTED
from proofkit.errors import InputError
from proofkit.interface.testing import run_cli
from proofkit.language import registry
from proofkit.runtime import progress
from proofkit.sweep import spec as sweep_spec
from proofkit.sweep import store
from proofkit.sweep.summary import Entry, thresholds

TOY = str(Path(__file__).resolve().parent / "sweep_theorems")


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Every test runs in its own folder: a spec's out is relative to the working directory."""
    monkeypatch.chdir(tmp_path)


def write_spec(folder: Path, name: str = "spec.json", **fields) -> Path:
    """A spec file in ``folder`` (the working directory): an ``out`` given as a path below it is written
    relative, as specs must name it."""
    if isinstance(fields.get("out"), str) and Path(fields["out"]).is_absolute():
        fields["out"] = str(Path(fields["out"]).relative_to(folder))
    body = {"theorem": "SWEEP.TOY", "grid": {"n": [4, 1, 2, 6], "mode": ["a", "b"]}, **fields}
    path = folder / name
    path.write_text(json.dumps(body))
    return path


def sweep(capsys, spec: Path, *args: str) -> tuple[int, dict | str, str]:
    """Run ``proofkit --theorems TOY sweep SPEC ARGS --json``: (exit code, summary, stderr)."""
    code, out, err = run_cli(capsys, "--theorems", TOY, "sweep", str(spec), *args, "--json")
    return code, json.loads(out) if out.strip() else out, err


def points(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / store.POINTS).glob("*.json"))}


def untimed(data: bytes) -> bytes:
    """A point file without its one timing line (everything else is deterministic)."""
    stripped, count = re.subn(rb'\n "elapsed_s": [0-9.e+-]+,', b"", data)
    assert count == 1
    return stripped


# ----------------------------------------------------------------------------------------- spec validation
BAD_SPECS = [
    ([1], "sweep spec"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "color": 1}, "sweep spec color"),
    ({"grid": {"n": [1]}}, "sweep spec theorem"),
    ({"theorem": "SWEEP.TOY"}, "sweep spec grid"),
    ({"theorem": 3, "grid": {"n": [1]}}, "sweep spec theorem"),
    ({"theorem": "NOPE.T1", "grid": {"n": [1]}}, "sweep spec theorem"),
    ({"theorem": "SWEEP.TOY", "grid": [["n", 1]]}, "sweep spec grid"),
    ({"theorem": "SWEEP.TOY", "grid": {}}, "sweep spec grid"),
    ({"theorem": "SWEEP.TOY", "grid": {"zz": [1]}}, "sweep spec grid.zz"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": 3}}, "sweep spec grid.n"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": []}}, "sweep spec grid.n"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1, 99]}}, "sweep spec grid.n[1]"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1.5]}}, "sweep spec grid.n[0]"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": ["x"]}}, "sweep spec grid.n[0]"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [True]}}, "sweep spec grid.n[0]"),
    ({"theorem": "SWEEP.TOY", "grid": {"mode": ["c"]}}, "sweep spec grid.mode[0]"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [2, "2"]}}, "sweep spec grid.n[1]"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "fixed": [1]}, "sweep spec fixed"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "fixed": {"zz": 1}}, "sweep spec fixed.zz"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "fixed": {"n": 2}}, "sweep spec fixed.n"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "fixed": {"scale": "nan"}}, "sweep spec fixed.scale"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "dps": 10}, "sweep spec dps"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "dps": "60"}, "sweep spec dps"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "seed": -1}, "sweep spec seed"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "seed": 2**32}, "sweep spec seed"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "seed": True}, "sweep spec seed"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "seed": 1, "seeds": [2]}, "sweep spec seeds"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "seeds": []}, "sweep spec seeds"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "seeds": [1, 1]}, "sweep spec seeds[1]"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "seeds": ["1"]}, "sweep spec seeds[0]"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "search": "yes"}, "sweep spec search"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "out": 3}, "sweep spec out"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "out": " "}, "sweep spec out"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "out": "/tmp/elsewhere"}, "sweep spec out"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "out": "../up"}, "sweep spec out"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "out": "a/../../up"}, "sweep spec out"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "out": "~/home"}, "sweep spec out"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": [1]}, "description": 5}, "sweep spec description"),
    ({"theorem": "SWEEP.TOY", "grid": {"n": list(range(1, 10)), "mode": ["a", "b"]},
      "seeds": list(range(600))}, "sweep spec grid"),  # 10 800 points > MAX_POINTS
]


@pytest.mark.parametrize("body,field", BAD_SPECS, ids=[f for _, f in BAD_SPECS])
def test_bad_spec_is_one_line_naming_the_field(capsys, tmp_path, body, field):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(body))
    code, out, err = sweep(capsys, spec, "--out", str(tmp_path / "out"))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"proofkit: bad input: {field}: expected "), err
    assert not (tmp_path / "out").exists()  # nothing is written before the spec is valid


@pytest.mark.parametrize("text", ["{", '{"theorem": "SWEEP.TOY", "theorem": "SWEEP.TOY"}', "[" * 100])
def test_unparsable_spec_file(capsys, tmp_path, text):
    spec = tmp_path / "spec.json"
    spec.write_text(text)
    code, _, err = sweep(capsys, spec, "--out", str(tmp_path / "out"))
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("proofkit: bad input: ")


def test_values_are_typed_as_set_would_and_numeric_ones_sorted():
    grid = {"scale": [2, "0.5"], "strict": ["yes", False], "mode": ["b", " a "]}
    with registry.using([TOY]):
        spec, _ = sweep_spec.parse({"theorem": "SWEEP.TOY", "grid": grid})
    assert spec.grid == {"mode": ["b", "a"], "scale": [0.5, 2.0], "strict": [True, False]}
    assert [type(v) for v in spec.grid["scale"]] == [float, float]
    assert len(spec.points()) == 8 and spec.points()[0].grid == {"mode": "b", "scale": 0.5, "strict": True}


@pytest.mark.skipif(sys.version_info < (3, 11), reason="TOML specs need tomllib (Python 3.11+)")
def test_toml_spec_is_the_same_spec(tmp_path):
    (tmp_path / "spec.toml").write_text('theorem = "SWEEP.TOY"\nseeds = [1, 0]\n[grid]\nn = [4, 1, 2, 6]\n'
                                        'mode = ["a", "b"]\n[fixed]\nscale = 2.5\n')
    (tmp_path / "bad.toml").write_text("theorem = \n")
    with registry.using([TOY]):
        json_spec, _ = sweep_spec.load(write_spec(tmp_path, fixed={"scale": 2.5}, seeds=[1, 0]))
        toml_spec, _ = sweep_spec.load(tmp_path / "spec.toml")
        with pytest.raises(InputError, match="^SPEC: expected valid TOML"):
            sweep_spec.load(tmp_path / "bad.toml")
    assert toml_spec.canonical() == json_spec.canonical() and toml_spec.sha256() == json_spec.sha256()


@pytest.mark.parametrize("where", ["[grid]\nscale = [BIG]\n", "[grid]\nn = [1]\n[fixed]\nscale = BIG\n",
                                   "[grid]\nn = [BIG]\n", "seeds = [BIG]\n[grid]\nn = [1]\n"])
def test_an_over_long_integer_in_a_toml_spec_is_one_line_exit_2(capsys, tmp_path, where):
    """Issue 27, item 3: a 400-digit integer (TOML has no digit limit) for a float parameter overflowed
    float() with a traceback and exit 1; every numeric value is bounded before it is converted."""
    spec = tmp_path / "spec.toml"
    spec.write_text('theorem = "SWEEP.TOY"\n' + where.replace("BIG", "9" * 400))
    code, out, err = run_cli(capsys, "--theorems", TOY, "sweep", str(spec), "--out", str(tmp_path / "o"))
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("proofkit: bad input: sweep spec ")
    assert "Traceback" not in err and not out


def test_out_is_required(capsys, tmp_path):
    code, _, err = sweep(capsys, write_spec(tmp_path))
    assert code == 2 and err.startswith("proofkit: bad input: --out: expected a sweep folder")


# ----------------------------------------------------------------------------------------- a local sweep
def test_local_sweep_points_summary_and_thresholds(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv(progress.ENV, raising=False)  # the suite silences progress lines; not here
    out = tmp_path / "out"
    code, summary, err = sweep(capsys, write_spec(tmp_path, out=str(out)))
    assert code == 0
    assert (summary["points"], summary["computed"], summary["resumed"], summary["failed"]) == (8, 8, 0, 0)
    status = {(r["grid"]["n"], r["grid"]["mode"]): r["status"] for r in summary["rows"]}
    assert status == {(n, m): HOLDS if n >= {"a": 3, "b": 5}[m] else REFUTED for n in (1, 2, 4, 6)
                      for m in "ab"}
    found = summary["threshold"]
    assert found["param"] == "n"
    assert [(g["at"], g["threshold"], g["warnings"]) for g in found["groups"]] == [
        ({"mode": "a"}, 4, []), ({"mode": "b"}, 6, [])]
    files = points(out)
    assert len(files) == 8 and {f"{r['key']}.json" for r in summary["rows"]} == set(files)
    body = json.loads(files[f"{summary['rows'][0]['key']}.json"])
    assert body["params"] == {"n": 1, "mode": "a", "scale": 1.0, "strict": False, "delay": 0.0}
    assert body["status"] == REFUTED and body["violated_assumptions"] == ["n>=3"]
    assert body["counterexample_search"]["found"] is True and body["proofkit_version"]
    assert body["record"].startswith("records/") and (out / body["record"]).is_file()  # relative to out
    manifest = json.loads((out / store.MANIFEST).read_text())
    assert manifest["spec_sha256"] == summary["spec_sha256"] and manifest["spec"]["grid"]["n"] == [1, 2, 4, 6]
    assert err.count(" -> ") == 8 and "[8/8] n=6 mode=b -> holds (" in err  # one progress line per point
    code, _, err = sweep(capsys, write_spec(tmp_path, out=str(out)), "-q")
    assert code == 0 and err == ""


def test_text_summary(capsys, tmp_path):
    spec = write_spec(tmp_path, out=str(tmp_path / "out"), search=False, seeds=[0, 3],
                      grid={"n": [2, 3], "mode": ["a"]})
    code, out, _ = run_cli(capsys, "--theorems", TOY, "sweep", str(spec))
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("SWEEP.TOY: sweep of 4 points over n (2) x mode (1), seeds 0, 3")
    assert re.fullmatch(r"  n\s+mode\s+seed\s+status\s+check\s+s", lines[2])
    assert re.fullmatch(r"  3\s+a\s+3\s+holds\s+certified\s+[0-9.]+", lines[6])
    assert lines[-3:] == ["smallest n from which every swept value holds:", "  mode=a seed=0: 3",
                          "  mode=a seed=3: 3"]


@pytest.mark.parametrize("grid,note", [
    ({"mode": ["a", "b"]}, "no threshold: no numeric parameter is swept"),
    ({"n": [3, 4], "scale": [1, 2]}, "no threshold: 2 numeric parameters are swept (n, scale)"),
])
def test_no_threshold_without_exactly_one_numeric_parameter(capsys, tmp_path, grid, note):
    spec = write_spec(tmp_path, out=str(tmp_path / "out"), search=False, grid=grid)
    code, summary, _ = sweep(capsys, spec)
    assert code == 0 and summary["threshold"] is None and summary["threshold_note"].startswith(note)
    code, text, _ = run_cli(capsys, "--theorems", TOY, "sweep", str(spec))
    assert code == 0 and "smallest" not in text and note in text


def test_thresholds_carry_scans_warnings_and_incomplete_groups():
    with registry.using([TOY]):
        spec, thm = sweep_spec.parse({"theorem": "SWEEP.TOY", "grid": {"n": [1, 2, 3], "mode": ["a", "b"]}})
    statuses = {("a", 1): HOLDS, ("a", 2): REFUTED, ("a", 3): HOLDS, ("b", 1): REFUTED, ("b", 2): HOLDS}
    entries = [Entry(p, str(i), None if (p.grid["mode"], p.grid["n"]) not in statuses else
                     {"status": statuses[p.grid["mode"], p.grid["n"]]}) for i, p in enumerate(spec.points())]
    found, note = thresholds(spec, thm, entries)
    assert note == "" and found["groups"] == [
        {"at": {"mode": "a"}, "threshold": 3, "complete": True, "missing": 0,
         "warnings": ["not monotone in n: n=1 holds but n=2 is refuted"]},
        {"at": {"mode": "b"}, "threshold": None, "complete": False, "missing": 1, "warnings": []}]


# ----------------------------------------------------------------------------------------- resume
def test_resume_recomputes_only_missing_or_unreadable_points(capsys, tmp_path):
    out = tmp_path / "out"
    spec = write_spec(tmp_path, out=str(out))
    assert sweep(capsys, spec)[0] == 0
    before = points(out)
    names = sorted(before)
    (out / store.POINTS / names[0]).unlink()
    (out / store.POINTS / names[1]).write_bytes(before[names[1]][:40])  # truncated
    (out / store.POINTS / names[2]).write_bytes(before[names[3]])  # holds another point
    code, summary, err = sweep(capsys, spec)
    assert code == 0 and (summary["computed"], summary["resumed"], summary["failed"]) == (3, 5, 0)
    assert {r["key"] + ".json" for r in summary["rows"] if not r["resumed"]} == set(names[:3])
    warnings = [line for line in err.splitlines() if line.startswith("proofkit: warning: ")]
    assert len(warnings) == 2 and "unreadable point file" in warnings[0] + warnings[1]
    assert "holds another point than its name says" in warnings[0] + warnings[1]
    after = points(out)
    assert [after[n] for n in names[3:]] == [before[n] for n in names[3:]]  # resumed: untouched
    assert [untimed(after[n]) for n in names] == [untimed(before[n]) for n in names]
    code, summary, _ = sweep(capsys, spec)
    assert (summary["computed"], summary["resumed"]) == (0, 8) and points(out) == after


def test_a_point_file_or_manifest_that_is_a_link_never_writes_through_it(capsys, tmp_path):
    """Issue 27, item 1: a point file replaced by a link to a file outside the sweep folder is recomputed
    and the link itself replaced; the outside file keeps its bytes. Likewise a linked manifest under
    --force, a dangling link and a link loop; a points/ folder that is a link is refused."""
    out, outside = tmp_path / "out", tmp_path / "outside.txt"
    spec = write_spec(tmp_path, out=str(out), grid={"n": [1, 2, 3]})
    assert sweep(capsys, spec)[0] == 0
    before = points(out)
    names = sorted(before)
    outside.write_text("not proofkit's")
    for name, target in zip(names, [outside, tmp_path / "missing.json", out / store.POINTS / names[2]]):
        (out / store.POINTS / name).unlink()
        (out / store.POINTS / name).symlink_to(target)
    (out / store.MANIFEST).unlink()
    (out / store.MANIFEST).symlink_to(outside)
    code, summary, _ = sweep(capsys, spec, "--force")
    assert code == 0 and summary["computed"] == 3 and outside.read_text() == "not proofkit's"
    assert not any((out / store.POINTS / n).is_symlink() for n in names)
    assert not (out / store.MANIFEST).is_symlink()
    assert {n: untimed(b) for n, b in points(out).items()} == {n: untimed(b) for n, b in before.items()}
    elsewhere = tmp_path / "elsewhere"
    (out / store.POINTS).rename(elsewhere)
    (out / store.POINTS).symlink_to(elsewhere)
    code, _, err = sweep(capsys, spec)
    assert code == 2 and len(err.splitlines()) == 1 and "symbolic link" in err


def test_another_spec_is_refused_unless_forced(capsys, tmp_path):
    out = tmp_path / "out"
    assert sweep(capsys, write_spec(tmp_path, out=str(out), grid={"n": [1, 2]}))[0] == 0
    code, _, err = sweep(capsys, write_spec(tmp_path, out=str(out), grid={"n": [1, 2]}, fixed={"scale": 2}))
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("proofkit: bad input: SPEC: ")
    assert "differs in fixed" in err
    # a wider grid with --force reuses the points it shares with the old one (same keys)
    code, summary, _ = sweep(capsys, write_spec(tmp_path, out=str(out), grid={"n": [1, 2, 3]}), "--force")
    assert code == 0 and (summary["computed"], summary["resumed"]) == (1, 2)
    assert json.loads((out / store.MANIFEST).read_text())["spec"]["grid"] == {"n": [1, 2, 3]}
    # out and description say where and why, not what: the same sweep
    code, summary, _ = sweep(capsys, write_spec(tmp_path, grid={"n": [1, 2, 3]}, description="why"),
                             "--out", str(out))
    assert code == 0 and summary["resumed"] == 3


def test_a_folder_that_is_no_sweep_is_refused_unless_forced(capsys, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    spec = write_spec(tmp_path, out=str(out), grid={"n": [3]})
    code, _, err = sweep(capsys, spec)
    assert code == 2 and err.startswith("proofkit: bad input: --out: expected a new or empty folder")
    assert sweep(capsys, spec, "--force")[0] == 0 and (out / "notes.txt").read_text() == "mine"


# ----------------------------------------------------------------------------------------- determinism
def test_point_files_are_identical_across_runs_and_pools(capsys, tmp_path):
    """Same spec, two folders, serial and two processes: the same file names and bytes, the elapsed
    seconds apart; the same manifest."""
    spec = write_spec(tmp_path, seeds=[0, 1], grid={"n": [1, 3], "mode": ["a", "b"]})
    assert sweep(capsys, spec, "--out", str(tmp_path / "one"))[0] == 0
    assert sweep(capsys, spec, "--out", str(tmp_path / "two"), "-j", "2")[0] == 0
    one, two = points(tmp_path / "one"), points(tmp_path / "two")
    assert len(one) == 8 and one.keys() == two.keys()
    assert {n: untimed(b) for n, b in one.items()} == {n: untimed(b) for n, b in two.items()}
    manifests = [(tmp_path / name / store.MANIFEST).read_bytes() for name in ("one", "two")]
    assert manifests[0] == manifests[1]


# ----------------------------------------------------------------------------------------- failures
@pytest.mark.parametrize("error,code", [(InputError("--max-work", "at most 1 unit", "2 units"), 2),
                                        (RuntimeError("worker lost"), 3)])
def test_points_that_fail_are_not_written_and_a_rerun_computes_them(capsys, tmp_path, monkeypatch, error,
                                                                    code):
    real = scan.scan_value_id

    def flaky(tid, param, value, *rest):
        if value == 2:
            raise error
        return real(tid, param, value, *rest)

    out = tmp_path / "out"
    spec = write_spec(tmp_path, out=str(out), grid={"n": [1, 2, 3]})
    monkeypatch.setattr(scan, "scan_value_id", flaky)
    got, summary, err = sweep(capsys, spec)
    assert got == code and (summary["computed"], summary["failed"]) == (2, 1) and len(points(out)) == 2
    (failed,) = [r for r in summary["rows"] if r["status"] == "failed"]
    assert failed["grid"] == {"n": 2} and str(error) in failed["reason"] and failed["file"] is None
    assert f"[2/3] n=2 -> not computed: {'' if code == 2 else 'crashed: RuntimeError: '}{error}" in err
    monkeypatch.setattr(scan, "scan_value_id", real)
    got, summary, _ = sweep(capsys, spec)
    assert got == 0 and (summary["computed"], summary["resumed"]) == (1, 2)


# ----------------------------------------------------------------------------------------- killed, resumed
def test_killed_sweep_resumes_from_its_completed_points(capsys, tmp_path):
    """SIGKILL while two pool workers compute points (0.15 s each): the files written stay as they are,
    the workers end with the sweep, the rerun computes only the rest, and the final set equals an
    uninterrupted run's (timing apart). psutil comes with the dev extra (Dask's dependency)."""
    psutil = pytest.importorskip("psutil")
    out = tmp_path / "killed"
    spec = write_spec(tmp_path, grid={"n": [1, 2, 3, 4, 5, 6]}, fixed={"delay": 0.15}, search=False)
    argv = [sys.executable, "-m", "proofkit.interface.cli", "--theorems", TOY, "sweep", str(spec),
            "--out", str(out), "-j", "2"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    try:
        deadline = time.monotonic() + 120
        while not list((out / store.POINTS).glob("*.json")):
            assert proc.poll() is None and time.monotonic() < deadline, "no point completed"
            time.sleep(0.01)
        workers = psutil.Process(proc.pid).children()
    finally:
        proc.kill()
        proc.wait()
    kept = points(out)
    assert proc.returncode < 0 and 1 <= len(kept) < 6 and len(workers) == 2
    deadline = time.monotonic() + 30
    try:
        while not all(_ended(psutil, w) for w in workers):  # no orphan goes on computing (or waiting)
            assert time.monotonic() < deadline, "pool workers outlived the killed sweep"
            time.sleep(0.01)
    finally:  # a failing run leaves no orphan behind either
        for w in workers:
            if not _ended(psutil, w):
                w.kill()
    code, summary, _ = sweep(capsys, spec, "--out", str(out), "-j", "2")
    assert code == 0 and (summary["resumed"], summary["computed"]) == (len(kept), 6 - len(kept))
    after = points(out)
    assert {n: after[n] for n in kept} == kept
    assert sweep(capsys, spec, "--out", str(tmp_path / "whole"), "-j", "2")[0] == 0
    whole = points(tmp_path / "whole")
    assert {n: untimed(b) for n, b in after.items()} == {n: untimed(b) for n, b in whole.items()}


def _ended(psutil, proc) -> bool:
    """The process has exited (a zombie until the init process reaps it, which can take a second)."""
    try:
        return proc.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


# ----------------------------------------------------------------------------------------- Dask optional
def test_scheduler_without_dask_is_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    code, _, err = sweep(capsys, write_spec(tmp_path, out=str(tmp_path / "out")), "--scheduler",
                         "tcp://127.0.0.1:8786")
    assert code == 2 and len(err.splitlines()) == 1 and 'pip install "proofkit[dask]"' in err
    assert not (tmp_path / "out").exists()


def test_jobs_with_a_scheduler_is_bad_input(capsys, tmp_path):
    code, _, err = sweep(capsys, write_spec(tmp_path, out=str(tmp_path / "out")), "--scheduler",
                         "tcp://127.0.0.1:8786", "-j", "2")
    assert code == 2 and err.startswith("proofkit: bad input: -j: expected no -j with --scheduler")


def test_the_core_does_not_import_dask():
    probe = ("import sys, proofkit.interface.cli, proofkit.sweep.cli, proofkit.sweep.runner\n"
             "print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# ----------------------------------------------------------------------------------------- documented example
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "sweep_am24_t4.json"


def test_documented_example_spec_is_valid():
    spec, theorem = sweep_spec.load(EXAMPLE)
    assert theorem.id == "AM24.T4" and spec.grid == {"T": [1, 2, 3], "activation": ["sigmoid", "tanh"]}
    assert spec.size() == 6 and spec.search and spec.out == "sweeps/am24_t4"


@pytest.mark.slow
def test_documented_example_sweep(capsys, tmp_path):
    """docs/sweeps.md's run: T = 1 refuted, T = 2 and 3 hold, for both activations (20-40 s on 2 cores)."""
    code, summary, _ = sweep(capsys, EXAMPLE, "--out", str(tmp_path / "am24_t4"), "-j", "2")
    assert code == 0 and [r["status"] for r in summary["rows"]] == [REFUTED] * 2 + [HOLDS] * 4
    assert [(g["at"], g["threshold"]) for g in summary["threshold"]["groups"]] == [
        ({"activation": "sigmoid"}, 2), ({"activation": "tanh"}, 2)]
