"""Certificates: ball arithmetic (python-flint), support-wide and all-length bounds, interval existence
proofs, exact zero-risk learners, fit-error balls, and the structured data the independent kernel
(:mod:`proofkit.kernel`) re-checks."""
