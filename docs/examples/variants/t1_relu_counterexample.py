"""Worked example 2 (docs/variants.md): drop an assumption of AM24.T1 (the injective readout) at another
training length (T = 2) and search for a counterexample; the structured family it selects gives an
exact rational certificate, and the stored record replays. Run:
python docs/examples/variants/t1_relu_counterexample.py"""

import tempfile
from pathlib import Path

from proofkit import falsify, registry, replay

with tempfile.TemporaryDirectory() as folder:
    result = falsify(registry.get("AM24.T1"), ["A1.injective"], {"T": 2}, out_dir=Path(folder))
    print(f"{result.theorem} without A1.injective at T = 2: {result.verdict}, certified: {result.certified}")
    print(f"  {result.how}")
    print(f"  witness {result.record['witness']}; search: {result.effort}")
    print(f"  record replays: {replay(result.record_path).reproduces}")
