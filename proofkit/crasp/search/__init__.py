"""Bounded exhaustive search for C-RASP programs (bottom-up by size, observational-equivalence pruning)
and the learners built on it (masked targets, tasks, the Occam learner)."""
