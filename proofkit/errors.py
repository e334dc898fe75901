"""Errors that reach the user as one line and exit code 2 (bad input).

The message quotes at most :data:`MAX_ECHO` characters of the offending value (then an ellipsis and the
value's full length), so a 10 MB argument or a file of the wrong format is never echoed back beyond that;
field and expectation are capped likewise and every part is kept on one line. The attributes
(``field``, ``expected``, ``got``) keep the full values for callers and tests.
"""

from __future__ import annotations

#: characters of the offending value a message quotes at most (its repr, then "... (N characters)"):
#: enough for a path or a number, never a file's or a 10 MB argument's content beyond that
MAX_ECHO = 200
#: characters of the field name and of the expectation a message shows at most (they may embed input)
MAX_FIELD = 120
MAX_EXPECTED = 400


def _one_line(text: str) -> str:
    """Control characters (newlines included) shown escaped, so a message is always one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def cap_text(text: str, limit: int) -> str:
    """text on one line, or its first ``limit`` characters then how long it was."""
    text = _one_line(text)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def echo(got: object) -> str:
    """The value as a message quotes it: its repr, at most MAX_ECHO characters, on one line. Never raises
    (a huge integer has no decimal repr within Python's limit; it is described by its size)."""
    if isinstance(got, int) and not isinstance(got, bool) and got.bit_length() > 1000:
        return f"an integer of about {int(got.bit_length() * 0.30103)} digits"
    try:
        text = _one_line(repr(got))
    except Exception:  # a repr that fails must not replace the error being reported
        return f"a {type(got).__name__}"
    if len(text) <= MAX_ECHO:
        return text
    size = len(got) if isinstance(got, (str, bytes, list, tuple, dict)) else len(text)
    unit = "characters" if isinstance(got, (str, bytes)) else "items" if hasattr(got, "__len__") else \
        "characters"
    return f"{text[:MAX_ECHO]}... ({size} {unit})"


class InputError(ValueError):
    """Bad input: names the field and what was expected. The CLI prints it and exits 2."""

    def __init__(self, field: str, expected: str, got: object = None) -> None:
        self.field = field
        self.expected = expected
        self.got = got
        msg = f"{cap_text(str(field), MAX_FIELD)}: expected {cap_text(str(expected), MAX_EXPECTED)}"
        if got is not None:
            msg += f", got {echo(got)}"
        super().__init__(msg)


def one_of(field: str, choices: object, got: object, what: str = "one of") -> InputError:
    """The error for a name that is not among ``choices``: "expected one of A, B, C (did you mean B?)",
    the suggestion when one is close (:func:`did_you_mean`). Raise it: ``raise one_of(...)``."""
    options = [str(c) for c in choices]  # type: ignore[attr-defined]
    return InputError(field, f"{what} {', '.join(options)}{did_you_mean(got, options)}", got)


def did_you_mean(name: object, choices: object) -> str:
    """' (did you mean X?)' naming the closest of ``choices`` to ``name`` (case ignored), or '' when none
    is close: appended to the expectation of an error that read an unknown name."""
    import difflib

    if not isinstance(name, str):
        return ""
    options = [str(c) for c in choices]  # type: ignore[attr-defined]
    folded = {c.casefold(): c for c in options}
    hit = difflib.get_close_matches(name.casefold(), list(folded), n=1, cutoff=0.6)
    if not hit:  # short names: one character off (A9 for A8) is close although the ratio is 0.5
        hit = [c for c in folded if _one_edit(name.casefold(), c)][:1]
    return f" (did you mean {folded[hit[0]]}?)" if hit else ""


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by exactly one substituted, inserted or deleted character."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
