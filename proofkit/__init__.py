"""proofkit: theorems about length and compositional generalization as executable, falsifiable checks.

Pipeline, one module per stage: spec -> families -> support -> fit -> identify -> localid ->
falsify -> certify -> record -> verdict -> report. The CLI and the pytest plugin are thin layers.
"""

import os as _os

# Determinism: multithreaded BLAS reductions change float64 rounding from run to run, which changes
# where a fit lands. One thread per BLAS call makes every command reproducible bit for bit.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
