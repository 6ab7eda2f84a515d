"""A second reader for the PDFs pnp writes: qpdf's JSON view, independent of pikepdf.

pnp writes its page boxes and viewer preferences with pikepdf; reading them back with the same
library would only prove that pikepdf agrees with itself, so these helpers ask qpdf.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from pnp.units import pt_to_mm


def qpdf_json(path: Path) -> dict:
    out = subprocess.run(["qpdf", "--json", str(path)], check=True, capture_output=True)
    return json.loads(out.stdout)


def _objects(document: dict) -> dict:
    return document["qpdf"][1]


def _value(objects: dict, ref: str) -> dict:
    return objects[f"obj:{ref}"]["value"]


def viewer_preferences(path: Path) -> dict[str, str]:
    document = qpdf_json(path)
    objects = _objects(document)
    trailer = objects["trailer"]["value"]
    root = _value(objects, trailer["/Root"])
    prefs = root["/ViewerPreferences"]
    return _value(objects, prefs) if isinstance(prefs, str) else prefs


def page_boxes(path: Path) -> list[dict[str, tuple[float, float, float, float]]]:
    """For each page, its boxes as given in the file (mm, PDF's bottom-up y), by name without
    the slash: MediaBox, TrimBox, BleedBox. A box the page does not set is absent."""
    document = qpdf_json(path)
    objects = _objects(document)
    pages = []
    for page in document["pages"]:
        value = _value(objects, page["object"])
        boxes = {}
        for name in ("/MediaBox", "/TrimBox", "/BleedBox", "/CropBox"):
            if name in value:
                box = value[name]
                if isinstance(box, str):
                    box = _value(objects, box)
                boxes[name[1:]] = tuple(pt_to_mm(float(v)) for v in box)
        pages.append(boxes)
    return pages


def top_down(box: tuple[float, float, float, float], page_height_mm: float
             ) -> tuple[float, float, float, float]:
    """A PDF box (x0, y0, x1, y1 from the bottom-left) as left, top, right, bottom from the
    top-left, as pnp's layouts are written."""
    x0, y0, x1, y1 = box
    return x0, page_height_mm - y1, x1, page_height_mm - y0
