"""Export files as written: the same bytes whatever the number of processes, and an export
that fails or is interrupted while it writes leaves the files of the last good export as they
were, with no staged file left behind."""

from __future__ import annotations

import concurrent.futures
import errno
import os
from pathlib import Path

import pytest

import pnp.output
import pnp.engine.workers
from pnp.output import OLD_PREFIX, STAGING_PREFIX

from conftest import edit

# Cards with one shared back, cubes with a back each, and a bank deck's own faces: every kind
# of face an export draws, and few enough to draw in a second or two.
SHEETS = ("--sheets", "banks,cubes")
SHOP = "shop-thegamecrafter"


def exported(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def inodes(folder: Path) -> dict[str, int]:
    return {path.relative_to(folder).as_posix(): path.stat().st_ino
            for path in sorted(folder.rglob("*")) if path.is_file()}


def leftovers(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*")
            if path.name.startswith((STAGING_PREFIX, OLD_PREFIX))]


@pytest.mark.parametrize("to", ["shop", "tts"])
def test_an_export_is_the_same_bytes_on_one_process_and_on_two(project, run, monkeypatch, to):
    pools = []
    real_pool = concurrent.futures.ProcessPoolExecutor

    def counted_pool(*args, **kwargs):
        pools.append(args[0] if args else kwargs.get("max_workers"))
        return real_pool(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counted_pool)
    for jobs in ("1", "2"):
        result = run("export", "--to", to, *SHEETS, "-j", jobs, "--out", f"out-{jobs}")
        assert result.code == 0, result.err
    assert pools == [2]  # -j 2 drew on two processes; -j 1 here, in one
    one, two = exported(project / "out-1"), exported(project / "out-2")
    assert len(one) > 20 and any(name.endswith(".png") for name in one)
    assert one == two


@pytest.fixture
def earlier(project, run) -> dict[str, bytes]:
    """A good shop export, then a bank renamed: an export now would write new bytes."""
    assert run("export", "--to", "shop", *SHEETS).code == 0
    files = exported(project / "output")
    edit(project / "content" / "downturn" / "banks.yaml", "name: ", "name: New ")
    return files


def assert_untouched(project: Path, files: dict[str, bytes], before: dict[str, int]) -> None:
    folder = project / "output"
    assert exported(folder) == files
    assert inodes(folder) == before  # not even replaced by a copy of the same bytes
    assert leftovers(folder) == []


def test_a_failed_flush_to_the_disk_replaces_none_of_the_earlier_files(project, run, earlier,
                                                                         monkeypatch):
    """The staged files are flushed by threads; one that cannot be (an I/O error) stops the
    export at its commit, before any rename."""
    before = inodes(project / "output")
    flushed = []

    def failing_fsync(fd):
        flushed.append(fd)
        if len(flushed) == 7:
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(pnp.output.os, "fsync", failing_fsync)
    result = run("export", "--to", "shop", *SHEETS)
    assert result.code == 1
    assert "input/output error" in result.lines[-1], result.err
    assert_untouched(project, earlier, before)


def test_an_export_interrupted_while_it_writes_changes_nothing(project, run, earlier,
                                                              monkeypatch):
    before = inodes(project / "output")
    real_write = pnp.output.Staging.write
    written = []

    def interrupted_write(self, destination, data):
        real_write(self, destination, data)
        written.append(destination)
        if len(written) == 30:  # files staged, and their flushes under way
            raise KeyboardInterrupt

    monkeypatch.setattr(pnp.output.Staging, "write", interrupted_write)
    result = run("export", "--to", "shop", *SHEETS)
    assert result.code == 130
    assert result.lines[-1] == "pnp: interrupted; no output was changed"
    assert_untouched(project, earlier, before)


def test_an_export_that_succeeds_replaces_the_earlier_files_and_leaves_nothing_staged(
        project, run, earlier):
    result = run("export", "--to", "shop", *SHEETS)
    assert result.code == 0, result.err
    now = exported(project / "output")
    assert set(now) == set(earlier)
    changed = [name for name in now if now[name] != earlier[name]]
    assert changed and all(f"/{SHOP}/banks-" in f"/{name}" for name in changed)
    assert leftovers(project / "output") == []


FACE = ('<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="30mm" viewBox="0 0 20 30">'
        '<rect x="2" y="2" width="16" height="26" fill="{fill}"/>'
        '<text x="10" y="16" text-anchor="middle" font-family="Roboto Condensed" '
        'font-size="6">{text}</text></svg>')


def test_a_sheet_holds_each_face_as_drawn_alone_a_repeated_one_in_each_of_its_cells():
    from PIL import Image

    from pnp.pdf.raster import face_image, grid_image

    once = FACE.format(fill="#1f2a44", text="A")
    twice = FACE.format(fill="#c62828", text="B")
    w, h = 59, 88  # 20 x 30 mm at 75 dpi, rounded down as a TTS sheet's cells are
    sheet = grid_image([twice, once, twice], 2, 2, (w, h))
    assert sheet.mode == "RGB" and sheet.size == (2 * w, 2 * h)
    for svg, (column, row) in ((twice, (0, 0)), (once, (1, 0)), (twice, (0, 1))):
        alone = face_image(svg, w, h)
        on_white = Image.alpha_composite(Image.new("RGBA", alone.size, "white"), alone)
        cell = sheet.crop((column * w, row * h, (column + 1) * w, (row + 1) * h))
        assert cell.tobytes() == on_white.convert("RGB").tobytes()
    empty = sheet.crop((w, h, 2 * w, 2 * h))
    assert empty.getextrema() == ((255, 255), (255, 255), (255, 255))
