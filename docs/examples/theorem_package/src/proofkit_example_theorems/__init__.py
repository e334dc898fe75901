"""Example theorem package for proofkit: one sub-package per paper, each module defining one ``THEOREM``.

proofkit finds it through the ``proofkit.theorems`` entry point in pyproject.toml and imports the theorem
files by path; nothing here needs to import them.
"""
