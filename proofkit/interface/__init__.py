"""The face of proofkit: the command line and its help and completion, live progress, reproduce lines,
reports, the pytest plugin and the regression-test helpers."""
