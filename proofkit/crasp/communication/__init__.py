"""One-way communication complexity (Huang et al. 2024, Thm 12 and Cor. 13): row counts of prefix
functions, and the protocol simulation of compiled networks."""
