"""proofkit: theorems about length and compositional generalization as executable, falsifiable checks.

Pipeline, one module per stage: spec -> families -> support -> fit -> identify -> localid ->
falsify -> certify -> record -> verdict -> report. The CLI and the pytest plugin are thin layers.
"""

__version__ = "0.1.0"
