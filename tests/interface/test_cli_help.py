"""The CLI's help, version and shell completion: every option has a help text, --help shows examples and
the exit codes, --version names the version and the commit, and ``proofkit completion SHELL`` prints a
script that is valid in that shell, knows every subcommand and completes theorem ids."""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from proofkit.interface import clihelp, completion
from proofkit.interface.cli import build_parser, main
from proofkit.interface.testing import run_cli as run


def parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parsers(sub, (*path, name))


def subcommand_paths() -> list[tuple[str, ...]]:
    return [path for path, _ in parsers(build_parser()) if path]


def test_every_option_and_subcommand_has_help():
    missing = []
    for path, parser in parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {a.dest: a.help for a in action._choices_actions}
                missing += [(*path, name) for name in action.choices if not helps.get(name)]
            elif not action.help:
                missing.append((*path, action.dest))
    assert missing == []


@pytest.mark.parametrize("argv", [[], ["check"], ["falsify"], ["scan"], ["replay"], ["completion"]])
def test_help_ends_with_examples_and_exit_codes(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    examples, codes = out.index("examples:"), out.index("exit codes:")
    assert examples < codes
    assert re.search(r"^  0  ", out[codes:], re.M) and re.search(r"^  2  bad input", out[codes:], re.M)
    for line in out[examples:codes].splitlines()[1:]:  # the examples are commands, formatted as written
        assert not line.strip() or line.startswith("  proofkit ") or not line.startswith(" ")


def test_falsify_help_documents_the_expect_counterexample_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["falsify", "--help"])
    out = capsys.readouterr().out
    assert "--expect-counterexample" in out and "0 iff a counterexample is found" in out


def test_version_names_the_version_and_the_commit(capsys):
    assert main(["--version"]) == 0  # the start-up path: no parser built
    out = capsys.readouterr().out.strip()
    with pytest.raises(SystemExit) as exc:  # after other options the parser's action answers, the same
        main(["-q", "--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == out
    assert re.fullmatch(r"proofkit \d+\.\d+\.\d+\S* \((git [0-9a-f]{4,40}(-dirty)?|installed)\)", out), out
    root = Path(clihelp.__file__).resolve().parents[2]  # proofkit/interface/clihelp.py -> the repository
    if (root / ".git").exists() and shutil.which("git"):
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        assert f"(git {head}" in out


def test_a_folder_without_git_is_an_installed_copy(tmp_path):
    assert clihelp._git_commit(tmp_path) is None


# ----------------------------------------------------------------------------- completion
@pytest.mark.parametrize("shell", completion.SHELLS)
def test_completion_script_knows_every_subcommand_and_option(capsys, shell):
    code, out, err = run(capsys, "completion", shell)
    assert code == 0 and err == ""
    for path in subcommand_paths():
        assert re.search(rf"(?<![\w-]){re.escape(path[-1])}(?![\w-])", out), (shell, path)
    for _, parser in parsers(build_parser()):
        for action in parser._actions:
            for flag in action.option_strings:
                word = flag if shell != "fish" else f"-l {flag[2:]}" if flag[:2] == "--" else f"-s {flag[1:]}"
                assert word in out, (shell, flag)


def test_an_unknown_shell_is_bad_input(capsys):
    code, out, err = run(capsys, "completion", "tcsh")
    assert code == 2 and out == "" and err.count("\n") == 1 and "tcsh" in err


SYNTAX = {"bash": ["bash", "-n"], "zsh": ["zsh", "-n"], "fish": ["fish", "--no-execute"]}


@pytest.mark.parametrize("shell", completion.SHELLS)
def test_completion_script_is_valid_in_its_shell(tmp_path, shell):
    if shutil.which(SYNTAX[shell][0]) is None:
        pytest.skip(f"{shell} is not installed")
    path = tmp_path / f"proofkit.{shell}"
    path.write_text(completion.script(build_parser(), shell))
    done = subprocess.run([*SYNTAX[shell], str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.fixture()
def on_path(tmp_path):
    """A ``proofkit`` on PATH that runs this interpreter's proofkit (the script calls ``proofkit list``)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "proofkit"
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m proofkit.interface.cli "$@"\n')
    exe.chmod(0o755)
    return bin_dir


BASH_CASES = [  # the words typed (as bash splits them), the last one being completed; the completions wanted
    (["proofkit", "ch"], {"check"}),
    (["proofkit", "check", "am24.t"], {"AM24.T1", "AM24.T2", "AM24.T3", "AM24.T3c", "AM24.T4", "AM24.T5"}),
    (["proofkit", "check", "AM24.T4", "--set", "learn"], {"learned_dim="}),
    (["proofkit", "check", "AM24.T4", "--set", "T", "=", ""], {str(v) for v in range(1, 21)}),  # split at =
    (["proofkit", "check", "AM24.T4", "--set", "activation", "=", "s"], {"sigmoid", "softplus"}),
    (["proofkit", "falsify", "AM24.T4", "--drop", "T"], {"T\\>=2"}),  # quoted: > is a redirection
    (["proofkit", "falsify", "AM24.T4", "--drop", "A5.L"], {"A5.Lam-invertible"}),
    (["proofkit", "scan", "AM24.T5", "--param", "learn"], {"learned_dim"}),
    (["proofkit", "show", "NOPE.T1", "--drop", ""], set()),
    (["proofkit", "check", "AM24.T4", "--drop", ""], set()),  # check has no --drop: nothing to offer
    (["proofkit", "report", "--format", ""], {"md", "latex", "csv", "json"}),
    (["proofkit", "plot", "s.json", "--format", "p"], {"pdf", "png"}),
    (["proofkit", "check", "AM24.T4", "AM"], set()),  # check takes one theorem id, typed already
    (["proofkit", "report", "AM24.T4", "AM24.T"], {"AM24.T1", "AM24.T2", "AM24.T3", "AM24.T3c", "AM24.T4",
                                                     "AM24.T5"}),  # report takes several
    (["proofkit", "check", "AM24.T"], {"AM24.T1", "AM24.T2", "AM24.T3", "AM24.T3c", "AM24.T4", "AM24.T5"}),
    (["proofkit", "falsify", "AM24.T4", "--no-sh"], {"--no-shrink"}),
    (["proofkit", "--backend", "nu"], {"numpy"}),
    (["proofkit", "crasp", "co"], {"compile"}),
    (["proofkit", "completion", ""], set(completion.SHELLS)),
    (["proofkit", "check", "--dps", ""], set()),
]


def _line(words: list[str]) -> str:
    """The command line bash's COMP_WORDS came from: the words with spaces, none around an = it split."""
    line = ""
    for prev, word in zip(["", *words], words):
        line += word if "=" in (prev, word) else f" {word}" if line else word
    return line


def test_bash_completes_subcommands_options_choices_and_theorem_ids(tmp_path, on_path):
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    script = tmp_path / "proofkit.bash"
    script.write_text(completion.script(build_parser(), "bash"))
    program = (f"source {shlex.quote(str(script))}\n"
               't() { COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; shift; COMP_WORDS=("$@"); '
               'COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _proofkit; echo "${COMPREPLY[*]}"; }\n'
               + "\n".join("t " + " ".join(shlex.quote(w) for w in [_line(words), *words])
                            for words, _ in BASH_CASES) + "\n")
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=120,
                          env={"PATH": f"{on_path}:/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert [set(line.split()) for line in done.stdout.splitlines()] == [want for _, want in BASH_CASES]


def test_every_subcommand_accepts_the_global_options_after_it():
    """Issue 27, item 6: ``proofkit check AM24.T4 --backend numpy`` was 'unrecognized arguments'."""
    names = [(path, sp) for path, sp in parsers(build_parser()) if path]
    assert len(names) > 20
    for path, sp in names:
        have = sp._option_string_actions
        for option in ("--theorems", "--backend", "--max-work", "-q"):
            assert option in have, (path, option)


def test_global_options_after_the_subcommand_take_effect(capsys, tmp_path):
    root = Path(__file__).resolve().parents[2]
    toy = str(root / "tests" / "sweep" / "sweep_theorems")
    code, out, err = run(capsys, "check", "SWEEP.TOY", "--backend", "numpy", "--theorems", toy, "-q",
                             "--max-work", "1e12")
    assert code == 0 and err == "" and "SWEEP.TOY" in out
    code, out, _ = run(capsys, "--theorems", str(root / "docs" / "examples" / "my_theorems"), "list",
                           "--theorems", toy)
    assert code == 0 and "SWEEP.TOY" in out and "MY.T1" in out  # added to the folders given before
    code, _, err = run(capsys, "check", "SWEEP.TOY", "--theorems", toy, "--max-work", "0")
    assert code == 2 and "--max-work" in err


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["sweep", "--help"], ["drops", "--help"]])
def test_help_loads_neither_the_engine_nor_sympy(argv):
    """Issue 28, item 5: --help took seconds because building the parser imported the engine (sympy and
    all, about 0.3 s of 0.55 s); the subcommand modules now load it in their handlers."""
    code = ("import io, sys, contextlib\nfrom proofkit.interface.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    try:\n        main(sys.argv[1:])\n"
            "    except SystemExit:\n        pass\n"
            "print(sorted(m for m in ('sympy', 'proofkit.engine.check', 'proofkit.language.spec') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "[]", (done.stdout, done.stderr)


DATA_CASES = [  # a command line typed up to the TAB; what zsh and fish offer (theorem data, from __complete)
    ("proofkit check am24.t", {"AM24.T1", "AM24.T2", "AM24.T3", "AM24.T3c", "AM24.T4", "AM24.T5"}),
    ("proofkit check AM24.T4 --set T=1", {"T=1", *(f"T={v}" for v in range(10, 20))}),
    ("proofkit falsify AM24.T4 --drop T", {"T>=2"}),
    ("proofkit scan AM24.T5 --param learn", {"learned_dim"}),
]


def test_zsh_and_fish_complete_theorem_data(tmp_path, on_path):
    """The zsh and fish scripts ask ``proofkit __complete`` as bash's does (zsh with compadd stubbed to
    print what it is given; fish through its own ``complete -C``)."""
    env = {"PATH": f"{on_path}:/usr/bin:/bin", "HOME": str(tmp_path)}
    ran = 0
    if shutil.which("zsh"):
        script = tmp_path / "proofkit.zsh"
        script.write_text(completion.script(build_parser(), "zsh"))
        stubs = ("compdef() { : }\ncompadd() { local a; for a in \"$@\"; do [[ $a == -* || $a == '' ]] || "
                 "print -r -- \"$a\"; done }\n_describe() { : }\n_files() { : }\n_directories() { : }\n"
                 "_message() { : }\n")
        lines = [f"words=({line} ); CURRENT=${{#words}}; _proofkit; print -- '@@'" for line, _ in DATA_CASES]
        program = stubs + f"source {shlex.quote(str(script))}\n" + "\n".join(lines) + "\n"
        done = subprocess.run(["zsh", "-c", program], capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        got = [set(block.split()) for block in done.stdout.split("@@")[:-1]]
        assert got == [want for _, want in DATA_CASES]
        ran += 1
    if shutil.which("fish"):
        script = tmp_path / "proofkit.fish"
        script.write_text(completion.script(build_parser(), "fish"))
        program = f"source {shlex.quote(str(script))}\n" + "\n".join(
            f"complete -C {shlex.quote(line)}; echo @@" for line, _ in DATA_CASES) + "\n"
        done = subprocess.run(["fish", "--no-config", "-c", program], capture_output=True, text=True,
                              timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        blocks = done.stdout.split("@@")[:-1]
        got = [{row.split("\t")[0] for row in block.splitlines() if row} for block in blocks]
        assert got == [want for _, want in DATA_CASES]
        ran += 1
    if not ran:
        pytest.skip("neither zsh nor fish is installed")


def test_the_report_formats_offered_are_the_renderers():
    from proofkit.publish import render
    from proofkit.publish.cli import REPORT_FORMATS

    assert REPORT_FORMATS == tuple(render.FORMATS)

