"""The `pnp` command: arguments in; findings, PDFs and an exit code out.

Exit codes: 0 clean, 1 content or build errors, 2 usage. A traceback is shown only with --debug;
otherwise any unexpected failure is one line that says what to do.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from . import __version__
from .cache import answers
from .errors import OutsideError, UsageError, outside_error
from .findings import Findings, cap_words, display_path, terminal_safe
from .fonts import own_font_files, require_fonts, use_fonts
from .layout.impose import PROJECT_LAYOUTS, builtin_layouts, load_layouts
from .output import HeldWrites, commit_count, remove_stale_staging, staged_output
from .layout.plans import DocumentInfo
from .layout.printers import (CALIBRATION_REACH_MM, PrinterProfile, calibration_plans,
                              ProfileRefused, save_profile, scale_from_readings)
from .export.printshop import load_shops, shop_names
from .sheets import Deck
from .workers import Drawing, default_jobs
from .pipeline import Project, build_game, check_game, check_project, select_sheets, unknown_game
from .progress import Progress
from .load.schema import suggest
from .units import PAPERS

# The history, diff, proof, reprint, export and drawing modules are imported by the commands
# that use them: `pnp check`, run on every save, loads only what checking needs.

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


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

    plan = commands.add_parser(
        "plan", parents=[common], help="the whole kit on the fewest sheets, in one PDF",
        description="Check, then pack every piece that shares a stock (card or paper) onto "
                    "the fewest sheets and write output/<game>/<game>-kit-<paper>.pdf, opening "
                    "with a plan page; print the sheets per stock, the cuts and the ink.")
    _writing_arguments(plan)
    _language_argument(plan)

    check = commands.add_parser("check", parents=[common], help="report every content problem",
                                description="Find every problem in the content, print nothing.")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors")
    check.add_argument("--paper", default="letter", choices=sorted(PAPERS),
                       help="lay out and draw the sheets for this paper (default: letter)")
    check.add_argument("--format", choices=["text", "json"], default="text",
                       help="text (default) or json for editors and CI")
    _print_arguments(check)  # a check lays the sheets out as the build would print them
    check.add_argument("--no-cache", dest="cache", action="store_false",
                       help="check every sheet afresh, and remember nothing of this check")
    _language_argument(check)

    proof = commands.add_parser(
        "proof", parents=[common], help="write an HTML gallery of every face, with findings",
        description="Check, then write output/<game>/proof/index.html: every face as it will "
                    "print, each finding as a badge on its card. Works even when check fails.")
    proof.add_argument("--card", metavar="NAME", help="only this card, by its title")
    proof.add_argument("--png", action="store_true", help="also write PNGs of the faces shown")
    proof.add_argument("--dpi", type=float, default=150, help="PNG resolution (default: 150)")
    proof.add_argument("--changed", action="store_true",
                       help="only cards whose faces changed since the last proof or build")
    proof.add_argument("--out", type=Path, default=None,
                       help="output folder (default: output/ in the project)")
    proof.add_argument("--strict", action="store_true", help="treat warnings as errors")
    _language_argument(proof)

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

    commands.add_parser("list", parents=[common], help="show games and their sheets",
                        description="Show the games found and the sheets each can build.")
    commands.add_parser("layouts", parents=[common], help="show the sheet layouts",
                        description="Show the built-in sheet layouts and the project's own "
                                    "(layouts.yaml); pictures in the README, 'How to print'.")
    calibrate = commands.add_parser(
        "calibrate", parents=[common], help="printer calibration sheet, and saving a profile",
        description="Write a two-sided calibration sheet; with --save, write a printer "
                    "profile from what you read on it.")
    calibrate.add_argument("--paper", default="letter", choices=sorted(PAPERS))
    calibrate.add_argument("--duplex", default="long-edge", choices=["long-edge", "short-edge"])
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
                    "product of its size (pnp/shops.yaml), one PNG per face or one PDF per "
                    "deck, after a preflight of every face against its product.")
    export.add_argument("--to", choices=["tts", "shop"], default="tts")
    export.add_argument("--shop", default="thegamecrafter", choices=shop_names(),
                        help="print shop for --to shop (default: thegamecrafter)")
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


def _language_argument(command: argparse.ArgumentParser) -> None:
    command.add_argument("--lang", default="", metavar="CODE",
                         help="the edition in this language, one of game.yaml's 'languages' "
                              "(default: the first); its PDFs carry the code in their names")


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
    commits = commit_count()
    try:
        require_fonts()
        return COMMANDS[args.command](args)
    except UsageError as exc:
        print(f"pnp: error: {cap_words(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        if commit_count() > commits:  # the signal came after the files were renamed into place
            print("pnp: interrupted after its files were written in full", file=sys.stderr)
        else:
            print("pnp: interrupted; no output was changed", file=sys.stderr)
        return 130
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
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch and not (epoch.isdigit() and int(epoch) <= MAX_DATE_EPOCH):
        raise UsageError(f"SOURCE_DATE_EPOCH={terminal_safe(epoch[:40])!r} is not a whole "
                         "number of seconds since 1970 up to the year 9999; set it to one (e.g. "
                         "$(git log -1 --format=%ct)), or unset it")
    return args


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


def _games(project: Project, args) -> tuple[list[str], Findings]:
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


def _print_findings(findings: Findings) -> None:
    for finding in findings.sorted():
        print(finding.format(), file=sys.stderr)


def _failed(findings: Findings, strict: bool) -> bool:
    return bool(findings.errors or (strict and findings.warnings))


def _summary(findings: Findings) -> str:
    errors, warnings = len(set(findings.errors)), len(set(findings.warnings))
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


def _check_project(project: Project, names: list[str], args, remember: bool = True):
    """The check `check`, `build`, `proof` and `export` run, with the print options their
    arguments name (those a command has none of take the build's defaults)."""
    return check_project(project, names, getattr(args, "paper", "letter"),
                         getattr(args, "layout", "home"), getattr(args, "printer", None),
                         getattr(args, "ink_saver", False), getattr(args, "jobs", None),
                         remember, plan=getattr(args, "plan", False),
                         lang=getattr(args, "lang", ""))


def cmd_check(args) -> int:
    project = Project(args.root)
    names, findings = _games(project, args)
    started = time.perf_counter()
    findings.extend(_check_project(project, names, args, remember=args.cache)[1])
    elapsed = time.perf_counter() - started
    if args.format == "json":
        report = {
            "version": 1,
            "games": names,
            "ok": not _failed(findings, args.strict),
            "findings": [f.as_dict() for f in findings.sorted()],
        }
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stderr.write("".join(f"{finding.format()}\n" for finding in findings.sorted()) +
                         f"pnp check: {terminal_safe(', '.join(names)) or 'no game'}: "
                         f"{_summary(findings)} ({answers.elapsed(elapsed)})\n")
    code = EXIT_ERRORS if _failed(findings, args.strict) else EXIT_OK
    if args.cache:
        answers.keep(code)
    return code


def cmd_build(args) -> int:
    project = Project(args.root)
    names, findings = _games(project, args)
    wanted = None if args.sheets.strip() == "all" else [
        s.strip() for s in args.sheets.split(",") if s.strip()]
    # Worker processes start loading the drawing libraries now, while the content is checked.
    with Drawing(args.jobs or default_jobs()) as drawing:
        return _build(project, args, names, findings, wanted, drawing)


def _build(project: Project, args, names: list[str], findings: Findings,
           wanted: list[str] | None, drawing: Drawing) -> int:
    from .export.proof import record_faces

    checked_games, found = _check_project(project, names, args, remember=args.cache)
    findings.extend(found)
    _print_findings(findings)
    if _failed(findings, args.strict):
        print(f"pnp build: {_summary(findings)}; nothing was written", file=sys.stderr)
        return EXIT_ERRORS
    plan = []
    unknown: set[str] = set(wanted or [])
    for checked in checked_games:
        decks, missing = select_sheets(checked, wanted)
        unknown &= set(missing)
        plan.append((checked, decks))
    if unknown:
        known = sorted({sheet.name for c in checked_games for sheet in c.sheets})
        raise UsageError(f"no sheet named {', '.join(sorted(unknown))}; "
                         f"sheets: {', '.join(known)} or all")
    reprint, since = getattr(args, "reprint", False), getattr(args, "since", None)
    if since and not reprint:
        raise UsageError("--since is for --reprint (or 'pnp diff --since')")
    # `pnp build` records its faces in the history; `pnp watch`, rebuilding on every save, not.
    record = args.command == "build"
    out_dir = args.out or project.root / "output"
    for checked, _ in plan:
        remove_stale_staging(out_dir / checked.name)
    baselines = _reprint_baselines(project, plan, out_dir, args) if reprint else {}
    started = time.perf_counter()
    with staged_output() as staging, Progress("pnp build") as progress:
        records = HeldWrites(staging)

        def record_game(checked) -> None:
            from .history.record import record_build  # loaded while the workers draw

            record_faces(checked, out_dir, records)
            # The history is the game's own edition's: a reprint or diff of it compares
            # like with like.
            if record and not getattr(checked.game, "language", ""):
                record_build(checked, out_dir, records, paper=args.paper,
                             git=answers.git_head(project.root))

        # A game's faces are recorded while its PDFs are drawn: they are known from the check.
        written = [path for checked, decks in plan
                   for path in build_game(checked, decks, out_dir, staging, drawing,
                                          cache=args.cache, progress=progress.update,
                                          meanwhile=partial(record_game, checked))]
        records.stage()
        reprints = _write_reprints(plan, baselines, out_dir, staging, args.paper)
        kits = _write_kits([c for c, _ in plan], out_dir, staging, drawing, progress.update) \
            if getattr(args, "plan", False) else []
    for checked, _ in plan:  # an earlier reprint is out of date once nothing needs one
        stale = out_dir / checked.name / f"reprint-{args.paper}.pdf"
        if checked.name in baselines and stale not in reprints:
            stale.unlink(missing_ok=True)
    elapsed = time.perf_counter() - started
    total = sum(len(checked.outputs.get(sheet.name, [])) for checked, decks in plan
                for sheet in decks)
    unchanged = total - len(written)
    written += reprints
    for path in written:
        print(f"wrote {display_path(path, Path.cwd())}")
    _print_kits(kits)
    print(f"pnp build: {len(written)} PDF{'s' * (len(written) != 1)} in "
          f"{answers.elapsed(elapsed)}" + (f"; {unchanged} unchanged" if unchanged else ""),
          file=sys.stderr)
    if args.cache and not reprint and not baselines and not kits:
        # The same build again writes nothing: what it prints then is remembered now.
        answers.keep(EXIT_OK, out_dir, again=f"pnp build: 0 PDFs in {answers.elapsed_again()}"
                     + (f"; {total} unchanged" if total else "") if written else None)
    return EXIT_OK


def _reprint_baselines(project: Project, plan, out_dir: Path, args) -> dict:
    """What each game's reprint compares with; a game with nothing to compare with is told
    so in one line and is built in full without a reprint."""
    from .history.record import NoBaseline, baseline

    found = {}
    for checked, _ in plan:
        try:
            found[checked.name] = baseline(project, checked.name, out_dir, args.since,
                                           args.paper)
        except NoBaseline as exc:
            print(f"pnp build: no reprint for {checked.name}: {exc}", file=sys.stderr)
    return found


def _write_reprints(plan, baselines: dict, out_dir: Path, staging, paper: str) -> list[Path]:
    if not baselines:  # no reprint asked for (nor its modules loaded)
        return []
    from .history.diff import compare, summary
    from .history.record import snapshot_of
    from .history.reprint import write_reprint

    written = []
    for checked, _ in plan:
        old = baselines.get(checked.name)
        if old is None:
            continue
        changes = compare(old, snapshot_of(checked))
        made = write_reprint(checked, changes, old.description, out_dir, staging, paper)
        if made is None:
            print(f"pnp build: {checked.name}: nothing changed since {old.description}; "
                  "no reprint needed", file=sys.stderr)
            continue
        path, cards = made
        print(f"pnp build: {checked.name}: reprint of {cards} card{'s' * (cards != 1)} "
              f"changed since {old.description} ({summary(changes)})", file=sys.stderr)
        written.append(path)
    return written


def cmd_diff(args) -> int:
    from .history.diff import compare, summary, write_visual_diff
    from .history.record import NoBaseline, baseline, snapshot_of
    from .export.proof import PROOF_DIR

    project = Project(args.root)
    names, findings = _games(project, args)
    out_dir = args.out or project.root / "output"
    code = EXIT_OK
    for name in names:
        checked = check_game(project, name, args.paper)
        findings.extend(checked.findings)
        if checked.game is None:
            print(f"pnp diff: {name}: the content cannot be read; fix its errors first",
                  file=sys.stderr)
            code = EXIT_ERRORS
            continue
        try:
            old = baseline(project, name, out_dir, args.since, args.paper)
        except NoBaseline as exc:
            print(f"pnp diff: {exc}", file=sys.stderr)
            code = EXIT_ERRORS
            continue
        changes = compare(old, snapshot_of(checked))
        for change in changes:
            print(f"{name}: {change.describe()}" if len(names) > 1 else change.describe())
        remove_stale_staging(out_dir / name / PROOF_DIR)
        with staged_output() as staging:
            paths = write_visual_diff(checked, old, changes, out_dir, staging, args.paper)
        for path in paths:
            print(f"wrote {display_path(path, Path.cwd())}", file=sys.stderr)
        print(f"pnp diff: {name}: {summary(changes)} since {old.description}", file=sys.stderr)
    if findings.errors:  # a face that could not be drawn is not compared truly
        _print_findings(findings)
        return EXIT_ERRORS
    return code


def cmd_proof(args) -> int:
    from .export.proof import gallery_cards, proof_folder, write_proof

    project = Project(args.root)
    names, findings = _games(project, args)
    checked_games, found = _check_project(project, names, args)
    findings.extend(found)
    if args.card and not any(card.matches(args.card) for checked in checked_games
                             for card in gallery_cards(checked)):
        titles = [title for checked in checked_games for card in gallery_cards(checked)
                  for title in re.findall(r'"([^"]+)"', card.label)]
        raise UsageError(f"no card named '{args.card}'; " + (
            suggest(args.card, titles) or "cards are named by their title"))
    out_dir = args.out or project.root / "output"
    _print_findings(findings)
    for checked in checked_games:
        remove_stale_staging(proof_folder(checked, out_dir))
    with staged_output() as staging:
        results = [write_proof(checked, checked.info.title if checked.info else checked.name,
                               out_dir, staging, card=args.card, png=args.png,
                               changed=args.changed, dpi=args.dpi)
                   for checked in checked_games]
    for checked, result in zip(checked_games, results):
        for path in result.written:
            if path.suffix != ".ttf":
                print(f"wrote {display_path(path, Path.cwd())}")
    print(f"pnp proof: {', '.join(names)}: {sum(r.shown for r in results)} of "
          f"{sum(r.total for r in results)} cards shown; {_summary(findings)}", file=sys.stderr)
    return EXIT_ERRORS if _failed(findings, args.strict) else EXIT_OK


def cmd_list(args) -> int:
    project = Project(args.root)
    names, findings = _games(project, args)
    for name in names:
        checked = check_game(project, name)
        title = checked.info.title if checked.info else name
        print(f"{name}: {title}")
        if not checked.sheets:
            print("  (sheets unavailable until 'pnp check' is clean)")
        width = max([12, *(len(sheet.name) for sheet in checked.sheets)])
        for sheet in checked.sheets:
            print(f"  {sheet.name:<{width}} {sheet.describe()}")
    _print_findings(findings)
    return EXIT_ERRORS if findings.errors else EXIT_OK


def cmd_new(args) -> int:
    from .scaffold import ScaffoldError, new_game

    try:
        written = new_game(args.root, args.name)
    except ScaffoldError as exc:
        raise UsageError(str(exc)) from None
    for path in written:
        print(f"wrote {display_path(path, Path.cwd())}")
    game, templates = written[0].parent, written[-1].parent
    shown = lambda path: display_path(path, Path.cwd())  # noqa: E731
    print(f"""
Next:
  1. Put your cards in {shown(game / 'cards.csv')} (one row each; 'copies' repeats a row).
  2. Name your game, its designer and licence in {shown(game / 'game.yaml')}.
  3. Draw your cards in {shown(templates)}/ (SVG in millimetres).
  4. Run 'pnp check --game {args.name}' after each edit, then 'pnp build --game {args.name}'.
See docs/your-own-game.md for a walk-through.""")
    return EXIT_OK


def cmd_layouts(args) -> int:
    project = Project(args.root)
    own = project.root / PROJECT_LAYOUTS
    layouts, findings = load_layouts(project.root, display_path(own, Path.cwd()))
    builtin = builtin_layouts()
    for name, layout in layouts.items():
        origin = "" if builtin.get(name) == layout else " (project)"
        print(f"{name:<16} {layout.description}{origin}")
    _print_findings(findings)
    return EXIT_ERRORS if findings.errors else EXIT_OK


def cmd_calibrate(args) -> int:
    from .pdf.draw import render_pdf

    project = Project(args.root)
    if args.save:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,60}", args.save):
            raise UsageError(f"--save {args.save!r}: a profile name is letters, digits, "
                             "'-', '_' and '.'")
        if (args.left_x is None) != (args.right_x is None):
            raise UsageError("give both --left-x and --right-x, or neither")
        for name, value in (("--x", args.x), ("--y", args.y), ("--left-x", args.left_x),
                            ("--right-x", args.right_x)):
            if value is not None and not abs(value) <= CALIBRATION_REACH_MM:  # NaN too
                raise UsageError(f"{name} {value:g}: the scales read up to "
                                 f"{CALIBRATION_REACH_MM} mm either way")
        scale = 1.0 if args.left_x is None else scale_from_readings(
            args.left_x, args.right_x, PAPERS[args.paper])
        try:
            path = save_profile(project.root, args.save, PrinterProfile(
                args.description, args.x, args.y, scale))
        except ProfileRefused as exc:
            raise UsageError(f"profile not saved: {exc}; read the calibration sheet's "
                             "scales again") from None
        print(f"wrote {display_path(path, Path.cwd())}")
        print(f"pnp calibrate: use it with: pnp build --printer {args.save}", file=sys.stderr)
        return EXIT_OK
    out_dir = args.out or project.root / "output"
    destination = out_dir / f"calibration-{args.paper}.pdf"
    document = DocumentInfo(title="pnp printer calibration", author="pnp",
                            subject="Two-sided sheet to measure how far a printer shifts the "
                                    "back of a page", duplex=args.duplex)
    with staged_output() as staging:
        staging.write(destination, render_pdf(calibration_plans(args.paper, args.duplex),
                                              document))
    print(f"wrote {display_path(destination, Path.cwd())}")
    return EXIT_OK


def cmd_export(args) -> int:
    project = Project(args.root)
    names, findings = _games(project, args)
    wanted = None if args.sheets.strip() == "all" else [
        s.strip() for s in args.sheets.split(",") if s.strip()]
    shop = load_shops()[args.shop] if args.to == "shop" else None
    if shop is not None and shop.colour == "cmyk":
        from .export.pdfx import cmyk_profile, ghostscript

        ghostscript(), cmyk_profile()  # before any work: one line naming what to install
    checked_games, found = _check_project(project, names, args)
    findings.extend(found)
    games, passed_over = [], []
    for checked in checked_games:
        sheets, missing = select_sheets(checked, wanted)
        if missing:
            raise UsageError(f"no deck named {', '.join(missing)}")
        # Boards and whole pages are not exported: board-large.pdf or the page's PDF.
        games.append((checked, [sheet for sheet in sheets if isinstance(sheet, Deck)]))
        passed_over += [sheet.name for sheet in sheets if not isinstance(sheet, Deck)]
    if checked_games and not any(decks for _, decks in games):
        raise UsageError(f"nothing to export: export --to {args.to} writes decks, and "
                         f"{', '.join(passed_over) or 'no sheet'} "
                         f"{'is' if len(passed_over) == 1 else 'are'} not a deck; "
                         "'pnp build' prints boards and pages")
    out_dir = args.out or project.root / "output"
    workers = args.jobs or default_jobs()
    files: list = []
    if not _failed(findings, args.strict):
        # The games' own fonts, for drawing here and in the workers forked from here.
        fonts = tuple(file for checked, _ in games if checked.game is not None
                      for file in own_font_files(checked.game.fonts))
        if fonts:
            use_fonts(fonts)
        if shop is None:
            from .export.tts import export_games

            files = export_games(games, out_dir, args.base_url, workers)
        else:
            files = _shop_files(games, shop, found, findings, out_dir, workers, args.strict,
                                fonts)
    _print_findings(findings)
    if _failed(findings, args.strict):
        print(f"pnp export: {_summary(findings)}; nothing was written", file=sys.stderr)
        return EXIT_ERRORS
    written = []
    with staged_output() as staging:
        for path, data in files:
            staging.write(path, data)
            written.append(path)
    for path in written:
        print(f"wrote {display_path(path, Path.cwd())}")
    print(f"pnp export: {len(written)} files", file=sys.stderr)
    return EXIT_OK


def _shop_files(games, shop, found: Findings, findings: Findings, out_dir: Path, workers: int,
                strict: bool, fonts: tuple[str, ...] = ()) -> list:
    """A shop's files, or none when the preflight finds what the shop would reject."""
    from .export.shopfiles import draw_faces, pdf_files, plan_shop, png_files

    preflight = Findings()
    planned = plan_shop(games, shop, found, preflight)
    drawn = draw_faces(planned, shop, workers, preflight)  # every face's bleed is reported
    findings.extend(preflight)
    if _failed(findings, strict):
        return []
    if shop.file == "png":
        return png_files(planned, drawn, shop, out_dir)
    return pdf_files(planned, shop, workers, out_dir, fonts)


def cmd_cache(args) -> int:
    from .cache import store

    home = store.cache_home()
    if args.action == "clear":
        freed = store.clear(home)
        print(f"pnp cache: removed {home} ({_mib(freed)})", file=sys.stderr)
        return EXIT_OK
    print(home)
    kinds = store.usage(home)
    for used in kinds:
        print(f"  {used.kind:<14} {_mib(used.bytes):>10} {used.files:>6} files")
    total = sum(used.bytes for used in kinds)
    print(f"pnp cache: {_mib(total)} in {sum(used.files for used in kinds)} files, capped "
          f"at {_mib(store.STORE_MAX_BYTES)}; 'pnp cache clear' removes it",
          file=sys.stderr)
    return EXIT_OK


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def cmd_watch(args) -> int:
    from .watch.serve import watch_project

    proof_args = argparse.Namespace(**vars(args), card=None, png=False, changed=False,
                                    dpi=150)
    project = Project(args.root)
    names, missing = _games(project, args)  # no game is an error now, not each round
    if missing.errors:  # a game named that is not there: say so once, and do not watch
        _print_findings(missing)
        print(f"pnp watch: {_summary(missing)}; nothing to watch", file=sys.stderr)
        return EXIT_ERRORS
    if args.port is not None and not args.proof:
        raise UsageError("--port is for --proof: it serves the proof gallery")
    live, announce = None, []
    if args.proof:
        from .export.proof import PROOF_DIR

        live = _live_server(args.out or project.root / "output", args.port)
        announce = [f"pnp watch: proof gallery at {live.url(f'{name}/{PROOF_DIR}/index.html')}"
                    for name in names]

    def rebuild() -> int:
        try:
            code = cmd_build(args)
            if args.proof:
                code = max(code, cmd_proof(proof_args))
                live.finished_round()  # the gallery was written, findings or not
                for line in announce:
                    print(line, file=sys.stderr, flush=True)
                announce.clear()  # once
            return code
        except UsageError as exc:
            print(f"pnp: error: {exc}", file=sys.stderr)
            return EXIT_USAGE

    try:
        return watch_project(args.root, rebuild)
    finally:
        if live:
            live.close()


def _live_server(out_dir: Path, port: int | None):
    from .watch.liveserver import LiveServer

    try:
        return LiveServer(out_dir, port or 0)
    except OSError as exc:
        if not port:
            raise
        raise UsageError(f"--port {port}: cannot serve the proof gallery there "
                         f"({exc.strerror or exc}); choose another, or leave --port out "
                         "for a free one") from None


def cmd_plan(args) -> int:
    project = Project(args.root)
    names, findings = _games(project, args)
    args.plan = True
    with Drawing(args.jobs or default_jobs()) as drawing:
        checked_games, found = _check_project(project, names, args)
        findings.extend(found)
        _print_findings(findings)
        if _failed(findings, args.strict):
            print(f"pnp plan: {_summary(findings)}; nothing was written", file=sys.stderr)
            return EXIT_ERRORS
        out_dir = args.out or project.root / "output"
        with staged_output() as staging, Progress("pnp plan") as progress:
            kits = _write_kits(checked_games, out_dir, staging, drawing, progress.update)
    _print_kits(kits)
    return EXIT_OK


def _write_kits(checked_games, out_dir: Path, staging, drawing: Drawing, progress) -> list:
    """Stage each game's kit PDF; (game, kit, path) of each."""
    from .workers import Job

    kits = [(c.name, c.kit, out_dir / c.name / c.kit.output.file_name)
            for c in checked_games if c.kit is not None]
    fonts = {c.name: own_font_files(c.game.fonts) for c in checked_games if c.game is not None}
    drawn = drawing.draw([Job(kit.output.file_name, kit.output.plans, kit.output.document,
                              fonts.get(name, ())) for name, kit, _ in kits], progress)
    for (_, _, path), data in zip(kits, drawn):
        staging.write(path, data)
    return kits


def _print_kits(kits: list) -> None:
    """Each kit's summary: its PDF, sheets per stock, cuts, and the ink measured on its pages."""
    if not kits:  # nothing to measure: this process need not load the drawing libraries
        return
    from .kit import kit_summary
    from .pdf.ink import ink_coverage, rated_pages

    for name, kit, path in kits:
        for line in kit_summary(name, kit, display_path(path, Path.cwd())):
            print(line)
        coverage = ink_coverage(kit.output.plans)
        print(f"  ink: {100 * sum(coverage) / len(coverage):.0f}% of the page area on average,"
              f" as much as {rated_pages(coverage):.0f} pages at the 5% coverage cartridge "
              "yields are rated at")


COMMANDS = {"build": cmd_build, "check": cmd_check, "diff": cmd_diff, "list": cmd_list,
            "new": cmd_new, "proof": cmd_proof, "watch": cmd_watch, "layouts": cmd_layouts,
            "calibrate": cmd_calibrate, "export": cmd_export, "cache": cmd_cache,
            "plan": cmd_plan}
