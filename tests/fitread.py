"""Reading fitted text back: each text box a face declares (its `data-fit` group, with the box
it was fitted to) and the lines that group prints, found again among the glyphs PyMuPDF reads
from the drawn PDF. Nothing here uses pnp's own measures: the box comes from the SVG, the ink
from the PDF.

A line's glyphs are the characters on its baseline whose origin lies in the box across; the
line's printed width runs from the box's left edge to the end of the last such glyph's
advance. A line that runs past the box has a glyph starting inside it and ending outside, so
it is caught even though glyphs starting past the edge are not collected.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pymupdf

MM_PER_PT = 25.4 / 72
SVG = "{http://www.w3.org/2000/svg}"
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
BASELINE_TOLERANCE_MM = 0.1


@dataclass(frozen=True)
class PrintedLine:
    box_mm: tuple[float, float, float, float]  # x0, y0, x1, y1 on the page
    baseline_mm: float
    text: str  # what the face says the line is
    printed: str  # the characters read back on it
    end_mm: float  # where the last glyph's advance ends

    @property
    def over_mm(self) -> float:
        return self.end_mm - self.box_mm[2]


def _multiply(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def _transform(text: str):
    """An SVG transform attribute as a matrix (a, b, c, d, e, f)."""
    matrix = (1, 0, 0, 1, 0, 0)
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text or ""):
        v = [float(n) for n in _NUMBER.findall(args)]
        if name == "translate":
            step = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale":
            step = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "matrix":
            step = tuple(v)
        elif name == "rotate":
            r = math.radians(v[0])
            step = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
            if len(v) == 3:
                step = _multiply(_multiply((1, 0, 0, 1, v[1], v[2]), step),
                                 (1, 0, 0, 1, -v[1], -v[2]))
        else:
            raise ValueError(f"transform {name} not read here")
        matrix = _multiply(matrix, step)
    return matrix


def _root_matrix(root) -> tuple:
    """The root <svg>'s viewBox in mm (faces declare their width and height in mm)."""
    width = float(root.get("width").removesuffix("mm"))
    height = float(root.get("height").removesuffix("mm"))
    x, y, w, h = (float(v) for v in _NUMBER.findall(root.get("viewBox")))
    return (width / w, 0, 0, height / h, -x * width / w, -y * height / h)


def fitted_boxes(svg: str, placed: tuple):
    """Each text box group of a face, as (page matrix, box, lines), where lines are the
    (text, x, y) of its text runs; `placed` is the page matrix the face is drawn with."""
    root = ET.fromstring(svg)
    found = []

    def walk(node, matrix):
        matrix = _multiply(matrix, _transform(node.get("transform", "")))
        if node.get("data-fit") == "text":
            box = tuple(float(v) for v in node.get("data-box").split())
            runs = [(t.text or "", float(t.get("x")), float(t.get("y")))
                    for t in node if t.tag == SVG + "text"]
            found.append((matrix, box, runs))
            return
        for child in node:
            walk(child, matrix)

    walk(root, _multiply(placed, _root_matrix(root)))
    return found


def placement_matrix(placement) -> tuple | None:
    """Where a placement draws its face on the page, in mm; None for a turned one."""
    if placement.rotate:
        return None
    s = placement.scale
    return (s, 0, 0, s, placement.x_mm - placement.inset_mm, placement.y_mm - placement.inset_mm)


def _chars(page) -> list[tuple[float, float, float, str]]:
    """(origin x, origin y, advance end x, character) of every upright glyph, in mm."""
    out = []
    for block in page.get_text("rawdict", flags=pymupdf.TEXT_INHIBIT_SPACES)["blocks"]:
        for line in block.get("lines", ()):
            if abs(line["dir"][1]) > 1e-6:
                continue
            for span in line["spans"]:
                for char in span["chars"]:
                    x, y = char["origin"]
                    out.append((x * MM_PER_PT, y * MM_PER_PT, char["bbox"][2] * MM_PER_PT,
                                char["c"]))
    return out


def printed_lines(pdf: bytes, plans) -> tuple[list[PrintedLine], int]:
    """Every fitted line of every face placed on the pages `plans` describe, read back from
    `pdf`; and how many text boxes could not be read (turned or skewed)."""
    lines, skipped = [], 0
    document = pymupdf.open(stream=pdf)
    try:
        for page, plan in zip(document, plans):
            chars = _chars(page)
            for placement in plan.placements:
                if 'data-fit="text"' not in placement.svg:
                    continue
                placed = placement_matrix(placement)
                if placed is None:
                    skipped += placement.svg.count('data-fit="text"')
                    continue
                for matrix, box, runs in fitted_boxes(placement.svg, placed):
                    a, b, c, d, e, f = matrix
                    if b or c or a <= 0 or d <= 0:
                        skipped += 1
                        continue
                    x0, y0 = a * box[0] + e, d * box[1] + f
                    x1, y1 = a * (box[0] + box[2]) + e, d * (box[1] + box[3]) + f
                    for baseline in sorted({d * y + f for _, _, y in runs}):
                        texts = " ".join(t for t, _, y in runs if abs(d * y + f - baseline) < 1e-6)
                        on_line = [ch for ch in chars
                                   if abs(ch[1] - baseline) < BASELINE_TOLERANCE_MM
                                   and x0 - 0.05 <= ch[0] < x1]
                        if not on_line:
                            continue  # clipped away on this page (a board tile)
                        on_line.sort()
                        lines.append(PrintedLine((x0, y0, x1, y1), baseline, texts,
                                                 "".join(ch[3] for ch in on_line),
                                                 max(ch[2] for ch in on_line)))
    finally:
        document.close()
    return lines, skipped
