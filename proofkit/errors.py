"""Errors that reach the user as one line and exit code 2 (bad input)."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: names the field and what was expected. The CLI prints it and exits 2."""

    def __init__(self, field: str, expected: str, got: object = None) -> None:
        self.field = field
        self.expected = expected
        self.got = got
        msg = f"{field}: expected {expected}"
        if got is not None:
            msg += f", got {got!r}"
        super().__init__(msg)
