"""The `pnp` command: arguments in; findings, PDFs and an exit code out.

Exit codes: 0 clean, 1 content or build errors, 2 usage. A traceback is shown only with --debug;
otherwise any unexpected failure is one line that says what to do.

This module parses the command line and imports nothing of pnp's stages: a command's module
(pnp.commands) is imported once the arguments are known, so `pnp check`, run on every save,
loads only what checking needs, and a command that draws PDFs on several processes starts
them first (pnp.engine.workers.start_drawing): they load the drawing libraries while this process
loads pnp and checks the content.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

from . import __version__
from .errors import EXIT_ERRORS, EXIT_USAGE, OutsideError, UsageError, outside_error
from .findings import cap_words, terminal_safe
from .units import PAPERS
from .libraries import exit_code
from .engine.workers import default_jobs, start_drawing
from .pdf import DRAWING

# Each command's module under pnp.commands, and the function in it.
COMMANDS = {"build": ("build", "cmd_build"), "plan": ("build", "cmd_plan"),
            "watch": ("build", "cmd_watch"), "check": ("report", "cmd_check"),
            "list": ("report", "cmd_list"), "layouts": ("report", "cmd_layouts"),
            "diff": ("report", "cmd_diff"), "proof": ("report", "cmd_proof"),
            "export": ("export", "cmd_export"), "new": ("tools", "cmd_new"),
            "calibrate": ("tools", "cmd_calibrate"), "cache": ("tools", "cmd_cache"),
            "release": ("release", "cmd_release"),
            "lsp": ("pnp.lsp.server", "cmd_lsp")}  # a front end beside the commands

class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise UsageError(message)

def _parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", type=Path, default=Path("."),
                        help="project folder holding content/ and templates/ (default: .)")
    common.add_argument("--game", action="append", metavar="NAME",
                        help="only this game (repeatable; default: every game under content/)")
    common.add_argument("--debug", action="store_true", help="show tracebacks")

    parser = _Parser(prog="pnp", description="Print-and-play PDFs from game definitions.")
    parser.add_argument("--version", action="version", version=f"pnp {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    build = commands.add_parser("build", parents=[common], help="check, then write PDFs",
                                description="Check the content, then write print-ready PDFs.")
    build.add_argument("--sheets", default="all",
                       help="comma-separated sheet names, or 'all' (default)")
    _writing_arguments(build)
    build.add_argument("--no-cache", dest="cache", action="store_false",
                       help="draw every sheet and PDF afresh, even those whose inputs have "
                            "not changed")
    build.add_argument("--reprint", action="store_true",
                       help="also write reprint-<paper>.pdf: only the cards changed since the "
                            "last build, with their backs and a list of what to pull")
    build.add_argument("--since", metavar="BUILD|GIT-REF",
                       help="with --reprint: compare with this build number or git commit")

    build.add_argument("--plan", action="store_true",
                       help="also write the whole kit as one PDF, as 'pnp plan' does")
    _language_argument(build)
    _lenient_argument(build)

    plan = commands.add_parser(
        "plan", parents=[common], help="the whole kit on the fewest sheets, in one PDF",
        description="Check, then pack every piece that shares a stock (card or paper) onto "
                    "the fewest sheets and write output/<game>/<game>-kit-<paper>.pdf, opening "
                    "with a plan page; print the sheets per stock, the cuts and the ink.")
    _writing_arguments(plan)
    plan.add_argument("--mix", action="store_true",
                      help="pack decks the kit keeps apart (one template's variants, e.g. a "
                           "colour each) on shared sheets")
    _language_argument(plan)
    _lenient_argument(plan)

    release = commands.add_parser(
        "release", parents=[common], help="a game's whole print-and-play release, in one zip",
        description="Check and build the kit on Letter and A4 (every sheet and the packed "
                    "kit), the decks for a print-then-cut machine with their cut files, a "
                    "few preview PNGs, the licence, a README and a manifest, into "
                    "output/<game>/<game>-release.zip; the same content gives the same bytes "
                    "(SOURCE_DATE_EPOCH sets the entries' time).")
    release.add_argument("--out", type=Path, default=None,
                         help="output folder (default: output/ in the project)")
    release.add_argument("--strict", action="store_true", help="treat warnings as errors")
    release.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N",
                         help="draw in N processes (default: the CPU count; 1: in this one)")

    check = commands.add_parser("check", parents=[common], help="report every content problem",
                                description="Find every problem in the content, lay out and draw every sheet as "
                                            "a build would, and print each problem on one "
                                            "line (file:line, what is wrong, what to do). "
                                            "Writes no PDF.")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors")
    check.add_argument("--paper", default="letter", choices=sorted(PAPERS),
                       help="lay out and draw the sheets for this paper (default: letter)")
    check.add_argument("--format", choices=["text", "json"], default="text",
                       help="text (default) or json for editors and CI")
    _print_arguments(check)  # a check lays the sheets out as the build would print them
    check.add_argument("--no-cache", dest="cache", action="store_false",
                       help="check every sheet afresh, and remember nothing of this check")
    _language_argument(check, writes_pdfs=False)
    _lenient_argument(check)

    proof = commands.add_parser(
        "proof", parents=[common], help="write an HTML gallery of every face, with findings",
        description="Check, then write output/<game>/proof/index.html: every face as it will "
                    "print, each finding as a badge on its card. Works even when check fails.")
    proof.add_argument("--card", metavar="NAME", help="only this card, by its title")
    proof.add_argument("--png", action="store_true", help="also write PNGs of the faces shown")
    proof.add_argument("--dpi", type=float, default=150, help="PNG resolution (default: 150)")
    proof.add_argument("--simulate", choices=("greyscale", "protanopia", "deuteranopia",
                                              "tritanopia"), default="",
                       help="write VIEW.html: the gallery (and --png) seen in greyscale or "
                            "with that colour-vision deficiency")
    proof.add_argument("--changed", action="store_true",
                       help="only cards whose faces changed since the last proof or build")
    proof.add_argument("--out", type=Path, default=None,
                       help="output folder (default: output/ in the project)")
    proof.add_argument("--strict", action="store_true", help="treat warnings as errors")
    _language_argument(proof, writes_pdfs=False)

    diff = commands.add_parser(
        "diff", parents=[common], help="what changed since the last build, card by card",
        description="List the cards added, removed or changed (by field) since the last build "
                    "or a git commit, and write a visual proof of them: "
                    "output/<game>/proof/diff.html and diff.pdf.")
    diff.add_argument("--since", metavar="BUILD|GIT-REF",
                      help="a build number (see output/<game>/history/builds/) or a git commit "
                           "(default: the last build)")
    diff.add_argument("--paper", default="letter", choices=sorted(PAPERS),
                      help="paper of the visual proof's PDF (default: letter)")
    diff.add_argument("--out", type=Path, default=None,
                      help="output folder (default: output/ in the project)")

    watch = commands.add_parser(
        "watch", parents=[common], help="check and rebuild on every saved change",
        description="Build, then watch content/ and templates/: on every saved change, print "
                    "the findings and rebuild the PDFs that changed. Ctrl-C stops.")
    watch.add_argument("--sheets", default="all",
                       help="comma-separated sheet names, or 'all' (default)")
    watch.add_argument("--paper", default="letter", choices=sorted(PAPERS),
                       help="paper size (default: letter)")
    watch.add_argument("--out", type=Path, default=None,
                       help="output folder (default: output/ in the project)")
    watch.add_argument("--strict", action="store_true", help="treat warnings as errors")
    watch.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N",
                       help="draw PDFs in N processes (default: the CPU count)")
    watch.add_argument("--no-cache", dest="cache", action="store_false",
                       help="draw every sheet and PDF afresh on every change")
    watch.add_argument("--proof", action="store_true",
                       help="also write the proof gallery on every change, and serve it on "
                            "http://127.0.0.1 (the URL is printed): open there, it reloads "
                            "itself after every rebuild")
    watch.add_argument("--port", type=_port, default=None, metavar="N",
                       help="with --proof: serve the gallery on this port (default: a free one)")
    _lenient_argument(watch)

    commands.add_parser("list", parents=[common], help="show games and their sheets",
                        description="Show the games found and the sheets each can build.")
    commands.add_parser("layouts", parents=[common], help="show the sheet layouts",
                        description="Show the built-in sheet layouts and the project's own "
                                    "(layouts.yaml); pictures in the README, 'How to print'.")
    calibrate = commands.add_parser(
        "calibrate", parents=[common], help="printer calibration sheet, and saving a profile",
        description="Write a two-sided calibration sheet; with --save, write a printer "
                    "profile from what you read on it.")
    calibrate.add_argument("--paper", default="letter", choices=sorted(PAPERS),
                           help="paper size of the calibration sheet (default: letter)")
    calibrate.add_argument("--duplex", default="long-edge", choices=["long-edge", "short-edge"],
                           help="how your printer turns the sheet for its back (default: "
                                "long-edge)")
    calibrate.add_argument("--out", type=Path, default=None,
                           help="output folder (default: output/ in the project)")
    calibrate.add_argument("--save", metavar="NAME", help="write printers/NAME.yaml")
    calibrate.add_argument("--x", type=float, default=0.0, help="centre x reading, mm")
    calibrate.add_argument("--y", type=float, default=0.0, help="centre y reading, mm")
    calibrate.add_argument("--left-x", type=float, help="left crosshair x reading, mm")
    calibrate.add_argument("--right-x", type=float, help="right crosshair x reading, mm")
    calibrate.add_argument("--description", default="", help="which printer, which tray")
    export = commands.add_parser(
        "export", parents=[common], help="Tabletop Simulator decks, or a print shop's files",
        description="Check, then write each deck for Tabletop Simulator (face sheets, back "
                    "image, saved-object JSON) or for a print shop: each piece as the shop's "
                    "product of its size (pnp/data/shops.yaml), one PNG per face or one PDF per "
                    "deck, after a preflight of every face against its product.")
    export.add_argument("--to", choices=["tts", "shop"], default="tts",
                        help="tts: Tabletop Simulator (default); shop: a print shop's files")
    export.add_argument("--shop", default=None, metavar="NAME",
                        help="print shop for --to shop, one of pnp/data/shops.yaml (default: "
                             "thegamecrafter)")
    export.add_argument("--base-url", default=None, metavar="URL",
                        help="for --to tts: the address the images will be uploaded under "
                             "(default: image paths relative to the saved object)")
    export.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N",
                        help="draw in N processes (default: the CPU count; 1: in this one)")
    export.add_argument("--sheets", default="all",
                        help="comma-separated deck names, or 'all' (default)")
    export.add_argument("--out", type=Path, default=None,
                        help="output folder (default: output/ in the project)")
    export.add_argument("--strict", action="store_true", help="treat warnings as errors")

    cache = commands.add_parser(
        "cache", help="where pnp keeps what saves time between runs, and its size",
        description="Print where pnp's cache is (compiled templates, the sheets a check "
                    "drew) and how much it holds; 'pnp cache clear' removes it. Deleting it "
                    "is always safe: the next run is only slower.")
    cache.add_argument("action", nargs="?", choices=["clear"], help="remove the cache")
    cache.add_argument("--debug", action="store_true", help="show tracebacks")

    lsp = commands.add_parser(
        "lsp", help="language server: findings in your editor as you type",
        description="Speak the Language Server Protocol on stdin/stdout, for an editor to "
                    "start: the findings of 'pnp check' on game.yaml, data files and templates "
                    "as you type (unsaved text included), completion of field and icon names, "
                    "and a card's fitted text on hover over its data row. README: 'Findings "
                    "in your editor'.")
    lsp.add_argument("--debug", action="store_true", help="show tracebacks")

    new = commands.add_parser("new", help="start a game of your own",
                              description="Write a small, working game: a deck from CSV, "
                                          "its templates and a rules.yaml.")
    new.add_argument("name", help="the game's folder name, e.g. my-game")
    new.add_argument("--root", type=Path, default=Path("."),
                     help="project folder to write content/ and templates/ in (default: .)")
    new.add_argument("--debug", action="store_true", help="show tracebacks")
    return parser

def _writing_arguments(parser: argparse.ArgumentParser) -> None:
    """What build and plan share: paper, output folder, strictness, printing, processes."""
    parser.add_argument("--paper", default="letter", choices=sorted(PAPERS),
                        help="paper size (default: letter)")
    parser.add_argument("--out", type=Path, default=None,
                        help="output folder (default: output/ in the project)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    _print_arguments(parser)
    parser.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N",
                        help="draw PDFs in N processes (default: the CPU count; 1: in this one)")

def _print_arguments(command: argparse.ArgumentParser) -> None:
    """The print options `build` prints with and `check` checks with: the same, always."""
    command.add_argument("--layout", default="home", metavar="NAME",
                         help="sheet layout (default: home); 'pnp layouts' lists them")
    command.add_argument("--printer", metavar="NAME",
                         help="printer profile from printers/NAME.yaml ('pnp calibrate')")
    command.add_argument("--ink-saver", action="store_true",
                         help="leave out what the templates mark as decoration")

def _lenient_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument("--lenient", action="store_true",
                         help="an unknown key in game.yaml is a warning, not an error (it is "
                              "ignored, which may change what prints)")

def _language_argument(command: argparse.ArgumentParser, writes_pdfs: bool = True) -> None:
    command.add_argument("--lang", default="", metavar="CODE",
                         help="the edition in this language, one of game.yaml's 'languages' "
                              "(default: the first)" + ("; its PDFs carry the code in their "
                                                        "names" if writes_pdfs else ""))

def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes >= 1, got "
                                         f"{text!r}")
    return int(text)

def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = _checked(parser.parse_args(argv))
    except UsageError as exc:
        print(f"pnp: error: {cap_words(str(exc))}", file=sys.stderr)
        print("pnp: run 'pnp --help' for usage", file=sys.stderr)
        return EXIT_USAGE
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    if _draws_on_workers(args):
        start_drawing(DRAWING["preload"])
    try:
        module, function = COMMANDS[args.command]
        command = getattr(importlib.import_module(
            module if "." in module else f"pnp.commands.{module}"), function)
    except KeyboardInterrupt as interrupt:
        print("pnp: interrupted; no output was changed", file=sys.stderr)
        return exit_code(interrupt)
    from .fonts import require_fonts
    from .output import commit_count

    commits = commit_count()
    try:
        require_fonts()
        return command(args)
    except UsageError as exc:
        print(f"pnp: error: {cap_words(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as interrupt:
        if commit_count() > commits:  # the signal came after the files were renamed into place
            print("pnp: interrupted after its files were written in full", file=sys.stderr)
        else:
            print("pnp: interrupted; no output was changed", file=sys.stderr)
        return exit_code(interrupt)
    except (OutsideError, OSError, MemoryError) as exc:  # the world outside: disk, fonts, memory
        if args.debug or isinstance(exc, BrokenPipeError):  # a closed pipe: pnp.entry ends quietly
            raise
        print(_outside_line(exc), file=sys.stderr)
        return EXIT_ERRORS
    except Exception as exc:  # the promise: one line, no traceback, unless asked for
        if args.debug:
            raise
        print(cap_words(f"pnp: internal error: {type(exc).__name__}: {exc} "
                        "(run again with --debug for details and report it)"), file=sys.stderr)
        return EXIT_ERRORS


def _draws_on_workers(args) -> bool:
    """Whether the command draws PDFs on worker processes: build, plan and watch do, and an
    export to a print shop; with -j 1 (or one CPU) they draw in this process."""
    if args.command not in ("build", "plan", "watch") and not (
            args.command == "export" and args.to == "shop"):
        return False
    return (args.jobs or default_jobs()) > 1


def _checked(args):
    """Arguments argparse accepts but pnp cannot use are usage errors; repeats are merged."""
    if getattr(args, "game", None):
        args.game = list(dict.fromkeys(args.game))
    dpi = getattr(args, "dpi", None)
    if dpi is not None and not 1 <= dpi <= 1200:  # also refuses nan and inf
        raise UsageError(f"--dpi {dpi:g} must be a number between 1 and 1200")
    sheets = getattr(args, "sheets", None)
    if sheets is not None and not any(s.strip() for s in sheets.split(",")):
        raise UsageError("--sheets names no sheet; give sheet names separated by commas, or all")
    if getattr(args, "save", None) is not None and not args.save.strip():
        raise UsageError("--save names no profile; give the printer's name, e.g. --save office")
    base = getattr(args, "base_url", None)
    if base is not None and not _http_address(base):
        raise UsageError(f"--base-url {terminal_safe(base[:80])!r} is not an http:// or "
                         "https:// address; give the folder where the images are uploaded, "
                         "e.g. https://example.org/my-game/")
    out = getattr(args, "out", None)
    if out is not None and getattr(args, "root", None) is not None:
        root = Path(args.root).resolve()
        for folder in ("content", "templates"):
            if out.resolve().is_relative_to(root / folder):
                raise UsageError(f"--out {terminal_safe(str(out)[:80])!r} is inside the "
                                 f"project's {folder}/ folder, among the game's own files; "
                                 "give a folder outside it (default: output/)")
    for variable, example in COUNT_VARIABLES.items():
        text = os.environ.get(variable, "").strip()
        if text and not (text.isdigit() and int(text) > 0):
            raise UsageError(f"{variable}={terminal_safe(text[:40])!r} is not a whole number "
                             f"above 0; set it to one (e.g. {example}), or unset it")
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not (epoch.isdigit() and int(epoch) <= MAX_DATE_EPOCH):
        raise UsageError(f"SOURCE_DATE_EPOCH={terminal_safe(epoch[:40])!r} is not a whole "
                         "number of seconds since 1970 up to the year 9999; set it to one (e.g. "
                         "$(git log -1 --format=%ct)), or unset it")
    return args

# Settings in the environment that are counts, and an example of each.
COUNT_VARIABLES = {"PNP_JOBS": 2, "PNP_MAX_FILE_MB": 50, "PNP_MAX_ITEMS": 100000}
# The last second a PDF date can name: 9999-12-31 23:59:59 UTC.
MAX_DATE_EPOCH = 253_402_300_799

def _http_address(url: str) -> bool:
    """Whether `url` is a whole http:// or https:// address (a bad port or bracket is not)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)

def _outside_line(exc: BaseException) -> str:
    if isinstance(exc, OutsideError):
        return exc.line
    if isinstance(exc, MemoryError):
        return "pnp: error: out of memory; close other programs, or build fewer sheets at once"
    try:
        return outside_error(exc).line
    except Exception:  # describing it must not fail in turn
        return cap_words(f"pnp: error: {exc}")
