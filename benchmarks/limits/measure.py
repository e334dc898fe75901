"""Time `proofkit check` at the top of every theorem's parameter ranges (issue 27, item 5).

    python benchmarks/limits/measure.py OUT.jsonl [--combos COMBOS.json] [IDS...]

Without --combos: one run per theorem with every numeric parameter at its maximum (the seed apart). With
--combos: the listed [id, ["k=v", ...]] settings (what a Cost declaration is calibrated on). Each run is a
subprocess `proofkit check ID --set ... -q --json --max-work 1e15` (the estimate is not applied, so the
real time is measured) with a wall limit; the CPU seconds of the child (user + system) are recorded
beside the wall seconds, since a shared machine inflates wall time and not CPU time. Appends one JSON
line per run: id, sets, cpu, wall, exit (or "timeout").
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import time

from proofkit.language import registry

WALL_LIMIT_S = 300


def top_of_ranges(tid: str) -> list[str]:
    thm = registry.get(tid)
    return [f"{p.name}={int(p.max) if p.type is int else p.max}" for p in thm.params.params
            if p.type in (int, float) and p.max is not None and p.name != "seed"]


def run(tid: str, sets: list[str]) -> dict:
    args = [x for s in sets for x in ("--set", s)]
    before, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.time()
    try:
        code: object = subprocess.run(["proofkit", "check", tid, *args, "-q", "--json", "--max-work", "1e15"],
                                      capture_output=True, text=True, timeout=WALL_LIMIT_S).returncode
    except subprocess.TimeoutExpired:
        code = "timeout"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"id": tid, "sets": sets, "cpu": round(cpu, 1), "wall": round(time.time() - t0, 1), "exit": code}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--combos", default=None)
    ap.add_argument("ids", nargs="*")
    a = ap.parse_args()
    if a.combos:
        todo = [(tid, sets) for tid, sets in json.loads(open(a.combos).read())]
    else:
        todo = [(tid, top_of_ranges(tid)) for tid in (a.ids or registry.load_all())]
    with open(a.out, "a") as out:
        for tid, sets in todo:
            if sets or a.combos:
                out.write(json.dumps(run(tid, sets)) + "\n")
                out.flush()


if __name__ == "__main__":
    main()
