"""Diff: two snapshots of a game's faces in; what changed, by card and field, and a visual proof
out.

A card is a sheet's item (a deck's card with its front and back, a board, a page), matched by
sheet and label. It is added, removed, or changed when any of its faces' SVG differs; a changed
card names the fields whose values differ (`card "Ace": value 3 -> 4`; long text just
`effect changed`), or the face alone when only its template or other data it draws changed.

The visual proof shows each changed card's faces old and new side by side, the changed areas
marked: both faces are rasterised at a low resolution (their stamps blanked, which always
differ), compared pixel by pixel, and the changed pixels grouped into a few rectangles drawn
over both faces. It is written as `proof/diff.html` in the proof gallery and as
`proof/diff.pdf`.
"""

from __future__ import annotations

import io
from collections import deque
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import jinja2

from .record import FaceRecord, Snapshot
from ..export.proof import PAGE_STYLE

SHORT_VALUE = 24  # a value this short on one line is shown as `old -> new`
DIFF_DPI = 50  # rasterising for the changed areas: about 0.5 mm a pixel
CELL_PX = 4  # changed pixels are grouped in cells of this many pixels (2 mm)
THRESHOLD = 48  # a channel difference below this is antialiasing noise, not a change
PAD_MM = 0.8


@dataclass(frozen=True)
class FieldChange:
    path: str
    old: Any
    new: Any

    def describe(self) -> str:
        if _short(self.old) and _short(self.new):
            return f"{self.path} {_shown(self.old)} -> {_shown(self.new)}"
        return f"{self.path} changed"


@dataclass
class Change:
    """One card that was added, removed or changed, with its faces then and now."""

    kind: str  # added, removed, changed
    sheet: str
    label: str
    old: dict[str, FaceRecord] = field(default_factory=dict)  # side -> face
    new: dict[str, FaceRecord] = field(default_factory=dict)
    fields: list[FieldChange] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)  # the sides whose faces differ

    def describe(self) -> str:
        if self.kind != "changed":
            return f"{self.label}: {self.kind}"
        parts = [f.describe() for f in self.fields]
        if not parts:  # its template changed, or other data it draws (a board's banks)
            parts = [f"{' and '.join(self.sides)} changed"]
        return f"{self.label}: {', '.join(parts)}"


def _short(value: Any) -> bool:
    if value is None or isinstance(value, (bool, int, float)):
        return True
    return isinstance(value, str) and len(value) <= SHORT_VALUE and "\n" not in value


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def flatten(value: Any, path: str = "") -> dict[str, Any]:
    """Nested mappings as dotted paths (`invest.red`); lists stay whole values."""
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, inner in value.items():
            flat.update(flatten(inner, f"{path}.{key}" if path else str(key)))
        return flat
    return {path or "value": value}


def field_changes(old: Any, new: Any) -> list[FieldChange]:
    before, after = flatten(old), flatten(new)
    return [FieldChange(path, before.get(path), after.get(path))
            for path in list(after) + [p for p in before if p not in after]
            if before.get(path) != after.get(path)]


def compare(old: Snapshot, new: Snapshot) -> list[Change]:
    """The cards added, removed or changed from `old` to `new`, in the new print order (the
    removed ones after the cards of their sheet)."""
    def cards(snapshot: Snapshot) -> dict[tuple[str, str], dict[str, FaceRecord]]:
        found: dict[tuple[str, str], dict[str, FaceRecord]] = {}
        for face in snapshot.faces:
            found.setdefault(face.card, {})[face.side] = face
        return found

    before, after = cards(old), cards(new)
    changes = []
    for key, faces in after.items():
        if key not in before:
            changes.append(Change("added", *key, new=faces, sides=list(faces)))
            continue
        previous = before[key]
        sides = [side for side in {**previous, **faces}
                 if (previous.get(side) and previous[side].svg_hash) !=
                 (faces.get(side) and faces[side].svg_hash)]
        if sides:
            first_old, first_new = next(iter(previous.values())), next(iter(faces.values()))
            changes.append(Change("changed", *key, old=previous, new=faces, sides=sides,
                                  fields=field_changes(first_old.fields, first_new.fields)))
    order = {sheet: n for n, sheet in enumerate(dict.fromkeys(f.sheet for f in new.faces))}
    removed = [Change("removed", *key, old=faces, sides=list(faces))
               for key, faces in before.items() if key not in after]
    for change in removed:
        at = max((n for n, c in enumerate(changes) if c.sheet == change.sheet), default=None)
        if at is None:
            at = max((n for n, c in enumerate(changes)
                      if order.get(c.sheet, 1 << 30) < order.get(change.sheet, 1 << 30)),
                     default=len(changes) - 1)
        changes.insert(at + 1, change)
    return changes


def summary(changes: list[Change]) -> str:
    counts = {kind: sum(c.kind == kind for c in changes) for kind in ("changed", "added",
                                                                          "removed")}
    return ", ".join(f"{n} {kind}" for kind, n in counts.items())


# -- changed areas ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Area:
    """A marked rectangle on a face, in mm from its top-left corner."""

    x_mm: float
    y_mm: float
    width_mm: float
    height_mm: float


def _raster(svg: str, blank: str):
    from PIL import Image

    from ..pdf.draw import render_png

    if blank:
        svg = svg.replace(blank, "")
    return Image.open(io.BytesIO(render_png(svg, DIFF_DPI))).convert("RGB")


def changed_areas(old_svg: str, new_svg: str, size_mm: tuple[float, float], *,
                  old_stamp: str = "", new_stamp: str = "") -> list[Area]:
    """Where two drawings of one face differ: a few rectangles around the changed pixels. A face
    that is new, gone or resized is one area, the whole face."""
    whole = [Area(0, 0, *size_mm)]
    if not old_svg or not new_svg:
        return whole
    from PIL import ImageChops

    before, after = _raster(old_svg, old_stamp), _raster(new_svg, new_stamp)
    if before.size != after.size:
        return whole
    difference = ImageChops.difference(before, after).convert("L")
    width, height = difference.size
    mask = difference.point(lambda v: 255 if v >= THRESHOLD else 0)
    columns, rows = -(-width // CELL_PX), -(-height // CELL_PX)
    cells = set()
    for row in range(rows):
        for column in range(columns):
            box = (column * CELL_PX, row * CELL_PX, min(width, (column + 1) * CELL_PX),
                   min(height, (row + 1) * CELL_PX))
            if mask.crop(box).getbbox():
                cells.add((column, row))
    mm_per_px = size_mm[0] / width
    areas = []
    while cells:  # one rectangle per group of touching cells (diagonals and one-cell gaps too)
        start = cells.pop()
        group, queue = [start], deque([start])
        while queue:
            column, row = queue.popleft()
            for dc in (-2, -1, 0, 1, 2):
                for dr in (-2, -1, 0, 1, 2):
                    near = (column + dc, row + dr)
                    if near in cells:
                        cells.remove(near)
                        group.append(near)
                        queue.append(near)
        x0 = min(c for c, _ in group) * CELL_PX * mm_per_px - PAD_MM
        y0 = min(r for _, r in group) * CELL_PX * mm_per_px - PAD_MM
        x1 = (max(c for c, _ in group) + 1) * CELL_PX * mm_per_px + PAD_MM
        y1 = (max(r for _, r in group) + 1) * CELL_PX * mm_per_px + PAD_MM
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, size_mm[0]), min(y1, size_mm[1])
        areas.append(Area(round(x0, 2), round(y0, 2), round(x1 - x0, 2), round(y1 - y0, 2)))
    return sorted(areas, key=lambda a: (a.y_mm, a.x_mm))


@dataclass
class ShownFace:
    side: str
    old_svg: str
    new_svg: str
    size_mm: tuple[float, float]
    areas: list[Area]


def shown_faces(change: Change, old: Snapshot, new: Snapshot) -> list[ShownFace]:
    """The faces of a change that differ, each with its old and new drawing and marked areas."""
    shown = []
    for side in change.sides:
        before, after = change.old.get(side), change.new.get(side)
        face = after or before
        old_svg = old.svg(before) if before else ""
        new_svg = new.svg(after) if after else ""
        areas = changed_areas(old_svg, new_svg, face.size_mm,
                              old_stamp=before.stamp if before else "",
                              new_stamp=after.stamp if after else "")
        shown.append(ShownFace(side, old_svg, new_svg, face.size_mm, areas))
    return shown


# -- the visual proof: HTML ------------------------------------------------------------------

_PAGE = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined,
                           trim_blocks=True, lstrip_blocks=True).from_string("""\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ title }}: changes since {{ since }}</title>
<style>
""" + PAGE_STYLE + """.change { background: #fff; border: 2px solid #d0ccc2; border-radius: 6px; padding: .5rem;
  margin: 0 0 1rem; }
.change.added { border-color: #2e7d32; } .change.removed { border-color: #8a6d00; }
.change h2 { font-size: 1rem; margin: 0 0 .4rem; }
.pair { display: flex; gap: 1.5rem; flex-wrap: wrap; align-items: flex-start; margin: 0 0 .5rem; }
.side { margin: 0; }
.side figcaption { font-size: .8rem; color: #555; }
.face { position: relative; line-height: 0; outline: 1px dashed #bbb; }
.face > svg { display: block; max-width: 100%; height: auto; }
.face.none { line-height: normal; display: flex; align-items: center; justify-content: center;
  background: repeating-linear-gradient(45deg, #f3f1ec, #f3f1ec 6px, #e6e2d8 6px, #e6e2d8 12px);
  color: #777; }
svg.marks { position: absolute; left: 0; top: 0; width: 100%; height: 100%;
  pointer-events: none; }
.mark { fill: rgba(229, 57, 53, .12); stroke: #e53935; stroke-width: .5; }
</style>
</head>
<body>
<h1>{{ title }}: changes since {{ since }}</h1>
<p class="summary">{{ summary }}. Changed areas are outlined in red on the old face (left)
and the new one (right).</p>
{% for change in changes %}
<section class="change {{ change.kind }}" data-label="{{ change.label }}"
 data-kind="{{ change.kind }}">
<h2>{{ change.text }}</h2>
{% for face in change.faces %}
<div class="pair" data-side="{{ face.side }}">
{% for which, svg in (("old", face.old), ("new", face.new)) %}
<figure class="side {{ which }}">
{% if svg %}
<div class="face" style="width: {{ face.width }}mm">{{ svg }}
<svg class="marks" viewBox="0 0 {{ face.width }} {{ face.height }}" preserveAspectRatio="none">
{% for a in face.areas %}<rect class="mark" x="{{ a.x_mm }}" y="{{ a.y_mm }}" width="{{ a.width_mm }}" height="{{ a.height_mm }}"/>
{% endfor %}
</svg></div>
{% else %}
<div class="face none" style="width: {{ face.width }}mm; height: {{ face.height }}mm">{{ "not in " ~ since if which == "old" else "removed" }}</div>
{% endif %}
<figcaption>{{ face.side }}, {{ "then" if which == "old" else "now" }}</figcaption>
</figure>
{% endfor %}
</div>
{% endfor %}
</section>
{% endfor %}
</body>
</html>
""")


def diff_html(title: str, since: str, changes: list[Change],
              faces: list[list[ShownFace]], fonts: list | None = None) -> str:
    from ..fonts import BUNDLED
    from ..export.proof import inline_svg

    shown = []
    for n, (change, its_faces) in enumerate(zip(changes, faces)):
        rows = []
        for m, face in enumerate(its_faces):
            width, height = face.size_mm
            rows.append({
                "side": face.side, "width": f"{width:g}", "height": f"{height:g}",
                "old": inline_svg(face.old_svg, f"d{n}-{m}-old") if face.old_svg else "",
                "new": inline_svg(face.new_svg, f"d{n}-{m}-new") if face.new_svg else "",
                "areas": face.areas,
            })
        shown.append({"kind": change.kind, "label": change.label, "text": change.describe(),
                      "faces": rows})
    return _PAGE.render(title=title, since=since, changes=shown,
                        fonts=fonts if fonts is not None else BUNDLED.every_face(),
                        summary=summary(changes))


# -- the visual proof: PDF -------------------------------------------------------------------

def diff_pdf(title: str, since: str, changes: list[Change], faces: list[list[ShownFace]],
             paper_name: str, info, family: str = "Roboto Condensed") -> bytes:
    """One row per changed face: old on the left, new on the right, changed areas outlined."""
    from ..pdf.draw import render_pdf
    from ..layout.plans import DocumentInfo, PagePlan, Placement
    from ..compose.component import blank_svg
    from ..units import PAPERS, Rect

    paper = PAPERS[paper_name]
    say = partial(_text, family=family)
    margin, gap, caption = 12.0, 8.0, 12.0
    column = (paper.width_mm - 2 * margin - gap) / 2
    rows: list[tuple[Change, ShownFace]] = [(c, f) for c, fs in zip(changes, faces) for f in fs]
    pages, y, placements, notes = [], paper.height_mm, [], []

    def finish() -> None:
        if placements or notes:
            overlay = _svg_page(paper, "".join(notes))
            pages.append(PagePlan(paper, Rect(0, 0, *paper), blank_svg(paper),
                                  (*placements, Placement(0, 0, overlay))))

    for change, face in rows:
        width, height = face.size_mm
        scale = min(1.0, column / width, (paper.height_mm - 2 * margin - caption) / height)
        needed = caption + height * scale + gap
        if y + needed > paper.height_mm - margin:
            finish()
            placements, notes, y = [], [], margin
            notes.append(say(margin, y + 4, f"{title}: changes since {since}", 4.2, bold=True))
            y += 8
        notes.append(say(margin, y + 4.5, f"{change.describe()} ({face.side})", 3.2,
                           bold=True))
        top = y + caption
        for n, svg in enumerate((face.old_svg, face.new_svg)):
            x = margin + n * (column + gap)
            notes.append(say(x, top - 2, (f"then ({since})" if n == 0 else "now"), 2.8))
            if svg:
                placements.append(Placement(x, top, svg, scale=scale))
                for area in face.areas:
                    ax, ay = x + area.x_mm * scale, top + area.y_mm * scale
                    aw, ah = area.width_mm * scale, area.height_mm * scale
                    notes.append(f'<rect x="{ax:.2f}" y="{ay:.2f}" width="{aw:.2f}" '
                                 f'height="{ah:.2f}" fill="none" stroke="#e53935" '
                                 'stroke-width="0.5"/>')
            else:
                notes.append(f'<rect x="{x:.2f}" y="{top:.2f}" width="{width * scale:.2f}" '
                             f'height="{height * scale:.2f}" fill="#eeeeee" stroke="#999999" '
                             'stroke-width="0.3" stroke-dasharray="1.5 1"/>')
                notes.append(say(x + 3, top + 8, "removed" if n else f"not in {since}", 3))
        y = top + height * scale + gap
    finish()
    if not pages:
        pages.append(PagePlan(paper, Rect(0, 0, *paper), blank_svg(paper), (Placement(
            0, 0, _svg_page(paper, say(margin, margin + 4, f"{title}: no changes since "
                                         f"{since}", 4.2, bold=True))),)))
    document = DocumentInfo(
        title=f"{title}: changes since {since}", author=info.designer,
        subject=f"{title}: the faces changed since {since}, then and now. "
                f"{info.licence.attribution}", duplex="none")
    return render_pdf(pages, document)


def _svg_page(paper, body: str) -> str:
    w, h = f"{paper.width_mm:g}", f"{paper.height_mm:g}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}">{body}</svg>')


def _text(x: float, y: float, text: str, size_mm: float, *, bold: bool = False,
          family: str = "Roboto Condensed") -> str:
    from markupsafe import escape

    return (f'<text x="{x:.2f}" y="{y:.2f}" font-family="{escape(family)}" '
            f'font-weight="{"bold" if bold else "normal"}" font-size="{size_mm:g}" '
            f'fill="#1b1b1b">{escape(text)}</text>')


def write_visual_diff(checked, old: Snapshot, changes: list[Change], out_dir, staging,
                      paper: str) -> list:
    """Stage `proof/diff.html` (with the gallery's fonts) and `proof/diff.pdf` of a game."""
    from .lettering import use_game_fonts, words_family
    from .record import snapshot_of
    from ..export.proof import PROOF_DIR, proof_fonts

    use_game_fonts(checked)  # the changed areas are drawn, and the PDF, as the build draws
    new = snapshot_of(checked)
    title = checked.info.title
    faces = [shown_faces(change, old, new) for change in changes]
    folder = out_dir / checked.name / PROOF_DIR
    html = folder / "diff.html"
    pdf = folder / "diff.pdf"
    fonts = proof_fonts(checked)  # the gallery's, so both pages show what the PDF prints
    staging.write(html, diff_html(title, old.description, changes, faces, fonts)
                  .encode("utf-8"))
    for face in fonts:
        if not (folder / "fonts" / face.file).is_file():
            staging.write(folder / "fonts" / face.file, face.location.read_bytes())
    staging.write(pdf, diff_pdf(title, old.description, changes, faces, paper, checked.info,
                                words_family(checked)))
    return [html, pdf]


__all__ = ["Change", "FieldChange", "compare", "summary", "changed_areas", "shown_faces",
           "diff_html", "diff_pdf", "write_visual_diff"]
