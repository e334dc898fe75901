"""``python -m proofkit.crasp.tools.enumerate_cli LANGUAGE ...``: one bounded program search from the shell,
for
sweeps bigger than a theorem's defaults (the search itself is :mod:`proofkit.crasp.search.enumerate`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ...errors import InputError
from ..search.enumerate import Fragment, search


def main(argv: Sequence[str] | None = None) -> int:
    """python -m proofkit.crasp.tools.enumerate_cli LANGUAGE --fragment F --max-size S --n N (bigger
    sweeps)."""
    from ..theory.morphisms import resolve

    ap = argparse.ArgumentParser(prog="python -m proofkit.crasp.tools.enumerate_cli",
                                 description=main.__doc__)
    ap.add_argument("language", help="a LIBRARY / AUXILIARY ground-truth name")
    ap.add_argument("--fragment", default="[]")
    ap.add_argument("--max-size", type=int, default=8)
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--verify-len", type=int, default=None)
    ap.add_argument("--max-modulus", type=int, default=2)
    ap.add_argument("--max-offset", type=int, default=1)
    ap.add_argument("--max-behaviours", type=int, default=400_000)
    args = ap.parse_args(argv)
    try:
        truth = resolve(args.language)
        frag = Fragment.of(args.fragment, max_modulus=args.max_modulus, max_offset=args.max_offset)
        r = search(truth, truth.alphabet, frag, args.max_size, args.n, verify_len=args.verify_len,
                   max_behaviours=args.max_behaviours)
    except InputError as exc:
        print(exc)
        return 2
    print(r.summary())
    print(f"  time: {r.seconds:.1f} s")
    for s, b, c in r.per_size:
        print(f"  size {s}: {b} new Boolean, {c} new count behaviours")
    return 0 if r.found else 3


if __name__ == "__main__":
    raise SystemExit(main())
