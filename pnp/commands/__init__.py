"""The commands behind `pnp`: parsed arguments in; findings, files and an exit code out.

pnp.cli parses the command line and imports only the module of the command asked for, so
`pnp check`, run on every save, loads what checking needs and no more. What every command
shares is here: which games to work on, the check with the print options the arguments name,
and how findings are printed and counted.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import UsageError
from ..findings import Findings, display_path
from ..pipeline import check_project, unknown_game
from ..project import Project

def game_names(project: Project, args) -> tuple[list[str], Findings]:
    found = project.games()
    if not args.game:
        if not found:
            raise UsageError(f"no games found under {display_path(project.content, Path.cwd())}"
                             " (each game is a folder with a game.yaml)")
        return found, Findings()
    missing = Findings()
    for name in args.game:
        if name not in found:
            missing.extend(unknown_game(project, name))
    return [n for n in args.game if n in found], missing

def print_findings(findings: Findings) -> None:
    for finding in findings.sorted():
        print(finding.format(), file=sys.stderr)

def failed(findings: Findings, strict: bool) -> bool:
    return bool(findings.errors or (strict and findings.warnings))

def tally(findings: Findings) -> str:
    errors, warnings = len(set(findings.errors)), len(set(findings.warnings))
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"

def check_with(project: Project, names: list[str], args, remember: bool = True):
    """The check `check`, `build`, `proof` and `export` run, with the print options their
    arguments name (those a command has none of take the build's defaults)."""
    return check_project(project, names, getattr(args, "paper", "letter"),
                         getattr(args, "layout", "home"), getattr(args, "printer", None),
                         getattr(args, "ink_saver", False), getattr(args, "jobs", None),
                         remember, plan=getattr(args, "plan", False),
                         lang=getattr(args, "lang", ""),
                         lenient=getattr(args, "lenient", False))


def wanted_sheets(args) -> list[str] | None:
    """The sheets `--sheets` names, or None for all of them."""
    if args.sheets.strip() == "all":
        return None
    return [name.strip() for name in args.sheets.split(",") if name.strip()]
