"""Pipeline: a project folder in; findings, and for a clean game its print-ready PDFs, out.

load -> validate -> model -> rules -> render faces -> layout -> PDF -> atomic write.
`check_game` runs everything up to the rendered faces (text fitting is part of checking);
`build_game` runs check first and writes nothing unless the game is free of errors.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .content import load_document
from .declarative import RULES_FILE, run_declared_rules
from .findings import Findings, Location, display_path
from .games import Board, Deck, Engine, GameInfo, engines
from .inksaver import save_ink
from .layout import Rect, builtin_layouts, deck_bleed_mm, impose, sheet_file_name
from .output import Staging
from .pdf import DocumentInfo, PagePlan, Placement, render_pdf
from .printers import PrinterProfile, apply_printer
from .render import Face, Renderer
from .rules import run_rules
from .schema import INVALID, suggest, validate
from .tiling import Tiling, tile_board
from .units import PAPERS, Size

GAME_FILE = "game.yaml"
FURNITURE_TEMPLATE = "sheet.svg.j2"
TILE_TEMPLATE = "board-tile.svg.j2"  # a tiled board page's margins, cut lines and marks
ASSEMBLY_TEMPLATE = "board-assembly.svg.j2"  # the map of the tiles, first page


@dataclass
class Project:
    """The folders a project is made of; by default the current directory."""

    root: Path

    @property
    def content(self) -> Path:
        return self.root / "content"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    def games(self) -> list[str]:
        if not self.content.is_dir():
            return []
        return sorted(p.name for p in self.content.iterdir() if (p / GAME_FILE).is_file())

    def shown(self, path: Path) -> str:
        """How a path is printed in findings: relative to where the user runs pnp."""
        return display_path(path, Path.cwd())


@dataclass
class CheckedGame:
    name: str
    findings: Findings
    info: GameInfo | None = None
    engine: Engine | None = None
    model: Any = None
    decks: list[Deck] = field(default_factory=list)
    faces: dict[str, tuple[list[Face], list[Face]]] = field(default_factory=dict)
    boards: list[Board] = field(default_factory=list)
    board_faces: dict[str, Face] = field(default_factory=dict)
    renderer: Renderer | None = None

    @property
    def ok(self) -> bool:
        return self.model is not None and not self.findings.errors


def check_game(project: Project, name: str) -> CheckedGame:
    """Load, validate and model one game, run its rules and render every face."""
    findings = Findings()
    checked = CheckedGame(name, findings)
    folder = project.content / name
    game_file = folder / GAME_FILE
    info = validate(load_document(game_file, project.shown(game_file), findings),
                    GameInfo, "", findings)
    if info is INVALID:
        return checked
    checked.info = info
    available = engines()
    engine_name = info.engine or name
    if engine_name not in available:
        findings.error("game-engine", info.where.of("engine") if info.engine else info.where.at,
                       f"no engine named '{engine_name}'",
                       hint=suggest(engine_name, available) or
                       f"set 'engine:' to one of: {', '.join(available)}")
        return checked
    engine = checked.engine = available[engine_name]
    parts: dict[str, Any] = {}
    for file_name, (part, schema) in engine.files.items():
        path = folder / file_name
        parts[part] = validate(load_document(path, project.shown(path), findings), schema,
                               part, findings)
    if findings.errors or any(value is INVALID for value in parts.values()):
        return checked
    model = checked.model = engine.make_model(info, parts)
    run_rules(engine.name, model, findings)
    rules_file = folder / RULES_FILE
    run_declared_rules(rules_file, project.shown(rules_file), model, findings)
    checked.decks = engine.sheets(model)
    renderer = checked.renderer = Renderer(
        [project.templates / name, project.templates / "common"], engine.icons,
        {"game": model, "info": info})
    for deck in checked.decks:
        fronts = [renderer.render(deck.front, item, deck=deck) for item in deck.items]
        backs = [renderer.render(deck.back, item, deck=deck) for item in deck.items]
        checked.faces[deck.name] = (fronts, backs)
    checked.boards = engine.boards(model)
    for board in checked.boards:
        checked.board_faces[board.name] = renderer.render(board.template, board.item, board=board)
    findings.extend(renderer.findings)
    return checked


def select_sheets(checked: CheckedGame, wanted: list[str] | None
                  ) -> tuple[list[Deck | Board], list[str]]:
    """The decks and boards named in `wanted` (all when None), and names that match no sheet."""
    if wanted is None:
        return [*checked.decks, *checked.boards], []
    by_name = {sheet.name: sheet for sheet in (*checked.decks, *checked.boards)}
    return [by_name[n] for n in wanted if n in by_name], [n for n in wanted if n not in by_name]


def plan_pages(checked: CheckedGame, deck: Deck, paper: str, layout_name: str = "home", *,
               layouts: dict | None = None, printer: PrinterProfile | None = None,
               ink_saver: bool = False):
    layout = (layouts or builtin_layouts())[layout_name]
    pages = impose(len(deck.items), deck.size, paper, layout, bleed_mm=deck_bleed_mm(deck),
                   printer=printer.name if printer else "", layout_name=layout_name)
    fronts, backs = checked.faces[deck.name]
    sheets = max(page.number for page in pages)
    ink = save_ink if ink_saver else (lambda svg: svg)
    plans = []
    for page in pages:
        furniture = {part: checked.renderer.render(
            FURNITURE_TEMPLATE, None, part=part, page=page, deck=deck, layout=layout,
            sheets=sheets, paper_name=paper).svg for part in ("fixed", "page")}
        # The fixed furniture repeats on every page of a side, so it is placed like a shared
        # back and drawn once per document.
        placements = (Placement(0, 0, furniture["fixed"]), *(
            Placement.for_slot(slot, ink((fronts if slot.face == "front" else backs)[
                slot.index].svg)) for slot in page.slots))
        plans.append(PagePlan(page.paper, page.trim, furniture["page"], placements,
                              bleed=page.bleed, side=page.side))
    return apply_printer(plans, printer), layout, pages[0].notices


def build_game(checked: CheckedGame, decks: list[Deck | Board], paper: str, out_dir: Path,
               staging: Staging, *, layout_name: str = "home", layouts: dict | None = None,
               printer: PrinterProfile | None = None, ink_saver: bool = False) -> list[Path]:
    """Render the chosen decks and boards of a checked, error-free game into staged PDFs."""
    info = checked.info
    written = []
    for deck in decks:
        if isinstance(deck, Board):
            written.extend(build_board(checked, deck, paper, out_dir, staging))
            continue
        plans, layout, notices = plan_pages(checked, deck, paper, layout_name, layouts=layouts,
                                            printer=printer, ink_saver=ink_saver)
        for notice in notices:
            print(f"pnp build: {deck.name}: note: {notice}", file=sys.stderr)
        document = document_info(info, deck.title, paper_label(paper), layout.duplex)
        destination = out_dir / checked.name / sheet_file_name(
            deck.name, paper, layout_name, layout, ink_saver)
        staging.write(destination, render_pdf(plans, document))
        written.append(destination)
    return written


def build_board(checked: CheckedGame, board: Board, paper: str, out_dir: Path,
                staging: Staging) -> list[Path]:
    """Write the board whole on one page of its own size, and tiled over `paper`."""
    svg = checked.board_faces[board.name].svg
    size = f"{board.size.width_mm:g} x {board.size.height_mm:g} mm"

    whole = Rect(0, 0, *board.size)
    large = [PagePlan(board.size, whole, blank_svg(board.size), (Placement(0, 0, svg),))]
    tiling = tile_board(board.size, PAPERS[paper])
    written = []
    for name, plans, what in (
            (f"{board.name}-large.pdf", large, f"one {size} page"),
            (f"{board.name}-{paper}.pdf", plan_tiles(checked, board, tiling, paper),
             f"tiled over {paper_label(paper)}")):
        destination = out_dir / checked.name / name
        document = document_info(checked.info, board.title, what, duplex="none")
        staging.write(destination, render_pdf(plans, document))
        written.append(destination)
    return written


def plan_tiles(checked: CheckedGame, board: Board, tiling: Tiling, paper: str) -> list[PagePlan]:
    """The assembly map page, then one page per tile: a clipped window of the board between
    the page's margin furniture (under) and its cut lines and alignment marks (over)."""
    svg = checked.board_faces[board.name].svg
    render = checked.renderer.render
    page = Rect(0, 0, *tiling.paper)
    context = dict(board=board, tiling=tiling, paper_name=paper_label(paper))
    thumb = assembly_thumbnail(tiling)
    scale = thumb.width_mm / board.size.width_mm
    plans = [PagePlan(tiling.paper, page,
                      render(ASSEMBLY_TEMPLATE, None, layer="under", thumb=thumb, **context).svg,
                      (Placement(thumb.x_mm, thumb.y_mm, svg, scale=scale),
                       Placement(0, 0, render(ASSEMBLY_TEMPLATE, None, layer="over",
                                              thumb=thumb, **context).svg)))]
    for tile in tiling.tiles:
        x, y = tile.to_page(0, 0)
        plans.append(PagePlan(
            tiling.paper, tile.placed,
            render(TILE_TEMPLATE, None, layer="under", tile=tile, **context).svg,
            (Placement(x, y, svg, clip=tile.placed),
             Placement(0, 0, render(TILE_TEMPLATE, None, layer="over", tile=tile,
                                    **context).svg))))
    return plans


def assembly_thumbnail(tiling: Tiling) -> Rect:
    """Where the board's thumbnail sits on the assembly map page: full width, below a header."""
    margin_mm, header_mm, footer_mm = 15, 40, 100
    paper = tiling.paper
    scale = min((paper.width_mm - 2 * margin_mm) / tiling.board.width_mm,
                (paper.height_mm - header_mm - footer_mm) / tiling.board.height_mm)
    width, height = tiling.board.width_mm * scale, tiling.board.height_mm * scale
    return Rect((paper.width_mm - width) / 2, header_mm, width, height)


def blank_svg(size: Size) -> str:
    w, h = f"{size.width_mm:g}", f"{size.height_mm:g}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}"/>')


def document_info(info: GameInfo, title: str, detail: str, duplex: str) -> DocumentInfo:
    """A PDF's metadata: what it is, and the game's licence and attribution."""
    return DocumentInfo(
        title=f"{info.title}: {title} ({detail})",
        author=info.designer,
        subject=f"{info.title} print-and-play, {title.lower()}. "
                f"{info.licence.attribution}. {info.licence.url}",
        keywords=f"print and play; {info.licence.name}",
        duplex=duplex,
    )


def paper_label(paper: str) -> str:
    return {"letter": "US Letter", "a4": "A4"}.get(paper, paper)


def unknown_game(project: Project, name: str) -> Findings:
    findings = Findings()
    findings.error("game-unknown", Location(project.shown(project.content / name)),
                   f"no game '{name}' under {project.shown(project.content)}",
                   hint=suggest(name, project.games()) or
                   f"games found: {', '.join(project.games()) or 'none'}")
    return findings


__all__ = ["Project", "CheckedGame", "check_game", "build_game", "select_sheets"]
