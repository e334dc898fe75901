"""Network-disagreement certificates: a stored Limit Transformer and a C-RASP program give different
verdicts on a stored word at a stored position (HYB24.T9's dropped assumptions).

The kernel re-derives both sides itself. The program side: a minimal parser and interpreter of the C-RASP
surface grammar the records use, written from Huang et al. 2024, Def. 8 and proofkit's conventions
(docs/crasp.md): positions 0..n, position 0 the virtual start where every Q(s) is false and every count 0;
``#P`` at i counts j in 1..i with P(j); ``#[S] P`` at i counts the offsets c in S with i - c >= 1 and
P(i - c); ``mod(m, r)`` is i % m == r (position 0 included); comparisons (<=, <, >=, >, ==, !=) of sums
and differences of counts and integers; ``not``, ``and``, ``or``; the program accepts at i when its
output (``accept NAME``, else the last Boolean statement) is true at i. Any other construct makes the
certificate "not re-checkable by the kernel", never checked.

The network side: the forward pass of Sec. 2 eqs. (1)-(4) on $w (the SOS token first) from the stored
weights: y_k = E[x_k] + p_{(k + o) mod Delta}; per layer, every head adds V-weighted softmax averages with
logit (K y_j).(Q y_k) + phi(k - j) over keys j <= k and weights base^(logit - max logit) (base N = n + 1
under log-N scaling, else the stored integer); then the MLP adds B act(A y + b), act ReLU or Heaviside
(H(z) = 1 iff z >= 0); the verdict at k is U_last . y > 0. ``exact`` arithmetic uses Fractions (integer
logit differences, so every weight is rational); ``float64`` uses Python floats in this fixed order:
weights rounded once to the nearest float, sparse dot products summed by increasing column from 0, heads
in order, keys j = 0..k, MLP units in order, each unit's outputs by increasing row.

Data: variant, program (text), word (symbols separated by spaces), position, arithmetic (exact |
float64), offset, base ("N" or an integer string), network {alphabet, width, E, pos, layers [{heads
[{K, Q, V, phi}], mlp {A, b, B, act} (optional)}], U}, network_output and program_output (booleans).
Matrices are {shape, entries [[row, col, "p/q"], ...]}, vectors {"index": "p/q"}.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from .core import NotRechecked, Reject, escape, fields, integer, number

#: caps: symbols of the word, characters of the program, stream width, and the work (n + 1)^2 x nonzeros
MAX_WORD, MAX_PROGRAM, MAX_WIDTH, MAX_WORK = 4096, 20000, 4096, 1 << 26
_TOKEN = re.compile(r"\s*(?:(?P<int>\d{1,18})|(?P<name>[A-Za-z][A-Za-z0-9_]*)"
                    r"|(?P<quoted>'[^\s']'|\"[^\s\"]\")|(?P<op>:=|<=|>=|==|!=|[<>+\-#()\[\]{},:]))", re.ASCII)
_KEYWORDS = {"alphabet", "accept", "and", "or", "not", "true", "false", "Q", "mod"}


# ------------------------------------------------------------------------------------------- the program
class _Outside(Exception):  # noqa: N818 (a reason, raised inside the parser)
    """The program text uses something outside the kernel's grammar."""


def _tokens(line: str) -> list[tuple[str, str]]:
    text, out, pos = line.split("//", 1)[0].rstrip(), [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise _Outside(f"the text {escape(text[pos:pos + 12], 20)!s}")
        kind = m.lastgroup or "op"
        out.append(("sym", m.group(kind)[1]) if kind == "quoted" else (kind, m.group(kind)))
        pos = m.end()
    return out


class _Line:
    """One statement's expression, evaluated at every position 0..n while it is parsed."""

    def __init__(self, toks: list[tuple[str, str]], env: dict[str, tuple[str, list]], word: list[str],
                 alphabet: list[str]) -> None:
        self.toks, self.i, self.env, self.word, self.alphabet = toks, 0, env, word, alphabet
        self.n = len(word)

    def peek(self) -> str | None:
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> tuple[str, str]:
        if self.i >= len(self.toks) or (want is not None and self.toks[self.i][1] != want):
            raise _Outside(f"{want or 'more'} expected at token {self.i + 1}")
        self.i += 1
        return self.toks[self.i - 1]

    def need(self, value: tuple[str, list], sort: str) -> list:
        if value[0] != sort:
            raise _Outside(f"a {'Boolean' if sort == 'b' else 'count'} expected at token {self.i}")
        return value[1]

    def expr(self) -> tuple[str, list]:
        v = self.conj()
        while self.peek() == "or":
            self.take()
            a, b = self.need(v, "b"), self.need(self.conj(), "b")
            v = ("b", [x or y for x, y in zip(a, b)])
        return v

    def conj(self) -> tuple[str, list]:
        v = self.neg()
        while self.peek() == "and":
            self.take()
            a, b = self.need(v, "b"), self.need(self.neg(), "b")
            v = ("b", [x and y for x, y in zip(a, b)])
        return v

    def neg(self) -> tuple[str, list]:
        if self.peek() == "not":
            self.take()
            return "b", [not x for x in self.need(self.neg(), "b")]
        a = self.sum()
        ops = {"<=": int.__le__, "<": int.__lt__, ">=": int.__ge__, ">": int.__gt__, "==": int.__eq__,
               "!=": int.__ne__}
        if self.peek() not in ops:
            return a
        op = ops[self.take()[1]]
        left, right = self.need(a, "c"), self.need(self.sum(), "c")
        return "b", [op(x, y) for x, y in zip(left, right)]

    def sum(self) -> tuple[str, list]:
        v = self.unary()
        while self.peek() in ("+", "-"):
            sign = 1 if self.take()[1] == "+" else -1
            a, b = self.need(v, "c"), self.need(self.unary(), "c")
            v = ("c", [x + sign * y for x, y in zip(a, b)])
        return v

    def unary(self) -> tuple[str, list]:
        if self.peek() == "-":
            self.take()
            return "c", [-x for x in self.need(self.unary(), "c")]
        return self.counting() if self.peek() == "#" else self.primary()

    def counting(self) -> tuple[str, list]:
        self.take("#")
        if self.peek() != "[":
            p = self.need(self.operand(), "b")
            out = [0]
            for j in range(1, self.n + 1):
                out.append(out[-1] + int(p[j]))
            return "c", out
        self.take("[")
        offsets = {int(self.take()[1])} if self.peek() != "{" else self.offset_set()
        self.take("]")
        p = self.need(self.operand(), "b")
        return "c", [sum(1 for c in offsets if i - c >= 1 and p[i - c]) for i in range(self.n + 1)]

    def offset_set(self) -> set[int]:
        self.take("{")
        out = {int(self.take()[1])}
        while self.peek() == ",":
            self.take()
            out.add(int(self.take()[1]))
        self.take("}")
        return out

    def operand(self) -> tuple[str, list]:
        if self.peek() == "not":
            self.take()
            return "b", [not x for x in self.need(self.operand(), "b")]
        return self.counting() if self.peek() == "#" else self.primary()

    def primary(self) -> tuple[str, list]:
        kind, text = self.take()
        positions = range(self.n + 1)
        if kind == "int":
            return "c", [int(text)] * (self.n + 1)
        if text in ("true", "false"):
            return "b", [text == "true"] * (self.n + 1)
        if text == "Q":
            self.take("(")
            s = self.take()[1]
            self.take(")")
            if s not in self.alphabet:
                raise _Outside(f"Q({escape(s, 20)}) of a symbol outside the alphabet")
            return "b", [False] + [x == s for x in self.word]
        if text == "mod":
            self.take("(")
            m, _, r = int(self.take()[1]), self.take(","), int(self.take()[1])
            self.take(")")
            if not 0 <= r < m:
                raise _Outside(f"mod({m}, {r}) needs 0 <= r < m")
            return "b", [i % m == r for i in positions]
        if text == "(":
            v = self.expr()
            self.take(")")
            return v
        if kind == "name" and text in self.env:
            return self.env[text]
        raise _Outside(f"the token {escape(text, 20)!s}")


def evaluate_program(text: str, word: list[str]) -> tuple[list[str], list[bool]]:
    """(alphabet, the program's verdict at every position 0..n of ``word``); NotRechecked when the text
    is outside the kernel's grammar, Reject when the word is not over its alphabet."""
    try:
        lines = [t for t in (_tokens(line) for line in text.splitlines()) if t]
        if not lines or [x[1] for x in lines[0][:2]] != ["alphabet", ":"] or len(lines[0]) < 3:
            raise _Outside("the header 'alphabet: ...'")
        alphabet = [x[1] for x in lines[0][2:]]
        if any(s not in alphabet for s in word):
            raise Reject("data.word", f"symbols outside the program's alphabet {alphabet}")
        env: dict[str, tuple[str, list]] = {}
        output = None
        for k, toks in enumerate(lines[1:], start=2):
            last = toks[0][1] == "accept" and len(toks) == 2 and k == len(lines)
            if last and env.get(toks[1][1], ("c",))[0] == "b":
                output = toks[1][1]
                continue
            if len(toks) < 3 or toks[0][0] != "name" or toks[0][1] in _KEYWORDS or toks[0][1] in env \
                    or toks[1][1] != ":=":
                raise _Outside(f"statement {k - 1} is not 'NAME := expression'")
            line = _Line(toks[2:], env, word, alphabet)
            env[toks[0][1]] = line.expr()
            if line.i != len(line.toks):
                raise _Outside(f"the token {escape(line.toks[line.i][1], 20)!s} in statement {k - 1}")
        bools = [name for name, (sort, _) in env.items() if sort == "b"]
        if output is None and not bools:
            raise _Outside("no Boolean statement")
        return alphabet, env[output or bools[-1]][1]
    except (_Outside, ValueError, IndexError) as exc:
        raise NotRechecked(f"the program is outside the kernel's C-RASP grammar ({exc})") from None


# ------------------------------------------------------------------------------------------- the network
def _mat(obj: Any, field: str, rows: int | None, cols: int, conv: Any) -> tuple[int, dict[int, list]]:
    """A sparse matrix as (rows, {row: [(col, value), ...] by increasing col}), shape checked."""
    m = fields(obj, field, ("shape", "entries"))
    shape = m["shape"]
    if not isinstance(shape, list) or len(shape) != 2:
        raise Reject(f"{field}.shape", "expected [rows, cols]")
    lo, hi = (0, MAX_WIDTH) if rows is None else (rows, rows)
    r = integer(shape[0], f"{field}.shape[0]", lo, hi)
    integer(shape[1], f"{field}.shape[1]", cols, cols)
    out: dict[int, dict[int, Any]] = {}
    for i, e in enumerate(m["entries"] if isinstance(m["entries"], list) else [None]):
        if not isinstance(e, list) or len(e) != 3:
            raise Reject(f"{field}.entries[{i}]", "expected [row, col, 'p/q']")
        a = integer(e[0], f"{field}.entries[{i}][0]", 0, r - 1)
        b = integer(e[1], f"{field}.entries[{i}][1]", 0, cols - 1)
        if b in out.setdefault(a, {}):
            raise Reject(f"{field}.entries[{i}]", "a repeated entry")
        out[a][b] = conv(number(e[2], f"{field}.entries[{i}][2]"))
    return r, {a: sorted(row.items()) for a, row in out.items()}


def _vec(obj: Any, field: str, d: int, conv: Any) -> list:
    if not isinstance(obj, dict):
        raise Reject(field, "expected an object {index: 'p/q'}")
    out = [conv(Fraction(0))] * d
    for key, v in obj.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < d):
            raise Reject(field, f"the index {escape(key, 20)!s} is outside the stream width {d}")
        out[int(key)] = conv(number(v, f"{field}.{key}"))
    return out


def _dot(row: list, y: list) -> Any:
    s: Any = 0
    for c, w in row:
        s += w * y[c]
    return s


def run_network(obj: Any, tokens: list[int], conv: Any, base: Any, offset: int) -> list[bool]:
    """The verdict at every position 0..n of $w (token indices; the SOS is added first)."""
    net = fields(obj, "data.network", ("alphabet", "width", "E", "pos", "layers", "U"))
    d = integer(net["width"], "data.network.width", 1, MAX_WIDTH)
    E = [_vec(v, f"data.network.E[{i}]", d, conv) for i, v in enumerate(net["E"])]
    if len(E) != len(net["alphabet"]) + 1:
        raise Reject("data.network.E", "expected one embedding per symbol, then the SOS")
    pos = [_vec(v, f"data.network.pos[{i}]", d, conv) for i, v in enumerate(net["pos"])]
    pos = pos or [[conv(Fraction(0))] * d]
    layers, size = [], 0
    for li, lay in enumerate(net["layers"]):
        at = f"data.network.layers[{li}]"
        lay = fields(lay, at, ("heads",), ("mlp",))
        heads = []
        for h, head in enumerate(lay["heads"]):
            hd = fields(head, f"{at}.heads[{h}]", ("K", "Q", "V", "phi"))
            kr, K = _mat(hd["K"], f"{at}.heads[{h}].K", None, d, conv)
            _, Q = _mat(hd["Q"], f"{at}.heads[{h}].Q", kr, d, conv)
            _, V = _mat(hd["V"], f"{at}.heads[{h}].V", d, d, conv)
            if not isinstance(hd["phi"], dict) or not all(re.fullmatch(r"-?\d{1,9}", c) for c in hd["phi"]):
                raise Reject(f"{at}.heads[{h}].phi", "expected {offset k - j: 'p/q'}")
            phi = {int(c): conv(number(v, f"{at}.heads[{h}].phi.{c}")) for c, v in hd["phi"].items()}
            heads.append(([K.get(r, []) for r in range(kr)], [Q.get(r, []) for r in range(kr)],
                          sorted(V.items()), phi))
            size += sum(len(x) for x in (*K.values(), *Q.values(), *V.values())) + len(phi)
        mlp = None
        if "mlp" in lay:
            m = fields(lay["mlp"], f"{at}.mlp", ("A", "b", "B", "act"))
            hr, A = _mat(m["A"], f"{at}.mlp.A", None, d, conv)
            _, B = _mat(m["B"], f"{at}.mlp.B", d, hr, conv)
            acts = m["act"] if isinstance(m["act"], list) else []
            if not (isinstance(m["b"], list) and len(m["b"]) == len(acts) == hr
                    and all(a in ("relu", "heaviside") for a in acts)):
                raise Reject(f"{at}.mlp", f"expected {hr} biases and activations relu or heaviside")
            outs: list[list] = [[] for _ in range(hr)]
            for r, row in sorted(B.items()):
                for u, w in row:
                    outs[u].append((r, w))
            mlp = [(conv(number(m["b"][u], f"{at}.mlp.b[{u}]")), A.get(u, []), m["act"][u] == "heaviside",
                    outs[u]) for u in range(hr)]
            size += sum(len(x) for x in (*A.values(), *B.values()))
        layers.append((heads, mlp))
    ur, U = _mat(net["U"], "data.network.U", None, d, conv)
    if ur < 1 or (len(tokens) + 1) ** 2 * (size + 1) > MAX_WORK:
        raise (Reject("data.network.U", "expected at least one row") if ur < 1 else
               NotRechecked(f"over the work cap ((n + 1)^2 x {size} weights > {MAX_WORK})"))
    cache: list[list[list]] = [[[] for _ in heads] for heads, _ in layers]
    accepts = []
    for k, tok in enumerate([len(E) - 1] + tokens):
        y = [a + b for a, b in zip(E[tok], pos[(k + offset) % len(pos)])]
        for li, (heads, mlp) in enumerate(layers):
            if heads:
                new = list(y)
                for h, (K, Q, V, phi) in enumerate(heads):
                    store = cache[li][h]
                    store.append(([_dot(r, y) for r in K], [_dot(r, y) for _, r in V]))
                    query = [_dot(r, y) for r in Q]
                    logits = [sum(a * b for a, b in zip(key, query)) + phi.get(k - j, 0)
                              for j, (key, _) in enumerate(store)]
                    top = max(logits)
                    if isinstance(base, int) and any(Fraction(x - top).denominator != 1 for x in logits):
                        raise NotRechecked("a non-integer logit in exact arithmetic (base^logit irrational)")
                    weights = [Fraction(base) ** int(x - top) if isinstance(base, int) else base ** (x - top)
                               for x in logits]
                    den, num = sum(weights), [0] * len(V)
                    for w, (_, val) in zip(weights, store):
                        for t, x in enumerate(val):
                            if w and x:
                                num[t] += w * x
                    for (row, _), s in zip(V, num):
                        new[row] += Fraction(s) / den if isinstance(base, int) else s / den
                y = new
            if mlp is not None:
                out = list(y)
                for bias, row, heaviside, outs in mlp:
                    z = bias + _dot(row, y)
                    a = (1 if z >= 0 else 0) if heaviside else (z if z > 0 else 0)
                    for r, w in outs if a else ():
                        out[r] += w * a
                y = out
        accepts.append(_dot(U.get(ur - 1, []), y) > 0)
    return accepts


# ------------------------------------------------------------------------------------------- the check
KEYS = ("kind", "variant", "program", "word", "position", "arithmetic", "offset", "base", "network",
        "network_output", "program_output")


def check_network_disagreement(data: Any) -> str:
    """Re-derive both verdicts at the position and that they differ."""
    d = fields(data, "data", KEYS)
    if not isinstance(d["program"], str) or len(d["program"]) > MAX_PROGRAM:
        raise Reject("data.program", f"expected program text of at most {MAX_PROGRAM} characters")
    if not isinstance(d["word"], str) or len(d["word"]) > 2 * MAX_WORD * 20:
        raise Reject("data.word", "expected symbols separated by spaces")
    word = d["word"].split()
    if len(word) > MAX_WORD:
        raise Reject("data.word", f"more than {MAX_WORD} symbols")
    p = integer(d["position"], "data.position", 0, len(word))
    for key in ("network_output", "program_output"):
        if not isinstance(d[key], bool):
            raise Reject(f"data.{key}", "expected true or false")
    alphabet, verdicts = evaluate_program(d["program"], word)
    if verdicts[p] != d["program_output"]:
        raise Reject("data.program_output", f"the kernel's interpreter says {verdicts[p]} at position {p}")
    if not isinstance(d["network"], dict) or d["network"].get("alphabet") != alphabet:
        raise Reject("data.network.alphabet", f"expected the program's alphabet {alphabet}")
    if d["arithmetic"] not in ("exact", "float64"):
        raise Reject("data.arithmetic", "expected exact or float64")
    exact = d["arithmetic"] == "exact"
    digits = isinstance(d["base"], str) and d["base"].isascii() and d["base"].isdigit() and len(d["base"]) < 8
    if d["base"] != "N" and not (digits and int(d["base"]) >= 2):
        raise Reject("data.base", "expected N (log-N scaling) or an integer >= 2 as a string")
    n_base = len(word) + 1 if d["base"] == "N" else int(d["base"])
    base = n_base if exact else float(n_base)
    offset = integer(d["offset"], "data.offset", -(1 << 20), 1 << 20)
    got = run_network(d["network"], [alphabet.index(s) for s in word], Fraction if exact else float, base,
                      offset)[p]
    if got != d["network_output"]:
        raise Reject("data.network_output", f"the kernel's {d['arithmetic']} forward pass says {got} at "
                                            f"position {p}")
    if got == verdicts[p]:
        raise Reject("data.network_output", f"network and program agree ({got}) at position {p}")
    return (f"{d['arithmetic']} forward pass of the stored network (base {d['base']}, offset {offset}) says "
            f"{got}, the kernel's C-RASP interpreter says {verdicts[p]}, at position {p} of a length-"
            f"{len(word)} word")


def tie_witness(rec: dict[str, Any], data: dict[str, Any]) -> None:
    """The certificate is about its witness record: variant, program text, word, position and both
    verdicts are the witness's own; float64 arithmetic exactly for the float64 variant, offset 1 exactly
    for the naive periodic offset (Remark 28), log-N scaling except without it."""
    w = rec.get("witness", {})
    if rec.get("kind") != "witness":
        raise Reject("certificate.data", "a network-disagreement certificate belongs to a witness record")
    pairs = (("variant", "variant"), ("program", "program_text"), ("word", "word"), ("position", "position"),
             ("network_output", "got"), ("program_output", "expected"))
    for key, wkey in pairs:
        if str(data[key]) != w.get(wkey):
            raise Reject(f"certificate.data.{key}", f"{escape(data[key], 60)}, the witness says "
                                                   f"{escape(w.get(wkey), 60)}")
    want = {"arithmetic": "float64" if w["variant"] == "float64-naive" else "exact",
            "offset": 1 if w["variant"] == "naive-periodic-offset" else 0}
    for key, value in want.items():
        if data[key] != value:
            raise Reject(f"certificate.data.{key}", f"{data[key]}, the variant {escape(w['variant'], 40)} "
                                                    f"runs with {value}")
    if (data["base"] == "N") == (w["variant"] == "no-log-scaling"):
        raise Reject("certificate.data.base", f"{data['base']}, the variant is {escape(w['variant'], 40)}")
