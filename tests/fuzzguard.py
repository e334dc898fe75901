"""Shared by the fuzz tests (loaders, C-RASP, CLI): the per-case deadline, and a guard that no code runs
from input: eval, exec, compile, pickle, yaml and sympify of strings raise inside the block."""

from __future__ import annotations

import builtins
import pickle
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from proofkit.language import registry
from proofkit.storage import formats

#: every case has this long (Hypothesis fails a case slower than this twice: a hang or a blow-up)
DEADLINE = timedelta(seconds=2)


# ----------------------------------------------------------------------------- no code from input
_ACTIVE = [False]
_AUDITED = ("exec", "compile", "pickle.find_class", "os.system", "subprocess.Popen")


def _audit(event: str, _args: Any) -> None:
    if _ACTIVE[0] and event in _AUDITED:
        _ACTIVE[0] = False  # the failure itself may compile or import
        raise AssertionError(f"audit event {event!r} on the loader/replay path")


sys.addaudithook(_audit)


@contextmanager
def no_code_from_input() -> Iterator[None]:
    """eval, exec, compile, pickle, yaml.load, sympify of a string and parse_expr raise inside the block
    (patched where they live, plus an audit hook for references bound before the patch). The theorem set
    is loaded before the block: theorem files are code the user named, not input."""
    import sympy
    import sympy.parsing.sympy_parser as parser

    sympify_module = sys.modules["sympy.core.sympify"]  # the attribute sympy.core.sympify is the function

    def refuse(name: str) -> Any:
        def call(*_args: Any, **_kw: Any) -> Any:
            raise AssertionError(f"{name} called on the loader/replay path")
        return call

    original = sympify_module.sympify

    def sympify(a: Any, *args: Any, **kw: Any) -> Any:
        if isinstance(a, str):
            raise AssertionError(f"sympify of a string ({a[:40]!r}) on the loader/replay path")
        return original(a, *args, **kw)

    theorems = registry.load_all()  # the built-in theorem files: imported (once) before, not from input
    formats.prepare()  # jsonschema's validator classes are generated code: built before, not from input
    patches = [(registry, "load_all", lambda extra=(): theorems),
               (builtins, "eval", refuse("eval")), (builtins, "exec", refuse("exec")),
               (builtins, "compile", refuse("compile")), (pickle, "loads", refuse("pickle.loads")),
               (pickle, "load", refuse("pickle.load")), (pickle, "Unpickler", refuse("pickle.Unpickler")),
               (sympify_module, "sympify", sympify), (sympy, "sympify", sympify),
               (parser, "parse_expr", refuse("parse_expr"))]
    try:
        import yaml
        patches += [(yaml, name, refuse(f"yaml.{name}")) for name in ("load", "unsafe_load", "full_load")
                    if hasattr(yaml, name)]
    except ImportError:
        pass
    saved = [(obj, name, getattr(obj, name)) for obj, name, _ in patches]
    for obj, name, value in patches:
        setattr(obj, name, value)
    _ACTIVE[0] = True
    try:
        yield
    finally:
        _ACTIVE[0] = False
        for obj, name, value in saved:
            setattr(obj, name, value)


