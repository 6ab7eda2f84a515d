"""The one confined opener (pnp.reads): every file pnp reads from a project, through the CLI.

A file reached through a symbolic link that leads out of the project (data, templates, the
project's layouts, printer profiles, rules, history records) is refused with one located
line, its bytes never shown; a link to another file of the project is followed. A printer
profile name cannot climb out of printers/. A build refused this way leaves the PDFs of the
last good build as they were.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import pnp
from conftest import TESTS
from pnp import reads

LEDGER = TESTS / "data" / "games" / "ledger"
SECRET = "root:x:0:0:secret-line"
PACKAGE = Path(pnp.__file__).resolve().parent


@pytest.fixture
def ledger(tmp_path, monkeypatch) -> Path:
    """The ledger test game as a project of its own, the current directory, beside a folder
    of files outside it."""
    root = tmp_path / "project"
    shutil.copytree(LEDGER, root)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def opened(monkeypatch) -> list[str]:
    """Every path pnp's reading function opens during the test, links resolved."""
    paths: list[str] = []
    original = reads._read

    def spy(path, limit, *confinement):
        paths.append(os.path.realpath(path))
        return original(path, limit, *confinement)

    monkeypatch.setattr(reads, "_read", spy)
    return paths


def outside(project: Path, paths: list[str]) -> list[str]:
    """The opened paths neither in the project nor in pnp's own package (fonts, layouts)."""
    allowed = (str(project.resolve()) + os.sep, str(PACKAGE) + os.sep)
    return [p for p in paths if not p.startswith(allowed)]


def link_out(project: Path, relative: str, text: str) -> Path:
    """Replace a project file by a link to a file outside the project holding `text`."""
    target = project.parent / "elsewhere" / Path(relative).name
    target.write_text(text, encoding="utf-8")
    path = project / relative
    path.unlink(missing_ok=True)
    path.symlink_to(target)
    return path


CASES = [
    # (file linked out, what it holds, command, where the one error line points)
    ("content/ledger/notes.yaml", SECRET + "\n", ("check",), "content/ledger/notes.yaml: "),
    ("content/ledger/cards.csv", "title,secret\nx,secret-cell\n", ("check",),
     "content/ledger/cards.csv: "),
    ("content/ledger/rules.yaml", "[]\n", ("check",), "content/ledger/rules.yaml: "),
    ("layouts.yaml", SECRET + "\n", ("check",), "layouts.yaml: "),
    ("printers/office.yaml", SECRET + "\n", ("check", "--printer", "office"),
     "printers/office.yaml: "),
    ("templates/ledger/note-front.svg.j2", "<svg>" + SECRET + "</svg>", ("check",),
     "content/ledger/game.yaml:"),
]


@pytest.mark.parametrize("relative, text, command, located", CASES,
                         ids=[case[0].rsplit("/", 1)[-1] for case in CASES])
def test_a_link_out_of_the_project_is_refused_with_one_located_line(
        ledger, run, opened, relative, text, command, located):
    link_out(ledger, relative, text)
    result = run(*command)
    assert result.code == 1, result.err
    errors = [line for line in result.lines if ": error: " in line]
    assert len(errors) == 1, result.err
    assert errors[0].startswith(located), errors[0]
    assert reads.OUTSIDE_MESSAGE in errors[0] and "(rule file-outside)" in errors[0]
    assert "secret" not in result.err + result.out
    assert "Traceback" not in result.err and "internal error" not in result.err
    assert outside(ledger, opened) == []


def test_a_link_to_another_file_of_the_project_is_followed(ledger, run, opened):
    (ledger / "shared").mkdir()
    notes = ledger / "content/ledger/notes.yaml"
    notes.rename(ledger / "shared/notes.yaml")
    notes.symlink_to(Path("../../shared/notes.yaml"))
    result = run("check")
    assert result.code == 0, result.err
    assert outside(ledger, opened) == []


def test_a_refused_build_leaves_the_last_good_pdfs_as_they_were(ledger, run):
    assert run("build").code == 0
    pdfs = sorted((ledger / "output/ledger").glob("*.pdf"))
    before = {p: p.read_bytes() for p in pdfs}
    link_out(ledger, "content/ledger/cards.csv", "title\nsecret\n")
    result = run("build")
    assert result.code == 1
    assert "secret" not in result.err
    assert {p: p.read_bytes() for p in pdfs} == before


@pytest.mark.parametrize("name", ["../evil", "..", "/etc/passwd", "a/b", ".hidden"])
def test_a_printer_name_cannot_leave_the_printers_folder(ledger, run, opened, name):
    (ledger / "evil.yaml").write_text('description: "evil"\n', encoding="utf-8")
    result = run("check", "--printer", name)
    assert result.code == 1
    assert result.lines[0].startswith("printers: error: ") and "not a profile name" in \
        result.lines[0], result.err
    assert "Traceback" not in result.err
    assert not any(p.endswith("evil.yaml") or p == "/etc/passwd" for p in opened)


def test_a_history_record_linked_out_is_refused(ledger, run):
    assert run("build").code == 0
    records = sorted((ledger / "output/ledger/history").rglob("*.json.xz"))
    assert records, "a build keeps a record"
    elsewhere = ledger.parent / "elsewhere" / records[-1].name
    shutil.copy(records[-1], elsewhere)
    records[-1].unlink()
    records[-1].symlink_to(elsewhere)
    result = run("diff")
    assert result.code != 0
    assert reads.OUTSIDE_MESSAGE in result.err
    assert "Traceback" not in result.err and "internal error" not in result.err


@pytest.fixture(params=["proc", "fstat"])
def descriptor_check(request, monkeypatch) -> str:
    """How the opened file is checked: by the real path Linux gives an open descriptor, or
    (elsewhere) by comparing it with the file its path leads to now."""
    if request.param == "fstat":
        readlink = os.readlink

        def no_proc(path, *args, **kwargs):
            if str(path).startswith("/proc/self/fd/"):
                raise OSError("no /proc here")
            return readlink(path, *args, **kwargs)

        monkeypatch.setattr(reads.os, "readlink", no_proc)
    return request.param


def swap_when_opened(monkeypatch, relative: str, swap) -> list[str]:
    """Between the check of `relative`'s path and its opening, `swap()` replaces it (as a
    process racing pnp could): deterministic, the swap is made by the opening step itself.
    Returns the real paths of the files then read, on systems that name them."""
    original = reads._read
    swapped: list[str] = []

    def racing(path, limit, *confinement):
        if path.endswith(relative) and not swapped:
            swapped.append(path)
            swap()
        return original(path, limit, *confinement)

    monkeypatch.setattr(reads, "_read", racing)
    read: list[str] = []
    fdopen = os.fdopen

    def spy(fd, *args, **kwargs):
        try:
            read.append(os.path.realpath(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
        return fdopen(fd, *args, **kwargs)

    monkeypatch.setattr(reads.os, "fdopen", spy)
    return read


def test_a_link_swapped_in_after_the_check_is_refused(ledger, run, monkeypatch,
                                                     descriptor_check):
    secret = "title,secret\nx,secret-cell\n"
    read = swap_when_opened(monkeypatch, "content/ledger/cards.csv",
                            lambda: link_out(ledger, "content/ledger/cards.csv", secret))
    result = run("check")
    assert result.code == 1, result.err
    errors = [line for line in result.lines if ": error: " in line]
    assert len(errors) == 1 and errors[0].startswith("content/ledger/cards.csv: "), result.err
    assert reads.OUTSIDE_MESSAGE in errors[0] and "(rule file-outside)" in errors[0]
    assert "secret" not in result.err + result.out
    assert "Traceback" not in result.err and "internal error" not in result.err
    assert not any("elsewhere" in path for path in read), read


def test_a_link_inside_the_project_swapped_in_is_followed(ledger, run, monkeypatch,
                                                         descriptor_check):
    cards = ledger / "content/ledger/cards.csv"

    def swap() -> None:
        (ledger / "shared").mkdir()
        shutil.copy(cards, ledger / "shared/cards.csv")
        cards.unlink()
        cards.symlink_to(Path("../../shared/cards.csv"))

    swap_when_opened(monkeypatch, "content/ledger/cards.csv", swap)
    result = run("check")
    assert result.code == 0, result.err
    assert cards.is_symlink()


def test_a_file_removed_while_it_is_read_is_read_as_it_was_opened(tmp_path, monkeypatch):
    path = tmp_path / "cards.csv"
    path.write_text("title\nLoan\n", encoding="utf-8")
    checked = reads._opened_inside

    def removed_meanwhile(fd, opened, roots):
        os.unlink(opened)
        return checked(fd, opened, roots)

    monkeypatch.setattr(reads, "_opened_inside", removed_meanwhile)
    assert reads.read_file(path, inside=tmp_path) == b"title\nLoan\n"
