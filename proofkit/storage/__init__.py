"""What proofkit writes and reads: counterexample records, the bounded JSON loader, atomic writes and
the published JSON formats."""
