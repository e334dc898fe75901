"""``proofkit bench``: a table of ratios, each measured within one run on one machine (issue 14).

Rows: (1) proofkit's fit against a paper-style gradient loop (:mod:`.fit`); (2) float64 warm start vs
mpmath polish vs python-flint certification per theorem (:mod:`.precision`); (3) numpy vs CuPy
(:mod:`.namespace`); (4) the vectorized C-RASP interpreter vs the reference interpreter vs a
hand-vectorized floor (:mod:`.crasp`); (5) row-count cost vs N (:mod:`.rows`); plus check stage timings
and import time (:mod:`.stages`). :mod:`.suite` runs them and stores each result as JSON under
``benchmarks/results/``; :mod:`.table` prints the table and :mod:`.docs` generates docs/benchmarks.md from
the latest full result; :mod:`.machine` describes the machine; :mod:`.cli` registers the command.
"""
