"""``proofkit validate KIND FILE...``: check files against proofkit's published JSON Schemas
(:mod:`proofkit.storage.formats`, docs/formats.md), e.g. ``proofkit replay R --json | proofkit validate replay
-``.

Exit codes: 0 every file conforms, 1 the first that does not (one line on stderr: the JSON path of the first
error, what the schema wanted, what was there), 2 bad input (an unknown kind, a file that cannot be read).
"""

from __future__ import annotations

from typing import Any

from ..storage import formats


def add_commands(sub: Any, parser_class: type, add_max_work: Any) -> None:
    """Register ``validate`` (``parser_class`` is the CLI's: bad usage is one line, exit 2). Validation is
    linear in the file, whose size is capped per kind, so it takes no ``--max-work``."""
    s = sub.add_parser("validate", help="check JSON files against proofkit's published schemas "
                                        "(docs/formats.md)")
    formats.configure(s)
    s.set_defaults(handler=formats.run_validate)
