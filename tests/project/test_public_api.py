"""The public API for theorem authors (issue 25): ``from proofkit import ...`` plus the surfaces of the model
packages (``PUBLIC`` / ``__all__`` of a package ``__init__``). Every public name resolves to what its defining
module holds, importing proofkit stays light, docs/api.md is current, and every theorem file and docs
example imports only public names: a name ``proofkit`` exports from ``proofkit``, anything else from a model
package's surface; never from a module file, never the engine's inside."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import proofkit
from proofkit.interface import apidoc

ROOT = Path(__file__).resolve().parents[2]
MODEL_NAMESPACES = tuple(ns.split(".")[1] for ns in apidoc.NAMESPACES)


def _author_files() -> list[Path]:
    out = [p for p in (ROOT / "theorems").rglob("*.py") if "__pycache__" not in p.parts]
    out += [p for p in (ROOT / "docs" / "examples").rglob("*.py") if "__pycache__" not in p.parts]
    return out + sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


def _code(path: Path) -> str:
    """A Python file's text, or the ```python blocks of a Markdown page (docs examples)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".md":
        return text
    return "\n".join(m.group(1) for m in re.finditer(r"```python\n(.*?)```", text, re.S))


def _imports(path: Path) -> list[tuple[str, str]]:
    out = []
    for node in ast.walk(ast.parse(_code(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("proofkit"):
            out += [(node.module, a.name) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, "") for a in node.names if a.name.startswith("proofkit")]
    return out


def _violation(module: str, name: str) -> str:
    """Why ``from module import name`` is not public API ("" when it is)."""
    if not name:
        return "(import a name, not a module path)"
    if module == "proofkit":
        return "" if name in proofkit.__all__ else "(not public)"
    if proofkit._PUBLIC.get(name) == module or proofkit._MODULES.get(name) == f"{module}.{name}":
        return "(public: import it from proofkit)"
    if module.split(".")[1] not in MODEL_NAMESPACES:
        return "(the engine's inside)"
    mod = importlib.import_module(module)
    if not hasattr(mod, "__path__"):
        return f"(a module file: import {name} from the package {module.rsplit('.', 1)[0]})"
    return "" if name in getattr(mod, "__all__", ()) else f"(not in {module}.__all__)"


def test_theorem_files_and_examples_import_only_the_public_api():
    bad = [f"{path.relative_to(ROOT)}: from {module} import {name} {why}"
           for path in _author_files() for module, name in _imports(path)
           if (why := _violation(module, name))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("module,name,bites", [
    ("proofkit", "Theorem", False), ("proofkit.crasp", "parse", False),
    ("proofkit.engine.problem", "build_problem", True), ("proofkit.numerics.backend", "MP", True),
    ("proofkit.crasp.language.parser", "parse", True), ("proofkit.crasp", "no_such_name", True),
    ("proofkit.families", "LinearRecurrence", False), ("proofkit.families.linrec", "LinearRecurrence", True),
    ("proofkit.posembed", "", True),
])
def test_the_import_rule_bites(module, name, bites):
    assert bool(_violation(module, name)) == bites, _violation(module, name)


def _packages() -> list[str]:
    out = []
    for ns in apidoc.NAMESPACES:
        root = importlib.import_module(ns)
        out += [ns] + [i.name for i in pkgutil.walk_packages(root.__path__, ns + ".") if i.ispkg]
    return out


@pytest.mark.parametrize("package", _packages())
def test_every_surface_name_is_what_its_module_defines(package):
    """Each name of a lazy surface resolves to its defining module's object, also once every submodule of
    the package is imported (a submodule of the same name would otherwise shadow a function)."""
    pkg = importlib.import_module(package)
    for info in pkgutil.walk_packages(pkg.__path__, package + "."):
        importlib.import_module(info.name)
    for name, owner in getattr(pkg, "PUBLIC", {}).items():
        mod = importlib.import_module(owner)
        want = mod if owner == f"{package}.{name}" else getattr(mod, name)
        assert getattr(pkg, name) is want, (package, name)
    assert set(getattr(pkg, "__all__", ())) <= set(dir(pkg))


def test_every_public_name_resolves():
    for name in proofkit.__all__:
        assert getattr(proofkit, name) is not None, name
    assert sorted(dir(proofkit)) == sorted(proofkit.__all__)
    with pytest.raises(AttributeError, match="no attribute 'engine_internals'"):
        proofkit.engine_internals  # noqa: B018


def test_importing_proofkit_is_light():
    code = "import sys, proofkit; print(sorted(m for m in sys.modules if m in ('sympy', 'scipy', 'mpmath')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_api_page_is_current():
    assert (ROOT / "docs" / "api.md").read_text(encoding="utf-8") == apidoc.page(), \
        "regenerate: python -m proofkit.interface.apidoc --write docs/api.md"
