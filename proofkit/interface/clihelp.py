"""The CLI's prose: ``--help`` epilogs (examples and exit codes) and the ``--version`` line.

Kept apart from :mod:`proofkit.interface.cli` so the parser reads as a list of options, and so the exit codes
are written once: the top-level help and every subcommand's quote the same table.
"""

from __future__ import annotations

import subprocess
from importlib import metadata
from pathlib import Path

DESCRIPTION = ("Theorems about length and compositional generalization of sequence models as executable, "
               "falsifiable checks: decide a theorem's claims, search for counterexamples, scan a parameter.")

EXIT_CODES = """exit codes:
  0  holds / as expected (falsify: no counterexample found; replay: reproduces)
  1  refuted / regression (falsify: a counterexample found; replay: does not reproduce)
  2  bad input: one line on stderr, nothing computed
  3  inconclusive: could not be decided (the reason is printed)
  4  internal error: a claim's own code, a theorem file or proofkit itself raised (no verdict; the
     exception is printed)"""

_EXAMPLES = {
    None: """examples:
  proofkit list
  proofkit show AM24.T4 --drop A8           # the statement without assumption A8
  proofkit check AM24.T4 --set T=1          # one theorem at other parameters
  proofkit check --all -j 0                 # every theorem, one process per CPU
  proofkit falsify AM24.T4 --drop A8        # search for a counterexample without A8
  proofkit scan AM24.T4 --param T --values 1,2,3
  proofkit replay counterexamples/FILE.json
  proofkit completion bash > ~/.local/share/bash-completion/completions/proofkit

Every verdict ends with a runnable 'reproduce:' line (a "reproduce" field with --json).""",
    "check": """examples:
  proofkit check AM24.T4
  proofkit check AM24.T4 --set n=3 --seed 1 --dps 80   # learned_dim follows n unless set itself
  proofkit check --all -j 0 --json""",
    "falsify": """examples:
  proofkit falsify AM24.T4 --drop A8
  proofkit falsify AM24.T4 --drop A5.square --no-shrink --out records
  proofkit falsify AM24.T4 --drop 'T>=2' --expect-counterexample && echo found""",
    "scan": """examples:
  proofkit scan AM24.T4 --param T --values 1,2,3          # threshold: smallest T from which all hold
  proofkit scan AM24.T4 --param activation --values sigmoid,tanh,relu --no-search   # per value""",
    "replay": """examples:
  proofkit replay counterexamples/AM24.T4_drop-A8_support=subspace_dps60_seed0.json""",
    "completion": """examples:
  proofkit completion bash > ~/.local/share/bash-completion/completions/proofkit
  proofkit completion zsh > "${fpath[1]}/_proofkit"
  proofkit completion fish > ~/.config/fish/completions/proofkit.fish""",
}

_BAD = "  2  bad input: one line on stderr, nothing computed"
_UNDECIDED = "  3  inconclusive: could not be decided"
_INTERNAL = "  4  internal error: proofkit or a theorem file raised (no verdict; the traceback is printed)"
_CODES = {
    "check": f"""exit codes:
  0  certified or confirmed (--all: every verdict is the theorem file's expected one)
  1  refuted (--all: some verdict is not the expected one)
{_BAD}
{_UNDECIDED} (not with --all)
  4  internal error: a claim's own code raised (no verdict; --all: any theorem)""",
    "falsify": f"""exit codes:
  0  searched, no counterexample found (--expect-counterexample: a counterexample found)
  1  a counterexample found (--expect-counterexample: none found)
{_BAD}
{_UNDECIDED} (the search could not run to an answer)
{_INTERNAL}""",
    "scan": f"""exit codes:
  0  the scan ran (each value's verdict is in its row)
{_BAD}
{_INTERNAL}""",
    "replay": f"""exit codes:
  0  the record reproduces
  1  it does not reproduce
{_BAD}
{_UNDECIDED}
{_INTERNAL}""",
    "completion": f"""exit codes:
  0  the script is printed
{_BAD}""",
}


def epilog(command: str | None = None) -> str:
    """Examples for ``command`` (None: the top level), then its exit codes."""
    return f"{_EXAMPLES[command]}\n\n{_CODES.get(command, EXIT_CODES)}"


def _git_commit(root: Path) -> str | None:
    """The short commit of the checkout at ``root`` (with ``-dirty`` when tracked files are modified), or
    None where ``root`` is no git checkout or git is missing."""
    if not (root / ".git").exists():
        return None
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("-dirty" if dirty else "") if commit else None


def version_line() -> str:
    """``proofkit X.Y.Z (git COMMIT)`` from a source checkout, ``proofkit X.Y.Z (installed)`` otherwise;
    the version is the installed distribution's (the package's own where it is not installed)."""
    from .. import __version__

    try:
        version = metadata.version("proofkit")
    except metadata.PackageNotFoundError:
        version = __version__
    commit = _git_commit(Path(__file__).resolve().parents[2])
    return f"proofkit {version} ({f'git {commit}' if commit else 'installed'})"
