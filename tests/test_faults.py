"""Faults from outside the content: the file system, the command line, fonts, templates, art.

Beside tests/test_bad_input.py (bad content), every case here drives the real CLI
(`pnp.cli.main`) into a fault the world around pnp can cause and asserts the promise: the right
exit code, one line that names the path at fault, no traceback and no "internal error", and the
PDFs of the last good build byte for byte with no staging files left. Faults that cannot be
made for real on every machine (a full disk, a rename failing half-way) are injected at the one
system call that would fail; a full disk is also made for real on a small tmpfs where the test
may mount one.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import textwrap
import time
import tomllib
import zlib
from pathlib import Path

import PIL.Image
import pytest

import pnp.load.probe
import pnp.fonts
import pnp.output
import pnp.pipeline
from pnp.load.art import ArtRefused, check_art, effective_dpi, render_svg_bounded, resolution_finding
from pnp.load.assets import image_size
from pnp.cli import main
from pnp.findings import MAX_WORD, Finding, Location, Severity
from pnp.output import OLD_PREFIX, STAGING_PREFIX

from conftest import BASELINE_SHEETS, REPO, TESTS, copy_as_cwd, retitled_build
from measures import forget_font_measures

FAULTS = TESTS / "data" / "faults"
SHEETS = BASELINE_SHEETS
OUT = Path("output/downturn")
EARLIER = {"events-letter.pdf", "banks-letter.pdf"}
ROOT = os.geteuid() == 0


# -- a project with an earlier good build ----------------------------------------------------------

@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Path:
    """A project built once (Downturn's events and banks only: the other games' proofs would
    not fit the small test disk), its title since changed so a rebuild differs."""
    return retitled_build(tmp_path_factory.mktemp("faults"))


@pytest.fixture
def project(baseline, tmp_path, monkeypatch) -> Path:
    return copy_as_cwd(baseline, tmp_path, monkeypatch)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture
def built(project) -> dict[str, bytes]:
    before = snapshot(project / OUT)
    assert EARLIER <= set(before)
    return before


def leftovers(root: Path) -> list[Path]:
    return sorted([*root.rglob(STAGING_PREFIX + "*"), *root.rglob(OLD_PREFIX + "*")])


def one_line(result, code: int = 1) -> str:
    """The single line a fault must give; asserts the exit code and the absence of a crash."""
    assert result.code == code, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    assert len(result.lines) == 1, result.err
    line = result.lines[0]
    assert line.isprintable() and len(line) < 400, line
    return line


def assert_untouched(project: Path, built: dict[str, bytes]) -> None:
    assert snapshot(project / OUT) == built  # every earlier file, byte for byte
    assert leftovers(project) == []


# -- the file system -------------------------------------------------------------------------------

def test_out_naming_a_regular_file_is_one_line(project, run):
    (project / "a-file").write_text("not a folder")
    line = one_line(run("build", *SHEETS, "--out", "a-file"))
    assert line.startswith("a-file: error: is a file, but pnp needs a folder here"), line
    assert "--out" in line


def test_a_dangling_link_where_the_output_folder_goes_is_one_line(project, run, built):
    (project / "elsewhere").symlink_to(project / "nothing-here")
    line = one_line(run("build", *SHEETS, "--out", "elsewhere"))
    assert line.startswith("elsewhere: error: is a symbolic link to nothing, but pnp needs a "
                           "folder here"), line
    assert_untouched(project, built)


def test_an_output_folder_that_cannot_be_created_is_one_line(project, run, built):
    line = one_line(run("build", *SHEETS, "--out", "/proc/pnp-cannot-create-this"))
    assert line.startswith("/proc/pnp-cannot-create-this/downturn: error: cannot create the "
                           "output folder"), line
    assert_untouched(project, built)


@pytest.mark.skipif(ROOT, reason="root may write into any folder")
def test_an_output_folder_without_write_permission_is_one_line(project, run, built):
    (project / OUT).chmod(0o555)
    try:
        line = one_line(run("build", *SHEETS))
    finally:
        (project / OUT).chmod(0o755)
    assert line.startswith("output/downturn: error: permission denied"), line
    assert_untouched(project, built)


@pytest.mark.parametrize("code, fragment", [
    (errno.EACCES, "permission denied: cannot write events-letter.pdf; check that you may "
                   "write there, or choose another folder with --out"),
    (errno.EROFS, "cannot write events-letter.pdf: the file system is read-only; choose "
                  "another folder with --out"),
    (errno.EMFILE, "cannot write events-letter.pdf: too many open files"),
    (errno.EDQUOT, "the disk quota is used up; this build needs at least"),
    (errno.EIO, "cannot write events-letter.pdf: input/output error"),
], ids=lambda v: errno.errorcode[v] if isinstance(v, int) else "")
def test_each_kind_of_write_failure_is_one_line(project, run, built, monkeypatch, code,
                                                fragment):
    """The same faults as root cannot make for real (permissions), injected where a staged
    file is created."""
    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(pnp.output.tempfile, "mkstemp", refuse)
    line = one_line(run("build", *SHEETS))
    assert line.startswith(f"output/downturn: error: {fragment}"), line
    assert_untouched(project, built)


def test_a_folder_where_a_pdf_goes_stops_the_build_before_any_rename(project, run, built):
    (project / OUT / "banks-letter.pdf").unlink()
    (project / OUT / "banks-letter.pdf").mkdir()
    del built["banks-letter.pdf"]
    line = one_line(run("build", *SHEETS))
    assert line.startswith("output/downturn/banks-letter.pdf: error: a folder stands where "
                           "this file must be written"), line
    assert "nothing was replaced" in line
    assert_untouched(project, built)


def test_a_folder_that_appears_before_the_renames_stops_all_of_them(project, run, built,
                                                                     monkeypatch):
    """The check at commit: the folder appears after every file was staged, so only the
    all-destinations-first check can keep the earlier PDFs."""
    real_commit = pnp.output.Staging.commit
    in_the_way = project / OUT / "markers-letter.pdf"

    def commit_after_a_folder_appears(self):
        assert {d.name for _, d in self.staged} >= EARLIER | {in_the_way.name}
        in_the_way.mkdir()
        return real_commit(self)

    monkeypatch.setattr(pnp.output.Staging, "commit", commit_after_a_folder_appears)
    line = one_line(run("build", "--sheets", "events,banks,markers"))
    assert line.startswith("output/downturn/markers-letter.pdf: error: a folder stands"), line
    in_the_way.rmdir()
    assert_untouched(project, built)


def test_a_rename_that_fails_half_way_puts_back_what_it_replaced(project, run, built,
                                                                  monkeypatch):
    real_replace = os.replace
    renames = []

    def second_rename_fails(source, destination):
        if Path(source).name.startswith(STAGING_PREFIX):
            renames.append(Path(destination).name)
            if len(renames) == 2:
                raise OSError(errno.EIO, "Input/output error", str(destination))
        return real_replace(source, destination)

    monkeypatch.setattr(os, "replace", second_rename_fails)
    line = one_line(run("build", *SHEETS))
    assert len(renames) == 2  # the first file really was replaced, then put back
    failed = (OUT / renames[1]).as_posix()
    assert line.startswith(f"{failed}: error: cannot replace {renames[1]}: input/output "
                           "error"), line
    assert_untouched(project, built)


class FullDisk:
    """os.fdopen for staged files on a disk with `room` bytes left: a write beyond it writes
    what fits and fails with ENOSPC, as a real full disk does."""

    def __init__(self, room: int):
        self.room = room
        self.real = os.fdopen

    def fdopen(self, fd, *args, **kwargs):
        return _Limited(self.real(fd, *args, **kwargs), self)


class _Limited:
    def __init__(self, real, disk: FullDisk):
        self.real, self.disk = real, disk

    def write(self, data: bytes) -> int:
        fits = min(len(data), self.disk.room)
        self.real.write(data[:fits])
        self.disk.room -= fits
        if fits < len(data):
            raise OSError(errno.ENOSPC, "No space left on device")
        return fits

    def __getattr__(self, name):
        return getattr(self.real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()


def test_a_full_disk_names_the_folder_and_the_space_needed(project, run, built, monkeypatch):
    room = len(built["events-letter.pdf"]) // 2  # the first PDF does not fit
    monkeypatch.setattr(pnp.output.os, "fdopen", FullDisk(room).fdopen)
    line = one_line(run("build", *SHEETS))
    assert line.startswith("output/downturn: error: the disk is full; this build needs at "
                           "least "), line
    assert " KB there" in line and "is free" in line and "--out" in line
    assert_untouched(project, built)


def test_a_full_disk_on_a_later_file_keeps_the_earlier_set(project, run, built, monkeypatch):
    room = max(len(data) for data in built.values()) + 1000  # one PDF fits, not both
    monkeypatch.setattr(pnp.output.os, "fdopen", FullDisk(room).fdopen)
    line = one_line(run("build", *SHEETS))
    needed = float(line.split("needs at least ")[1].split(" KB")[0]) * 1000
    assert needed > room, line  # it names more than what fitted: the file that did not
    assert_untouched(project, built)


@pytest.fixture
def small_disk(tmp_path):
    """A real 256 KB tmpfs (one build of the sheets and its history record fit, two do not),
    where this machine lets the test mount one."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if not ROOT or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_really_full_disk_keeps_every_earlier_pdf(project, run, small_disk):
    """The earlier build fits on the disk; a second set beside it does not."""
    assert run("build", *SHEETS, "--out", str(small_disk)).code == 0
    before = snapshot(small_disk)
    game = project / "content/downturn/game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("Revised", "Again"),
                    encoding="utf-8")
    line = one_line(run("build", *SHEETS, "--out", str(small_disk)))
    assert line.startswith(f"{small_disk}/downturn: error: the disk is full; this build needs "
                           "at least "), line
    assert snapshot(small_disk) == before
    assert leftovers(small_disk) == []


PAUSED_BUILD = textwrap.dedent("""
    import sys, time
    import pnp.output
    from pnp.cli import main

    real_write = pnp.output.Staging.write

    def write_then_pause(self, destination, data):
        real_write(self, destination, data)
        print("staged", flush=True)
        time.sleep(30)

    pnp.output.Staging.write = write_then_pause
    sys.exit(main(sys.argv[1:]))
""")


def test_closing_the_terminal_midway_leaves_earlier_pdfs_and_no_staging_files(project,
                                                                               built):
    child = subprocess.Popen([sys.executable, "-c", PAUSED_BUILD, "build", *SHEETS],
                             cwd=project, env={**os.environ, "PYTHONPATH": str(REPO)},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "staged\n"
        assert leftovers(project), "the first PDF should be staged by now"
        child.send_signal(signal.SIGHUP)
        _, err = child.communicate(timeout=20)
    finally:
        child.kill()
    assert child.returncode == 128 + signal.SIGHUP, err  # as a shell reports a closed terminal
    assert err == "pnp: interrupted; no output was changed\n"
    assert_untouched(project, built)


def test_a_full_temporary_folder_is_one_line_naming_it(project, run, built, monkeypatch):
    import cairocffi

    def full(self):  # what cairocffi raises when cairo cannot write its scratch PDF
        raise OSError("cairo returned CAIRO_STATUS_WRITE_ERROR: b'error while writing to "
                      "output stream'", 11)

    monkeypatch.setattr(cairocffi.Surface, "finish", full)
    line = one_line(run("build", *SHEETS))
    assert line.startswith(f"{tempfile.gettempdir()}: error: cairo cannot write its scratch "
                           "file in this temporary folder"), line
    assert "set TMPDIR to another folder" in line
    assert_untouched(project, built)


def test_a_missing_font_is_one_line_naming_it(project, run, monkeypatch, tmp_path):
    empty = tmp_path / "no-fonts"
    empty.mkdir()
    monkeypatch.setattr(pnp.fonts, "font_dir", lambda: empty)
    forget_font_measures()
    try:
        line = one_line(run("check"))
    finally:
        monkeypatch.undo()
        forget_font_measures()
    assert line.startswith(str(empty / "RobotoCondensed-Regular.ttf") + ": error: the bundled "
                           "font cannot be read"), line
    assert "reinstall pnp" in line


def test_any_other_os_error_is_one_line_naming_its_path(project, run, monkeypatch):
    def unreadable(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", "content/downturn/rules.yaml")

    monkeypatch.setattr(pnp.pipeline, "check_game", unreadable)
    line = one_line(run("check"))
    assert line.startswith("content/downturn/rules.yaml: error: permission denied"), line


def test_a_real_bug_is_still_an_internal_error(project, run, monkeypatch):
    def bug(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(pnp.pipeline, "check_game", bug)
    result = run("check")
    assert result.code == 1
    assert result.lines == ["pnp: internal error: ZeroDivisionError: division by zero (run "
                            "again with --debug for details and report it)"]


# -- the command line ------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-3", "1e9"])
def test_a_dpi_that_is_not_a_sane_number_is_a_usage_error(project, run, value):
    result = run("proof", f"--dpi={value}")
    assert result.code == 2, result.err
    assert result.lines[0] == f"pnp: error: --dpi {float(value):g} must be a number between 1 " \
                              "and 1200"
    assert not (project / OUT / "proof" / "index.html").exists()


@pytest.mark.parametrize("value", ["", ",", " , "])
def test_an_empty_sheet_list_is_a_usage_error_that_writes_nothing(project, run, built, value):
    result = run("build", "--sheets", value)
    assert result.code == 2, result.err
    assert result.lines[0].startswith("pnp: error: --sheets names no sheet")
    assert_untouched(project, built)  # the gallery's faces.json included


def test_a_game_named_twice_is_built_once(project, run):
    result = run("build", "--game", "downturn", "--game", "downturn", "--sheets", "banks")
    assert result.code == 0, result.err
    assert result.out.splitlines() == ["wrote output/downturn/banks-letter.pdf"]


def test_a_huge_word_in_a_message_is_cut_to_a_readable_length(project, run):
    word = "x" * 5000
    result = run("build", "--sheets", word)
    assert result.code == 2, result.err
    line = result.lines[0]
    assert len(line) < 400 and "[5000 characters]" in line, line[:500]
    assert line.startswith("pnp: error: no sheet named " + "x" * 80 + "...")


def test_a_huge_word_quoted_in_any_finding_is_cut_too():
    word = "k" * 5000
    finding = Finding("some-rule", Severity.ERROR, Location("content/g/game.yaml", 3, 1),
                      f"'{word}' is not a sheet", hint=f"did you mean '{word[:10]}'?")
    line = finding.format()
    assert len(line) < 300, line
    assert line.startswith("content/g/game.yaml:3:1: error: '" + "k" * 80 + "..." + "k" * 20
                           + " [5000 characters]' is not a sheet; did you mean 'kkkkkkkkkk'?")
    assert all(len(part) <= MAX_WORD for part in line.split())
    short = Finding("r", Severity.ERROR, Location("x"), "k" * MAX_WORD)
    assert short.format() == f"x: error: {'k' * MAX_WORD} (rule r)"  # up to the cap: kept


SLOW_IMPORT = textwrap.dedent("""
    import importlib.abc, sys, time

    class SlowCli(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == MODULE:  # as if loading pnp's stages took a while
                print("importing", flush=True)
                time.sleep(30)
            return None

    sys.meta_path.insert(0, SlowCli())
    from pnp.entry import main
    main()
""")


@pytest.mark.parametrize("module", ["pnp.cli", "pnp.commands.report"])
def test_ctrl_c_while_pnp_is_loading_prints_no_traceback(tmp_path, module):
    """Ctrl-C while the command line's module loads, or the command's (pnp.cli imports it once
    the arguments are parsed)."""
    code = SLOW_IMPORT.replace("MODULE", repr(module))
    child = subprocess.Popen([sys.executable, "-c", code, "list"], cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(REPO)},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "importing\n"
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=20)
    finally:
        child.kill()
    assert child.returncode == 130
    assert err == "pnp: interrupted; no output was changed\n"


def test_a_reader_that_closes_the_pipe_early_ends_the_run_quietly(project):
    child = subprocess.Popen([sys.executable, "-m", "pnp", "list"], cwd=project,
                             env={**os.environ, "PYTHONPATH": str(REPO)},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()  # as `pnp list | head -0` does, before pnp writes a line
    _, err = child.communicate(timeout=60)
    assert child.returncode == 1
    assert err == b""


def test_the_console_script_starts_in_the_small_wrapper():
    with (REPO / "pyproject.toml").open("rb") as handle:
        scripts = tomllib.load(handle)["project"]["scripts"]
    assert scripts["pnp"] == "pnp.entry:main"
    source = (REPO / "pnp/entry.py").read_text(encoding="utf-8")
    top_level = [line for line in source.splitlines() if line.startswith(("import", "from"))]
    # nothing slow before the handler: modules already in the interpreter
    assert top_level == ["import os", "import sys"]


def test_the_console_script_ends_with_its_output_exit_code_and_exit_handlers(project):
    """The whole report arrives, the exit code is the check's, the exit handlers run, and a
    reader that stops early gets no traceback."""
    script = ("import atexit, sys; atexit.register(lambda: print('handler ran', "
              "file=sys.stderr)); sys.argv = ['pnp'] + sys.argv[1:]; "
              "from pnp.entry import main; main()")
    # Output to a pipe is held in Python's buffer until flushed (unless told otherwise).
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
           "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", script, "check", "--format", "json"],
                          cwd=project, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True
    assert "handler ran" in done.stderr
    events = project / "content/downturn/events.yaml"
    events.write_text(events.read_text(encoding="utf-8").replace(
        "invest: {green: 2}", "invest: {purple: 2}", 1), encoding="utf-8")
    failed = subprocess.run([sys.executable, "-m", "pnp", "check"], cwd=project, env=env,
                            capture_output=True, text=True, timeout=60)
    assert failed.returncode == 1 and "purple" in failed.stderr
    reader = subprocess.Popen(f"{sys.executable} -m pnp list | head -c 5", shell=True,
                              cwd=project, env=env, stderr=subprocess.PIPE, text=True)
    assert "Traceback" not in reader.communicate(timeout=60)[1]


# -- YAML mistakes located where they open ---------------------------------------------------------

YAML_CASES = [  # (file under tests/data/faults/, line:col where it opens, message fragment)
    ("game--quote-closed-lines-later.yaml", "1:8",
     'the quote " that opens here is not closed on its line; YAML read on to the next " at '
     "line 2:11"),
    ("game--quote-inside-single-quotes.yaml", "1:13",
     "the quoted text that opens at 1:8 ends at this ', and more text follows it"),
    ("game--bracket-never-closed.yaml", "4:10", "the { that opens here is never closed"),
    ("events--quote-closed-next-card.yaml", "9:10",
     'the quote " that opens here is not closed on its line'),
]


RUNAWAY = "game--quote-runs-on-into-the-next-key.yaml"  # valid YAML: no syntax error at all


def test_every_fault_corpus_file_is_in_a_table():
    assert sorted(p.name for p in FAULTS.iterdir()) == sorted(
        [case[0] for case in YAML_CASES] + [RUNAWAY])


def test_a_quote_that_runs_on_into_the_next_key_is_pointed_at(project, run):
    shutil.copyfile(FAULTS / RUNAWAY, project / "content/downturn/game.yaml")
    result = run("check")
    assert result.code == 1  # the key swallowed by the quote is missing...
    assert "content/downturn/game.yaml:1:1: error: missing required key 'designer'" \
        in result.err
    assert ("content/downturn/game.yaml:1:8: warning: the quote \" that opens here closes only "
            "at line 2, taking in line 2 ('designer:') as text; close the quote on the line "
            "where it opens (rule yaml-runaway-quote)") in result.lines  # ...and this is why


@pytest.mark.parametrize("name, where, fragment", YAML_CASES, ids=[c[0] for c in YAML_CASES])
def test_an_unclosed_quote_or_bracket_is_reported_where_it_opens(project, run, name, where,
                                                                 fragment):
    target = name.split("--")[0] + ".yaml"
    shutil.copyfile(FAULTS / name, project / "content/downturn" / target)
    findings = [line for line in run("check").lines if not line.startswith("pnp ")]
    assert len(findings) == 1, findings
    assert findings[0].startswith(f"content/downturn/{target}:{where}: error: YAML syntax "
                                  "error: "), findings[0]
    assert fragment in findings[0]


# -- hostile art -----------------------------------------------------------------------------------

def png_header(width: int, height: int) -> bytes:
    """A PNG that claims `width` x `height` pixels: a header and an empty image, 57 bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                               0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


def png_image(width: int, height: int) -> bytes:
    """A whole grey PNG of `width` x `height` pixels, every pixel there to decode."""
    image = io.BytesIO()
    PIL.Image.new("L", (width, height), 128).save(image, "PNG")
    return image.getvalue()


def jpeg_header(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    frame = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + frame + b"\xff\xd9"


SVG_NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
CARD_MM = (63.0, 88.0)
WHERE = Location("content/downturn/cards.yaml", 4, 10)


@pytest.fixture
def game(tmp_path) -> Path:
    folder = tmp_path / "game"
    (folder / "art").mkdir(parents=True)
    return folder


def no_decoding(monkeypatch) -> None:
    """Make any decoding by Pillow fail the test: sizes must come from the header alone."""
    from PIL import Image

    def refuse(*args, **kwargs):
        raise AssertionError("the image was handed to Pillow")

    monkeypatch.setattr(Image, "open", refuse)


@pytest.mark.parametrize("name, data", [
    ("bomb.png", png_header(40_000, 40_000)),
    ("bomb.jpg", jpeg_header(40_000, 40_000)),
], ids=["png", "jpeg"])
def test_a_decompression_bomb_is_refused_from_its_header(game, monkeypatch, name, data):
    assert len(data) < 100
    (game / "art" / name).write_bytes(data)
    # Refused in no time whatever the machine: from the header of a file under 100 bytes,
    # with no pixel decoded (Pillow, the one decoder check_art could reach, fails the test).
    no_decoding(monkeypatch)
    art = check_art(f"art/{name}", game, CARD_MM, WHERE, subject='card "A"', field="art")
    assert not art.ok and art.data == b""
    [finding] = art.findings.errors
    assert finding.rule == "asset-refused"
    assert "is 40000 x 40000 pixels, more than the 40000000 allowed" in finding.format()
    assert finding.format().startswith(f'{WHERE}: error: card "A": art: \'art/{name}\' is ')


def test_the_header_gives_the_size_of_real_images():
    import io

    from PIL import Image

    for kind in ("PNG", "JPEG", "GIF", "WEBP"):
        buffer = io.BytesIO()
        Image.new("RGB", (123, 45)).save(buffer, kind)
        assert image_size(buffer.getvalue()) == (kind.lower(), 123, 45), kind
    assert image_size(jpeg_header(40_000, 30_000)) == ("jpeg", 40_000, 30_000)
    assert image_size(b"\x89PNG\r\n\x1a\n" + b"\0" * 20) is None


def test_effective_dpi_of_art_at_its_printed_size():
    assert effective_dpi(744, 1039, 63, 88) == pytest.approx(299.9, abs=0.1)
    assert effective_dpi(300, 300, 25.4, 50.8, fit="meet") == pytest.approx(300)
    assert effective_dpi(300, 300, 25.4, 50.8, fit="slice") == pytest.approx(150)
    with pytest.raises(ValueError):
        effective_dpi(1, 1, 0, 10)


def test_a_template_helper_gets_the_resolution_warning_for_the_size_it_draws(game):
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (300, 600), "white").save(buffer, "PNG")
    data = buffer.getvalue()
    where = Location("templates/g/card.svg.j2", 5, 1)
    box = (63.5, 63.5)  # 2.5 in: 120 dpi across, 240 dpi down
    assert resolution_finding(data, box, where, fit="xMidYMid meet") is None  # shown at 240 dpi
    warning = resolution_finding(data, box, where, shown="art/x.png", fit="xMidYMid slice")
    assert warning.format() == (
        "templates/g/card.svg.j2:5:1: warning: 'art/x.png' is 300 x 600 pixels: 120 dpi at its "
        "printed size of 63.5 x 63.5 mm, below 150 dpi, so it will print blurred; use art of at "
        "least 375 x 375 pixels (rule art-resolution)")
    coarse = resolution_finding(data, (127, 127), where, fit="none")  # 60 dpi across
    assert coarse is not None and "60 dpi" in coarse.message
    assert "at least 750 x 750 pixels" in coarse.hint
    svg = f'<svg {SVG_NS} width="1" height="1"/>'.encode()
    assert resolution_finding(svg, (500, 500), where) is None  # vectors have no pixels


def test_art_too_coarse_for_its_size_is_a_warning_naming_its_dpi(game):
    import io

    from PIL import Image

    for name, size in (("coarse.png", (300, 420)), ("fine.png", (800, 1100))):
        buffer = io.BytesIO()
        Image.new("RGB", size, "white").save(buffer, "PNG")
        (game / "art" / name).write_bytes(buffer.getvalue())
    coarse = check_art("art/coarse.png", game, CARD_MM, WHERE, field="art")
    assert coarse.ok and round(coarse.dpi) == 121
    [warning] = coarse.findings.warnings
    assert warning.rule == "art-resolution"
    assert "is 300 x 420 pixels: 121 dpi at its printed size of 63 x 88 mm" in warning.message
    assert warning.hint == "use art of at least 372 x 520 pixels"
    fine = check_art("art/fine.png", game, CARD_MM, WHERE)
    assert fine.ok and not fine.findings.items and round(fine.dpi) == 323


def test_symbolic_links_and_dot_dot_are_refused(game):
    (game / "art" / "real.png").write_bytes(png_image(10, 10))
    (game / "art" / "link.png").symlink_to(game / "art" / "real.png")
    (game / "linked").symlink_to(game / "art")
    for relative, rule in (("art/link.png", "asset-symlink"), ("linked/real.png", "asset-symlink"),
                           ("../game/art/real.png", "asset-path"),
                           ("art/../art/real.png", "asset-path")):
        art = check_art(relative, game, CARD_MM, WHERE)
        assert [f.rule for f in art.findings.errors] == [rule], relative
        assert art.path is None and art.data == b""
    assert check_art("art/real.png", game, CARD_MM, WHERE).ok


def test_svg_art_is_drawn_in_a_bounded_child_process(game):
    (game / "art" / "ok.svg").write_text(
        f'<svg {SVG_NS} width="10mm" height="10mm" viewBox="0 0 10 10">'
        '<circle cx="5" cy="5" r="4" fill="#c00"/></svg>', encoding="utf-8")
    art = check_art("art/ok.svg", game, CARD_MM, WHERE)
    assert art.ok, [f.format() for f in art.findings]
    assert art.rendered.startswith(b"\x89PNG")
    assert image_size(art.rendered) == ("png", 744, 1039)  # 63 x 88 mm at 300 dpi


def test_text_in_svg_art_is_drawn_with_the_bundled_fonts_only():
    def drawn(family: str) -> bytes:
        svg = (f'<svg {SVG_NS} width="200" height="40"><text x="0" y="30" font-size="24" '
               f'font-family="{family}">Downturn</text></svg>').encode()
        return render_svg_bounded(svg, 200, 40)

    bundled = drawn("Roboto Condensed")
    assert drawn("Noto Serif") != bundled  # the family asked for is honoured...
    assert drawn("DejaVu Sans") == bundled  # ...but a machine's own font is never used


def slow_svg(characters: int = 3_000_000) -> bytes:
    """One <text> element: passes every static check, yet cairosvg draws it glyph by glyph
    in Python for over a minute (about 23 microseconds a character here)."""
    return (f'<svg {SVG_NS} width="100" height="100"><text x="0" y="50">'.encode()
            + b"W" * characters + b"</text></svg>")


def test_svg_art_that_would_draw_for_minutes_is_stopped_at_the_bound(game):
    (game / "art" / "slow.svg").write_bytes(slow_svg())
    started = time.perf_counter()
    art = check_art("art/slow.svg", game, CARD_MM, WHERE, seconds=2)
    elapsed = time.perf_counter() - started
    assert elapsed < 2 + 3, elapsed  # the bound, plus starting and killing the child
    [finding] = art.findings.errors
    assert finding.rule == "asset-refused"
    assert "takes longer than 2 s to draw, so it was stopped" in finding.message


def test_svg_art_that_needs_too_much_memory_is_refused():
    svg = f'<svg {SVG_NS} width="10" height="10"><rect width="10" height="10"/></svg>'.encode()
    with pytest.raises(ArtRefused, match="needs more than 300 MB of memory to draw"):
        render_svg_bounded(svg, 20_000, 20_000, memory_bytes=300 << 20)  # a 1.6 GB surface


def test_svg_art_never_reaches_the_network(game, monkeypatch):
    import socket

    def no_socket(*args, **kwargs):
        raise AssertionError("a socket was opened")

    monkeypatch.setattr(socket, "socket", no_socket)
    (game / "art" / "remote.svg").write_text(
        f'<svg {SVG_NS} width="10" height="10"><image xlink:href="http://127.0.0.1:9/x.png" '
        'width="5" height="5"/></svg>', encoding="utf-8")
    art = check_art("art/remote.svg", game, CARD_MM, WHERE)
    [finding] = art.findings.errors
    assert "outside itself; assets must be self-contained" in finding.message
    inner = png_header(40_000, 40_000)
    import base64

    (game / "art" / "inner-bomb.svg").write_text(
        f'<svg {SVG_NS} width="10" height="10"><image width="5" height="5" xlink:href="data:'
        f'image/png;base64,{base64.b64encode(inner).decode()}"/></svg>', encoding="utf-8")
    art = check_art("art/inner-bomb.svg", game, CARD_MM, WHERE)
    assert "embeds an image that is 40000 x 40000 pixels" in art.findings.errors[0].message


@pytest.mark.parametrize("name, data", [
    ("slow.svg", slow_svg()),
    ("bomb.png", png_header(40_000, 40_000)),
], ids=["svg-for-minutes", "png-bomb"])
def test_hostile_art_leaves_the_earlier_build_intact(project, run, built, monkeypatch, name,
                                                     data):
    """Until cards carry an image field, the art is checked as the build's check would."""
    art_dir = project / "content/downturn/art"
    art_dir.mkdir()
    (art_dir / name).write_bytes(data)
    real_check = pnp.pipeline.check_game

    def check_with_art(project_, game_name, *args, **kwargs):
        checked = real_check(project_, game_name, *args, **kwargs)
        art = check_art(f"art/{name}", project_.content / game_name, CARD_MM,
                        Location("content/downturn/cards.yaml", 2, 8), field="art", seconds=2)
        checked.findings.extend(art.findings)
        return checked

    monkeypatch.setattr(pnp.pipeline, "check_game", check_with_art)
    started = time.perf_counter()
    result = run("build", *SHEETS)
    assert time.perf_counter() - started < 15
    assert result.code == 1
    assert result.lines[0].startswith("content/downturn/cards.yaml:2:8: error: art: "
                                      f"'art/{name}' ")
    assert result.lines[-1].endswith("nothing was written")
    assert_untouched(project, built)


DEBTORS = TESTS / "data" / "games" / "debtors"


@pytest.fixture(scope="module")
def debtors_built(tmp_path_factory) -> Path:
    """The Debtors test game (its aid carries SVG art in an image field), built once."""
    root = tmp_path_factory.mktemp("debtors")
    shutil.copytree(DEBTORS, root, dirs_exist_ok=True)
    assert main(["build", "--root", str(root), "--sheets", "aid,tokens"]) == 0
    return root


@pytest.mark.parametrize("art, fragment", [
    (slow_svg(), "takes longer than 2 s to draw, so it was stopped"),
    (png_header(40_000, 40_000), "is 40000 x 40000 pixels, more than the 40000000 allowed"),
], ids=["svg-for-minutes", "png-bomb"])
def test_hostile_art_in_an_image_field_is_refused_and_the_earlier_build_kept(
        debtors_built, tmp_path, monkeypatch, run, art, fragment):
    project = tmp_path / "debtors"
    shutil.copytree(debtors_built, project)
    monkeypatch.chdir(project)
    out = Path("output/debtors")
    before = snapshot(out)
    assert {"aid-letter.pdf", "tokens-letter.pdf"} <= set(before)
    (project / "content/debtors/coin.svg").write_bytes(art)  # the aid's art, same name
    monkeypatch.setattr(pnp.load.probe, "SVG_SECONDS", 2.0)
    started = time.perf_counter()
    result = run("build", "--sheets", "aid,tokens")
    assert time.perf_counter() - started < 20  # cairosvg alone would draw for over a minute
    assert result.code == 1, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    refused = [line for line in result.lines if fragment in line]
    assert refused and refused[0].startswith("content/debtors/aid.yaml:2:8: error: "), result.err
    assert result.lines[-1].endswith("nothing was written")
    assert snapshot(out) == before and leftovers(project) == []


# -- template mistakes -----------------------------------------------------------------------------

@pytest.mark.parametrize("template, old, new", [
    ("templates/downturn/bank-front.svg.j2", "</svg>", "<g></svg>"),
    ("templates/common/sheet.svg.j2", "{{", "{{ no_such_name ~ "),
], ids=["unclosed-tag-in-card-template", "undefined-name-in-sheet-template"])
def test_a_template_mistake_is_a_check_finding_naming_the_template(project, run, built,
                                                                   template, old, new):
    path = project / template
    if not path.exists():  # the sheet furniture: the project's copy overrides pnp's own
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / "pnp/data/templates" / path.name, path)
    source = path.read_text(encoding="utf-8")
    assert old in source
    path.write_text(source.replace(old, new, 1), encoding="utf-8")
    line = source[:source.index(old)].count("\n") + 1
    result = run("check")
    assert result.code == 1, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err
    assert any(found.startswith(f"{template}:{line}:") for found in result.lines), result.err
    build = run("build", *SHEETS)
    assert build.code == 1 and "internal error" not in build.err, build.err
    assert_untouched(project, built)
