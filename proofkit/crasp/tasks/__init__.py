"""The algorithmic tasks of Huang et al. 2024 (Table 3) as exact next-token checks, their generated
programs, the program library with its ground truths, and the exact checks theorem files declare."""
