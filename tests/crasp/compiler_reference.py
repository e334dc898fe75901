"""A reference evaluator of the C-RASP IR written straight from the ir.py docstring (positions 1..n, virtual
position 0; independent of the compiler), test programs built directly as IR, and ground truths independent
of the IR: what the compiler tests compare a compiled network with."""

from __future__ import annotations

from collections.abc import Sequence

from proofkit.crasp.language.ir import Op, Program

# ----------------------------------------------------------------------------------------------------------
# Reference evaluator (ir.py semantics: positions 1..n, virtual position 0, counts over j in 1..i)
# ----------------------------------------------------------------------------------------------------------


def evaluate(program: Program, word: Sequence[str]) -> dict[str, list[int]]:
    """Value of every op at positions 0..n (Booleans as 0/1)."""
    n = len(word)
    val: dict[str, list[int]] = {}
    for op in program.ops:
        a = [val[x] for x in op.args]
        if op.kind == "count":
            val[op.name] = _running_count(a[0])
        else:
            val[op.name] = [_op_at(op, a, word, i) for i in range(n + 1)]
    return val


def _running_count(pred: list[int]) -> list[int]:
    """#{j in 1..i : P(j)} for i = 0..n (position 0 never counted)."""
    out, total = [0], 0
    for x in pred[1:]:
        total += x
        out.append(total)
    return out


def _op_at(op: Op, a: list[list[int]], word: Sequence[str], i: int) -> int:
    """One op at position i, given its operands' value lists."""
    k = op.kind
    if k == "sym":
        return int(i >= 1 and word[i - 1] == op.symbol)
    if k == "true":
        return 1
    if k == "periodic":
        return int(i % op.modulus == op.residue)
    if k == "not":
        return 1 - a[0][i]
    if k == "and":
        return a[0][i] & a[1][i]
    if k == "le":
        return int(a[0][i] <= a[1][i])
    if k == "local":
        return sum(a[0][i - c] for c in set(op.offsets) if 1 <= i - c)
    if k == "cond":
        return a[1][i] if a[0][i] else a[2][i]
    if k == "add":
        return a[0][i] + a[1][i]
    if k == "sub":
        return a[0][i] - a[1][i]
    if k == "const":
        return op.value
    raise ValueError(k)


def reference(program: Program):
    """Prefix-acceptance function of a program: the output op at positions 0..n."""
    return lambda word: [bool(x) for x in evaluate(program, word)[program.output]]


# ----------------------------------------------------------------------------------------------------------
# Test programs, built directly as IR
# ----------------------------------------------------------------------------------------------------------


class P:
    """Tiny IR builder: each method appends an op and returns its name."""

    def __init__(self) -> None:
        self.ops: list[Op] = []

    def _add(self, kind: str, *args: str, **kw) -> str:
        name = f"v{len(self.ops)}"
        self.ops.append(Op(name, kind, tuple(args), **kw))
        return name

    def sym(self, s: str) -> str:
        return self._add("sym", symbol=s)

    def true(self) -> str:
        return self._add("true")

    def per(self, m: int, r: int) -> str:
        return self._add("periodic", modulus=m, residue=r)

    def neg(self, x: str) -> str:
        return self._add("not", x)

    def and_(self, x: str, y: str) -> str:
        return self._add("and", x, y)

    def or_(self, x: str, y: str) -> str:
        """x or y as not(not x and not y) (the IR has no or)."""
        return self.neg(self.and_(self.neg(x), self.neg(y)))

    def le(self, x: str, y: str) -> str:
        return self._add("le", x, y)

    def eq(self, x: str, y: str) -> str:
        return self.and_(self.le(x, y), self.le(y, x))

    def count(self, x: str) -> str:
        return self._add("count", x)

    def local(self, x: str, *offsets: int) -> str:
        return self._add("local", x, offsets=offsets)

    def cond(self, p: str, x: str, y: str) -> str:
        return self._add("cond", p, x, y)

    def add(self, x: str, y: str) -> str:
        return self._add("add", x, y)

    def sub(self, x: str, y: str) -> str:
        return self._add("sub", x, y)

    def const(self, c: int) -> str:
        return self._add("const", value=c)

    def ge1(self, c: str) -> str:
        """>=1(C) := 1 <= C (catalog section 4 notation)."""
        return self.le(self.const(1), c)

    def eq0(self, c: str) -> str:
        """=0(C) := C <= 0."""
        return self.le(c, self.const(0))

    def program(self, alphabet: tuple[str, ...], out: str, name: str) -> Program:
        return Program(alphabet, tuple(self.ops), out, name)


def majority() -> Program:
    """#b <= #a (exactly the brief's op list)."""
    ops = (Op("qa", "sym", symbol="a"), Op("qb", "sym", symbol="b"), Op("ca", "count", ("qa",)),
           Op("cb", "count", ("qb",)), Op("M", "le", ("cb", "ca")))
    return Program(("a", "b"), ops, "M", "MAJORITY")


def dyck1() -> Program:
    """V := #( < #); D := =0(#V) and #( = #)."""
    p = P()
    co, cc = p.count(p.sym("(")), p.count(p.sym(")"))
    v = p.le(p.add(co, p.const(1)), cc)
    return p.program(("(", ")"), p.and_(p.eq0(p.count(v)), p.eq(co, cc)), "DYCK-1")


def anbncn() -> Program:
    """bad := (a and >=1(#b + #c)) or (b and >=1(#c)); L := =0(#bad) and #a = #b = #c."""
    p = P()
    qa, qb, qc = p.sym("a"), p.sym("b"), p.sym("c")
    ca, cb, cc = p.count(qa), p.count(qb), p.count(qc)
    bad = p.or_(p.and_(qa, p.ge1(p.add(cb, cc))), p.and_(qb, p.ge1(cc)))
    out = p.and_(p.and_(p.eq0(p.count(bad)), p.eq(ca, cb)), p.eq(cb, cc))
    return p.program(("a", "b", "c"), out, "a^n b^n c^n")


def tomita4() -> Program:
    """No 000: tri := 0 and >=1(#_1 0) and >=1(#_2 0); accept =0(#tri)."""
    p = P()
    q0 = p.sym("0")
    tri = p.and_(p.and_(q0, p.ge1(p.local(q0, 1))), p.ge1(p.local(q0, 2)))
    return p.program(("0", "1"), p.eq0(p.count(tri)), "Tomita-4")


def aa_star() -> Program:
    """(aa)* over {a, b}: =0(#b) and phi_{0 mod 2}."""
    p = P()
    return p.program(("a", "b"), p.and_(p.eq0(p.count(p.sym("b"))), p.per(2, 0)), "(aa)*")


def contains_ab() -> Program:
    """Sigma* ab Sigma*: >=1(#(b and >=1(#_1 a)))."""
    p = P()
    hit = p.and_(p.sym("b"), p.ge1(p.local(p.sym("a"), 1)))
    return p.program(("a", "b"), p.ge1(p.count(hit)), "Sigma*abSigma*")


def conditional() -> Program:
    """C := a ? #a : (#b + #b) compared with #top - 1, plus a local count inside a conditional branch."""
    p = P()
    qa, qb = p.sym("a"), p.sym("b")
    ca, cb = p.count(qa), p.count(qb)
    c = p.cond(qa, ca, p.add(cb, cb))
    d = p.cond(p.neg(qb), p.local(qa, 0, 2), p.sub(cb, p.const(2)))
    out = p.and_(p.le(c, p.sub(p.count(p.true()), p.const(1))), p.le(d, p.const(1)))
    return p.program(("a", "b"), out, "conditional")


def constants() -> Program:
    """#a <= 3 and #b - #a >= -2 (constant counts, one negative)."""
    p = P()
    ca, cb = p.count(p.sym("a")), p.count(p.sym("b"))
    out = p.and_(p.le(ca, p.const(3)), p.le(p.const(-2), p.sub(cb, ca)))
    return p.program(("a", "b"), out, "constants")


def subseq_aab() -> Program:
    """Subsequence aab via strict-past counts #[j<i] E = #E - (E ? 1 : 0) (catalog 2.6 pitfall)."""
    p = P()
    one, zero = p.const(1), p.const(0)

    def strict(e: str) -> str:
        return p.sub(p.count(e), p.cond(e, one, zero))

    e1 = p.sym("a")
    e2 = p.and_(p.sym("a"), p.le(one, strict(e1)))
    e3 = p.and_(p.sym("b"), p.le(one, strict(e2)))
    return p.program(("a", "b"), p.le(one, p.count(e3)), "subsequence aab")


def tie() -> Program:
    """#a + #b <= #top (always true; the catalog's float64 tie example)."""
    p = P()
    s = p.add(p.count(p.sym("a")), p.count(p.sym("b")))
    return p.program(("a", "b"), p.le(s, p.count(p.true())), "tie")


def top_count() -> Program:
    """#a + #b = #top (always true; counts a predicate that holds at the SOS)."""
    p = P()
    s = p.add(p.count(p.sym("a")), p.count(p.sym("b")))
    return p.program(("a", "b"), p.eq(s, p.count(p.true())), "top-count")


# Ground truths (independent of the IR programs) to validate the programs themselves.
def _dyck(w: str) -> bool:
    bal = 0
    for ch in w:
        bal += 1 if ch == "(" else -1
        if bal < 0:
            return False
    return bal == 0


def _anbncn(w: str) -> bool:
    k = len(w) // 3
    return len(w) % 3 == 0 and w == "a" * k + "b" * k + "c" * k


def _subseq(w: str, s: str) -> bool:
    it = iter(w)
    return all(ch in it for ch in s)


def _conditional_truth(w: str) -> bool:
    """Direct reading of conditional(): at i = n (position 0 for the empty word)."""
    n = len(w)
    last = w[-1] if w else ""
    c = w.count("a") if last == "a" else 2 * w.count("b")
    d = (sum(1 for c_ in (0, 2) if n - c_ >= 1 and w[n - c_ - 1] == "a") if last != "b"
         else w.count("b") - 2)
    return c <= n - 1 and d <= 1


TRUTH = {
    "MAJORITY": lambda w: w.count("a") >= w.count("b"),
    "DYCK-1": _dyck,
    "a^n b^n c^n": _anbncn,
    "Tomita-4": lambda w: "000" not in w,
    "(aa)*": lambda w: set(w) <= {"a"} and len(w) % 2 == 0,
    "Sigma*abSigma*": lambda w: "ab" in w,
    "subsequence aab": lambda w: _subseq(w, "aab"),
    "tie": lambda w: True,
    "constants": lambda w: w.count("a") <= 3 and w.count("b") - w.count("a") >= -2,
    "conditional": lambda w: _conditional_truth(w),
    "top-count": lambda w: True,
}

PROGRAMS = [majority, dyck1, anbncn, tomita4, aa_star, contains_ab, conditional, constants, subseq_aab, tie,
            top_count]


def _max_len(program: Program) -> int:
    return 8 if len(program.alphabet) == 2 else 6
