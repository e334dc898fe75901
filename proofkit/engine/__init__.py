"""The pipeline that turns a theorem into a verdict: problem, supports and starts, fit, identification,
generalization suites, local identifiability, check, the counterexample search (falsify, drops, known
records, model search, exactify), replay of stored records and parameter scans."""

#: settings a drop search enumerates at most (each costs a problem build for the constructions); here, not
#: in ``dropspace``, so the CLI's --budget bound is known without loading the engine
MAX_SETTINGS = 64
