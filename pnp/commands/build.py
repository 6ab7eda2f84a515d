"""`pnp build`, `plan` and `watch`: the check, its findings printed, then the PDFs drawn by
the workers and written all at once (pnp.output), with a reprint of what changed and the whole
kit when asked. In `pnp watch` a line closes the check before anything is drawn, so a save's
findings are on the screen while its PDFs are drawn."""

from __future__ import annotations

import argparse
import glob
import re
import sys
import time
from functools import partial
from pathlib import Path

from ..engine import answers
from ..errors import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, UsageError
from ..findings import Findings, display_path
from ..fonts import own_font_files
from ..output import HeldWrites, remove_stale_staging, staged_output
from ..pipeline import build_game, select_sheets
from ..project import Project
from ..progress import Progress
from ..engine.workers import Drawing, default_jobs
from ..pdf import DRAWING
from . import check_with, failed, game_names, print_findings, tally, wanted_sheets
from .report import cmd_proof

def cmd_build(args) -> int:
    project = Project(args.root)
    names, findings = game_names(project, args)
    wanted = wanted_sheets(args)
    # Worker processes start loading the drawing libraries now, while the content is checked.
    with Drawing(args.jobs or default_jobs(), **DRAWING) as drawing:
        return _build(project, args, names, findings, wanted, drawing)

def _build(project: Project, args, names: list[str], findings: Findings,
           wanted: list[str] | None, drawing: Drawing) -> int:
    from ..export.proof import record_faces

    checking = time.perf_counter()
    checked_games, found = check_with(project, names, args, remember=args.cache)
    findings.extend(found)
    print_findings(findings)
    if failed(findings, args.strict):
        print(f"pnp build: {tally(findings)}; nothing was written", file=sys.stderr, flush=True)
        return EXIT_ERRORS
    if args.command == "watch":  # a save's findings are read before its PDFs are drawn
        print(f"pnp watch: checked in {time.perf_counter() - checking:.2f} s, "
              f"{tally(findings)}; writing the PDFs that changed", file=sys.stderr, flush=True)
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
    with staged_output() as staging:
        records = HeldWrites(staging)

        def record_game(checked) -> None:
            from ..history.record import record_build  # loaded while the workers draw

            record_faces(checked, out_dir, records)
            # The history is the game's own edition's: a reprint or diff of it compares
            # like with like.
            if record and not getattr(checked.game, "language", ""):
                record_build(checked, out_dir, records, paper=args.paper,
                             git=answers.git_head(project.root))

        # A game's faces are recorded while its PDFs are drawn: they are known from the check.
        written = []
        for checked, decks in plan:  # a bar for each game, gone before the next one's notes
            with Progress(f"pnp build: {checked.name}") as progress:
                written += build_game(checked, decks, out_dir, staging, drawing,
                                      cache=args.cache, progress=progress.update,
                                      meanwhile=partial(record_game, checked))
        records.stage()
        cut_files = _changed_cut_files(plan, out_dir)
        reprints = _write_reprints(plan, baselines, out_dir, staging, args.paper)
        with Progress("pnp build: the kit") as progress:
            kits = _write_kits([c for c, _ in plan], out_dir, staging, drawing,
                               progress.update) if getattr(args, "plan", False) else []
    for checked, _ in plan:  # an earlier reprint is out of date once nothing needs one
        stale = out_dir / checked.name / f"reprint-{args.paper}.pdf"
        if checked.name in baselines and stale not in reprints:
            stale.unlink(missing_ok=True)
    _remove_stale_cut_files(plan, out_dir)
    elapsed = time.perf_counter() - checking  # the whole command: its check and its PDFs
    total = sum(len(checked.outputs.get(sheet.name, [])) for checked, decks in plan
                for sheet in decks)
    unchanged = total - len(written)
    written += reprints
    for path in written + cut_files:
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

CUT_FILE = re.compile(r"-cut-\d+\.(?:svg|dxf)$")


def _cut_files(checked, decks) -> dict[Path, str]:
    """The cut files this build writes for the chosen sheets (numbered per sheet of a
    cutting machine's layout), by path, with their text."""
    return {Path(checked.name) / extra: text for sheet in decks
            for output in checked.outputs.get(sheet.name, [])
            for extra, text in output.extras if CUT_FILE.search(extra)}


def _changed_cut_files(plan, out_dir: Path) -> list[Path]:
    """The cut files whose text differs from what is on disk (new ones too): those `pnp
    build` names as written. (It writes them all; an unchanged one is not news.)"""
    changed = []
    for checked, decks in plan:
        for name, text in _cut_files(checked, decks).items():
            path = out_dir / name
            try:
                same = path.read_text(encoding="utf-8") == text
            except (OSError, UnicodeDecodeError):
                same = False
            if not same:
                changed.append(path)
    return changed


def _remove_stale_cut_files(plan, out_dir: Path) -> None:
    """Remove the cut files an earlier build of the same PDFs made and this one did not (a
    deck that shrank needs fewer sheets): `<pdf name>-cut-NN.svg` and `.dxf`."""
    for checked, decks in plan:
        kept = {out_dir / name for name in _cut_files(checked, decks)}
        folder = out_dir / checked.name
        for sheet in decks:
            for output in checked.outputs.get(sheet.name, []):
                stem = output.file_name.removesuffix(".pdf")
                for path in folder.glob(f"{glob.escape(stem)}-cut-*"):
                    if CUT_FILE.search(path.name) and path.name[len(stem):].count("-") == 2 \
                            and path not in kept:
                        path.unlink(missing_ok=True)


def _reprint_baselines(project: Project, plan, out_dir: Path, args) -> dict:
    """What each game's reprint compares with; a game with nothing to compare with is told
    so in one line and is built in full without a reprint."""
    from ..history.record import NoBaseline, baseline

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
    from ..history.diff import compare, summary
    from ..history.record import snapshot_of
    from ..history.reprint import write_reprint

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

def cmd_plan(args) -> int:
    project = Project(args.root)
    names, findings = game_names(project, args)
    args.plan = "mix" if getattr(args, "mix", False) else True
    with Drawing(args.jobs or default_jobs(), **DRAWING) as drawing:
        checked_games, found = check_with(project, names, args)
        findings.extend(found)
        print_findings(findings)
        if failed(findings, args.strict):
            print(f"pnp plan: {tally(findings)}; nothing was written", file=sys.stderr)
            return EXIT_ERRORS
        out_dir = args.out or project.root / "output"
        with staged_output() as staging, Progress("pnp plan: the kit") as progress:
            kits = _write_kits(checked_games, out_dir, staging, drawing, progress.update)
    _print_kits(kits)
    return EXIT_OK

def _write_kits(checked_games, out_dir: Path, staging, drawing: Drawing, progress) -> list:
    """Stage each game's kit PDF; (game, kit, path) of each."""
    from ..engine.workers import Job

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
    from ..compose.kit import kit_summary
    from ..pdf.ink import ink_coverage, rated_pages

    for name, kit, path in kits:
        for line in kit_summary(name, kit, display_path(path, Path.cwd())):
            print(line)
        coverage = ink_coverage(kit.output.plans)
        print(f"  ink: {100 * sum(coverage) / len(coverage):.0f}% of the page area on average,"
              f" as much as {rated_pages(coverage):.0f} pages at the 5% coverage cartridge "
              "yields are rated at")

def cmd_watch(args) -> int:
    from ..watch.serve import watch_project

    # The build printed the round's findings; the proof after it does not print them again.
    proof_args = argparse.Namespace(**vars(args), card=None, png=False, changed=False,
                                    dpi=150, findings_shown=True)
    project = Project(args.root)
    names, missing = game_names(project, args)  # no game is an error now, not each round
    if missing.errors:  # a game named that is not there: say so once, and do not watch
        print_findings(missing)
        print(f"pnp watch: {tally(missing)}; nothing to watch", file=sys.stderr)
        return EXIT_ERRORS
    if args.port is not None and not args.proof:
        raise UsageError("--port is for --proof: it serves the proof gallery")
    live, announce = None, []
    if args.proof:
        from ..export.proof import PROOF_DIR

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
    from ..watch.liveserver import LiveServer

    try:
        return LiveServer(out_dir, port or 0)
    except OSError as exc:
        if not port:
            raise
        raise UsageError(f"--port {port}: cannot serve the proof gallery there "
                         f"({exc.strerror or exc}); choose another, or leave --port out "
                         "for a free one") from None
