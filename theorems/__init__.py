"""proofkit's built-in theorems, one folder per paper, each file defining one ``THEOREM``.

This folder ships as the package ``proofkit_theorems`` (``pip install .`` maps it there; see setup.py),
registered under the ``proofkit.theorems`` entry point as every theorem package is
(docs/theorem_packages.md). proofkit's registry loads the files by path: nothing here imports them.
The ``test_*.py`` files beside the theorems are the repository's regression suite (``pytest theorems/``)
and are left out of every build.
"""
