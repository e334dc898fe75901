"""The array namespace: selection by --backend / $PROOFKIT_BACKEND, one-line errors for a missing CuPy,
host round trips, memory-bounded batches, float64 Ops on a strict namespace."""

from __future__ import annotations

import numpy as np
import pytest

from proofkit.errors import InputError
from proofkit.interface.cli import main
from proofkit.numerics import arrays


def test_default_is_numpy_and_using_restores(monkeypatch):
    monkeypatch.delenv(arrays.ENV, raising=False)
    assert arrays.current() == "numpy" and arrays.is_numpy(arrays.namespace())
    with arrays.using("array-api-strict") as name:
        assert name == "array-api-strict" and not arrays.is_numpy(arrays.namespace())
        with arrays.using(None):
            assert arrays.current() == "array-api-strict"
    assert arrays.current() == "numpy"


def test_environment_variable_selects_and_is_validated(monkeypatch):
    monkeypatch.setenv(arrays.ENV, "array-api-strict")
    assert arrays.current() == "array-api-strict"
    monkeypatch.setenv(arrays.ENV, "torch")
    with pytest.raises(InputError, match=r"\$PROOFKIT_BACKEND: expected one of numpy, cupy, got 'torch'"):
        arrays.current()


def _cupy_missing() -> bool:
    try:
        arrays.namespace("cupy")
    except InputError:
        return True
    return False


@pytest.mark.skipif(not _cupy_missing(), reason="CuPy and a device are present here")
@pytest.mark.parametrize("argv,env", [(["--backend", "cupy", "list"], None), (["list"], "cupy")])
def test_cupy_without_the_gpu_extra_is_one_line_exit_2(capsys, monkeypatch, argv, env):
    monkeypatch.delenv(arrays.ENV, raising=False)
    if env is not None:
        monkeypatch.setenv(arrays.ENV, env)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1 and "cupy" in lines[0] and "Traceback" not in err
    field = "--backend" if env is None else "$PROOFKIT_BACKEND"
    assert lines[0].startswith(f"proofkit: bad input: {field}: expected ")


def test_backend_choices_are_checked_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--backend", "torch", "list"])
    assert exc.value.code == 2 and "--backend" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["numpy", "array-api-strict"])
def test_round_trip_and_float64_ops(name):
    xp = arrays.namespace(name)
    host = np.array([[-2.0, 0.0, 3.5]])
    a = arrays.asarray(host, xp, xp.float64)
    ops = arrays.float64_ops(xp)
    np.testing.assert_array_equal(arrays.to_numpy(ops.tanh(a)), np.tanh(host))
    np.testing.assert_array_equal(arrays.to_numpy(ops.exp(a)), np.exp(host))
    np.testing.assert_allclose(arrays.to_numpy(ops.log1p_exp(a)), np.logaddexp(0.0, host), rtol=0, atol=0)
    assert arrays.to_numpy(ops.asarray([1, 2])).dtype == np.float64


@pytest.mark.gpu
def test_cupy_round_trip():
    xp = arrays.namespace("cupy")
    host = np.linspace(-1, 1, 7)
    np.testing.assert_allclose(arrays.to_numpy(xp.tanh(arrays.asarray(host, xp))), np.tanh(host), rtol=1e-15)
    assert "cupy" in arrays.device_name("cupy")


@pytest.mark.parametrize("total,row,budget", [(0, 5, 10), (7, 3, 10), (10, 1, 10), (5, 100, 10)])
def test_batches_cover_the_range_within_budget(total, row, budget):
    parts = list(arrays.batches(total, row, budget))
    covered = [i for s in parts for i in range(s.start, s.stop)]
    assert covered == list(range(total))
    assert all((s.stop - s.start) * row <= max(budget, row) for s in parts)
