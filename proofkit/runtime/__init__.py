"""What every running command shares, whatever its layer: live progress on stderr and the one cost guard
for work that grows with its input."""
