"""The C-RASP tools on a user's own program file: ``proofkit crasp ...``, ``info``, the evaluation table,
the shell entry of the program search, and checks against a user's Python ground truth."""
