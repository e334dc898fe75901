"""Issue #10 finding 3: program files and DFA files are read bounded and without blocking: a device, a
FIFO or an oversized file is an input error (exit 2, one line), never a hang or memory exhaustion."""

import os
from pathlib import Path

import pytest

from proofkit.interface.testing import run_cli


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_program_from_a_fifo_or_device_is_refused(capsys, tmp_path):
    fifo = tmp_path / "prog.crasp"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero"):
        code, _, err = run_cli(capsys, "crasp", "eval", path, "--string", "ab")
        assert code == 2 and "program file" in err and len(err.strip().splitlines()) == 1, err


def test_oversized_program_is_refused_before_reading_it_all(capsys, tmp_path):
    big = tmp_path / "big.crasp"
    big.write_bytes(b"P := Q\n" * 200_000)
    code, _, err = run_cli(capsys, "crasp", "eval", str(big), "--string", "ab")
    assert code == 2 and "program file" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_dfa_from_a_fifo_is_refused(capsys, tmp_path):
    prog = next((Path(__file__).resolve().parents[2] / "theorems" / "hyb24" / "programs").glob("*.crasp"))
    fifo = tmp_path / "dfa.json"
    os.mkfifo(fifo)
    code, _, err = run_cli(capsys, "crasp", "check", str(prog), "--against", str(fifo), "--max-len", "3")
    assert code == 2 and "--against" in err and len(err.strip().splitlines()) == 1, err
