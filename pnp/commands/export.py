"""`pnp export`: each deck for Tabletop Simulator, or for a print shop after a preflight of
every face against the shop's product."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import EXIT_ERRORS, EXIT_OK, UsageError
from ..export.printshop import load_shops
from ..findings import Findings, display_path, terminal_safe
from ..fonts import game_font_files, use_fonts
from ..load.schema import suggest
from ..output import staged_output
from ..pipeline import select_sheets
from ..project import Project
from ..compose.board import Board
from ..compose.deck import Deck
from ..engine.workers import default_jobs
from . import check_with, failed, game_names, print_findings, tally, wanted_sheets

DEFAULT_SHOP = "thegamecrafter"  # --to shop without --shop


def cmd_export(args) -> int:
    project = Project(args.root)
    names, findings = game_names(project, args)
    wanted = wanted_sheets(args)
    if args.to == "tts" and args.shop is not None:
        raise UsageError(f"--shop {terminal_safe(args.shop[:40])!r} is for --to shop; "
                         "export --to tts writes for Tabletop Simulator, whatever the shop")
    if args.to == "shop" and args.base_url is not None:
        raise UsageError("--base-url is for --to tts; a print shop's files are uploaded to "
                         "the shop itself")
    shops = load_shops()
    shop_name = args.shop or DEFAULT_SHOP
    if args.to == "shop" and shop_name not in shops:
        raise UsageError(f"no shop named {terminal_safe(shop_name[:40])!r}; " + (
            suggest(shop_name, shops) or f"shops: {', '.join(sorted(shops))}"))
    shop = shops[shop_name] if args.to == "shop" else None
    if shop is not None and shop.colour == "cmyk":
        from ..export.pdfx import cmyk_profile, ghostscript

        ghostscript(), cmyk_profile()  # before any work: one line naming what to install
    checked_games, found = check_with(project, names, args)
    findings.extend(found)
    games, passed_over = [], []
    for checked in checked_games:
        sheets, missing = select_sheets(checked, wanted)
        if missing:
            raise UsageError(f"no deck named {', '.join(missing)}")
        # Whole pages are not exported (the page's PDF), nor boards to a shop (board-large.pdf);
        # Tabletop Simulator takes a board as a custom board.
        kinds = (Deck, Board) if shop is None else (Deck,)
        games.append((checked, [sheet for sheet in sheets if isinstance(sheet, kinds)]))
        passed_over += [sheet.name for sheet in sheets if not isinstance(sheet, kinds)]
    if checked_games and not any(decks for _, decks in games):
        raise UsageError(f"nothing to export: export --to {args.to} writes decks, and "
                         f"{', '.join(passed_over) or 'no sheet'} "
                         f"{'is' if len(passed_over) == 1 else 'are'} not a deck; "
                         "'pnp build' prints boards and pages")
    # A deck that prints nothing (its check's deck-empty warning says so) is left out.
    games = [(checked, [deck for deck in decks if deck.items]) for checked, decks in games]
    out_dir = args.out or project.root / "output"
    workers = args.jobs or default_jobs()
    files: list = []
    if not failed(findings, args.strict):
        # The games' own fonts, for drawing here and in the workers forked from here.
        fonts = tuple(file for checked, _ in games for file in game_font_files(checked.game))
        if fonts:
            use_fonts(fonts)
        if shop is None:
            from ..export.tts import export_games

            files = export_games(games, out_dir, args.base_url, workers)
        else:
            files = _shop_files(games, shop, found, findings, out_dir, workers, args.strict,
                                fonts)
    print_findings(findings)
    if failed(findings, args.strict):
        print(f"pnp export: {tally(findings)}; nothing was written", file=sys.stderr)
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
    from ..export.shopfiles import draw_faces, pdf_files, plan_shop, png_files

    preflight = Findings()
    planned = plan_shop(games, shop, found, preflight)
    drawn = draw_faces(planned, shop, workers, preflight)  # every face's bleed is reported
    findings.extend(preflight)
    if failed(findings, strict):
        return []
    if not planned:
        from ..errors import OutsideError

        print_findings(findings)
        raise OutsideError(f"pnp export: no deck fits a product of {shop.title}; "
                           "nothing was written")
    if shop.file == "png":
        return png_files(planned, drawn, shop, out_dir)
    files = pdf_files(planned, shop, workers, out_dir, fonts, findings)  # and their ink
    return [] if failed(findings, strict) else files
