"""Running at scale: the process pool behind ``-j N`` and the cost guard for work that grows with its
input."""
