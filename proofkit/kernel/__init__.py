"""proofkit's independent certificate checker (the kernel): re-checks the certificates that records and
bundles carry from their stored data alone, with the standard library, exact Fractions and python-flint
balls, and imports nothing else of proofkit (a test parses every module's imports to keep it so).

The model is the proof checker of a SAT solver (a DRAT/LRAT checker re-checks a solver's proof without
trusting the solver) and the small kernel of a proof assistant (it checks what a large prover found):
the search, the fits, the theorem files and the how-texts are not trusted; only what the kernel itself
re-derives from the numbers is. What it covers, per certificate kind: docs/trust.md.

API::

    from proofkit.kernel import check_record, check_certificate, check_bundle, check_file
    results = check_record(record_dict)   # list[Result]: status CHECKED, FAILED, NOT_RECHECKED or NONE
"""

from __future__ import annotations

from .check import KINDS, check_bundle, check_certificate, check_file, check_record
from .core import CHECKED, FAILED, NONE, NOT_RECHECKED, KernelInputError, Result

__all__ = ["CHECKED", "FAILED", "KINDS", "NONE", "NOT_RECHECKED", "KernelInputError", "Result",
           "check_bundle", "check_certificate", "check_file", "check_record"]
