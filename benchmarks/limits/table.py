"""The table of docs/limits.md: every theorem at the top of its parameter ranges, measured and estimated.

    python benchmarks/limits/table.py benchmarks/limits/runs.jsonl

For each theorem with numeric parameters: the setting with every numeric parameter at its maximum, the
CPU seconds measured there (">=" when the run was cut at the wall limit), and what proofkit does with it
now: refused by the theorem's Cost estimate before any work (with the estimate), or run (the measured time
must then be under a minute). A theorem measured only below its top is said so.
"""

from __future__ import annotations

import json
import sys

from measure import top_of_ranges  # the same setting the measurement used (this script's folder)

from proofkit.engine.costguard import guard
from proofkit.errors import InputError
from proofkit.language import registry


def main() -> None:
    runs = [json.loads(line) for line in open(sys.argv[1])]
    print("| theorem | every numeric parameter at its maximum | measured (CPU s) | at the default cap |")
    print("|---|---|---|---|")
    for tid, thm in registry.load_all().items():
        sets = top_of_ranges(tid)
        if not sets:
            continue
        hit = [r for r in runs if r["id"] == tid and sorted(r["sets"]) == sorted(sets)]
        measured = "not measured" if not hit else (">= " if hit[-1]["exit"] == "timeout" else "") + \
            f"{hit[-1]['cpu']:g}"
        pairs = [s.split("=", 1) for s in sets]
        params = thm.params.resolve({k: thm.params.get(k).parse(v) for k, v in pairs})
        try:
            guard(thm, params)
            now = "runs"
        except InputError as exc:
            est = str(exc).split("= ")[-2].split(" x ")[0] if "= " in str(exc) else "?"
            now = f"refused (estimate {est})"
        print(f"| {tid} | {', '.join(sets)} | {measured} | {now} |")


if __name__ == "__main__":
    main()
