"""The machine a benchmark ran on: CPU, memory, OS, Python, library versions, BLAS threads, GPU, the git
commit of the source tree, and the load average at the start (timings under shared load are noisy)."""

from __future__ import annotations

import os
import platform
import re
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..language import registry
from ..numerics import arrays

PACKAGES = ("numpy", "scipy", "sympy", "mpmath", "python-flint", "array-api-compat", "cupy-cuda12x")
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def source_root() -> Path | None:
    """proofkit's source tree (where ``theorems/`` lives beside the package), None for an installed
    package."""
    builtin = registry.builtin_dir()
    return None if builtin is None else builtin.parent


def _cpu_model() -> str:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return platform.processor() or platform.machine()
    found = re.search(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)
    return found.group(1).strip() if found else platform.processor() or platform.machine()


def _memory_gib() -> float | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        return None


def _versions() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def _blas() -> dict[str, str]:
    import numpy as np

    out = {var: os.environ.get(var, "unset") for var in BLAS_THREADS}
    try:
        config = np.show_config(mode="dicts")
        blas = config["Build Dependencies"]["blas"]
        out["library"] = f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except (TypeError, KeyError):  # numpy < 1.26 has no mode="dicts"
        out["library"] = "unknown"
    return out


def gpu() -> str:
    """The CuPy device, or "none: <why>" (the reason arrays.namespace gives)."""
    try:
        arrays.namespace("cupy")
    except InputError as exc:
        return f"none: {exc}"
    return arrays.device_name("cupy")


#: what a full run itself rewrites: a change there does not make the measured code differ from the commit
OUTPUTS = ("docs/benchmarks.md",)


def _git(root: Path | None) -> dict[str, Any]:
    """The commit measured and whether tracked files differ from it (besides the page a run writes)."""
    if root is None or not (root / ".git").exists():
        return {"commit": None, "dirty": None}
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no",
                                 "--", ".", *(f":!{p}" for p in OUTPUTS)],
                                capture_output=True, text=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": bool(status.strip())}


def describe() -> dict[str, Any]:
    """Everything above as a JSON-ready dict."""
    try:
        affinity = len(os.sched_getaffinity(0))
    except AttributeError:
        affinity = os.cpu_count()
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {"cpu": _cpu_model(), "cpus": os.cpu_count(), "cpus_usable": affinity, "memory_gib": _memory_gib(),
            "os": platform.platform(), "python": platform.python_version(), "packages": _versions(),
            "blas": _blas(), "gpu": gpu(), "git": _git(source_root()), "load_average_start": load}


def tag(machine: dict[str, Any]) -> str:
    """A short machine tag for result file names: CPU count and GPU (e.g. ``2cpu-nogpu``)."""
    name = machine.get("gpu", "")
    if name.startswith("none"):
        g = "nogpu"
    else:
        g = re.sub(r"[^a-z0-9]+", "", name.rsplit(" on ", 1)[-1].lower().replace("nvidia", ""))[:12] or "gpu"
    return f"{machine.get('cpus_usable') or machine.get('cpus')}cpu-{g}"
