"""``verify-bundle``: re-derive an evidence bundle here and compare every field; say, field by field,
claim by claim and record by record, whether it reproduces.

A bundle's SHA-256 detects edits, not forgery (anyone can recompute it), so nothing in a bundle is taken
on trust: every field is re-derived from the theorem registered here and compared (:mod:`.compare`).

1. The hash: a bundle whose content no longer matches it is ALTERED (exit 1); nothing else is run.
2. Forgeries proofkit never writes: a claim name twice (in the verdict or the specification), a record
   carried twice (the same file name, or the same record under two names). Refused, nothing re-run.
3. The theorem must be registered here (exit 3 otherwise).
4. The cost of the re-check (the check plus one replay per carried record, estimated from the
   registered theorem's claims, never from the bundle's say-so) must be within ``--max-work`` (exit 2).
5. The check is re-run at the bundle's overrides, seed and precision, and compared: the specification
   (``theorem_json``: title, reference, statement, claims, parameters), the citation and BibTeX, the
   resolved parameters, the pins (theorem file hash, true model parameters, proofkit version), the
   theorem's verdict fields (errata, flags, violated assumptions, diagnostics; timing fields are not in
   a bundle) and every field of every claim (statement, role, verdict, residual, how-text with its
   figures, note, expected, scope, error, certificate).
6. The record set: the carried records must be exactly those of the theorem in the records folder here
   (``--records DIR``, else the default one), by file name and content; each carried record is replayed.
7. The independent certificate checker (:mod:`proofkit.kernel`) re-checks every carried record's
   certificate and every claim's certificate (:func:`_kernel` is its one call site).

Environment differences (another numpy, another commit) are listed, never counted as failures; a figure
they change is a difference of the field that holds it. Every name printed is escaped (:func:`.compare.name`).
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, cap_text
from ..language import registry
from ..language.spec import Computed, Theorem
from ..render import reproduce
from ..runtime import workguard
from ..storage import record
from . import bundle as bundles
from . import env
from .compare import differences, listed, name, show
from .spec_json import theorem_json

REPRODUCES, DIFFERS, NOT_REDERIVED = "reproduces", "DIFFERS", "not re-derived"
#: estimated work units (:mod:`proofkit.runtime.workguard`'s unit, about 1.5 ns) of the pieces of a re-check,
#: from checks timed on the development machine and rounded up: the fit of a theorem with a learning
#: setup (AM24.T4's whole check: 4.8 s), one computed claim (HYB24.NEG: 42 claims in 24 s), one sympy
#: step or one relation evaluated at the fit, one record replay with its certificate re-check
FIT_WORK, COMPUTED_WORK, STEP_WORK, REPLAY_WORK = 5 * 10**9, 5 * 10**8, 10**8, 5 * 10**8
#: how the kernel's statuses read here: only "failed" is a failure
KERNEL_FAILED = "failed"


@dataclass(frozen=True)
class Part:
    """A group of fields compared as a whole (specification, citation, parameters, pins, record set):
    ``summary`` says what was compared, ``differ`` every difference; ``rederived`` False when there was
    nothing here to re-derive it from (said, never counted as reproducing or failing)."""

    name: str
    summary: str
    differ: list[str] = field(default_factory=list)
    rederived: bool = True

    @property
    def reproduces(self) -> bool:
        return not self.differ


@dataclass(frozen=True)
class ClaimCheck:
    """One claim (or the theorem's verdict fields): its verdict label in the bundle and now (None: absent
    on that side) and every field that differs."""

    name: str
    stored: str | None
    now: str | None
    differ: list[str] = field(default_factory=list)

    @property
    def reproduces(self) -> bool:
        return not self.differ


@dataclass(frozen=True)
class RecordCheck:
    """One carried record's replay."""

    file: str
    reproduces: bool
    how: str


@dataclass
class Verification:
    """Everything verify-bundle found; ``status`` is ``ok``, ``altered`` (hash), ``forged`` (a duplicate
    claim name or record: ``forged`` says which) or ``unregistered``."""

    file: str
    theorem: str
    sha256: str
    status: str = "ok"
    forged: list[str] = field(default_factory=list)
    seed: int = 0
    dps: int = 0
    overrides: dict[str, Any] = field(default_factory=dict)
    parts: list[Part] = field(default_factory=list)
    verdict: ClaimCheck | None = None
    claims: list[ClaimCheck] = field(default_factory=list)
    records: list[RecordCheck] = field(default_factory=list)
    kernel: list[dict[str, str]] = field(default_factory=list)
    environment: list[str] = field(default_factory=list)

    def failures(self) -> list[str]:
        """What does not reproduce, by name (escaped)."""
        return ([p.name for p in self.parts if not p.reproduces]
                + (["theorem verdict"] if self.verdict is not None and not self.verdict.reproduces else [])
                + [f"claim {name(c.name)}" for c in self.claims if not c.reproduces]
                + [f"record {name(r.file)}" for r in self.records if not r.reproduces]
                + [f"kernel: {name(k['source'])}" for k in self.kernel if k["status"] == KERNEL_FAILED])

    @property
    def reproduces(self) -> bool:
        return self.status == "ok" and self.verdict is not None and not self.failures()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready (the ``--json`` output)."""
        out = asdict(self)
        out["reproduces"] = self.reproduces
        out["parts"] = [dict(asdict(p), reproduces=p.reproduces) for p in self.parts]
        out["claims"] = [dict(asdict(c), reproduces=c.reproduces) for c in self.claims]
        if self.verdict is not None:
            out["verdict"] = dict(asdict(self.verdict), reproduces=self.verdict.reproduces)
        return out

    def text(self) -> str:
        """What a reader needs: per field group, claim, record and certificate whether it reproduces, and
        where not, which field differs and how."""
        file, tid = name(self.file), name(self.theorem)
        if self.status == "altered":
            return (f"{file}: ALTERED: its content does not match its sha256 {self.sha256} (edited or "
                    "damaged after it was written); nothing was re-run")
        if self.status == "forged":
            return "\n".join([f"{file}: does NOT reproduce: FORGED: {f}" for f in self.forged]
                             + ["proofkit never writes such a bundle; nothing was re-run"])
        if self.status == "unregistered":
            return (f"{file}: theorem {tid} is not registered here (add its folder with --theorems DIR or "
                    "install its package); nothing was re-run")
        sets = ", ".join(f"{name(k)}={name(v)}" for k, v in self.overrides.items()) or "none"
        out = [f"{file}: sha256 ok ({self.sha256}); {tid} re-checked at seed {self.seed}, dps {self.dps}, "
               f"overrides {sets}"]
        for p in self.parts:
            mark = NOT_REDERIVED if not p.rederived else REPRODUCES if p.reproduces else DIFFERS
            out.append(f"  [{mark}] {p.name}: {p.summary}")
            out += [f"      {d}" for d in p.differ]
        if self.verdict is not None:
            out += _claim_lines(self.verdict)
        for c in self.claims:
            out += _claim_lines(c)
        out += [f"  [{REPRODUCES if r.reproduces else DIFFERS}] record {name(r.file)}: {cap_text(r.how, 400)}"
                for r in self.records]
        out += [f"  kernel [{name(k['status'])}] {name(k['source'])} {name(k['field'])} ({name(k['kind'])}): "
                f"{cap_text(k['detail'], 400)}" for k in self.kernel]
        if self.environment:
            out.append("  environment differences (reported, not failures): "
                       + "; ".join(name(e) for e in self.environment))
        bad = self.failures()
        total = len(self.parts) + 1 + len(self.claims) + len(self.records) + len(self.kernel)
        status = Counter(k["status"] for k in self.kernel)
        certs = "; certificates: " + (", ".join(f"{n} {s}" for s, n in sorted(status.items())) or "none")
        out.append("every field, verdict and record reproduces" + certs if self.reproduces else
                   f"does NOT reproduce: {len(bad)} of {total} compared differ: " + ", ".join(bad[:10])
                   + (f", and {len(bad) - 10} more" if len(bad) > 10 else ""))
        out.append("re-run: " + cap_text(reproduce.line("check", self.theorem, sets=self.overrides,
                                                        seed=self.seed, dps=self.dps), 2000))
        return "\n".join(out)


def _claim_lines(c: ClaimCheck) -> list[str]:
    if c.reproduces:
        return [f"  [{REPRODUCES}] {name(c.name)}: {name(c.now)}"]
    pair = name(c.now) if c.stored == c.now else \
        f"{name(c.stored or 'absent')} in the bundle, {name(c.now or 'absent')} now"
    return [f"  [{DIFFERS}] {name(c.name)}: {pair}", *(f"      {d}" for d in c.differ)]


# ------------------------------------------------------------------------------------- before any re-run
def _positions(keys: Iterable[Any]) -> list[list[int]]:
    """The positions of every value ``keys`` holds more than once (compared in canonical JSON)."""
    seen: dict[bytes, list[int]] = {}
    for i, key in enumerate(keys):
        seen.setdefault(bundles.canonical(key), []).append(i)
    return [at for at in seen.values() if len(at) > 1]


def forgeries(data: dict[str, Any]) -> list[str]:
    """What makes a bundle one proofkit never writes, whatever its hash: a claim name twice (a verifier
    that compared by name would see only one of them), a record carried twice (by file name, or the same
    record under two names)."""
    out = []
    spec = data["theorem"].get("claims")
    for where, claims in (("verdict.claims", data["verdict"]["claims"]),
                          ("theorem.claims", spec if isinstance(spec, list) else [])):
        names = [c.get("name") if isinstance(c, dict) else None for c in claims]
        out += [f"{where}: the claim name {show(names[at[0]])} appears {len(at)} times (entries "
                f"{', '.join(map(str, at))})" for at in _positions(names)]
    files = [r["file"] for r in data["records"]]
    out += [f"records: the file {show(files[at[0]])} appears {len(at)} times (entries "
            f"{', '.join(map(str, at))})" for at in _positions(files)]
    same = _positions(r["record"] for r in data["records"])
    out += [f"records: the same record appears {len(at)} times (entries {', '.join(map(str, at))}: "
            f"{', '.join(show(files[i]) for i in at)})" for at in same]
    return out


def work(thm: Theorem, n_records: int) -> workguard.Work:
    """Estimated work of re-checking ``thm`` and replaying ``n_records`` records, from the registered
    theorem's claims (what the bundle says about itself is not trusted for this)."""
    computed = sum(isinstance(c, Computed) for c in thm.claims)
    steps = len(thm.claims) - computed
    est = workguard.Work(computed * COMPUTED_WORK + steps * STEP_WORK,
                         f"{computed} computed claims x {COMPUTED_WORK:.0e} + {steps} other claims x "
                         f"{STEP_WORK:.0e}")
    if thm.setup is not None:
        est = workguard.Work(FIT_WORK, f"1 fit x {FIT_WORK:.0e}") + est
    return est + workguard.Work(n_records * REPLAY_WORK, f"{n_records} record replays x {REPLAY_WORK:.0e}")


# ------------------------------------------------------------------------------------------- comparisons
def _claims(stored: list[dict[str, Any]], now: list[dict[str, Any]]) -> list[ClaimCheck]:
    """Claims of both sides by name (unique on the bundle's side: forgeries are refused first), the
    bundle's order first; every field of each compared."""
    before = {c["name"]: c for c in stored}
    after = {c["name"]: c for c in now}
    out = []
    for n in dict.fromkeys([*before, *after]):
        a, b = before.get(n), after.get(n)
        differ = ["absent in the bundle"] if a is None else ["absent now (no such claim here)"] if b is None \
            else listed(differences(a, b, ""))
        out.append(ClaimCheck(n, None if a is None else a["verdict"], None if b is None else b["verdict"],
                              differ))
    return out


def _verdict(stored: dict[str, Any], now: dict[str, Any]) -> ClaimCheck:
    """The theorem-level fields (verdict, errata, flags, violated assumptions, diagnostics, ...) and the
    order of the claims."""
    diffs = differences({k: v for k, v in stored.items() if k != "claims"},
                        {k: v for k, v in now.items() if k != "claims"}, "")
    order = ([c["name"] for c in stored["claims"]], [c["name"] for c in now["claims"]])
    if order[0] != order[1] and sorted(order[0]) == sorted(order[1]):
        diffs.append("claims: the same claims in another order")
    return ClaimCheck("theorem verdict", stored["verdict"], now["verdict"], listed(diffs))


def _record_set(carried: list[dict[str, Any]], tid: str, folder: Path | None) -> Part:
    """Complete means exactly the theorem's records of the folder here, by file name and content."""
    if folder is None:
        return Part("record set", f"{len(carried)} record(s) carried; no records folder here to re-derive "
                    "the set from (give --records DIR)", rederived=False)
    where = name(folder)
    expected = bundles.carried(tid, folder)
    mine, theirs = {r["file"]: r["record"] for r in carried}, {r["file"]: r["record"] for r in expected}
    diffs = [f"records: {name(f)} of {name(tid)} in {where} is missing from the bundle"
             for f in theirs if f not in mine]
    diffs += [f"records: {name(f)} is not a record of {name(tid)} in {where}"
              for f in mine if f not in theirs]
    for f in (f for f in mine if f in theirs):
        diffs += differences(mine[f], theirs[f], f"records[{name(f)}]")
    if not diffs and list(mine) != list(theirs):
        diffs.append("records: the same records in another order")
    return Part("record set", f"{len(expected)} record(s) of {name(tid)}, exactly those in {where} "
                "(complete, no duplicates)", listed(diffs))


def _replay(entry: dict[str, Any], folder: Path, i: int) -> RecordCheck:
    """Replay one carried record from a temporary copy; a record that no longer replays (a stored field
    disagrees, or it does not load) does not reproduce, with the reason."""
    from ..engine.replay import replay

    path = folder / f"record{i}.json"
    path.write_text(record.canonical(entry["record"]), encoding="utf-8")
    try:
        res = replay(path)
    except InputError as exc:
        return RecordCheck(entry["file"], False, f"does not replay: {exc}")
    how = f"{'reproduces' if res.reproduces else 'does NOT reproduce'} " \
          f"({'certified' if res.certified else 'not certified'})"
    return RecordCheck(entry["file"], res.reproduces, how)


def _kernel(data: dict[str, Any]) -> list[dict[str, str]]:
    """The independent certificate checker (:mod:`proofkit.kernel`, docs/trust.md) on every carried
    record and every claim's certificate: the one place verify-bundle calls it. Its statuses: checked,
    failed (a failure here), not re-checked, no certificate."""
    from .. import kernel

    out = []
    for entry in data["records"]:
        source = f"record {entry['file']}"
        try:
            results = kernel.check_record(entry["record"], source)
        except kernel.KernelInputError as exc:
            results = [kernel.Result(source, "record", "-", kernel.FAILED, str(exc))]
        out += [r.as_dict() for r in results]
    for c in data["verdict"]["claims"]:
        if c.get("certificate") is not None:
            res = kernel.check_certificate(c["certificate"], f"claim {c['name']}", "certificate")
            out.append(res.as_dict())
    return out


def _parts(data: dict[str, Any], thm: Theorem, params: dict[str, Any], true_at: dict[str, Any]) -> list[Part]:
    """Specification, citation, resolved parameters and pins, each against what is registered here."""
    cite = bundles.citation(thm)
    now_pins = bundles.pins(thm, true_at)
    true = "no true model" if now_pins["true_params"] is None else \
        f"true model {show(now_pins['true_params'], 60)}"
    return [
        Part("theorem specification", "title, reference, statement, assumptions, claims and parameters as "
             "registered here", listed(differences(data["theorem"], bundles.jsonable(theorem_json(thm)),
                                                   "theorem"))),
        Part("citation", (f"BibTeX key {name(cite['bibkey'])} and its entry" if cite["bibkey"]
                          else "no BibTeX key") + " as registered here",
             listed(differences(data["citation"], cite, "citation"))),
        Part("parameters", ", ".join(f"{name(k)}={name(v)}" for k, v in params.items()) or "none",
             listed(differences(data["check"]["params"], params, "check.params"))),
        Part("pins", f"theorem file {name(now_pins['theorem_file']['path'])} (sha256 "
             f"{now_pins['theorem_file']['sha256'][:16]}...), {true}, proofkit {name(now_pins['proofkit'])}",
             listed(differences(data["pins"], now_pins, "pins"))),
    ]


def verify(data: dict[str, Any], file: str, records_folder: Path | None = None) -> Verification:
    """Verify a loaded bundle (:func:`proofkit.publish.bundle.load`) named ``file`` in messages, its
    record set against ``records_folder`` (None: the set is not re-derived, which is said)."""
    from ..engine.check import check

    tid = data["theorem"]["id"]
    out = Verification(file, tid, data["sha256"])
    if bundles.digest(data) != data["sha256"]:
        out.status = "altered"
        return out
    out.forged = forgeries(data)
    if out.forged:
        out.status = "forged"
        return out
    if tid not in registry.load_all():
        out.status = "unregistered"
        return out
    thm = registry.get(tid)
    workguard.guard("verify-bundle", work(thm, len(data["records"])),
                    lower="the records carried (each is replayed)")
    inputs = data["check"]
    out.seed, out.dps, out.overrides = inputs["seed"], inputs["dps"], dict(inputs["overrides"])
    res = check(thm, out.overrides, dps=out.dps, seed=out.seed)
    now = bundles.verdict_json(res)
    out.parts = _parts(data, thm, bundles.jsonable(res.params), res.params)
    out.verdict = _verdict(data["verdict"], now)
    out.claims = _claims(data["verdict"]["claims"], now["claims"])
    out.parts.append(_record_set(data["records"], tid, records_folder))
    with tempfile.TemporaryDirectory(prefix="proofkit-bundle-") as tmp:
        out.records = [_replay(entry, Path(tmp), i) for i, entry in enumerate(data["records"])]
    out.kernel = _kernel(data)
    out.environment = env.differences(data["environment"], env.environment())
    return out
