"""What a C-RASP program means on strings: the scalar reference interpreter, the vectorized one, the
batch conventions for comparing prefix functions, and independent ground truths (library languages,
DFAs, regular expressions)."""
