"""Shell completion scripts (bash, zsh, fish) generated from the CLI's argparse tree.

``proofkit completion SHELL`` prints one. Every subcommand, nested ones too (``crasp eval``), completes
its options and, after an option that takes a value, that value where it has a known kind: a choice list,
a folder, a file. The words that depend on the theorems -- ids (a positional ``id`` / ``ids``), ``--set``
names and values (``T=3``), ``--param`` names, ``--drop`` assumption ids -- are asked of the hidden
``proofkit __complete`` (:mod:`proofkit.interface.complete`), which answers from a cached index in
milliseconds and reads the theorem id and any ``--theorems`` folders from the words already typed, so
the user's own theorems complete too. Written by hand rather than with a completion library because
none of them covers bash, zsh and fish from argparse alike; the tree is walked, never listed, so a new
subcommand completes without an edit here.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

SHELLS = ("bash", "zsh", "fish")

#: positional destinations completed from ``proofkit list`` / as files
THEOREM_DESTS = {"id", "ids"}
FILE_DESTS = {"file", "program", "spec"}
#: option metavars whose value is a folder / a file
DIR_METAVARS = {"DIR"}
FILE_METAVARS = {"FILE", "PATH", "RESULT", "SPEC"}
#: option metavars whose value depends on the theorem typed: the ``proofkit __complete`` kind that offers it
DATA_METAVARS = {"KEY=VALUE": "set", "ASSUMPTION_ID": "drop", "NAME": "param"}
DATA_KINDS = frozenset(DATA_METAVARS.values())


@dataclass
class Option:
    flags: tuple[str, ...]
    takes_value: bool
    help: str
    choices: tuple[str, ...] = ()
    kind: str = ""  # "dir" | "file" | "set" | "drop" | "param" | ""


@dataclass
class Command:
    """One parser of the tree: ``path`` is the subcommand words after ``proofkit``."""

    path: tuple[str, ...]
    help: str
    options: list[Option] = field(default_factory=list)
    positional: str = ""  # "theorem" | "theorems" | "file" | "choices" | "none" (its first positional)
    choices: tuple[str, ...] = ()  # the first positional's choices
    subcommands: list[tuple[str, str]] = field(default_factory=list)  # (name, help)


def _short(text: str | None, limit: int = 70) -> str:
    """A help text as a one-line description: its first sentence, at most ``limit`` characters."""
    text = " ".join((text or "").replace("%%", "%").split()).split(". ")[0]
    return text if len(text) <= limit else text[: limit - 3].rsplit(" ", 1)[0] + "..."


def walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = (), help_text: str = "") -> list[Command]:
    """Every parser of the tree, depth first, the top level first."""
    cmd = Command(path, _short(help_text or parser.description))
    children: list[Command] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                cmd.subcommands.append((name, _short(helps.get(name, ""))))
                children += walk(sub, (*path, name), helps.get(name, ""))
        elif action.option_strings:
            metavar = action.metavar if isinstance(action.metavar, str) else ""
            kind = ("dir" if metavar in DIR_METAVARS else "file" if metavar in FILE_METAVARS else
                    DATA_METAVARS.get(metavar, ""))
            # choices, or the names a list-valued option offers (``action.completions``: report --format)
            offered = action.choices or getattr(action, "completions", ())
            cmd.options.append(Option(tuple(action.option_strings), action.nargs != 0, _short(action.help),
                                      tuple(str(c) for c in offered), kind))
        elif not cmd.positional:
            cmd.choices = tuple(str(c) for c in action.choices or ())
            cmd.positional = ("choices" if cmd.choices else "theorem" if action.dest == "id" else
                              "theorems" if action.dest in THEOREM_DESTS else
                              "file" if action.dest in FILE_DESTS else "none")
    return [cmd, *children]


def _id_kind(c: Command) -> str:
    """The ``__complete`` kind of a command's theorem positional: ``id`` (one: nothing once it is typed)
    or ``ids`` (several)."""
    return "id" if c.positional == "theorem" else "ids"


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script for ``shell`` (one of :data:`SHELLS`)."""
    commands = walk(parser)
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](parser.prog, commands)


# ----------------------------------------------------------------------------- bash
def _bash(prog: str, commands: list[Command]) -> str:
    fn = f"_{prog}"
    cases = "|".join(f'"{" ".join(c.path[:-1])} {c.path[-1]}"' for c in commands if c.path)
    out = [f"# bash completion for {prog}: generated by `{prog} completion bash`",
           f"# install: {prog} completion bash > ~/.local/share/bash-completion/completions/{prog}",
           f"{fn}_reply() {{  # COMPREPLY from `{prog} __complete KIND`, shell-quoted ('T>=2')",
           "    local c",
           "    COMPREPLY=()",
           "    while IFS= read -r c; do",
           '        [[ "$wcur" == *=* ]] && c="${c#*=}"  # readline completes the text after the =',
           "        COMPREPLY+=(\"$(printf '%q' \"$c\")\")",
           f'    done < <(command {prog} __complete "$1" "$wcur" "${{lw[@]:1:${{#lw[@]}}-2}}" 2>/dev/null)',
           '    [[ "${COMPREPLY[0]-}" == *= ]] && compopt -o nospace 2>/dev/null',
           "}",
           f"{fn}() {{",
           '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="" w i',
           '    local line="${COMP_LINE:0:COMP_POINT}" wcur wprev',
           "    local -a lw",
           '    read -ra lw <<< "$line"  # the words as typed: COMP_WORDS splits NAME=VALUE at the =',
           '    [[ "$line" =~ [[:space:]]$ || ${#lw[@]} -eq 0 ]] && lw+=("")',
           '    wcur="${lw[${#lw[@]}-1]}" wprev="${lw[${#lw[@]}-2]-}"']
    out += ["    for ((i = 1; i < COMP_CWORD; i++)); do",
            '        w="${COMP_WORDS[i]}"',
            '        case "$cmd $w" in',
            f'            {cases}) cmd="${{cmd:+$cmd }}$w" ;;',
            "        esac",
            "    done",
            '    case "$cmd" in']
    for c in commands:
        out.append(f'        "{" ".join(c.path)}")')
        data = [o for o in c.options if o.kind in DATA_KINDS]
        if data:  # the words as typed: "--set T=" is "--set", "T", "=" in COMP_WORDS
            out.append('            case "$wprev" in')
            for o in data:
                out.append(f"                {'|'.join(o.flags)}) {fn}_reply {o.kind}; return 0 ;;")
            out.append("            esac")
        free = [f for o in c.options if o.takes_value and not o.choices and not o.kind for f in o.flags]
        valued = [o for o in c.options if o.takes_value and (o.choices or o.kind in ("dir", "file"))]
        if free or valued:
            out.append('            case "$prev" in')
            for o in valued:
                action = (f'COMPREPLY=($(compgen -W "{" ".join(o.choices)}" -- "$cur"))' if o.choices else
                          _bash_files("-d" if o.kind == "dir" else "-f"))
                out.append(f"                {'|'.join(o.flags)}) {action}; return 0 ;;")
            if free:  # a value with no known completion (a number, a list of values): offer nothing
                out.append(f"                {'|'.join(free)}) COMPREPLY=(); return 0 ;;")
            out.append("            esac")
        words = " ".join(f for o in c.options for f in o.flags)
        out.append(f'            if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "{words}" -- "$cur"))')
        if c.subcommands or c.choices:
            words = " ".join([name for name, _ in c.subcommands] or c.choices)
            out.append(f'            else COMPREPLY=($(compgen -W "{words}" -- "$cur"))')
        elif c.positional in ("theorem", "theorems"):  # one id (none once it is typed), or several
            out.append(f"            else {fn}_reply {_id_kind(c)}")
        elif c.positional == "file":
            out.append(f"            else {_bash_files('-f')}")
        out.append("            fi ;;")
    out += ["    esac", "    return 0", "}", f"complete -F {fn} {prog}", ""]
    return "\n".join(out)


def _bash_files(flag: str) -> str:
    """Files (``-f``) or folders (``-d``) into COMPREPLY, one per line (names may hold spaces)."""
    return f'compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen {flag} -- "$cur")'


# ----------------------------------------------------------------------------- zsh
def _zq(text: str) -> str:
    """``text`` single-quoted for zsh (nothing inside is expanded)."""
    return "'" + text.replace("'", "'\\''") + "'"


def _fq(text: str) -> str:
    """``text`` single-quoted for fish (where a backslash escapes a quote or a backslash)."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _zsh(prog: str, commands: list[Command]) -> str:
    fn = f"_{prog}"
    cases = "|".join(f'"{" ".join(c.path[:-1])} {c.path[-1]}"' for c in commands if c.path)
    out = [f"#compdef {prog}", f"# zsh completion for {prog}: generated by `{prog} completion zsh`",
           f'# install: {prog} completion zsh > "${{fpath[1]}}/_{prog}" (or eval "$({prog} completion zsh)" '
           "after compinit)",
           f"{fn}_reply() {{  # `{prog} __complete KIND`: already filtered (ids case-insensitively)",
           "    local -a c",
           f'    c=(${{(f)"$(command {prog} __complete "$1" "$cur" "${{(@)words[2,CURRENT-1]}}" '
           '2>/dev/null)"})',
           "    if [[ \"${c[1]-}\" == *= ]]; then compadd -U -S '' -- $c; else compadd -U -- $c; fi",
           "}",
           f"{fn}() {{",
           '    local cur="${words[CURRENT]}" prev="${words[CURRENT-1]}" cmd="" w i',
           "    local -a opts subs",
           "    for (( i = 2; i < CURRENT; i++ )); do",
           '        w="${words[i]}"',
           '        case "$cmd $w" in',
           f'            ({cases}) cmd="${{cmd:+$cmd }}$w" ;;',
           "        esac",
           "    done",
           '    case "$cmd" in']
    for c in commands:
        out.append(f'        ("{" ".join(c.path)}")')
        free = [f for o in c.options if o.takes_value and not o.choices and not o.kind for f in o.flags]
        valued = [o for o in c.options if o.takes_value and (o.choices or o.kind)]
        if free or valued:
            out.append('            case "$prev" in')
            for o in valued:
                action = (f"compadd -- {' '.join(_zq(x) for x in o.choices)}" if o.choices else
                          "_directories" if o.kind == "dir" else "_files" if o.kind == "file" else
                          f"{fn}_reply {o.kind}")
                out.append(f"                ({'|'.join(o.flags)}) {action}; return ;;")
            if free:
                out.append(f"                ({'|'.join(free)}) _message value; return ;;")
            out.append("            esac")
        opts = " ".join(_zq(f"{f}:{o.help}") for o in c.options for f in o.flags)
        out.append(f"            opts=({opts})")
        out.append("            if [[ \"$cur\" == -* ]]; then _describe option opts")
        if c.subcommands:
            subs = " ".join(_zq(f"{name}:{text}") for name, text in c.subcommands)
            out.append(f"            else subs=({subs}); _describe command subs")
        elif c.choices:
            out.append(f"            else compadd -- {' '.join(_zq(x) for x in c.choices)}")
        elif c.positional in ("theorem", "theorems"):  # one id (none once it is typed), or several
            out.append(f"            else {fn}_reply {_id_kind(c)}")
        elif c.positional == "file":
            out.append("            else _files")
        out.append("            fi ;;")
    out += ["    esac", "}",
            'if [[ "${zsh_eval_context[-1]}" == loadautofunc ]]; then',
            f'    {fn} "$@"', "else", f"    compdef {fn} {prog}", "fi", ""]
    return "\n".join(out)


# ----------------------------------------------------------------------------- fish
def _fish(prog: str, commands: list[Command]) -> str:
    fn = f"__{prog}"
    cases = " ".join(_fq(f"{' '.join(c.path[:-1])} {c.path[-1]}") for c in commands if c.path)
    out = [f"# fish completion for {prog}: generated by `{prog} completion fish`",
           f"# install: {prog} completion fish > ~/.config/fish/completions/{prog}.fish",
           f"function {fn}_cmd --description 'the {prog} subcommand typed so far'",
           "    set -l cmd ''",
           "    for w in (commandline -opc)[2..-1]",
           '        switch "$cmd $w"',
           f"            case {cases}",
           '                set cmd (string trim -- "$cmd $w")',
           "        end",
           "    end",
           '    echo "$cmd"',
           "end",
           f"function {fn}_at --description 'whether the subcommand typed so far is argv[1]'",
           f"    set -l cmd ({fn}_cmd)",
           '    test "$cmd" = "$argv[1]"',
           "end",
           f"function {fn}_reply --description 'ids, --set, --param, --drop values: {prog} __complete'",
           f"    command {prog} __complete $argv[1] (commandline -ct) (commandline -opc)[2..-1] 2>/dev/null",
           "end",
           f"complete -c {prog} -f"]
    for c in commands:
        cond = f"-n {_fq(f'{fn}_at ' + _fq(' '.join(c.path)))}"
        for name, text in c.subcommands:
            out.append(f"complete -c {prog} {cond} -a {_fq(name)} -d {_fq(text)}")
        if c.choices:
            out.append(f"complete -c {prog} {cond} -a {_fq(' '.join(c.choices))}")
        elif c.positional in ("theorem", "theorems"):
            out.append(f"complete -c {prog} {cond} -a '({fn}_reply {_id_kind(c)})'")
        elif c.positional == "file":
            out.append(f"complete -c {prog} {cond} -F")
        for o in c.options:
            spec = " ".join(f"-l {f[2:]}" if f.startswith("--") else f"-s {f[1:]}" for f in o.flags)
            if o.takes_value:
                spec += (f" -x -a {_fq(' '.join(o.choices))}" if o.choices else
                         " -x -a '(__fish_complete_directories)'" if o.kind == "dir" else
                         " -r -F" if o.kind == "file" else
                         f" -x -a '({fn}_reply {o.kind})'" if o.kind in DATA_KINDS else " -x")
            out.append(f"complete -c {prog} {cond} {spec} -d {_fq(o.help)}")
    out.append("")
    return "\n".join(out)
