"""One array namespace for batched float64 work: numpy (default), CuPy, or array-api-strict (tests).

Every batched float64 evaluation (model forward passes over large support samples, support screening,
the vectorized C-RASP interpreter, the row counter, the float64 screens of the limit and positional
models) takes its array functions from :func:`namespace`, a namespace of the Python array API standard
(array-api-compat wraps numpy and CuPy into one; array-api-strict has nothing beyond the standard, so a
numpy-only habit fails in the suite instead of on a GPU). The exact and ball stages never use it: what
runs here is float64 *screening*, and a verdict stronger than "screened" is re-established on the CPU
core at high precision or with balls.

The backend is chosen by ``--backend numpy|cupy`` or ``$PROOFKIT_BACKEND``; asking for CuPy without it
installed (``pip install "proofkit[gpu]"``) or without a device is bad input (one line, exit 2), never a
silent fall-back to numpy.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from ..errors import InputError, one_of

ENV = "PROOFKIT_BACKEND"
#: what ``--backend`` accepts; "array-api-strict" is accepted by the API for tests and audits
CLI_BACKENDS = ("numpy", "cupy")
BACKENDS = (*CLI_BACKENDS, "array-api-strict")
GPU_HINT = 'pip install "proofkit[gpu]" (CuPy for CUDA 12, wheel cupy-cuda12x)'

_selected: str | None = None  # set by using(); None: $PROOFKIT_BACKEND or numpy


def _validate(name: str, field: str) -> str:
    if name not in BACKENDS:
        raise one_of(field, CLI_BACKENDS, name)
    return name


def current() -> str:
    """The selected backend: the innermost :func:`using`, else ``$PROOFKIT_BACKEND``, else numpy."""
    if _selected is not None:
        return _selected
    env = os.environ.get(ENV, "").strip()
    return _validate(env, f"${ENV}") if env else "numpy"


@contextmanager
def using(name: str | None) -> Iterator[str]:
    """Select a backend for the block (None keeps the current one); the namespace is loaded up front so
    that a missing CuPy is reported before any work starts."""
    global _selected
    previous = _selected
    if name is not None:
        _selected = _validate(name, "--backend")
    try:
        namespace()
        yield current()
    finally:
        _selected = previous


def namespace(name: str | None = None) -> Any:
    """The array-API namespace of ``name`` (default: :func:`current`)."""
    field = "--backend" if name is not None or _selected is not None else f"${ENV}"
    name = current() if name is None else _validate(name, field)
    if name == "numpy":
        import array_api_compat.numpy as xp

        return xp
    if name == "array-api-strict":
        try:
            import array_api_strict as xp
        except ImportError:
            raise InputError(field, "array-api-strict installed (pip install array-api-strict)",
                             name) from None
        return xp
    try:
        import cupy
    except ImportError:
        raise InputError(field, f"cupy installed: {GPU_HINT}", name) from None
    try:
        devices = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CUDA driver missing or broken: CuPy imports but cannot run
        raise InputError(field, f"a working CUDA device for cupy ({type(exc).__name__})", name) from None
    if devices < 1:
        raise InputError(field, "a CUDA device for cupy (none found)", name)
    import array_api_compat.cupy as xp

    return xp


def is_numpy(xp: Any) -> bool:
    """Whether ``xp`` computes on numpy arrays (results need no transfer)."""
    import array_api_compat

    return array_api_compat.is_numpy_namespace(xp)


def asarray(a: Any, xp: Any, dtype: Any = None) -> Any:
    """``a`` as an array of ``xp``: host data (numpy, lists) is moved once, an array already of a
    non-numpy namespace stays where it is for that namespace (no round trip through the host) and is
    brought to the host for numpy."""
    import array_api_compat

    device = array_api_compat.is_array_api_obj(a) and not isinstance(a, np.ndarray)
    if device and is_numpy(xp):
        a = to_numpy(a)
    elif not device:
        a = np.asarray(a)
    return xp.asarray(a) if dtype is None else xp.asarray(a, dtype=dtype)


def to_numpy(a: Any) -> np.ndarray:
    """Any namespace's array back on the host as a numpy array."""
    if isinstance(a, np.ndarray):
        return a
    if hasattr(a, "get") and type(a).__module__.startswith("cupy"):
        return a.get()
    return np.from_dlpack(a) if hasattr(a, "__dlpack__") else np.asarray(a)


def device_name(name: str | None = None) -> str:
    """A description of where the namespace computes, for records and benchmark tables."""
    name = current() if name is None else name
    if name != "cupy":
        return f"{name} (CPU)"
    import cupy

    props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
    gpu = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
    return f"cupy {cupy.__version__} on {gpu}"


def float64_ops(xp: Any) -> Any:
    """The float64 :class:`proofkit.numerics.backend.Ops` computing in ``xp`` (what families' forward passes
    take)."""
    from .backend import FLOAT64, Ops

    if is_numpy(xp):
        return FLOAT64
    return Ops("float64", False, xp.exp, xp.tanh, lambda z: xp.logaddexp(xp.zeros_like(z), z),
               lambda v: float(v), xp)


def batches(total: int, row_elems: int, budget: int = 2**24) -> Iterator[slice]:
    """Slices of ``range(total)`` holding at most ``budget`` elements of ``row_elems`` each (bounded
    device memory for any sample size)."""
    step = max(1, budget // max(1, row_elems))
    for start in range(0, total, step):
        yield slice(start, min(total, start + step))
