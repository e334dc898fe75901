"""The pipeline that turns a theorem into a verdict: problem, supports and starts, fit, identification,
generalization suites, local identifiability, check, the counterexample search (falsify, drops, known
records, model search, exactify), replay of stored records and parameter scans."""
