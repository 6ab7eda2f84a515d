"""Art: an image file named by content and the size it prints at in; checked bytes, or a refusal.

`check_art` is the one call for an `image` field. It confines the path to the game folder
(`assets.resolve_asset`) and refuses a symbolic link anywhere on it, reads the file once (so what
was checked is what is printed), then:

- raster art (PNG, JPEG, GIF, WebP...) is measured from its header before anything is decoded:
  more than MAX_IMAGE_PIXELS pixels is refused, so a 40000 x 40000 PNG costs a few bytes of
  reading; art whose effective resolution at its printed size is below `min_dpi` is a warning
  naming that dpi;
- SVG art passes the static checks of `assets.check_svg_asset` (no DOCTYPE, no outside
  references, no reference bomb), then is drawn to a PNG at its printed size (RASTER_DPI) in a
  child process bounded to SVG_SECONDS of wall time and SVG_MEMORY_BYTES of address space, with
  no network, no files and the bundled fonts only (`pnp.load.probe`). An SVG that would draw for
  minutes is stopped at the bound and refused.

Nothing is ever fetched from the network: `Art` holds the checked bytes, and for SVG the PNG
the bounded child drew.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from .assets import (MAX_ASSET_BYTES, MAX_IMAGE_PIXELS, check_svg_asset, decode_problem,
                     image_size, resolve_asset)
from .probe import SVG_MEMORY_BYTES, SVG_SECONDS, ArtRefused, render_svg_bounded
from ..findings import Finding, Findings, Location, Severity
from ..units import MM_PER_INCH

RASTER_DPI = 300  # SVG art is drawn at this resolution for its printed size
MIN_ART_DPI = 150  # below this, art prints visibly soft; 300 is print quality
DRAWN_DPI = 600  # raster art is drawn into a PDF from a copy reduced to this (pnp.pdf.images)
# Above this, art costs more than it prints: its every pixel is read and decoded, and then
# thrown away (a 6000 x 6000 icon printed at 4 mm is 38,000 dpi).
OVERSIZED_DPI = 2 * DRAWN_DPI
ICON_LARGEST_MM = 25.4  # an icon prints at the size of its text, under an inch
ART_SUFFIXES = (".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp")

_DRAWN: dict[tuple, "bytes | ArtRefused"] = {}  # SVG art drawn (or refused) in this process


@dataclass
class Art:
    """What `check_art` found: usable bytes and their size, or only findings."""

    path: Path | None = None  # the resolved file, None when refused
    kind: str = ""  # "svg", "png", "jpeg", ...
    data: bytes = b""  # the bytes that were checked, read once
    width_px: int = 0  # for SVG: the size it was drawn at
    height_px: int = 0
    dpi: float | None = None  # effective resolution at the printed size (raster art)
    rendered: bytes = b""  # SVG art drawn to PNG by the bounded child process
    findings: Findings = field(default_factory=Findings)

    @property
    def ok(self) -> bool:
        return self.path is not None and not self.findings.errors


def effective_dpi(width_px: int, height_px: int, width_mm: float, height_mm: float,
                  fit: str = "meet") -> float:
    """Pixels per inch of an image printed into a `width_mm` x `height_mm` box.

    `fit` is the SVG preserveAspectRatio, or its last word: "meet" (the default; the whole
    image shows, scaled until one side fills the box), "slice" (the box is covered, the image
    cropped) or "none" (stretched: the lower of the two resolutions counts).
    """
    if width_mm <= 0 or height_mm <= 0:
        raise ValueError("a printed size must be positive")
    across = width_px * MM_PER_INCH / width_mm
    down = height_px * MM_PER_INCH / height_mm
    words = fit.split()
    if words == ["none"] or (words and words[-1] == "slice"):
        return min(across, down)
    if not words or words[-1] == "meet" or (len(words) == 1 and words[0].startswith("x")):
        return max(across, down)  # scaled by the smaller factor: its pixels spread the least
    raise ValueError(f"fit must be meet, slice or none, not {fit!r}")


def resolution_finding(data: bytes, printed_mm: tuple[float, float], where: Location, *,
                       shown: str = "the art", subject: str = "", field: str = "",
                       fit: str = "meet", min_dpi: float = MIN_ART_DPI) -> Finding | None:
    """The art-resolution warning for raster `data` printed at `printed_mm`, or None.

    For a template helper that knows the size an image prints at, e.g.
    `image(path, x, y, width_mm, height_mm, fit)`; SVG (no pixels) never gets one.
    """
    size = image_size(data)
    if size is None or data.lstrip()[:1] == b"<":
        return None
    _, width_px, height_px = size
    width_mm, height_mm = printed_mm
    dpi = effective_dpi(width_px, height_px, width_mm, height_mm, fit)
    if dpi > OVERSIZED_DPI:
        return _oversized(shown, (width_px, height_px), dpi, f"at its printed size of "
                          f"{width_mm:g} x {height_mm:g} mm", printed_mm, where, subject, field)
    if dpi >= min_dpi:
        return None
    need_w = round(width_mm / MM_PER_INCH * min_dpi)
    need_h = round(height_mm / MM_PER_INCH * min_dpi)
    return Finding("art-resolution", Severity.WARNING, where,
                   f"'{shown}' is {width_px} x {height_px} pixels: {dpi:.0f} dpi at its printed "
                   f"size of {width_mm:g} x {height_mm:g} mm, below {min_dpi:g} dpi, so it will "
                   "print blurred", subject=subject, field=field,
                   hint=f"use art of at least {need_w} x {need_h} pixels")


def oversized_icon(data: bytes, where: Location, shown: str, field: str) -> Finding | None:
    """The art-oversized warning for a raster icon far finer than an icon ever prints, or
    None."""
    size = image_size(data)
    if size is None or data.lstrip()[:1] == b"<":
        return None
    _, width_px, height_px = size
    dpi = effective_dpi(width_px, height_px, ICON_LARGEST_MM, ICON_LARGEST_MM)
    if dpi <= OVERSIZED_DPI:
        return None
    return _oversized(shown, (width_px, height_px), dpi, "even at an inch, larger than an "
                      "icon prints", (ICON_LARGEST_MM, ICON_LARGEST_MM), where, "", field)


def _oversized(shown: str, pixels: tuple[int, int], dpi: float, at: str,
               printed_mm: tuple[float, float], where: Location, subject: str,
               field: str) -> Finding:
    largest = max(pixels[0] / printed_mm[0], pixels[1] / printed_mm[1])
    need = [round(side / largest * DRAWN_DPI / MM_PER_INCH) for side in pixels]
    return Finding("art-oversized", Severity.WARNING, where,
                   f"'{shown}' is {pixels[0]} x {pixels[1]} pixels: {dpi:.0f} dpi {at}, far "
                   f"above the {DRAWN_DPI} dpi it is drawn at; every pixel is decoded at each "
                   "build, costing memory and time, then thrown away", subject=subject,
                   field=field, hint=f"export it at {need[0]} x {need[1]} pixels")


def check_art(relative: str, game_dir: Path, printed_mm: tuple[float, float], where: Location,
              *, subject: str = "", field: str = "", min_dpi: float = MIN_ART_DPI,
              fit: str = "meet", seconds: float = SVG_SECONDS,
              memory_bytes: int = SVG_MEMORY_BYTES) -> Art:
    """Check the art at `relative` (from content) for a box of `printed_mm` (width, height).

    Every problem is a finding at `where` in `Art.findings`: errors for art that cannot be used,
    a warning (rule art-resolution) for art too coarse for its printed size.
    """
    art = Art()
    shown = repr(relative)[1:-1]
    shown = shown if len(shown) <= 60 else shown[:57] + "..."

    def finding(rule: str, message: str, hint: str) -> None:
        art.findings.error(rule, where, f"'{shown}' {message}", subject=subject, field=field,
                           hint=hint)

    path = resolve_asset(game_dir, relative, art.findings, where, subject=subject, field=field,
                         suffixes=ART_SUFFIXES)
    if path is None:
        return art
    link = _symlink_on(game_dir, relative)
    if link is not None:
        finding("asset-symlink", f"goes through the symbolic link '{link}'",
                "copy the file itself into the game folder")
        return art
    try:
        data = _read_no_follow(path)
    except OSError as exc:
        finding("asset-unreadable", f"cannot be read: {exc.strerror or exc}",
                "check the file's permissions")
        return art
    if len(data) > MAX_ASSET_BYTES:
        finding("asset-refused", f"is more than the {MAX_ASSET_BYTES} bytes allowed",
                "export it smaller")
        return art
    width_mm, height_mm = printed_mm
    try:
        if path.suffix.lower() == ".svg":
            _check_svg_art(art, data, width_mm, height_mm, seconds, memory_bytes)
        else:
            _check_raster_art(art, data, width_mm, height_mm, fit)
    except ArtRefused as exc:
        finding("asset-refused", exc.message, exc.hint)
        return art
    art.path, art.data = path, data
    if art.kind != "svg":
        warning = resolution_finding(data, printed_mm, where, shown=shown, subject=subject,
                                     field=field, fit=fit, min_dpi=min_dpi)
        if warning is not None:
            art.findings.add(warning)
    return art


def _check_raster_art(art: Art, data: bytes, width_mm: float, height_mm: float,
                      fit: str) -> None:
    size = image_size(data)  # the header only: no pixel is decoded here
    if size is None:
        raise ArtRefused("is not an image pnp can read", "save it as PNG or JPEG")
    kind, width, height = size
    if width * height > MAX_IMAGE_PIXELS:
        raise ArtRefused(f"is {width} x {height} pixels, more than the {MAX_IMAGE_PIXELS} "
                         "allowed (decoding it would take gigabytes)", "scale it down")
    if not width or not height:
        raise ArtRefused(f"is {width} x {height} pixels: it has nothing to draw")
    problem = decode_problem(data)  # every pixel, as the build will decode it
    if problem:
        raise ArtRefused(problem, "export it again as PNG or JPEG")
    art.kind, art.width_px, art.height_px = kind, width, height
    art.dpi = effective_dpi(width, height, width_mm, height_mm, fit)


def _check_svg_art(art: Art, data: bytes, width_mm: float, height_mm: float, seconds: float,
                   memory_bytes: int) -> None:
    problem = check_svg_asset(data)
    if problem:
        raise ArtRefused(problem)
    width = max(1, round(width_mm / MM_PER_INCH * RASTER_DPI))
    height = max(1, round(height_mm / MM_PER_INCH * RASTER_DPI))
    key = (hashlib.sha256(data).hexdigest(), width, height, seconds, memory_bytes)
    if key not in _DRAWN:  # check and build both ask: the child runs once per art and size
        try:
            _DRAWN[key] = render_svg_bounded(data, width, height, seconds=seconds,
                                             memory_bytes=memory_bytes)
        except ArtRefused as exc:
            _DRAWN[key] = exc
    if isinstance(_DRAWN[key], ArtRefused):
        raise _DRAWN[key]
    art.rendered = _DRAWN[key]
    art.kind, art.width_px, art.height_px = "svg", width, height


def _symlink_on(game_dir: Path, relative: str) -> str | None:
    """The first part of `relative` (inside `game_dir`) that is a symbolic link, if any."""
    current = game_dir
    for part in Path(relative).parts:
        current = current / part
        if current.is_symlink():
            return current.relative_to(game_dir).as_posix()
    return None


def _read_no_follow(path: Path) -> bytes:
    """The file's bytes, capped; a link or a pipe swapped in since the check is refused."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(0, "not an ordinary file")
        return handle.read(MAX_ASSET_BYTES + 1)


__all__ = ["ART_SUFFIXES", "Art", "ArtRefused", "DRAWN_DPI", "MIN_ART_DPI", "RASTER_DPI", "SVG_MEMORY_BYTES",
           "SVG_SECONDS", "check_art", "effective_dpi", "oversized_icon", "render_svg_bounded",
           "resolution_finding"]
