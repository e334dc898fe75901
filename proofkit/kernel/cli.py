"""``proofkit kernel FILE...``: re-check every certificate in records and evidence bundles with the
independent kernel (docs/trust.md).

Exit codes: 0 every certificate re-checked, 1 a certificate fails (the file, the field and the figure
are printed), 2 bad input (one line: a file that is not a readable record or bundle), 3 none fails but
some could not be re-checked by the kernel (each says why). Every name printed is escaped.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any

from .check import check_file
from .core import CHECKED, FAILED, NONE, NOT_RECHECKED, KernelInputError, Result

EPILOG = """examples:
  proofkit kernel counterexamples/*.json
  proofkit kernel bundle.json -q

exit codes:
  0  every certificate re-checked
  1  a certificate fails (the file, the field and the figure are printed)
  2  bad input (a file that is not a readable record or bundle)
  3  none fails, but some certificate is not re-checkable by the kernel (each says why)"""


def add_commands(sub: Any, parser_class: type, add_max_work: Any) -> None:
    """Register ``kernel`` (``parser_class`` is the CLI's: bad usage is one line, exit 2). The kernel's
    work per certificate is bounded by its own caps, so it takes no ``--max-work``."""
    s = sub.add_parser("kernel", help="re-check certificates in records and bundles with the independent "
                                      "kernel (docs/trust.md)",
                       description="Re-check every certificate in counterexample records and evidence "
                                   "bundles with the independent kernel (docs/trust.md).",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    s.add_argument("files", nargs="+", metavar="FILE", help="counterexample records or evidence bundles")
    s.add_argument("-q", "--quiet", action="store_true", help="print failures and the summary only")
    s.set_defaults(handler=run)


def summary(results: list[Result]) -> str:
    """Counts by status and, for the checked ones, by kind."""
    by = Counter(r.status for r in results)
    kinds = Counter(r.kind for r in results if r.status == CHECKED)
    told = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
    return (f"kernel: {len(results)} certificate(s): {by[CHECKED]} re-checked" + (f" ({told})" * bool(told))
            + f", {by[FAILED]} failed, {by[NOT_RECHECKED]} not re-checkable by the kernel, {by[NONE]} "
              "uncertified record(s)")


def run(args: argparse.Namespace) -> int:
    """Check every file; print one line per certificate and the summary; the exit code above."""
    results: list[Result] = []
    try:
        for path in args.files:
            results += check_file(path)
    except KernelInputError as exc:
        print(f"proofkit: bad input: {exc}", file=sys.stderr)
        return 2
    for r in results:
        if not args.quiet or r.status == FAILED:
            print(r.line(), file=sys.stderr if r.status == FAILED else sys.stdout)
    print(summary(results))
    statuses = {r.status for r in results}
    return 1 if FAILED in statuses else 3 if NOT_RECHECKED in statuses else 0
