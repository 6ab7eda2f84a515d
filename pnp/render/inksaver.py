"""Ink-saver: a rendered face (SVG text) in; the same face with its decoration dropped out.

Templates say what is decoration, so nothing is guessed from colours:

- `data-ink="decoration"` on an element: the ink-saver build leaves it (and what it holds) out,
  e.g. a full-bleed background or a heavy fill behind a title;
- `data-ink-fill="#rrggbb"` (or `none`) / `data-ink-stroke="#rrggbb"`: the colour to use
  instead in the ink-saver build, for the element and every filled (stroked) element inside
  it, e.g. dark text for white text that stood on a dropped background;
- `data-ink="outline"`: the element keeps its shape as a thin outline in its own fill colour.

A face with none of these is returned unchanged.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
OUTLINE_WIDTH_MM = 0.3
_MARKED = re.compile(r"\bdata-ink(?:-fill|-stroke)?=")


def save_ink(svg: str) -> str:
    if not _MARKED.search(svg):
        return svg
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    root = ET.fromstring(svg)
    _prune(root)
    return ET.tostring(root, encoding="unicode")


def _prune(element: ET.Element, fill: str | None = None, stroke: str | None = None) -> None:
    for child in list(element):
        mark = child.get("data-ink")
        if mark == "decoration":
            element.remove(child)
            continue
        if mark == "outline":
            own = child.get("fill", "#000000")
            if own != "none":
                child.set("stroke", child.get("data-ink-stroke", own))
                child.set("stroke-width", str(OUTLINE_WIDTH_MM))
            child.set("fill", "none")
        child_fill = child.get("data-ink-fill", fill)
        child_stroke = child.get("data-ink-stroke", stroke)
        if child_fill and mark != "outline" and (child.get("fill") not in (None, "none")
                                                 or "data-ink-fill" in child.attrib):
            child.set("fill", child_fill)
        if child_stroke and mark != "outline" and child.get("stroke") not in (None, "none"):
            child.set("stroke", child_stroke)
        _prune(child, child_fill, child_stroke)
