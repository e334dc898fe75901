"""docs/variants.md: its two worked examples (docs/examples/variants/) run and print the verdicts the
document shows."""

from __future__ import annotations

import runpy
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "variants"
DOC = Path(__file__).resolve().parents[2] / "docs" / "variants.md"


def run_example(name: str, capsys) -> str:
    runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    return capsys.readouterr().out


def test_parameter_variant_with_a_new_claim(capsys):
    out = run_example("t1_tanh_variant.py", capsys)
    assert out.startswith("MY.T1-tanh: certified (as expected: True)")
    for line in ("[certified] length generalization", "[certified] A psi = B phi on [0,1]^n",
                 "[refuted] claimed: A psi = -B phi"):
        assert line in out, line


def test_dropped_assumption_counterexample(capsys):
    out = run_example("t1_relu_counterexample.py", capsys)
    assert out.startswith("AM24.T1 without A1.injective at T = 2: refuted, certified: True")
    assert "output gap at the witness = 11/25" in out and "record replays: True" in out


def test_doc_names_the_examples():
    text = DOC.read_text()
    assert "t1_tanh_variant.py" in text and "t1_relu_counterexample.py" in text
