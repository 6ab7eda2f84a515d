"""Icons: the manifest's `icons:` in; what the renderer draws for each `{name}` out.

A letter icon is a filled square with a letter. An image icon is the designer's own SVG or PNG
symbol in the game folder: its path is confined and its bytes checked here as an `image` field's
art is (pnp.load.assets), read once, and handed on embedded as a `data:` URI, so what was checked
is what prints and the renderer reads no file for it. Icon names follow one grammar
(`schema.ICON_NAME`), checked by the validator where they are declared.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from .. import reads
from ..findings import Findings
from .art import oversized_icon
from .assets import MAX_ASSET_BYTES, check_asset_bytes, resolve_asset
from .manifest import Icon

ICON_SUFFIXES = (".svg", ".png")  # vectors, or a raster drawn at the text's size


def read_icons(icons: dict[str, Icon], folder: Path, findings: Findings) -> dict[str, dict]:
    """Each icon as the renderer's plain values (fill, letter, ink, image and `href`, the
    image's checked bytes as a `data:` URI); a problem with one is a finding at its line."""
    drawn: dict[str, dict[str, Any]] = {}
    for name, icon in icons.items():
        path = f"icons.{name}"
        values = {"fill": icon.fill, "letter": icon.letter, "ink": icon.ink,
                  "image": icon.image, "href": ""}
        if icon.image:
            if icon.fill is not None or icon.letter:
                findings.error("icon-kind", icon.where.of("image"), f"icon '{name}' names an "
                               "image and a fill or letter; it draws one or the other",
                               field=path, hint="remove 'fill' and 'letter', or 'image'")
            values["href"] = _image_uri(icon.image, folder, findings, icon, path)
        elif icon.fill is None:
            findings.error("icon-kind", icon.where.at, f"icon '{name}' draws nothing: it needs "
                           "a 'fill' (a square with a letter) or an 'image'", field=path,
                           hint="e.g. {fill: '#b03a2e', letter: R} or {image: icons/" +
                           name + ".svg}")
        drawn[name] = values
    return drawn


def _image_uri(relative: str, folder: Path, findings: Findings, icon: Icon, path: str) -> str:
    where = icon.where.of("image")
    file = resolve_asset(folder, relative, findings, where, field=f"{path}.image",
                         suffixes=ICON_SUFFIXES)
    if file is None:
        return ""
    data = reads.read_file(file, MAX_ASSET_BYTES + 1, inside=folder)
    problem = check_asset_bytes(data)
    if problem:
        findings.error("image-refused", where, f"'{relative}' {problem}", field=f"{path}.image",
                       hint="save it again as a plain SVG or PNG")
        return ""
    kind = "image/png" if data.startswith(b"\x89PNG") else "image/svg+xml"
    if kind == "image/svg+xml" and file.suffix.lower() == ".png":
        findings.error("image-refused", where, f"'{relative}' is not a PNG file",
                       field=f"{path}.image", hint="export it as PNG, or name it .svg")
        return ""
    oversized = oversized_icon(data, where, relative, f"{path}.image")
    if oversized is not None:
        findings.add(oversized)
    return f"data:{kind};base64," + base64.b64encode(data).decode("ascii")
