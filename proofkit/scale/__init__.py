"""Running at scale: the process pool behind ``check --all -j N`` and ``scan -j N``."""
