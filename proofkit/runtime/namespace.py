"""Lazy package surfaces (PEP 562): a model namespace lists the names theorem authors import from it, each
with the module that defines it, and imports that module on first use. So ``from proofkit.crasp.theory
import maj2`` does not import every analysis of the package, and the surface is data that docs/api.md and a
test read (:data:`PUBLIC` of each package)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType


def lazy(package: str, public: Mapping[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` whose public names ``public`` maps to their defining
    modules; a name that is a submodule of the package maps to itself (``package.name``). The value is
    stored in the package on first use."""
    namespace: ModuleType | None = None

    def getattr_(name: str) -> object:
        nonlocal namespace
        if name not in public:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(public[name])
        value = module if public[name] == f"{package}.{name}" else getattr(module, name)
        namespace = namespace or importlib.import_module(package)
        setattr(namespace, name, value)
        return value

    def dir_() -> list[str]:
        return sorted(public)

    return getattr_, dir_
