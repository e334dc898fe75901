"""The packages a build ships; everything else about the build is declared in pyproject.toml.

proofkit's built-in theorems stay in the top-level ``theorems/`` folder (one folder per paper) and ship
as the package ``proofkit_theorems`` mapped from it (``package-dir`` in pyproject.toml), each paper
folder a sub-package found here, so a paper folder added there ships without editing this file. Test
modules beside the theorems (``test_*.py``, ``conftest.py``: the repository's regression suite) are
left out of every build.
"""

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

BUILTIN = "proofkit_theorems"


class BuildPyWithoutTests(build_py):
    """build_py that ships no test module."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        return [m for m in super().find_package_modules(package, package_dir)
                if not m[1].startswith(("test_", "conftest"))]


setup(
    packages=[
        *find_namespace_packages(include=["proofkit", "proofkit.*"], exclude=["*__pycache__*"]),
        BUILTIN,
        *(f"{BUILTIN}.{p}" for p in find_namespace_packages("theorems", exclude=["*__pycache__*"])),
    ],
    cmdclass={"build_py": BuildPyWithoutTests},
)
