"""Compiler-style reports of C-RASP syntax errors: ``FILE:LINE:COL: message``, the line at fault with a caret
under the column, and a hint for the common slips of other C-RASP dialects and of programming languages
(``&&``, ``||``, ``!``, ``#a``, ``#`` comments, ``True``, Unicode logic symbols, ``%``, ``;``, ``/``).

The parser calls :func:`annotate` only once the text has started like a program (its first token is
``alphabet``), so an arbitrary file given as a program is never quoted. :func:`render` is what the command
line prints: its first line is self-contained (the one-line form of the error with the file in front), the
quoted line, caret and hint follow on their own lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...errors import InputError
from .lexer import CraspSyntaxError

#: characters of the line at fault quoted at most (a window around the column for longer lines)
WINDOW = 100

_CONNECTIVES = {
    "&&": "write 'and' for conjunction (this grammar spells the connectives and, or, not)",
    "&": "write 'and' for conjunction (this grammar spells the connectives and, or, not)",
    "||": "write 'or' for disjunction (this grammar spells the connectives and, or, not)",
    "|": "write 'or' for disjunction (this grammar spells the connectives and, or, not)",
    "!": "write 'not P' for negation ('!=' is 'not equal' between counts)",
    "%": "periodic predicates are written mod(m, r): true at the positions i with i = r (mod m)",
    ";": "one statement per line, without ';'",
    "/": "division is no C-RASP operation; compare multiples instead, as in 2 * #Q(a) <= #Q(b) "
         "('//' starts a comment)",
}
_UNICODE = {"¬": "not", "∧": "and", "∨": "or", "≤": "<=", "≥": ">=", "≠": "!=", "→": "->", "⇒": "->",
            "↔": "<->", "⇔": "<->", "−": "-", "×": "*", "·": "*", "⋅": "*"}
_LOWER = "keywords are lower case: true, false, and, or, not"
_COND = "write a conditional count as P ? C : D"
_COUNT = "write a count as #P (#Q(a) counts the a's)"
_WORDS = {
    "True": _LOWER, "False": _LOWER, "TRUE": _LOWER, "FALSE": _LOWER, "AND": _LOWER, "And": _LOWER,
    "OR": _LOWER, "Or": _LOWER, "NOT": _LOWER, "Not": _LOWER,
    "if": _COND, "then": _COND, "else": _COND, "count": _COUNT, "Count": _COUNT,
}  # fmt: skip
_COMMENT = "'//' starts a comment; '#' is the count operator (#P counts the positions where P holds)"


def _token_at(line: str, index: int) -> str:
    """The word (letters, digits, '_') or the one character at ``index`` of ``line``."""
    end = index
    while end < len(line) and (line[end].isalnum() or line[end] == "_"):
        end += 1
    return line[index:end] if end > index else line[index : index + 1]


def _after_count(line: str, index: int) -> bool:
    """Whether the text before ``index`` ends with a count operator: '#', '#<' or '#[...]'."""
    before = line[:index].rstrip()
    if before.endswith("]") and "#[" in before:
        return True
    return before.endswith(("#", "#<"))


def hint_for(line: str, column: int, alphabet: Sequence[str], sorts: Mapping[str, str],
             got: object = None) -> str | None:
    """A suggestion for the slip at ``column`` (1-based) of ``line``, or None when none applies.
    ``alphabet`` and ``sorts`` (the statements defined so far) tell a symbol from a name."""
    index = column - 1
    if not 0 <= index < len(line):
        return None
    rest, word = line[index:], _token_at(line, index)
    for text in ("&&", "||", "&", "|"):
        if rest.startswith(text):
            return _CONNECTIVES[text]
    if rest.startswith("!") and not rest.startswith("!="):
        return _CONNECTIVES["!"]
    if rest[0] in _UNICODE:
        return f"write '{_UNICODE[rest[0]]}' for '{rest[0]}' (the grammar is ASCII)"
    if rest[0] in "%;" or (rest.startswith("/") and not rest.startswith("//")):
        return _CONNECTIVES[rest[0]]
    if rest.startswith("#"):
        return _COMMENT
    if rest.startswith("*") and "two counts" in str(got):
        return ("a ratio test such as #Q(a) / #Q(b) <= 2/3 is written with constants on both sides: "
                "3 * #Q(a) <= 2 * #Q(b)")
    if word in alphabet and word not in sorts:
        if _after_count(line, index):
            return f"count a symbol with #Q({word}): '#' counts the positions where a Boolean holds"
        return f"test the current symbol with Q({word})"
    if word.startswith("Q_") and word[2:] in alphabet and word not in sorts:
        return f"write the symbol test as Q({word[2:]})"
    if word in _WORDS and word not in sorts:
        return _WORDS[word]
    return None


def _excerpt(line: str, column: int) -> tuple[str, int]:
    """The line as printed (tabs and other unprintable characters as one character each, so the caret
    stays aligned; at most WINDOW characters around the column, with '...' at cut ends) and the column of
    the caret in it."""
    shown = "".join(c if c.isprintable() else (" " if c == "\t" else "?") for c in line)
    if len(shown) <= WINDOW:
        return shown, column
    start = max(0, min(column - 1 - WINDOW // 2, len(shown) - WINDOW))
    text = shown[start : start + WINDOW]
    head, tail = ("..." if start else ""), ("..." if start + WINDOW < len(shown) else "")
    return head + text + tail, column - start + len(head)


def annotate(exc: CraspSyntaxError, text: str, alphabet: Sequence[str], sorts: Mapping[str, str]) -> None:
    """Attach the quoted line (``source_line``, ``source_column``) and a ``hint`` to a syntax error of
    ``text``."""
    lines = text.split("\n")
    if not 1 <= exc.line <= len(lines):
        return
    line = lines[exc.line - 1].rstrip("\r")
    exc.source_line, exc.source_column = _excerpt(line, exc.column)
    exc.hint = hint_for(line, exc.column, alphabet, sorts, exc.got)


def render(exc: CraspSyntaxError) -> str:
    """The error as the command line prints it: ``FILE:LINE:COL: expected ..., got ...`` (one line, capped
    as every InputError), then the quoted line with a caret under the column and the hint, when known."""
    where = f"{exc.path}:{exc.line}:{exc.column}" if exc.path else exc.field
    lines = [str(InputError(where, exc.expected, exc.got))]
    if exc.source_line is not None:
        lines += [f"  {exc.source_line}", "  " + " " * (exc.source_column - 1) + "^"]
    if exc.hint:
        lines.append(f"hint: {exc.hint}")
    return "\n".join(lines)


class ProgramTextError(InputError):
    """A syntax error of a program file as the command line reports it: the field is ``FILE:LINE:COL`` and
    the message is :func:`render`'s (its first line the usual one-line form, the excerpt below it)."""

    def __init__(self, exc: CraspSyntaxError) -> None:
        super().__init__(f"{exc.path}:{exc.line}:{exc.column}" if exc.path else exc.field, exc.expected,
                         exc.got)
        self.syntax_error = exc

    def __str__(self) -> str:
        return render(self.syntax_error)
