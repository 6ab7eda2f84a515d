"""Stamps: an item's data and the template that draws it in; a short version stamp out.

Every printed face carries a stamp of its own content, a few characters of a hash of the data
the face is drawn from and of the template's source, so a person holding a card can tell whether
it is the current one. A template may place it itself (`{{ stamp }}`, a string); a face that does
not gets it added as one small line of text in the bottom-right corner inside the safe zone, so
every game has stamps without editing its templates. That stamp prints at 5 pt; a piece
whose short side is under STAMP_PIECE_MM gets none added (a template may still place it). The stamp is real text: it can be searched
for and read back from the PDF.

A face whose template never reads `card` (one back shared by a whole deck) is stamped from the
template alone, so all copies of a shared back carry the same stamp and one card's edit changes
only its own front's stamp. `stamps: false` in game.yaml leaves the stamps off the print (a final
print); they are computed all the same, for the build history and `pnp diff`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
import weakref
from typing import Any

import jinja2
import jinja2.meta
from jinja2 import nodes
from markupsafe import escape

from .bleed import with_bleed
from .environment import number
from .renderer import Face, Renderer
from ..units import PX_PER_MM, Size

STAMP_CHARS = 6  # hex digits: one edit in 16 million gives the same stamp
STAMP_PREFIX = "v"
STAMP_CLASS = "pnp-stamp"  # the element pnp adds, so the visual diff can leave it out
# The stamp's corner: inside a card's 3 mm safe zone and clear of a frame drawn at its edge
# (rounded corners included); smaller pieces use a fraction of their side.
INSET_X_MM, INSET_Y_MM = 4.5, 3.6
STAMP_FILL = "#8a8a8a"
STAMP_FONT_MM = 1.8  # 5.1 pt: the least a stamp prints at (pnp.render.safety)
# A piece whose short side is under this carries no stamp pnp adds: at 5 pt it would crowd
# what the piece is for. Its stamp is still recorded for the build history and `pnp diff`.
STAMP_PIECE_MM = 20

_templates: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_items: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # reads_item, per renderer


def plain(value: Any) -> Any:
    """An item as JSON-ready data: records as mappings of their fields (without locations),
    tuples as lists, anything else that is not a number or text as its text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.name != "where"}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


def _template_facts(renderer: Renderer, template: str) -> tuple[str, bool]:
    """The hash of a template's source, and whether it reads `card` (cached per renderer)."""
    known = _templates.setdefault(renderer, {})
    if template not in known:
        try:
            source = renderer.env.loader.get_source(renderer.env, template)[0]
            known[template] = _source_facts(renderer.env, source)
        except (jinja2.TemplateError, OSError, UnicodeDecodeError):
            # the render reports it; stamp from the data
            known[template] = (hashlib.sha256(b"").hexdigest(), True)
    return known[template]


_FACTS: dict[str, tuple[str, bool]] = {}


def _source_facts(env: jinja2.Environment, source: str) -> tuple[str, bool]:
    """A template source's hash and whether it reads `card`, parsed once per process."""
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    if digest not in _FACTS:
        _FACTS[digest] = (digest, "card" in jinja2.meta.find_undeclared_variables(
            env.parse(source)))
    return _FACTS[digest]


def reads_item(renderer: Renderer, template: str) -> bool:
    """Whether a face `template` draws can depend on its item: the template, or one it
    includes, imports or extends, loads the name `card` anywhere (a template named by an
    expression, or one that cannot be read, counts as one that does). A face that cannot is
    the same drawing for every item of its deck (cached per renderer, as the facts are)."""
    known = _items.setdefault(renderer, {})
    if template not in known:
        # Its own reading of `card` is known already (its stamp needs it): what it includes
        # is looked through only for a template that does not read it itself.
        known[template] = _template_facts(renderer, template)[1] or \
            _reads_item(renderer.env, template, set())
    return known[template]


def _reads_item(env: jinja2.Environment, template: str, seen: set[str]) -> bool:
    if template in seen:
        return False  # already being looked through
    seen.add(template)
    try:
        source = env.loader.get_source(env, template)[0]
        names, referenced = template_reads(env, source)
    except (jinja2.TemplateError, OSError, UnicodeDecodeError):
        return True
    return "card" in names or any(name is None or _reads_item(env, name, seen)
                                  for name in referenced)


@functools.lru_cache(maxsize=1024)
def template_reads(env: jinja2.Environment, source: str
                   ) -> tuple[frozenset[str], tuple[str | None, ...]]:
    """Every name a template source loads anywhere (globals and its own variables alike) and
    the templates it includes, imports or extends, None for one named by an expression."""
    tree = env.parse(source)
    return (frozenset(name.name for name in tree.find_all(nodes.Name) if name.ctx == "load"),
            tuple(jinja2.meta.find_referenced_templates(tree)))


def compute_stamp(renderer: Renderer, template: str, item: Any) -> str:
    """The stamp of one face: its data (when the template reads it) and its template."""
    source_hash, reads_card = _template_facts(renderer, template)
    data = json.dumps(plain(item), sort_keys=True, ensure_ascii=False) if reads_card else ""
    digest = hashlib.sha256(f"{template}\n{source_hash}\n{data}".encode("utf-8")).hexdigest()
    return STAMP_PREFIX + digest[:STAMP_CHARS]


def stamps_enabled(renderer: Renderer) -> bool:
    return bool(getattr(renderer.info, "stamps", True))


def render_stamped(renderer: Renderer, template: str, item: Any, expect: Size,
                   **context: Any) -> Face:
    """Render a face with `stamp` offered to its template, and add the stamp where the template
    did not place it. The face carries its stamp either way."""
    stamp = compute_stamp(renderer, template, item)
    shown = stamp if stamps_enabled(renderer) else ""
    face = renderer.render(template, item, expect=expect, stamp=shown, **context)
    svg = face.svg
    if svg and shown and shown not in svg and min(expect.width_mm, expect.height_mm) >= \
            STAMP_PIECE_MM:
        owner = context.get("deck")
        svg = add_stamp(svg, shown, expect, round_piece=getattr(owner, "shape", "") == "round")
    deck = context.get("deck")
    if svg and getattr(deck, "bleed", "drawn") != "drawn":
        svg = with_bleed(svg, deck.bleed_mm, deck.bleed)
    return dataclasses.replace(face, svg=svg, stamp=stamp)


def stamp_element(stamp: str, size: Size, round_piece: bool = False) -> str:
    """The stamp as SVG text in the face's own mm units: bottom right, inside the safe zone;
    on a round piece, bottom centre, inside the circle."""
    short = min(size.width_mm, size.height_mm)
    if round_piece:
        font_mm = STAMP_FONT_MM
        return (f'<text class="{STAMP_CLASS}" x="{number(size.width_mm / 2)}" '
                f'y="{number(size.height_mm - short * 0.12)}" text-anchor="middle" '
                f'font-family="Roboto Condensed" font-weight="normal" '
                f'font-size="{number(font_mm)}" fill="{STAMP_FILL}">{escape(stamp)}</text>')
    # A whole page or a board keeps clear of the margin a home printer cannot print.
    inset_x = max(min(INSET_X_MM, short * 0.1), short * 0.03)
    inset_y = max(min(INSET_Y_MM, short * 0.08), short * 0.03)
    font_mm = STAMP_FONT_MM
    return (f'<text class="{STAMP_CLASS}" x="{number(size.width_mm - inset_x)}" '
            f'y="{number(size.height_mm - inset_y)}" text-anchor="end" '
            f'font-family="Roboto Condensed" font-weight="normal" '
            f'font-size="{number(font_mm)}" fill="{STAMP_FILL}">{escape(stamp)}</text>')


_ROOT = re.compile(r"<svg\b[^>]*>")
_VIEWBOX = re.compile(r'\bviewBox="\s*([-0-9.eE]+)[\s,]+([-0-9.eE]+)[\s,]+([0-9.eE]+)[\s,]+'
                      r'([0-9.eE]+)\s*"')


def add_stamp(svg: str, stamp: str, size: Size, round_piece: bool = False) -> str:
    """`svg` with the stamp drawn last, just before the root's closing tag, in mm from the
    face's top-left corner whatever units the template's viewBox uses."""
    end = svg.rfind("</svg>")
    root = _ROOT.search(svg)
    if end < 0 or root is None:
        return svg
    element = stamp_element(stamp, size, round_piece)
    box = _VIEWBOX.search(root.group(0))
    # SVG user units without a viewBox are CSS pixels.
    x, y, sx, sy = 0.0, 0.0, PX_PER_MM, PX_PER_MM
    if box:
        x, y, width, height = (float(v) for v in box.groups())
        sx, sy = width / size.width_mm, height / size.height_mm
    if (x, y) != (0, 0) or abs(sx - 1) > 1e-6 or abs(sy - 1) > 1e-6:
        element = (f'<g transform="translate({number(x)} {number(y)}) '
                   f'scale({sx:.6g} {sy:.6g})">{element}</g>')
    return svg[:end] + element + "\n" + svg[end:]


__all__ = ["compute_stamp", "reads_item", "render_stamped", "add_stamp", "plain", "stamps_enabled"]
