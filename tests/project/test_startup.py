"""Start-up stays light: importing the CLI loads no sympy and no scipy (nor the theorem registry), and
``proofkit --version`` answers without building the parser. Timings are bench figures (stages section),
not asserted here."""

import subprocess
import sys

from proofkit.interface.testing import run_cli


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "; import sys; print(' '.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_importing_the_cli_loads_no_heavy_dependency():
    loaded = _loaded_after("import proofkit.interface.cli")
    heavy = {"sympy", "scipy", "proofkit.language.registry", "proofkit.language.spec",
             "proofkit.engine.check"}
    assert not heavy & loaded


def test_version_fast_path_loads_no_heavy_dependency():
    loaded = _loaded_after("import contextlib, io, proofkit.interface.cli as c; "
                           "contextlib.redirect_stdout(io.StringIO()).__enter__(); c.main(['--version'])")
    assert not {"sympy", "scipy", "numpy", "proofkit.language.registry"} & loaded


def test_version_line(capsys):
    code, out, _ = run_cli(capsys, "--version")
    assert code == 0 and out.startswith("proofkit ") and ("(git " in out or "(installed)" in out)
