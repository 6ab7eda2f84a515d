"""Proof: a checked game (findings and rendered faces) in; an HTML gallery and PNGs out.

`pnp proof` writes `output/<game>/proof/index.html` (`card.html` for `--card`, `changed.html`
for `--changed`, so a selection never replaces the full gallery): every card and component face exactly as
it will print (the same SVG the PDF is drawn from, inlined, with the bundled fonts copied beside
the page), grouped by sheet, each finding shown as a badge on the card it concerns. A finding
belongs to a card when its subject is the card's label, or the start of it (a rule about the
aid "Player aid" concerns every colour's copy, 'aid "Player aid" (red)' and the others).
Findings that concern no card are listed at the top.

Proofing matters most when the content has errors, so it renders whatever could be rendered:
rule and text findings never stop a face from being drawn, and a face whose template failed is
shown as an empty frame carrying its finding.

A manifest of face hashes (`proof/faces.json`) is kept beside the gallery; proof and build
update it, and `--changed` shows only the cards with a face that differs from it. `--png` writes
PNGs of the chosen faces with cairosvg and the bundled fonts. `--simulate VIEW` (greyscale,
protanopia, deuteranopia, tritanopia: pnp.render.vision) writes `VIEW.html` instead, the
gallery seen that way (an SVG colour-matrix filter over every face), and its PNGs so too.
Every file goes through `output.Staging`, so a proof is replaced whole or not at all.

The page ends with a small script that does nothing when the page is opened as a file; served
by `pnp watch --proof` (pnp.watch.liveserver), it reloads the page after every rebuild.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from ..findings import Finding
from ..fonts import BUNDLED, FontFace, own_font_files, use_fonts
from ..output import Staging
from ..pipeline import CheckedGame

PROOF_DIR = "proof"
MANIFEST = "faces.json"
DEFAULT_DPI = 150


@dataclass
class Card:
    """One component as the gallery shows it: its faces, and the findings that concern it."""

    sheet: str  # deck or board name
    sheet_title: str
    label: str
    faces: dict[str, str]  # side ('front', 'back' or 'board') -> SVG text, '' when not drawn
    findings: list[Finding] = field(default_factory=list)
    changed: set[str] = field(default_factory=set)  # sides whose SVG differs from the manifest

    def key(self, side: str) -> str:
        return f"{self.sheet}/{self.label}/{side}"

    def matches(self, name: str) -> bool:
        """`--card NAME`: the whole label, or the quoted name or title inside it."""
        wanted, label = name.strip().casefold(), self.label.casefold()
        return wanted == label or f'"{wanted}"' in label


def gallery_cards(checked: CheckedGame) -> list[Card]:
    """Every rendered face of the game as cards, in sheet order, with their findings attached."""
    return [Card(sheet.name, sheet.title, label, faces)
            for sheet in checked.sheets for label, faces in sheet.gallery()]


def attach_findings(cards: list[Card], findings: list[Finding]) -> list[Finding]:
    """Put each finding on the cards it concerns; return the findings that concern none."""
    by_label: dict[str, list[Card]] = {}
    for card in cards:
        by_label.setdefault(card.label, []).append(card)
    loose = []
    for finding in findings:
        subject = finding.subject
        concerned = by_label.get(subject, []) if subject else []
        if subject and not concerned:
            concerned = [c for c in cards if c.label.startswith(subject + " ")]
        for card in concerned:
            card.findings.append(finding)
        if not concerned:
            loose.append(finding)
    return loose


def face_hashes(cards: list[Card]) -> dict[str, str]:
    hashes: dict[str, str] = {}
    for card in cards:
        for side, svg in card.faces.items():
            key, n = card.key(side), 1
            while key in hashes:  # two cards with one label still get a line each
                n += 1
                key = f"{card.key(side)}#{n}"
            hashes[key] = hashlib.sha256(svg.encode("utf-8")).hexdigest()
    return hashes


def read_manifest(path: Path) -> dict[str, str]:
    """The face hashes of the last proof or build; empty when there is none or it is unreadable
    (then every face counts as changed, which is the safe answer)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    faces = data.get("faces") if isinstance(data, dict) else None
    return {k: v for k, v in faces.items() if isinstance(v, str)} \
        if isinstance(faces, dict) else {}


def manifest_bytes(hashes: dict[str, str]) -> bytes:
    return (json.dumps({"version": 1, "faces": hashes}, indent=1, sort_keys=True) + "\n").encode()


def proof_folder(checked: CheckedGame, out_dir: Path) -> Path:
    """Where a game's gallery goes: proof/, and proof-de/ for its German edition, so each
    edition's gallery and record of faces stand apart."""
    language = getattr(checked.game, "language", "")
    return out_dir / checked.name / (f"{PROOF_DIR}-{language}" if language else PROOF_DIR)


def record_faces(checked: CheckedGame, out_dir: Path, staging: Staging) -> None:
    """Stage the manifest of every face of a game, so the next `proof --changed` compares with
    what was just built."""
    path = proof_folder(checked, out_dir) / MANIFEST
    staging.write(path, manifest_bytes(face_hashes(gallery_cards(checked))))


def mark_changed(cards: list[Card], previous: dict[str, str]) -> None:
    current = face_hashes(cards)
    for card in cards:
        card.changed = {side for side in card.faces
                        if previous.get(card.key(side)) != current.get(card.key(side))}


@dataclass
class ProofResult:
    written: list[Path]
    shown: int  # cards in the gallery
    total: int  # cards the game has


def write_proof(checked: CheckedGame, title: str, out_dir: Path, staging: Staging, *,
                card: str | None = None, png: bool = False, changed: bool = False,
                dpi: float = DEFAULT_DPI, simulate: str = "") -> ProofResult:
    """Stage the gallery (and PNGs) of one checked game, whatever its findings."""
    folder = proof_folder(checked, out_dir)
    cards = gallery_cards(checked)
    loose = attach_findings(cards, checked.findings.sorted())
    manifest = folder / MANIFEST
    previous = read_manifest(manifest)
    mark_changed(cards, previous)
    chosen = [c for c in cards if c.matches(card)] if card else cards
    shown = [c for c in chosen if c.changed] if changed else chosen
    written = []
    html = gallery_html(title, checked, shown, loose, total=len(cards), changed=changed,
                        diff_page=(folder / "diff.html").is_file(), simulate=simulate)
    # A selection (--card, --changed) has a page of its own: the full gallery stays whole.
    page = "card.html" if card else "changed.html" if changed else "index.html"
    if simulate:  # and so does a gallery seen another way
        page = page.replace("index", simulate) if page == "index.html" else \
            page.replace(".html", f"-{simulate}.html")
    for destination, data in ((folder / page, html.encode("utf-8")),
                              *((folder / "fonts" / face.file, face.location.read_bytes())
                                for face in proof_fonts(checked))):
        staging.write(destination, data)
        written.append(destination)
    hashes = face_hashes(cards)
    if card:  # only these cards were looked at: the others keep their recorded state
        keys = set(face_hashes(chosen))
        hashes = {**previous, **{k: v for k, v in hashes.items() if k in keys}}
    staging.write(manifest, manifest_bytes(hashes))
    if png:
        from ..pdf.draw import render_png  # cairo, loaded only for PNGs

        if checked.game is not None and own_font_files(checked.game.fonts):
            use_fonts(own_font_files(checked.game.fonts))

        drawn: dict[str, str] = {}  # file name -> the SVG drawn into it
        for each in shown:
            for side, svg in each.faces.items():
                if not svg:
                    continue
                stem, n = f"{each.sheet}-{slug(each.label)}-{side}", 1
                stem += f"-{simulate}" if simulate else ""
                name = f"{stem}.png"
                while name in drawn and drawn[name] != svg:  # two items with one label
                    n += 1
                    name = f"{stem}-{n}.png"
                if name in drawn:  # the same face printed more than once: one PNG
                    continue
                drawn[name] = svg
                destination = folder / "png" / name
                picture = render_png(svg, dpi)
                staging.write(destination, simulated_png(picture, simulate) if simulate
                              else picture)
                written.append(destination)
    return ProofResult(written, len(shown), len(cards))


def simulated_png(png: bytes, view: str) -> bytes:
    """A PNG's pixels as seen in `view` (pnp.render.vision), its transparency kept."""
    import io

    import numpy as np
    from PIL import Image

    from ..render.vision import simulate

    image = Image.open(io.BytesIO(png)).convert("RGBA")
    pixels = np.asarray(image, dtype=np.float64) / 255.0
    seen = simulate(pixels[..., :3], view)
    out = np.concatenate((seen, pixels[..., 3:]), axis=-1)
    written = io.BytesIO()
    Image.fromarray(np.round(out * 255).astype(np.uint8), "RGBA").save(written, "PNG")
    return written.getvalue()


def simulation_filter(view: str) -> str:
    """An feColorMatrix's values for `view`: its matrix on linear RGB, alpha kept."""
    from ..render.vision import linear_matrix

    rows = [[*(f"{value:.6f}" for value in row), "0", "0"] for row in linear_matrix(view)]
    return " ".join(" ".join(row) for row in rows) + " 0 0 0 1 0"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-") or "card"


_ID = re.compile(r'\bid="([^"]+)"')


def inline_svg(svg: str, prefix: str) -> Markup:
    """An SVG document ready to sit inside HTML: no XML prolog, and ids made unique to the face
    so that two faces' `url(#...)` references cannot reach each other's definitions."""
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else ""
    for name in set(_ID.findall(svg)):
        new = f"{prefix}-{name}"
        svg = svg.replace(f'id="{name}"', f'id="{new}"').replace(f"#{name})", f"#{new})") \
            .replace(f'href="#{name}"', f'href="#{new}"')
    return Markup(svg)


def proof_fonts(checked) -> list[FontFace]:
    """Each font file the faces are drawn with, once: the bundled ones (the page's own text
    is set in them) and the game's own, so the gallery shows what the PDF prints."""
    game = getattr(checked, "game", None)
    faces = BUNDLED.every_face() + (game.fonts.every_face() if game is not None else [])
    return list({face.location: face for face in faces}.values())


# The bundled fonts and the page look, shared by the gallery and the diff page (pnp.history.diff).
PAGE_STYLE = """\
{% for face in fonts %}
@font-face { font-family: "{{ face.family }}"; font-weight: {{ face.weight }};
  font-style: {{ face.style }}; src: url("fonts/{{ face.file|urlencode }}") format("truetype"); }
{% endfor %}
body { font-family: "Roboto Condensed", sans-serif; margin: 1.5rem; background: #e9e6df;
  color: #1b1b1b; }
h1 { margin: 0 0 .3rem; } .summary { margin: 0 0 1rem; }
"""

_PAGE_SOURCE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ title }}: proof{% if simulate %} ({{ simulate }}){% endif %}</title>
<style>
""" + PAGE_STYLE + """.sheet { margin: 0 0 2rem; } .sheet > h2 { border-bottom: 1px solid #999; }
.cards { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.card { margin: 0; padding: .5rem; background: #fff; border: 2px solid #d0ccc2;
  border-radius: 6px; max-width: 100%; box-sizing: border-box; }
.card.error { border-color: #c62828; } .card.warning { border-color: #e0a800; }
.faces { display: flex; gap: .5rem; flex-wrap: wrap; }
.face { position: relative; outline: 1px dashed #bbb; line-height: 0; max-width: 100%; }
.face svg { max-width: 100%; height: auto; display: block; }
.face.missing { width: 63mm; height: 20mm; line-height: normal; display: flex;
  align-items: center; justify-content: center; color: #c62828; }
.face .changed { position: absolute; top: 2px; left: 2px; line-height: normal;
  background: #1565c0; color: #fff; font-size: .7rem; padding: 0 .3rem; border-radius: 3px; }
figcaption { font-size: .85rem; margin-top: .3rem; max-width: 130mm; }
.badges { list-style: none; padding: 0; margin: .3rem 0 0; display: flex; flex-wrap: wrap;
  gap: .25rem; }
.badge { font-size: .75rem; padding: .05rem .4rem; border-radius: 999px; color: #fff; }
.badge.error { background: #c62828; } .badge.warning { background: #8a6d00; }
.findings { font-size: .8rem; margin: .3rem 0 0; padding-left: 1.1rem; max-width: 130mm; }
.loose { background: #fff; padding: .5rem 1rem; border-left: 4px solid #c62828; }
#only-findings:checked ~ main .card:not(.error):not(.warning) { display: none; }
{% if simulate %}.face > svg { filter: url(#pnp-simulate); }{% endif %}
</style>
</head>
<body>
{% if simulate %}<svg width="0" height="0" style="position:absolute" aria-hidden="true">
<filter id="pnp-simulate" color-interpolation-filters="linearRGB">
<feColorMatrix type="matrix" values="{{ matrix }}"/></filter></svg>
{% endif %}
<h1>{{ title }}: proof{% if simulate %}, seen in {{ simulate }}{% endif %}</h1>
<p class="summary">{{ shown }} of {{ total }} card{{ "s" if total != 1 }} shown{% if changed %}
 (changed since the last proof or build){% endif %}; {{ errors }} error{{ "s" if errors != 1 }},
 {{ warnings }} warning{{ "s" if warnings != 1 }}.
{% if not total %} No face could be drawn: fix the errors below, then proof again.{% endif %}
{% if diff_page %} <a href="diff.html">What changed, then and now</a> (from <code>pnp diff</code>).{% endif %}</p>
<input type="checkbox" id="only-findings"><label for="only-findings"> only cards with
findings</label>
<main>
{% if loose %}
<section class="loose" id="other-findings">
<h2>Findings on no single card</h2>
<ul class="findings">
{% for f in loose %}<li class="{{ f.severity.value }}">{{ f.format() }}</li>
{% endfor %}
</ul>
</section>
{% endif %}
{% for sheet in sheets %}
<section class="sheet" id="sheet-{{ sheet.name }}">
<h2>{{ sheet.title }} <small>({{ sheet.name }}, {{ sheet.cards | length }})</small></h2>
<div class="cards">
{% for card in sheet.cards %}
<figure class="card {{ card.level }}" data-label="{{ card.label }}">
<div class="faces">
{% for side, svg in card.faces %}
{% if svg %}
<div class="face {{ side }}" title="{{ side }}">{{ svg }}{% if side in card.changed %}
<span class="changed">changed</span>{% endif %}</div>
{% else %}
<div class="face {{ side }} missing">{{ side }}: not drawn</div>
{% endif %}
{% endfor %}
</div>
<figcaption>{{ card.label }}
{% if card.findings %}
<ul class="badges">
{% for f in card.findings %}<li class="badge {{ f.severity.value }}" title="{{ f.format() }}">
{{- f.rule }}</li>
{% endfor %}
</ul>
<ol class="findings">
{% for f in card.findings %}<li>{{ f.where }}: {% if f.field %}{{ f.field }}: {% endif %}
{{- f.message }}{% if f.hint %}; {{ f.hint }}{% endif %}</li>
{% endfor %}
</ol>
{% endif %}
</figcaption>
</figure>
{% endfor %}
</div>
</section>
{% endfor %}
</main>
<script data-pnp-round="">
// Reload when `pnp watch --proof` rebuilds: its server (pnp.watch.liveserver) writes into
// data-pnp-round the round the page was read at, and answers once a later round is done.
// Opened as a file, or served by anything else: nothing.
(() => {
  const round = document.currentScript.dataset.pnpRound;
  if (!/^https?:$/.test(location.protocol) || !/^-?[0-9]+$/.test(round)) return;
  const ask = () => fetch(`/.pnp/reload?since=${round}`, {cache: "no-store"})
    .then(answer => answer.ok ? answer.text() : Promise.reject(answer.status))
    .then(text => {
      const now = Number(text);
      if (!Number.isInteger(now)) return Promise.reject(text);
      if (now !== Number(round)) location.reload(); else ask();
    })
    .catch(() => setTimeout(ask, 1500));  // the watch restarting, or stopped
  ask();
})();
</script>
</body>
</html>
"""


@cache
def _page() -> jinja2.Template:
    """The gallery's page template, compiled when a gallery is first written (a build that
    only records faces never needs it)."""
    return jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True).from_string(_PAGE_SOURCE)


def gallery_html(title: str, checked: CheckedGame, cards: list[Card], loose: list[Finding], *,
                 total: int, changed: bool, diff_page: bool = False, simulate: str = "") -> str:
    sheets: dict[str, dict] = {}
    for n, card in enumerate(cards):
        sheet = sheets.setdefault(card.sheet, {"name": card.sheet, "title": card.sheet_title,
                                               "cards": []})
        severities = {f.severity.value for f in card.findings}
        sheet["cards"].append({
            "label": card.label,
            "level": "error" if "error" in severities else next(iter(severities), ""),
            "faces": [(side, inline_svg(svg, f"f{n}-{side}") if svg else "")
                      for side, svg in card.faces.items()],
            "changed": card.changed if changed else set(),  # tags only with --changed
            "findings": card.findings,
        })
    unique = set(checked.findings.items)
    return _page().render(
        title=title, fonts=proof_fonts(checked), sheets=list(sheets.values()), loose=loose,
        shown=len(cards), total=total, changed=changed, diff_page=diff_page,
        simulate=simulate, matrix=simulation_filter(simulate) if simulate else "",
        errors=sum(f.is_error for f in unique), warnings=sum(not f.is_error for f in unique))
