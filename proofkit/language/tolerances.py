"""Every threshold a verdict depends on, in one place. They are proofkit's: fixed here, printed with
the verdicts they decide, and never read from a theorem's parameters, a command line or a record.

See ``docs/verdicts.md`` for what each verdict proves with these numbers.
"""

from __future__ import annotations

import mpmath as mp

#: working precision (decimal digits) below which nothing is decided: checks, searches and replays run
#: at ``max(requested, MIN_DPS)``; a record written at fewer digits is re-evaluated at this many
MIN_DPS = 60
#: largest working precision the command line accepts
MAX_DPS = 500
#: a residual (relative to max(1, |scale|)) at most this counts as zero; fixed, whatever the precision
ZERO_TOL = mp.mpf("1e-40")
#: a fit reaches zero training risk when its largest training residual is at most this
FIT_TOL = mp.mpf("1e-45")
#: an uncertified refutation needs its gap to exceed the fit error propagated through the model
#: (a ball evaluation at the fitted parameters widened to the fit's error) by at least this factor
REFUTE_MARGIN = mp.mpf("1e6")
#: the fit's error in parameter space is estimated as SAFETY x (Gauss-Newton step to an exact zero)
PARAM_SAFETY = mp.mpf("1e3")
#: a candidate counterexample whose test gap is below this is not pursued by the search
SEARCH_GAP = mp.mpf("1e-8")


def effective_dps(dps: int) -> int:
    """The precision proofkit actually works at: never below MIN_DPS."""
    return max(int(dps), MIN_DPS)


def fmt(x: mp.mpf | float | int, digits: int = 3) -> str:
    """A threshold or residual for humans: 1e-8, 2.42e-46 (never 40 digits of binary noise)."""
    return mp.nstr(mp.mpf(x), digits, min_fixed=-3, max_fixed=4)
