"""Pipeline: a project folder in; findings, and for a clean game its print-ready PDFs, out.

load -> validate -> model -> rules -> render faces -> layout -> PDF -> atomic write.
`check_game` runs everything up to the PDF: every face, every page's margin furniture, every
board tile and whole page is drawn and parsed, so whatever `build` would render, `check` has
rendered, and a template mistake is a located finding from check, never a crash of build.
The sheets are drawn independently of one another, shared between processes (pnp.engine.workers).
`build_game` turns a checked, error-free game's page plans into PDFs.
"""

from __future__ import annotations

import pickle
import sys
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Callable

from . import reads
from .cache.pdfs import BuildCache, output_key
from .compose.component import Output, Sheet
from .compose.game import make_sheets
from .compose.kit import KitPlan, plan_kit
from .engine import reads as recorded, runtime as collector, store
from .engine.jinja import bytecode_cache
from .engine import kept as keeping
from .engine.memo import SheetCache
from .findings import Findings, Location
from .fonts import BUNDLED, font_files, measured, metrics, own_font_files
from .layout.layouts import PrintOptions
from .libraries import load_whole
from .load.model import GAME_FILE, Game, load_game
from .load.schema import suggest
from .output import Staging
from .project import Project, print_options
from .render.playability import playability_findings, playability_samples
from .render.renderer import Renderer
from .rules.declarative import RULES_FILE, run_declared_rules
from .rules.plugins import available, load_plugin
from .rules.registry import run_rules
from .engine.workers import Drawing, Job, Progress, default_jobs, run_tasks

DEFAULT_PAPER = "letter"
# pnp's own templates (sheet margins, board tiles, inline icons); a project's templates/common/
# or a game's own folder may replace any of them.
BUILTIN_TEMPLATES = Path(__file__).parent / "data" / "templates"


@dataclass
class CheckedGame:
    name: str
    findings: Findings
    paper: str = DEFAULT_PAPER
    game: Game | None = None
    renderer: Renderer | None = None
    outputs: dict[str, list[Output]] = field(default_factory=dict)  # sheet name -> its PDFs
    by_name: dict[str, Sheet] = field(default_factory=dict)  # the sheets made from the game
    kit: KitPlan | None = None  # the whole kit packed on the paper, when a plan was asked for

    @property
    def info(self):
        return self.game.info if self.game else None

    @property
    def sheets(self) -> list[Sheet]:
        return list(self.by_name.values())

    @property
    def ok(self) -> bool:
        return self.game is not None and not self.findings.errors


# A sheet in at most this many parts is looked for in the sheet cache by this process; the
# parts of a larger deck by their own tasks, on every core.
LOOKED_UP_HERE = 8


def check_project(project: Project, names: list[str], paper: str = DEFAULT_PAPER,
                  layout: str = "home", printer: str | None = None, ink_saver: bool = False,
                  jobs: int | None = None, remember: bool = True, plan: bool = False,
                  lang: str = "", lenient: bool = False
                  ) -> tuple[list[CheckedGame], Findings]:
    """What `pnp check` reports and `pnp build` checks before it draws: the print options
    (the project's layouts.yaml, the layout, the printer profile) and every named game checked
    with them on `paper`. Both commands call this, so a check lays out exactly what a build
    prints. A problem with the print options themselves checks no game. With `plan`, each
    game's whole kit is packed too (pnp.compose.kit), as `pnp plan` writes it. With `lang`, each game
    is checked in that language's edition (pnp.load.languages)."""
    options, findings = print_options(project, layout, printer, ink_saver)
    if findings.errors:
        return [], findings
    checked = [check_game(project, name, paper, options, jobs, remember, plan, lang, lenient)
               for name in names]
    for game in checked:
        findings.extend(game.findings)
    return checked, findings


def check_game(project: Project, name: str, paper: str = DEFAULT_PAPER,
               options: PrintOptions | None = None, jobs: int | None = None,
               remember: bool = True, plan: bool = False, lang: str = "",
               lenient: bool = False) -> CheckedGame:
    """Load, validate and model one game, run its rules, and draw everything a build on
    `paper` would draw, sharing the sheets between `jobs` processes (default: one per CPU;
    the result is the same). With `remember`, a sheet whose inputs are those of an earlier
    check is not drawn again: its result is the one kept then (pnp.engine.memo)."""
    findings = Findings()
    checked = CheckedGame(name, findings, paper)
    folder = project.content / name
    collector.release()
    with recorded.recording() as loaded, reads.confined(project.root), collector.lasting():
        game = load_game(folder, project.shown, findings, lang, partial=True,
                         run=partial(run_tasks, workers=jobs or default_jobs()), lenient=lenient)
    # A game with errors is never printed, but its rules run on what is valid and the faces
    # of its valid items are drawn, so one error hides no other finding.
    draft = game is not None and not game.complete
    if draft:
        findings.extend(check_rules(project, folder, game))
        game, remember, plan = game.drawable(), False, False
    else:
        checked.game = game
    if game is None:
        return checked
    renderer = checked.renderer = Renderer(
        [project.templates / name, project.templates / "common", BUILTIN_TEMPLATES], game.icons,
        {"game": game, "info": game.info, "lang": game.language or
         (game.info.languages or ("",))[0]}, art_folder=folder, root=project.root,
        fonts=game.fonts, bytecode_cache=bytecode_cache())
    options = options or PrintOptions()
    kept = SheetCache(project.root, name, renderer, paper, options, loaded, measured()) \
        if remember else None
    checked.by_name = make_sheets(game)
    sheets = checked.sheets
    # One task per sheet (its faces and its pages) and one for the game's rules, which none
    # of them changes; a large deck is several tasks, and its pages are planned here, once
    # its faces are joined. A sheet kept from an earlier check with the same inputs is taken
    # as it was, and only the others are drawn. A sheet of a few parts is looked for here (a
    # check with nothing to draw starts no processes); a part of a large deck is looked for
    # by its own task, which draws it if it is not kept: the parts' keys (digests of their
    # items) and their kept pages are worked out on every core.
    done: list[SheetWork | None] = [None]
    owners: list[Sheet | None] = [None]
    drawing: list[tuple[int, Callable[[], SheetWork | bytes]]] = []
    with collector.lasting():
        for sheet in sheets:
            with recorded.recording() as listed:  # looking its templates up is part of drawing it
                parts = sheet.parts(renderer, paper, options)
            for index, part in enumerate(parts):
                found = None
                if len(parts) > LOOKED_UP_HERE:
                    task = partial(_recall_or_draw, kept, listed, index, len(parts), sheet,
                                   part, renderer, paper, options)
                else:
                    key = kept.key(sheet, index, len(parts)) if kept else None
                    found = kept.recall(sheet, index, key) if key else None
                    # A part with no exact key is drawn, and not kept.
                    task = partial(_draw_kept, kept if key else None, key, listed, index,
                                   len(parts), sheet, part, renderer, paper, options)
                if found is None:
                    drawing.append((len(done), task))
                done.append(found)
                owners.append(sheet)
    # The largest drawing first and the rules next, so every worker starts on a long task.
    drawing.sort(key=lambda task: -len(getattr(owners[task[0]], "items", ())))
    drawing.insert(1, (0, lambda: SheetWork(rules=Findings() if draft else
                                            check_rules(project, folder, game))))
    reported = [("", *renderer.take_findings())]  # (sheet, findings, keys reported once)
    for (number, _), result in zip(drawing, run_tasks([task for _, task in drawing],
                                                      jobs or default_jobs(), _taken)):
        done[number] = result
    if kept:  # a check that keeps nothing (--no-cache) leaves the cache alone
        store.prune()
    findings.extend(done[0].rules)
    with collector.lasting():
        for sheet in sheets:
            mine = [result for owner, result in zip(owners, done) if owner is sheet]
            sheet.join([result.drawn for result in mine])
            reported += [(sheet.name, *result.reported) for result in mine]
            if len(mine) == 1:
                checked.outputs[sheet.name] = mine[0].outputs
            else:
                checked.outputs[sheet.name], found = _plan_pages(sheet, renderer, paper,
                                                                 options)
                reported.append((sheet.name, *found))
    # A problem is reported where it first shows, once; a print-safety warning also once per
    # sheet for each template line and rule, whichever of the sheet's parts drew it.
    once: set = set()
    for sheet_name, found, reported_once in reported:
        for finding in found:
            shown = [key for key in ((finding.where, finding.message),
                                     (sheet_name, finding.where, finding.rule))
                     if key[-2:] in reported_once]
            if any(key in once for key in shown):
                continue
            once.update(shown)
            findings.add(finding)
    if draft:  # a template's failure may be the gap's (a row it looks up); not reported
        findings.items = [f for f in findings.items if f.rule != "template-error"]
        checked.renderer, checked.outputs, checked.by_name = None, {}, {}
        return checked
    findings.extend(check_playability(sheets, remember))
    if plan and not findings.errors:
        checked.kit = plan_kit(name, sheets, checked.outputs, renderer, paper, options,
                               findings, mix=plan == "mix")
        findings.extend(renderer.take_findings()[0])
    if game.language:
        checked.outputs = {sheet: [in_language(output, sheet, game.language) for output in made]
                           for sheet, made in checked.outputs.items()}
        if checked.kit is not None:
            checked.kit = replace(checked.kit, output=in_language(checked.kit.output, name,
                                                                  game.language))
    return checked


def in_language(output: Output, stem: str, lang: str) -> Output:
    """A language edition's PDF: its language after the sheet's name, `events-de-letter.pdf`,
    so editions sit side by side in the game's output folder."""
    def renamed(file: str) -> str:
        return f"{stem}-{lang}{file[len(stem):]}" if file.startswith(stem) else f"{lang}-{file}"

    return replace(output, file_name=renamed(output.file_name),
                   extras=tuple((renamed(extra), text) for extra, text in output.extras))


def check_playability(sheets: list[Sheet], remember: bool = True) -> list:
    """The playability warnings of a game's decks (pnp.render.playability): their fronts
    rasterised as the PDFs draw them. With `remember`, the answer is kept (pnp.engine.kept)
    under a digest of the samples it reads (pnp.render.playability.playability_samples): a
    check that changed none of them rasterises nothing. Why: rasterising is most of a check
    of banking after one edit (0.9 s of it, to 3 ms when kept)."""
    from .compose.deck import Deck

    groups = playability_samples([sheet for sheet in sheets if isinstance(sheet, Deck)])

    def work() -> list:
        # The rasteriser's cairocffi finds cairo through ctypes.util.find_library, which runs
        # ldconfig, gcc and ld with a scratch file in TMPDIR: loaded whole, with Ctrl-C and
        # SIGTERM kept back (a signal meanwhile left that file behind), and only when a face
        # is to be rasterised (a kept answer loads no cairo).
        raster = load_whole("pnp.pdf.raster")
        return playability_findings(groups, raster.face_image)

    return keeping.kept("playability", keeping.digest(groups) if remember else None, work)


def check_rules(project: Project, folder: Path, game: Game) -> Findings:
    """The findings of a game's rules: its plug-in's, its rules.yaml's, and whether the fonts
    can draw the text printed outside text boxes."""
    findings = Findings()
    info = game.info
    if info.plugin:
        problem = load_plugin(info.plugin)
        if problem:
            findings.error("game-plugin", info.where.of("plugin"), problem,
                           hint=suggest(info.plugin, available()) or
                           "install the package that provides it, or remove 'plugin:'")
        else:
            run_rules(info.plugin, game, findings, info.where.of("plugin"))
    rules_file = folder / RULES_FILE
    with reads.confined(project.root):
        run_declared_rules(rules_file, project.shown(rules_file), game, findings)
    check_printed_text(game, findings)
    return findings


@dataclass
class SheetWork:
    """What a check's task hands back (pnp.engine.workers): the fields a sheet's part drew, the
    sheet's outputs when the task planned its pages, the rules' findings, and the findings
    the renderer gathered with the keys of those reported once per problem."""

    drawn: dict = field(default_factory=dict)
    outputs: list[Output] = field(default_factory=list)
    rules: Findings = field(default_factory=Findings)
    reported: tuple = field(default_factory=lambda: (Findings(), frozenset()))


def _recall_or_draw(kept: SheetCache | None, listed: recorded.Record, index: int, parts: int,
                    sheet: Sheet, part: Callable[[], dict], renderer: Renderer, paper: str,
                    options: PrintOptions | None) -> SheetWork | bytes:
    """Part `index` of a sheet drawn in `parts` parts: kept by an earlier check with the same
    inputs, as it was pickled (the process that asked for it unpickles it once), or drawn."""
    key = kept.key(sheet, index, parts) if kept else None
    found = kept.recall_pickled(sheet, index, key) if key else None
    if found is not None:
        return found
    # A part with no exact key is drawn, and not kept.
    return _draw_kept(kept if key else None, key, listed, index, parts, sheet, part, renderer,
                      paper, options)


def _taken(result: SheetWork | bytes) -> SheetWork:
    """A task's result as this process keeps it: a kept part unpickled, as what lasts."""
    if not isinstance(result, bytes):
        return result
    with collector.lasting():
        return pickle.loads(result)


def _draw_kept(kept: SheetCache | None, key: str | None, listed: recorded.Record, index: int,
               parts: int, sheet: Sheet, part: Callable[[], dict], renderer: Renderer,
               paper: str, options: PrintOptions | None) -> SheetWork:
    """`_draw` part `index` of a sheet drawn in `parts` parts; with `kept`, the result is kept
    under `key`, with what listing the sheet's parts (`listed`) and drawing this one read,
    for the next check given the same values that finds the same files."""
    with recorded.recording() as drawn:
        work = _draw(sheet, part, parts == 1, renderer, paper, options)
    if kept:
        drawn.update(listed)
        kept.keep(sheet, index, key, work, drawn)
    return work


def _draw(sheet: Sheet, part: Callable[[], dict], whole: bool, renderer: Renderer, paper: str,
          options: PrintOptions | None) -> SheetWork:
    """Draw one part of a sheet's faces; for a sheet drawn whole, plan its pages too."""
    result = SheetWork(drawn=part())
    if whole:
        sheet.join([result.drawn])
        result.outputs, planned = _plan_pages(sheet, renderer, paper, options)
        result.reported = planned
    else:
        result.reported = renderer.take_findings()
    return result


def _plan_pages(sheet: Sheet, renderer: Renderer, paper: str, options: PrintOptions | None
                ) -> tuple[list[Output], tuple]:
    """A sheet's outputs on `paper`, with every finding drawing and planning them gave and
    the keys of those reported once per problem."""
    found = Findings()
    outputs = sheet.outputs(renderer, paper, found, options)
    drawn_found, reported_once = renderer.take_findings()
    found.extend(drawn_found)
    return outputs, (found, reported_once)


def check_printed_text(game: Game, findings: Findings) -> None:
    """Text the sheets print outside text boxes (title, attribution, sheet titles) must be
    drawable by the game's fonts too, or it prints as empty boxes on every sheet."""
    info = game.info
    texts = [(info.title, info.where.of("title"), "title"),
             (info.licence.attribution, info.licence.where.of("attribution"), "attribution")]
    for kind in ("decks", "boards", "pages"):
        for sheet_name, spec in getattr(info, kind).items():
            texts.append((spec.title, spec.where.of("title"), f"{kind}.{sheet_name}.title"))
    # In the game's faces (its templates print them) and pnp's (its sheets' furniture does).
    faces = {}
    for table in (game.fonts, BUNDLED):
        for role in ("body", "bold"):
            face = metrics(role, table)
            faces.setdefault(face.face.location, face)
    for face in faces.values():
        for text, where, field_name in texts:
            for char in face.lacks(text):
                findings.error("glyph-missing", where, f"character '{char}' (U+{ord(char):04X})"
                               f" is not in the font {face.face.family} ("
                               f"{'bold' if face.face.weight == 'bold' else 'regular'})",
                               field=field_name, hint="it would print as an empty box; "
                               "replace it")
                break


def select_sheets(checked: CheckedGame, wanted: list[str] | None
                  ) -> tuple[list[Sheet], list[str]]:
    """The sheets named in `wanted` (all when None), and names that match no sheet."""
    if wanted is None:
        return checked.sheets, []
    by_name = {sheet.name: sheet for sheet in checked.sheets}
    return [by_name[n] for n in wanted if n in by_name], [n for n in wanted if n not in by_name]


def build_game(checked: CheckedGame, sheets: list[Sheet], out_dir: Path, staging: Staging,
               drawing: Drawing, *, cache: bool = True, progress: Progress | None = None,
               meanwhile: Callable[[], None] | None = None) -> list[Path]:
    """Stage the chosen sheets of a checked, error-free game as PDFs, drawn by `drawing`'s
    processes (while they draw, this one calls `meanwhile`); with `cache`, a PDF whose inputs
    have not changed is left as it is. Returns the PDFs written."""
    folder = out_dir / checked.name
    record = BuildCache(folder) if cache else None
    wanted, keys = [], []
    for sheet in sheets:
        for output in checked.outputs.get(sheet.name, []):
            for notice in output.plans[0].notices if output.plans else ():
                print(f"pnp build: {output.file_name}: note: {notice}", file=sys.stderr)
            # Cut files, in the PDF's own page coordinates: written every time, as a deck's
            # corner radius changes them and not its PDF.
            for extra, text in output.extras:
                staging.write(folder / extra, text.encode("utf-8"))
            key = None  # a PDF the record does not list is drawn; its key can wait
            if record and record.lists(output.file_name):
                key = output_key(output.plans, output.document, font_files(checked.game.fonts))
                if record.fresh(output.file_name, key):
                    continue
            wanted.append(output)
            keys.append(key)

    def while_drawing() -> None:
        if meanwhile:
            meanwhile()
        for n, output in enumerate(wanted):
            if record and keys[n] is None:
                keys[n] = output_key(output.plans, output.document, font_files(checked.game.fonts))

    fonts = own_font_files(checked.game.fonts)
    drawn = drawing.draw([Job(o.file_name, o.plans, o.document, fonts) for o in wanted], progress,
                         while_drawing)
    written = []
    for output, key, data in zip(wanted, keys, drawn):
        destination = folder / output.file_name
        staging.write(destination, data)
        written.append(destination)
        if record:
            record.record(output.file_name, key, data)
    if record and written:
        staging.write(record.path, record.to_bytes())
    return written


def unknown_game(project: Project, name: str) -> Findings:
    findings = Findings()
    folder = project.content / name
    if folder.is_dir() and not (folder / GAME_FILE).exists():
        findings.error("game-unknown", Location(project.shown(folder / GAME_FILE)),
                       f"{project.shown(folder)}/ has no {GAME_FILE}, so it is not a game",
                       hint=f"create {project.shown(folder / GAME_FILE)} ('pnp new' starts "
                       "one), or name another game")
        return findings
    findings.error("game-unknown", Location(project.shown(folder)),
                   f"no game '{name}' under {project.shown(project.content)}",
                   hint=suggest(name, project.games()) or
                   f"games found: {', '.join(project.games()) or 'none'}")
    return findings


__all__ = ["Project", "CheckedGame", "check_project", "check_game", "print_options", "build_game",
           "select_sheets"]
