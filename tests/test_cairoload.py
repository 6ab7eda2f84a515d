"""cairocffi loaded from declarations kept in the user's cache (pnp.cairoload): each case runs
fresh interpreters, as a build's processes are, and compares what cairo draws and how
cairo's structures are laid out with a cairocffi that parsed its declarations itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = r"""
import json, sys
events = []
sys.addaudithook(lambda event, args: events.append(event) if event == "subprocess.Popen" else None)
if sys.argv[1] == "plain":
    import cairocffi  # before pnp: pnp's import hook is never installed
    import pnp
else:
    import pnp
    import cairocffi
import cairosvg

ffi = cairocffi.ffi
structs = ["cairo_matrix_t", "cairo_rectangle_t", "cairo_text_extents_t", "cairo_font_extents_t",
           "cairo_glyph_t", "cairo_path_t", "cairo_path_data_t"]
svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60">'
       b'<defs><linearGradient id="g"><stop offset="0" stop-color="#c33"/>'
       b'<stop offset="1" stop-color="#33c"/></linearGradient></defs>'
       b'<rect x="4" y="4" width="112" height="52" rx="6" fill="url(#g)" stroke="#000"/>'
       b'<path d="M10 50 C 30 10, 90 10, 110 50" fill="none" stroke="#fff" stroke-width="3"/>'
       b'<text x="60" y="36" font-size="14" text-anchor="middle">Stability +1</text></svg>')
print(json.dumps({
    "ffi": type(ffi).__module__,
    "parsed": "pycparser" in sys.modules,
    "subprocesses": events,
    "cairo": cairocffi.cairo_version(),
    "finders": [getattr(finder, "__name__", type(finder).__name__) for finder in sys.meta_path],
    "layout": [[ffi.sizeof(name)] + [ffi.offsetof(name, field) for field, _ in
                                     ffi.typeof(name).fields] for name in structs],
    "png": cairosvg.svg2png(bytestring=svg).hex(),
}))
"""


def _child(cache: Path, mode: str = "hook") -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True,
                          env=dict(os.environ, PNP_CACHE_DIR=str(cache)), check=True)
    return json.loads(done.stdout)


def _kept_entries(cache: Path) -> list[Path]:
    return [path for path in cache.glob("cairo-ffi-*/*") if path.is_file()]


def test_kept_declarations_draw_exactly_as_parsed_ones(tmp_path):
    parsed = _child(tmp_path, "plain")
    first = _child(tmp_path)  # parses, and keeps the declarations
    assert len(_kept_entries(tmp_path)) == 1
    kept = _child(tmp_path)
    assert (parsed["ffi"], parsed["parsed"]) == ("cffi.api", True)
    assert (first["ffi"], first["parsed"]) == ("cffi.api", True)
    assert (kept["ffi"], kept["parsed"]) == ("_cffi_backend", False)
    for run in (first, kept):
        assert run["finders"] == parsed["finders"]  # the hook has stepped aside
        assert run["cairo"] == parsed["cairo"]
        assert run["layout"] == parsed["layout"]
        assert run["png"] == parsed["png"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="find_library's subprocesses")
def test_cairo_is_found_without_subprocesses(tmp_path):
    assert _child(tmp_path, "plain")["subprocesses"], "find_library runs none here: no test"
    assert _child(tmp_path)["subprocesses"] == []
    assert _child(tmp_path)["subprocesses"] == []


def test_an_unreadable_entry_is_parsed_again_and_replaced(tmp_path):
    expected = _child(tmp_path, "plain")["png"]
    _child(tmp_path)
    (entry,) = _kept_entries(tmp_path)
    entry.write_bytes(b"not a marshalled code object")
    again = _child(tmp_path)
    assert (again["ffi"], again["parsed"], again["png"]) == ("cffi.api", True, expected)
    kept = _child(tmp_path)
    assert (kept["ffi"], kept["parsed"], kept["png"]) == ("_cffi_backend", False, expected)


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    expected = _child(tmp_path, "plain")["png"]
    for _ in range(2):
        run = _child(blocked)
        assert (run["ffi"], run["parsed"], run["png"]) == ("cffi.api", True, expected)
