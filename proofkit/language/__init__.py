"""The theorem language: statements, assumptions, claims, parameters, predicates, evidence, verdicts,
proofkit's tolerances, and the registry that finds theorem files."""
