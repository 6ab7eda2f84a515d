"""Pipeline: a project folder in; findings, and for a clean game its print-ready PDFs, out.

load -> validate -> model -> rules -> render faces -> layout -> PDF -> atomic write.
`check_game` runs everything up to the rendered faces (text fitting is part of checking);
`build_game` runs check first and writes nothing unless the game is free of errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .content import load_document
from .declarative import RULES_FILE, run_declared_rules
from .findings import Findings, Location, display_path
from .games import Deck, Engine, GameInfo, engines
from .layout import Page, builtin_layouts, impose
from .output import Staging
from .pdf import DocumentInfo, PagePlan, Placement, render_pdf
from .render import Face, Renderer
from .rules import run_rules
from .schema import INVALID, suggest, validate

GAME_FILE = "game.yaml"
FURNITURE_TEMPLATE = "sheet.svg.j2"


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
    findings.extend(renderer.findings)
    return checked


def select_sheets(checked: CheckedGame, wanted: list[str] | None) -> tuple[list[Deck], list[str]]:
    """The decks named in `wanted` (all when None), and the names that match no sheet."""
    if wanted is None:
        return list(checked.decks), []
    by_name = {deck.name: deck for deck in checked.decks}
    return [by_name[n] for n in wanted if n in by_name], [n for n in wanted if n not in by_name]


def plan_pages(checked: CheckedGame, deck: Deck, paper: str, layout_name: str = "home"):
    layout = builtin_layouts()[layout_name]
    pages = impose(len(deck.items), deck.size, paper, layout)
    fronts, backs = checked.faces[deck.name]
    sheets = max(page.number for page in pages)
    plans = []
    for page in pages:
        faces = fronts if page.side == "front" else backs
        furniture = checked.renderer.render(
            FURNITURE_TEMPLATE, None, page=page, deck=deck, layout=layout, sheets=sheets,
            paper_name=paper).svg
        placements = tuple(Placement(slot.rect.x_mm, slot.rect.y_mm, faces[slot.index].svg)
                           for slot in page.slots)
        plans.append(PagePlan(page.paper, page.trim, furniture, placements))
    return plans, layout


def build_game(checked: CheckedGame, decks: list[Deck], paper: str, out_dir: Path,
               staging: Staging) -> list[Path]:
    """Render the chosen decks of a checked, error-free game into staged PDFs."""
    info = checked.info
    written = []
    for deck in decks:
        plans, layout = plan_pages(checked, deck, paper)
        document = DocumentInfo(
            title=f"{info.title}: {deck.title} ({paper_label(paper)})",
            author=info.designer,
            subject=f"{info.title} print-and-play, {deck.title.lower()}. "
                    f"{info.licence.attribution}. {info.licence.url}",
            keywords=f"print and play; {info.licence.name}",
            duplex=layout.duplex,
        )
        destination = out_dir / checked.name / f"{deck.name}-{paper}.pdf"
        staging.write(destination, render_pdf(plans, document))
        written.append(destination)
    return written


def paper_label(paper: str) -> str:
    return {"letter": "US Letter", "a4": "A4"}.get(paper, paper)


def unknown_game(project: Project, name: str) -> Findings:
    findings = Findings()
    findings.error("game-unknown", Location(project.shown(project.content / name)),
                   f"no game '{name}' under {project.shown(project.content)}",
                   hint=suggest(name, project.games()) or
                   f"games found: {', '.join(project.games()) or 'none'}")
    return findings


__all__ = ["Project", "CheckedGame", "check_game", "build_game", "select_sheets", "Page"]
