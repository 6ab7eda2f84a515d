"""Bounded drawing: SVG bytes in; a PNG of them, or proof that they draw, or a refusal, out.

Static checks (`assets.check_svg_asset`) refuse what can be seen to be hostile: entities, outside
references, reference bombs, patterns. What they cannot see (one <text> of three million glyphs,
which cairosvg draws one by one for over a minute; paths with millions of points) is caught by
drawing the SVG in a child process under bounds:

- wall time: SVG_SECONDS (10 s); the child is killed at the bound;
- memory: SVG_MEMORY_BYTES (1 GiB of address space, Python and cairo included), by
  `resource.setrlimit(RLIMIT_AS)`; no file may be written (`RLIMIT_FSIZE` 0);
- no network, no process, no file outside the Python installation: an audit hook in the child
  refuses them, and cairosvg runs in its safe mode (only `data:` URLs);
- fonts: only the bundled ones, as everything pnp prints.

`svg_draw_problem` is the trial every SVG asset passes before pnp draws it in-process: the
whole SVG drawn once to a PDF that is thrown away (drawing time hardly depends on the size, and
a PDF surface does what the build's surface does). Its answer is kept per content hash, so
check and build, and every card with the same art, pay for one child. `render_svg_bounded`
draws to a PNG of a given size instead, for art that should be embedded as pixels.
"""

from __future__ import annotations

import hashlib
import sys

from ..fonts import FACES, font_dir

SVG_SECONDS = 10.0  # wall time for drawing one SVG; real art draws in well under a second
SVG_MEMORY_BYTES = 1 << 30  # address space of the drawing process, Python and cairo included


class ArtRefused(Exception):
    """Art that may not be drawn: what (completing "'art/x.svg' ...") and what to do."""

    def __init__(self, message: str, hint: str = "export the art again as a plain file"):
        super().__init__(message)
        self.message, self.hint = message, hint


_WORKER = r'''
import ctypes, ctypes.util, resource, sys
mode, width, height, memory = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
data = sys.stdin.buffer.read()

# The bundled fonts only, as in pnp.fonts.use_bundled_fonts: art prints the same everywhere.
fc = ctypes.CDLL(ctypes.util.find_library("fontconfig"))
fc.FcConfigCreate.restype = ctypes.c_void_p
fc.FcConfigAppFontAddFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
fc.FcConfigSetCurrent.argtypes = [ctypes.c_void_p]
config = fc.FcConfigCreate()
for font in sys.argv[5:]:
    fc.FcConfigAppFontAddFile(config, font.encode())
fc.FcConfigSetCurrent(config)
import cairosvg

class Sink:  # the trial's PDF goes nowhere
    def write(self, chunk):
        return len(chunk)

warm = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><text>x</text></svg>'
cairosvg.svg2png(bytestring=warm)
cairosvg.svg2pdf(bytestring=warm, write_to=Sink())
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # no file may be written
allowed = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix})
blocked = ("socket.", "urllib.", "subprocess.", "os.system", "os.exec", "os.posix_spawn",
           "os.fork", "os.spawn", "ctypes.dlopen", "webbrowser.")

def audit(event, args):
    if event.startswith(blocked):
        raise PermissionError(f"art may not use {event}")
    if event == "open" and isinstance(args[0], str) and not args[0].startswith(allowed):
        raise PermissionError(f"art may not open {args[0][:80]}")

sys.addaudithook(audit)
try:
    if mode == "png":
        out = cairosvg.svg2png(bytestring=data, output_width=width, output_height=height)
    else:
        cairosvg.svg2pdf(bytestring=data, write_to=Sink())
        out = b"drawn"
except MemoryError:
    sys.exit(4)
except Exception as exc:
    sys.stderr.write(" ".join(f"{type(exc).__name__}: {exc}".split())[:300])
    sys.exit(3)
sys.stdout.buffer.write(out)
'''


def _draw(mode: str, data: bytes, width_px: int, height_px: int, seconds: float,
          memory_bytes: int) -> bytes:
    import subprocess  # loaded only for art that needs it, not by every check

    fonts = [str(font_dir() / face.file) for face in FACES.values()]
    command = [sys.executable, "-I", "-c", _WORKER, mode, str(width_px), str(height_px),
               str(memory_bytes), *fonts]
    try:
        done = subprocess.run(command, input=data, capture_output=True, timeout=seconds,
                              check=False)
    except subprocess.TimeoutExpired:
        raise ArtRefused(f"takes longer than {seconds:g} s to draw, so it was stopped",
                         "simplify it (fewer points, less text) or export it as PNG") from None
    reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
    last = reason[-1] if reason else f"exit status {done.returncode}"
    if done.returncode == 4 or (done.returncode != 0 and (
            "MemoryError" in last or "Cannot allocate memory" in last)):
        raise ArtRefused(f"needs more than {memory_bytes / 2**20:.0f} MB of memory to draw",
                         "simplify it or export it as PNG")
    if done.returncode != 0:
        raise ArtRefused(f"cannot be drawn: {last[:200]}")
    return done.stdout


def render_svg_bounded(data: bytes, width_px: int, height_px: int, *,
                       seconds: float = SVG_SECONDS,
                       memory_bytes: int = SVG_MEMORY_BYTES) -> bytes:
    """PNG bytes of the SVG `data` drawn at `width_px` x `height_px` in a bounded child process.

    Raises ArtRefused when drawing takes longer than `seconds` of wall time (the child is
    killed), needs more than `memory_bytes` of address space, or fails.
    """
    png = _draw("png", data, width_px, height_px, seconds, memory_bytes)
    if not png.startswith(b"\x89PNG"):
        raise ArtRefused("cannot be drawn: no image came back")
    return png


_TRIALS: dict[tuple, str | None] = {}  # content hash and bounds -> why it may not be drawn


def svg_draw_problem(data: bytes, *, seconds: float | None = None,
                     memory_bytes: int | None = None) -> str | None:
    """Why the SVG `data` may not be drawn in-process (too slow, too big, broken), or None.

    The SVG is drawn once, whole, in the bounded child (bounds default to SVG_SECONDS and
    SVG_MEMORY_BYTES); the answer is kept for this content and these bounds.
    """
    seconds = SVG_SECONDS if seconds is None else seconds
    memory_bytes = SVG_MEMORY_BYTES if memory_bytes is None else memory_bytes
    key = (hashlib.sha256(data).digest(), seconds, memory_bytes)
    if key not in _TRIALS:
        try:
            _draw("trial", data, 1, 1, seconds, memory_bytes)
            _TRIALS[key] = None
        except ArtRefused as exc:
            _TRIALS[key] = f"{exc.message}; {exc.hint}"
    return _TRIALS[key]


__all__ = ["SVG_MEMORY_BYTES", "SVG_SECONDS", "ArtRefused", "render_svg_bounded",
           "svg_draw_problem"]
