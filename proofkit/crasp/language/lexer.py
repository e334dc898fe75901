"""C-RASP program text as tokens: the tokenizer of :mod:`proofkit.crasp.language.parser`, its limits and its
errors.

Program text is data: it is split into tokens here and never passed to eval, exec or any other
evaluator. One leading UTF-8 byte-order mark (which some editors write) is no part of the program and
is dropped before tokenizing, so line and column numbers are those an editor shows.
"""

from __future__ import annotations

import string as _string
from dataclasses import dataclass

from ...errors import InputError

MAX_CHARS = 100_000
MAX_INT_DIGITS = 18

KEYWORDS = frozenset(
    {"alphabet", "accept", "true", "false", "not", "and", "or", "mod", "exists", "min", "max", "Q"}
)
OPERATORS = (
    "<->", ":=", "<=", ">=", "==", "!=", "->",
    "<", ">", "+", "-", "*", "#", "?", ":", "(", ")", "[", "]", "{", "}", ",",
)  # fmt: skip
_NAME_START = frozenset(_string.ascii_letters + "_")
_NAME_CHARS = frozenset(_string.ascii_letters + _string.digits + "_")
_DIGITS = frozenset(_string.digits)
BOM = "\ufeff"


class Plain(str):
    """A description printed without quotes in an InputError message (its ``got`` is repr'd)."""

    def __repr__(self) -> str:
        return str(self)


class CraspSyntaxError(InputError):
    """A syntax or type error in C-RASP program text; field is ``"line L, column C"``.

    Its message stays one line. :func:`proofkit.crasp.language.parser.parse` adds what a compiler-style report
    needs (:mod:`proofkit.crasp.language.diagnostics`): ``source_line``, the text of the line at fault (a
    window of
    it for long lines; None when the text does not start like a C-RASP program, so an arbitrary file is
    never quoted), ``source_column``, the column in that text, and ``hint``, a suggestion for a common slip
    (None when there is none); :func:`~proofkit.crasp.language.parser.load` adds ``path``, the file."""

    def __init__(self, line: int, column: int, expected: str, got: object = None) -> None:
        self.line = line
        self.column = column
        self.source_line: str | None = None
        self.source_column = column
        self.hint: str | None = None
        self.path: str | None = None
        super().__init__(f"line {line}, column {column}", expected, got)


@dataclass(frozen=True)
class Token:
    """One token: kind is name, int, quoted, op, newline or eof; text is the source text."""

    kind: str
    text: str
    line: int
    col: int

    def describe(self) -> Plain | str:
        """What the token looks like in an error message."""
        if self.kind == "newline":
            return Plain("end of line")
        if self.kind == "eof":
            return Plain("end of program")
        return self.text


#: characters of a name or symbol an error's expectation quotes (the offending token itself is its ``got``)
BRIEF = 40


def brief(text: str, limit: int = BRIEF) -> str:
    """A name or symbol as an expectation quotes it: at most ``limit`` characters, then its length (so an
    error never echoes a long token twice)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def symbol_list(symbols: tuple[str, ...] | list[str], width: int = 100) -> str:
    """Alphabet symbols as an expectation lists them: as many as fit in about ``width`` characters (each
    :func:`brief`), then how many there are in all."""
    shown: list[str] = []
    for s in symbols:
        if shown and len(" ".join(shown)) + len(s) >= width:
            return " ".join(shown) + f" ... ({len(symbols)} symbols)"
        shown.append(brief(s, 20))
    return " ".join(shown)


def without_bom(text: str) -> str:
    """``text`` without one leading byte-order mark (U+FEFF); anything that is not a str is returned
    unchanged (the tokenizer rejects it, naming the type)."""
    return text[1:] if isinstance(text, str) and text.startswith(BOM) else text


# ----------------------------------------------------------------------------- tokenizer
def _position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of character ``index`` of ``text``."""
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def tokenize(text: str, max_chars: int = MAX_CHARS) -> list[Token]:
    """Split program text into tokens, dropping a leading byte-order mark, blanks and ``//`` comments;
    ends with an eof token."""
    tokens, error = tokenize_until_error(without_bom(text), max_chars)
    if error is not None:
        raise error
    return tokens


def tokenize_until_error(text: str,
                         max_chars: int = MAX_CHARS) -> tuple[list[Token], CraspSyntaxError | None]:
    """Tokens up to the first lexical error, and that error (raised by the parser only when it gets
    there, so errors are reported in source order). Text longer than ``max_chars`` is refused (MAX_CHARS
    for text that is input; a caller that trusts its text, e.g. printer output, may raise it)."""
    if not isinstance(text, str):
        raise InputError("program text", "a str", Plain(type(text).__name__))
    if len(text) > max_chars:
        raise CraspSyntaxError(*_position(text, max_chars), f"a program of at most {max_chars} characters",
                               Plain(f"{len(text)} characters"))
    tokens: list[Token] = []
    i, line, start_of_line = 0, 1, 0
    while i < len(text):
        ch, col = text[i], i - start_of_line + 1
        if ch == "\n":
            tokens.append(Token("newline", "\n", line, col))
            i, line, start_of_line = i + 1, line + 1, i + 1
        elif ch in " \t\r\f\v":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        else:
            try:
                tok = _scan_token(text, i, line, col)
            except CraspSyntaxError as exc:
                tokens.append(Token("error", text[i], line, col))
                return tokens, exc
            tokens.append(tok)
            i += len(tok.text) + (2 if tok.kind == "quoted" else 0)
    tokens.append(Token("eof", "", line, len(text) - start_of_line + 1))
    return tokens, None


def _scan_token(text: str, i: int, line: int, col: int) -> Token:
    """Scan the one token starting at ``text[i]`` (not a blank, newline or comment)."""
    ch = text[i]
    if ch in _NAME_START:
        j = i
        while j < len(text) and text[j] in _NAME_CHARS:
            j += 1
        return Token("name", text[i:j], line, col)
    if ch in _DIGITS:
        j = i
        while j < len(text) and text[j] in _DIGITS:
            j += 1
        if j - i > MAX_INT_DIGITS:
            raise CraspSyntaxError(line, col, f"an integer of at most {MAX_INT_DIGITS} digits",
                                   Plain(f"{j - i} digits"))
        return Token("int", text[i:j], line, col)
    if ch in "'\"":
        body = text[i + 1 : i + 2]
        if len(body) == 1 and not body.isspace() and text[i + 2 : i + 3] == ch:
            return Token("quoted", body, line, col)
        raise CraspSyntaxError(line, col, "a quoted single non-blank character like '('",
                               text[i : i + 3].split("\n")[0])
    for op in OPERATORS:
        if text.startswith(op, i):
            return Token("op", op, line, col)
    if ch == "=":
        raise CraspSyntaxError(line, col, "':=' to define a statement or '==' to compare counts", ch)
    raise CraspSyntaxError(line, col, "a name, an integer, a quoted symbol or an operator", ch)
