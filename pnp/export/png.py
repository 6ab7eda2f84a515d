"""PNG files: a Pillow image in; PNG bytes out, at zlib level PNG_COMPRESSION.

Measured on a third of Downturn's 300 dpi shop faces (78 faces, 0.28 s of CPU to draw):
Pillow took 0.38 s at level 1 (2.6 MB), 0.54 s at 6 (2.3 MB), 2.3 s at 9; cairo's own
`write_to_png` (libpng's defaults) 0.76 s (2.3 MB). Level 0 still took 0.26 s, for files 31
times larger: most of the encoding is Pillow choosing each row's filter, not zlib, and level 6
saves an eighth of the bytes for 1.4 times the time: level 1 is kept. Either way the files are
plain, lossless PNGs, and their bytes depend only on the pixels and the level, never on the
process or the number of processes.
"""

from __future__ import annotations

import io

PNG_COMPRESSION = 1  # zlib level: see the module's notes


def encode_png(image, dpi: float | None = None) -> bytes:
    """The image as PNG bytes (with its dpi in a pHYs chunk when given)."""
    out = io.BytesIO()
    options = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(out, "PNG", compress_level=PNG_COMPRESSION, **options)
    return out.getvalue()
