"""Number types and array namespaces: one model code path at float64 (numpy or CuPy), mpmath, python-flint
balls or exact rationals, and the readout activations evaluated in each."""
