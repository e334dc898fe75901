"""No code runs from text anywhere in the package (the brief: never eval, sympify of untrusted text or
pickle): every sympify call passes strict=True (which refuses strings), and eval, exec, pickle, yaml and
parse_expr appear nowhere. A source scan, so a new call site fails here before any input reaches it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "proofkit"
FORBIDDEN_CALLS = {"eval", "exec", "parse_expr"}
FORBIDDEN_IMPORTS = {"pickle", "yaml", "marshal", "shelve", "dill"}


def _calls():
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            yield path, node


def test_every_sympify_is_strict_and_nothing_evaluates_text():
    bad = []
    for path, node in _calls():
        where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            strict = any(k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is True
                         for k in node.keywords)
            if name == "sympify" and not strict:
                bad.append(f"{where}: sympify without strict=True")
            if name in FORBIDDEN_CALLS:
                bad.append(f"{where}: {name}")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom)
                                                      and node.module else [])
            bad += [f"{where}: import {n}" for n in names if n.split(".")[0] in FORBIDDEN_IMPORTS]
    assert not bad, bad
