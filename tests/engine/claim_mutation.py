"""Mutation testing of claims decided by their own code (issue 10): Computed claims and SymbolicSteps.

Relations are mutated as sympy expressions (:mod:`proofkit.engine.mutants`). A Computed claim or a sympy step
carries its statement inside a function of its theorem file (``run(params)`` or ``check()``): the printed
formula, the threshold, the bound it compares with. Each mutant here is that function with one
syntactic change a transcription error could make -- a threshold or constant shifted by one, a
comparison made strict or loose (or ``==`` / ``!=`` swapped), ``+`` and ``-`` swapped, a power turned into
a product, ``and`` and ``or`` swapped, a ``not`` dropped -- recompiled in the theorem module's own
namespace (the theorem file's own code, never input) and run at the theorem's default parameters.

A mutant is *killed* when the claim's verdict differs from the unmutated one (a check that raises is
inconclusive, which differs too) and *timed out* when it runs past the per-mutant limit (a hang is
detected, as mutmut counts it). A survivor is either equivalent to the claim at these parameters (the
change touches only how much is enumerated, or a branch these parameters never take) or a hole in the
check; :func:`report` lists each one with its line so a reader can decide which.

Text is never mutated: f-strings and docstrings only change what is printed.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import inspect
import signal
import sys
import textwrap
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from proofkit.engine.check import decide_own
from proofkit.errors import InputError
from proofkit.language.spec import Computed, SymbolicStep, Theorem
from proofkit.language.verdict import Verdict

_CMP_SWAP: dict[type, type] = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
                               ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
_BIN_SWAP: dict[type, type] = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Pow: ast.Mult}


@dataclass(frozen=True)
class Site:
    """One mutation: the node's index in a walk of the function's tree, the operator, the source line;
    ``scope`` when the node only sizes what is enumerated (inside ``range(...)`` or in a size computed
    from the parameters): such a mutant checks the same claim on other sizes, where it holds as well,
    so no correct check can kill it; it is reported apart from the statement's mutants."""

    index: int
    operator: str
    line: int
    scope: bool = False


@dataclass(frozen=True)
class Outcome:
    """A mutant's decision next to the original's. ``reached``: the original run executed the mutated
    line (a mutant on a line these parameters never reach cannot change anything here); ``change``:
    what else differed when the verdict did not -- "residual" or "text" (the explanation only)."""

    theorem: str
    claim: str
    site: Site
    verdict: str
    original: str
    reached: bool = True
    change: str = ""

    @property
    def status(self) -> str:
        """killed, timeout, unreached, residual-only, text-only or survived (nothing changed)."""
        if self.verdict == "timeout":
            return "timeout"
        if self.verdict != self.original:
            return "killed"
        if not self.reached:
            return "unreached"
        return {"residual": "residual-only", "text": "text-only"}.get(self.change, "survived")

    def as_dict(self) -> dict[str, Any]:
        return {"theorem": self.theorem, "claim": self.claim, "line": self.site.line,
                "operator": self.site.operator, "scope": self.site.scope, "verdict": self.verdict,
                "original": self.original, "reached": self.reached, "change": self.change,
                "status": self.status}


def _text_nodes(tree: ast.AST) -> set[int]:
    """ids of every node inside an f-string or a docstring (text only, never mutated)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            out.update(id(n) for n in ast.walk(node))
        if isinstance(node, ast.FunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.update(id(n) for n in ast.walk(first))
    return out


def _lambda_node(fn: types.FunctionType) -> ast.Lambda | None:
    """The ``lambda`` expression of the module source that compiles to ``fn``'s code (several lambdas can
    share a line: the one whose bytecode and constants match)."""
    try:
        module = ast.parse(textwrap.dedent(inspect.getsource(inspect.getmodule(fn))))  # type: ignore[arg-type]
    except (OSError, TypeError):
        return None
    code = fn.__code__
    for node in ast.walk(module):
        if isinstance(node, ast.Lambda) and node.lineno == code.co_firstlineno:
            candidate = compile(ast.Expression(node), "<lambda>", "eval").co_consts
            inner = next((c for c in candidate if isinstance(c, types.CodeType)), None)
            if inner is not None and inner.co_code == code.co_code and inner.co_names == code.co_names \
                    and inner.co_argcount == code.co_argcount:
                return node
    return None


def _source_tree(fn: Callable[..., Any]) -> ast.Module | None:
    """The claim function as a one-statement module ``def`` (a lambda as ``_claim = lambda ...``), its
    line numbers those of the theorem file; None for what is not a plain function (a partial, a bound
    method of an object)."""
    if not isinstance(fn, types.FunctionType):
        return None
    if fn.__name__ == "<lambda>":
        node = _lambda_node(fn)
        if node is None:
            return None
        target = ast.Name("_claim", ast.Store())
        tree = ast.Module([ast.Assign([target], copy.deepcopy(node), lineno=node.lineno, col_offset=0,
                                      end_lineno=node.end_lineno, end_col_offset=node.end_col_offset or 0)],
                          [])
        return ast.fix_missing_locations(tree)
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    tree = ast.parse(source)
    if not (tree.body and isinstance(tree.body[0], ast.FunctionDef)):
        return None
    tree.body[0].decorator_list = []
    ast.increment_lineno(tree, fn.__code__.co_firstlineno - 1)
    return tree


def _mutations(node: ast.AST) -> Iterator[tuple[str, Callable[[ast.AST], None]]]:
    """(operator, in-place edit) for one node."""
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _CMP_SWAP:
                new = _CMP_SWAP[type(op)]

                def edit(n: ast.AST, i: int = i, new: type = new) -> None:
                    n.ops[i] = new()  # type: ignore[attr-defined]
                yield f"{type(op).__name__} -> {new.__name__}", edit
    elif isinstance(node, ast.BinOp) and type(node.op) in _BIN_SWAP:
        new = _BIN_SWAP[type(node.op)]

        def edit(n: ast.AST, new: type = new) -> None:
            n.op = new()  # type: ignore[attr-defined]
        yield f"{type(node.op).__name__} -> {new.__name__}", edit
    elif isinstance(node, ast.BoolOp):
        new = ast.Or if isinstance(node.op, ast.And) else ast.And

        def edit(n: ast.AST, new: type = new) -> None:
            n.op = new()  # type: ignore[attr-defined]
        yield f"{type(node.op).__name__} -> {new.__name__}", edit
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        def edit(n: ast.AST) -> None:
            n.op = ast.UAdd()  # type: ignore[attr-defined]  (+x of a bool is the bool as an int: truthy alike)
        yield "drop not", edit
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        for delta in (1, -1):
            if node.value + delta < 0:
                continue

            def edit(n: ast.AST, delta: int = delta) -> None:
                n.value += delta  # type: ignore[attr-defined]
            yield f"constant {node.value} -> {node.value + delta}", edit


def _scope_nodes(tree: ast.Module) -> set[int]:
    """ids of nodes that only size an enumeration: arguments of ``range(...)``, and right-hand sides of
    assignments that read the parameters mapping (the function's first argument) by subscript."""
    top = tree.body[0]
    fn = top.value if isinstance(top, ast.Assign) else top
    assert isinstance(fn, (ast.FunctionDef, ast.Lambda))
    params = fn.args.args[0].arg if fn.args.args else None
    out: set[int] = set()
    for node in ast.walk(fn):  # not the synthetic `_claim = lambda ...` around a lambda
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
            out.update(id(n) for a in node.args for n in ast.walk(a))
        if isinstance(node, ast.Assign) and params is not None and any(
                isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == params
                for n in ast.walk(node.value)):
            out.update(id(n) for n in ast.walk(node.value))
    return out


def sites(fn: Callable[..., Any]) -> list[Site]:
    """Every mutation site of a claim function (text excluded), in tree-walk order."""
    tree = _source_tree(fn)
    if tree is None:
        return []
    skip, scope = _text_nodes(tree), _scope_nodes(tree)
    out = []
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skip:
            continue
        for op, _ in _mutations(node):
            out.append(Site(index, op, getattr(node, "lineno", 0), id(node) in scope))
    return out


def mutant_function(fn: Callable[..., Any], site: Site) -> Callable[..., Any]:
    """``fn`` with the one change at ``site``, compiled against fn's module namespace plus the values of
    its closure (a lambda made in a loop sees the values it was made with)."""
    tree = copy.deepcopy(_source_tree(fn))
    assert tree is not None and isinstance(fn, types.FunctionType)
    node = list(ast.walk(tree))[site.index]
    edit = dict(_mutations(node))[site.operator]
    edit(node)
    ast.fix_missing_locations(tree)
    namespace = dict(fn.__globals__)
    namespace.update(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
    code = compile(tree, inspect.getsourcefile(fn) or "<claim>", "exec")
    exec(code, namespace)  # noqa: S102 - the theorem file's own code, one node changed
    return namespace["_claim" if fn.__name__ == "<lambda>" else fn.__name__]


def claim_function(claim: Any) -> Callable[..., Any] | None:
    """The function that carries a claim's statement: Computed.run or SymbolicStep.check."""
    if isinstance(claim, Computed):
        return claim.run
    if isinstance(claim, SymbolicStep):
        return claim.check
    return None


class _Timeout(BaseException):
    """Raised by the alarm; a BaseException so that a claim's own ``except Exception`` cannot eat it."""


def _alarm(_signum: int, _frame: Any) -> None:
    raise _Timeout


Decision = tuple[str, str, str]


def decide(claim: Any, fn: Callable[..., Any], params: Mapping[str, Any], timeout_s: int,
           lines: set[int] | None = None) -> Decision:
    """(verdict, residual, how) of the claim with ``fn`` in place of its function; ("timeout", "", "")
    past the limit. With ``lines``, the lines of fn's source file executed meanwhile are added to it."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(timeout_s)
    source = fn.__code__.co_filename

    def tracer(frame: Any, event: str, _arg: Any) -> Any:
        if frame.f_code.co_filename != source:
            return None
        if event == "line" and lines is not None:
            lines.add(frame.f_lineno)
        return tracer

    if lines is not None:
        sys.settrace(tracer)
    try:
        field = "run" if isinstance(claim, Computed) else "check"
        mutated = dataclasses.replace(claim, **{field: fn})
        v, res, how, _scope, _note, error, _cert = decide_own(mutated, params)
        return ("error" if error else str(Verdict(v))), str(res), str(how)
    except _Timeout:
        return "timeout", "", ""
    except InputError as exc:  # a mutant that asks for an impossible computation changed the claim
        return f"error ({exc.field})", "", ""
    finally:
        sys.settrace(None)
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(theorem: Theorem, overrides: Mapping[str, Any] | None = None, *, timeout_s: int = 60,
        claims: Callable[[Any], bool] = lambda c: True) -> list[Outcome]:
    """Every mutant of every code-carried claim of ``theorem`` (those ``claims`` selects), each decided at
    the parameters and compared with the unmutated claim's verdict there."""
    params = theorem.params.resolve(overrides)
    out = []
    for claim in theorem.claims:
        fn = claim_function(claim)
        if fn is None or not claims(claim):
            continue
        executed: set[int] = set()
        original = decide(claim, fn, params, timeout_s, executed)
        for site in sites(fn):
            got = decide(dataclasses.replace(claim), mutant_function(fn, site), params, timeout_s)
            change = "" if got == original else "residual" if got[1] != original[1] else "text"
            out.append(Outcome(theorem.id, claim.name, site, got[0], original[0], site.line in executed,
                               change))
    return out


def report(outcomes: list[Outcome]) -> str:
    """Per group (statement, scope): how many mutants changed the verdict or timed out, and how the
    others fell out; then one line per statement mutant that was reached and changed nothing at all."""
    lines = []
    for label, group in (("statement", [o for o in outcomes if not o.site.scope]),
                         ("scope", [o for o in outcomes if o.site.scope])):
        count = {s: sum(o.status == s for o in group) for s in
                 ("killed", "timeout", "unreached", "text-only", "residual-only", "survived")}
        reached = len(group) - count["unreached"]
        lines.append(f"{label} mutants: {count['killed'] + count['timeout']}/{len(group)} detected "
                     f"({count['killed']} changed the verdict, {count['timeout']} timed out); "
                     f"{count['killed'] + count['timeout']}/{reached} of those on lines the check "
                     f"reaches; not detected: {count['unreached']} unreached, {count['text-only']} changed "
                     f"only the explanation, {count['residual-only']} only the residual, "
                     f"{count['survived']} nothing")
    for o in outcomes:
        if o.status == "survived" and not o.site.scope:
            lines.append(f"  survived: {o.theorem} '{o.claim}' line {o.site.line}: {o.site.operator} "
                         f"(still {o.verdict})")
    return "\n".join(lines)


def _task(task: tuple[str, str, int]) -> list[dict[str, Any]]:
    """One claim of one theorem (for a worker process)."""
    from proofkit.language import registry

    theorem_id, claim_name, timeout_s = task
    try:
        thm = registry.get(theorem_id)
        return [o.as_dict() for o in run(thm, timeout_s=timeout_s, claims=lambda c: c.name == claim_name)]
    except Exception as exc:  # one claim that cannot be mutated must not lose the others' results
        return [{"theorem": theorem_id, "claim": claim_name, "failed": f"{type(exc).__name__}: {exc}"}]


def main(argv: list[str] | None = None) -> int:
    """``python tests/engine/claim_mutation.py [IDS] [--jobs N] [--timeout S] [--out FILE]``: every
    code-carried
    claim of every (or the named) theorem, mutated and decided; writes the outcomes as JSON."""
    import argparse
    import json
    import multiprocessing

    from proofkit.language import registry

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("ids", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--out", default="claim_mutants.json")
    args = ap.parse_args(argv)
    thms = [registry.get(i) for i in args.ids] or list(registry.load_all().values())
    tasks = [(t.id, c.name, args.timeout) for t in thms for c in t.claims if claim_function(c) is not None]
    rows: list[dict[str, Any]] = []
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for i, part in enumerate(pool.imap_unordered(_task, tasks), 1):
            rows += part
            print(f"{i}/{len(tasks)} claims, {len(rows)} mutants", flush=True)
    failed = [r for r in rows if "failed" in r]
    rows = [r for r in rows if "failed" not in r]
    for r in failed:
        print(f"not mutated: {r['theorem']} '{r['claim']}': {r['failed']}")
    rows.sort(key=lambda r: (r["theorem"], r["claim"], r["line"], r["operator"]))
    with open(args.out, "w") as fh:
        json.dump(rows, fh, indent=1)
    outcomes = [Outcome(r["theorem"], r["claim"], Site(0, r["operator"], r["line"], r["scope"]), r["verdict"],
                        r["original"], r["reached"], r["change"]) for r in rows]
    print(report(outcomes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
