"""The vectorized C-RASP interpreter, the string enumerators and the one-way row counter through the array
namespace (proofkit.numerics.arrays): the same results, bit for bit, on numpy and on array-api-strict (which
has
nothing beyond the standard, so a numpy-only habit fails here), and on CuPy where a GPU is present."""

from __future__ import annotations

from pathlib import Path

import array_api_compat
import numpy as np
import pytest

from proofkit.crasp import load
from proofkit.crasp.communication import comm
from proofkit.crasp.semantics import interp, truth, vector
from proofkit.errors import InputError
from proofkit.numerics import arrays

PROGRAMS = Path(__file__).resolve().parents[2] / "theorems" / "hyb24" / "programs"
#: together these use every op kind (checked below); lengths keep every enumeration small
CASES = {"majority": 7, "dyck1": 7, "tomita7_local": 7, "aa_star": 7, "subseq_aab": 7, "anbncn": 5,
         "induction_head_argmax": 5, "task_sort_V4": 3}
BACKENDS = ["numpy", "array-api-strict", pytest.param("cupy", marks=pytest.mark.gpu)]


def _program(name: str):
    return load(PROGRAMS / f"{name}.crasp")


def _in(a, xp) -> bool:
    """Whether ``a`` is an array of the namespace ``xp`` (results stay where they were computed)."""
    ns = array_api_compat.array_namespace(a)
    return ns is xp or (arrays.is_numpy(ns) and arrays.is_numpy(xp))


def test_the_cases_cover_every_kernel():
    kinds = {op.kind for name in CASES for op in _program(name).ops}
    assert kinds == set(vector.KERNELS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_interpreter_is_identical_on_every_namespace(backend, name):
    xp, program, n = arrays.namespace(backend), _program(name), CASES[name]
    k = len(program.alphabet)
    X = vector.all_strings(k, n)
    want = vector.accepts_prefixes(program, X, arrays.namespace("numpy"))
    Xd = vector.all_strings(k, n, xp)
    assert _in(Xd, xp) and np.array_equal(arrays.to_numpy(Xd), X)
    got = vector.accepts_prefixes(program, Xd, xp)
    assert _in(got, xp) and got.dtype == xp.bool and np.array_equal(arrays.to_numpy(got), want)
    batch = vector.accepts_batch(program, arrays.asarray(X, xp), xp)
    assert np.array_equal(arrays.to_numpy(batch), want[:, -1])
    rows = X[:: max(1, X.shape[0] // 40)]  # every op at every position on a spread of strings
    ref = vector.evaluate_batch(program, rows, arrays.namespace("numpy"))
    dev = vector.evaluate_batch(program, arrays.asarray(rows, xp), xp)
    assert ref.keys() == dev.keys() == {op.name for op in program.ops}
    for op_name, value in dev.items():
        host = arrays.to_numpy(value)
        assert _in(value, xp) and host.dtype == ref[op_name].dtype and np.array_equal(host, ref[op_name])
    for r in rows[:5]:  # anchored to the reference interpreter, not only to itself
        word = [program.alphabet[i] for i in r]
        assert [bool(v) for v in want[X.tolist().index(r.tolist())]] == \
            [bool(v) for v in interp.evaluate(program, word)[program.output]]


@pytest.mark.parametrize("backend", ["numpy", "array-api-strict"])
def test_row_loop_chunks_and_empty_batches_on_the_namespace(monkeypatch, backend):
    xp, program = arrays.namespace(backend), _program("tomita7_pt")
    X = vector.all_strings(2, 8)
    want = vector.accepts_prefixes(program, X, arrays.namespace("numpy"))
    monkeypatch.setattr(vector, "ROW_LOOP_WIDTH", 4)  # the wide-batch count loop
    monkeypatch.setattr(vector, "CHUNK_CELLS", 9 * 37)
    monkeypatch.setattr(vector, "DEVICE_CHUNK_CELLS", 9 * 37)  # 37 strings a chunk, a ragged last one
    assert np.array_equal(arrays.to_numpy(vector.accepts_prefixes(program, arrays.asarray(X, xp), xp)), want)
    for shape in ((0, 4), (3, 0)):
        out = vector.accepts_prefixes(program, xp.zeros(shape, dtype=xp.int64), xp)
        assert out.shape == (shape[0], shape[1] + 1)
    assert np.array_equal(arrays.to_numpy(vector.accepts_prefixes(program, xp.zeros((3, 0), dtype=xp.int64),
                                                                  xp)), want[:3, :1])


def test_no_namespace_means_the_backend_in_and_numpy_out():
    program = _program("dyck1")
    X = vector.all_strings(2, 6)
    want = vector.accepts_prefixes(program, X)
    with arrays.using("array-api-strict"):
        got = vector.accepts_prefixes(program, X)
        values = vector.evaluate_batch(program, X[:5])
        strings = vector.all_strings(2, 3)
    assert isinstance(got, np.ndarray) and np.array_equal(got, want)
    assert all(isinstance(v, np.ndarray) for v in values.values()) and isinstance(strings, np.ndarray)


@pytest.mark.parametrize("backend", ["numpy", "array-api-strict"])
@pytest.mark.parametrize(("X", "match"), [([[0, 2]], r"symbol indices in \[0, 2\)"), ([[-1, 0]], "values in"),
                                          ([[0.0, 1.0]], "integer array"), ([0, 1], "integer array")])
def test_bad_strings_are_refused_alike(backend, X, match):
    with pytest.raises(InputError, match=match):
        vector.accepts_prefixes(_program("majority"), arrays.asarray(X, arrays.namespace(backend)),
                                arrays.namespace(backend))


@pytest.mark.parametrize("backend", BACKENDS)
def test_string_ranges_are_identical(backend):
    xp = arrays.namespace(backend)
    for k, n, start, stop in ((2, 9, 0, None), (3, 5, 17, 101), (4, 3, 60, 10**6), (1, 4, 0, None),
                              (2, 0, 0, 1)):
        got = truth.all_strings(k, n, start, stop, xp)
        want = truth.all_strings(k, n, start, stop)
        assert _in(got, xp) and np.array_equal(arrays.to_numpy(got), want) and want.dtype == np.int64


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("mode", comm.MODES)
@pytest.mark.parametrize(("name", "N"), [("majority", 4), ("dyck1", 4), ("tomita7_local", 4), ("anbncn", 3)])
def test_rows_are_identical_on_every_namespace(backend, mode, name, N):
    xp, program = arrays.namespace(backend), _program(name)
    k = len(program.alphabet)
    want = comm.rows(lambda X: vector.accepts_prefixes(program, X), k, N, mode)
    for chunk in (1 << 18, 2 * k**N + 1):  # one chunk; many chunks of two Alice halves and a ragged last one
        got = comm.rows(lambda X: vector.accepts_prefixes(program, X, xp), k, N, mode, chunk, xp=xp)
        assert got == want
    assert want <= comm.program_bound_for_ops(program.ops, N)


@pytest.mark.parametrize("backend", ["numpy", "array-api-strict"])
def test_rows_take_host_output_and_reject_bad_shapes_on_a_namespace(backend):
    xp = arrays.namespace(backend)
    want = comm.rows(comm.copy_marked_family, 2, 4, "prefix-vector")
    assert want == 2**4
    host_f = lambda X: comm.copy_marked_family(arrays.to_numpy(X))  # noqa: E731 (a host prefix function)
    assert comm.rows(host_f, 2, 4, "prefix-vector", xp=xp) == want
    with pytest.raises(InputError, match="f_prefixes"):
        comm.rows(lambda X: xp.zeros((X.shape[0], 3), dtype=xp.bool), 2, 3, xp=xp)


def test_packed_rows_separate_every_bit():
    xp = arrays.namespace("array-api-strict")
    for m in (13, 16):  # with and without padding to whole bytes
        bits = np.eye(m, dtype=bool).reshape(m, m, 1)  # one set bit per row, at every position
        packed = arrays.to_numpy(comm._packbits(arrays.asarray(bits, xp), xp))
        assert packed.shape == (m, 2, 1) and len({r.tobytes() for r in packed}) == m
        assert [int(np.unpackbits(r).sum()) for r in packed] == [1] * m
