"""Bad input: every broken or hostile content file gives one located line and exit 1, never a crash.

Each case under tests/data/bad/ is a whole content file, named `<file it replaces>--<case>.yaml`.
The table gives the line and column it must be reported at and a fragment of the message.
Cases that cannot be a file in the repository (too large, a folder, a pipe) are built here.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import TESTS

BAD = TESTS / "data" / "bad"
GAME = Path("content/downturn")


@dataclass(frozen=True)
class Case:
    file: str  # under tests/data/bad/
    where: str  # "line:col", or "" for a finding about the whole file
    fragment: str
    args: tuple[str, ...] = ()

    @property
    def target(self) -> str:
        return self.file.split("--")[0] + ".yaml"


CASES = [
    # Malformed YAML
    Case("game--tab-indent.yaml", "6:1", "found character '\\t' that cannot start any token"),
    Case("game--unclosed-quote.yaml", "8:16", "while scanning a quoted scalar"),
    Case("game--missing-colon.yaml", "2:1", "could not find expected ':'"),
    Case("game--bad-indent.yaml", "3:7", "mapping values are not allowed here"),
    Case("game--two-documents.yaml", "9:1", "expected a single document"),
    Case("game--empty.yaml", "", "file is empty"),
    Case("game--comments-only.yaml", "", "file is empty"),
    # Constructs the strict loader refuses
    Case("game--duplicate-key.yaml", "9:1", "duplicate key 'title' (first at line 1)"),
    Case("game--alias.yaml", "3:10", "YAML alias '*who' is not allowed"),
    Case("game--billion-laughs.yaml", "2:8", "YAML alias '*a' is not allowed"),
    Case("game--python-tag.yaml", "1:8",
         "YAML tag '!!python/object/apply:os.system' is not allowed"),
    Case("game--custom-tag.yaml", "3:7", "YAML tag '!year' is not allowed"),
    Case("game--deep-nesting.yaml", "1:47", "nested more than 40 deep"),
    Case("game--merge-key.yaml", "3:1", "a key must be plain text, not '<<'"),
    Case("game--complex-key.yaml", "3:3", "a key must be plain text, not list"),
    # Encoding and invisible characters
    Case("game--latin1.yaml", "2:14", "byte 0xe9 is not valid UTF-8"),
    Case("game--utf16.yaml", "1:1", "byte 0xff is not valid UTF-8"),
    Case("game--raw-control-char.yaml", "1:12", "the control character U+0007"),
    Case("game--raw-nul.yaml", "2:15", "the control character U+0000"),
    Case("game--raw-next-line.yaml", "2:15", "the control character U+0085"),
    Case("game--escaped-control-char.yaml", "1:8", "title: contains the control character U+000C"),
    Case("game--escaped-surrogate.yaml", "2:11", "the character U+D800, which is not printable"),
    Case("game--terminal-escape.yaml", "2:11", "the control character U+001B"),
    # Wrong shapes and types
    Case("game--list-root.yaml", "1:1", "expected a mapping, got a list"),
    Case("game--scalar-root.yaml", "1:1", "expected a mapping, got 'Downturn'"),
    Case("game--title-mapping.yaml", "1:8", "title: expected text, got a mapping"),
    Case("game--players-list.yaml", "4:10", "players: expected a mapping, got a list"),
    Case("events--not-a-list.yaml", "1:1", "events: expected a list, got a mapping"),
    Case("events--invest-string.yaml", "5:11", "invest: expected a mapping, got 'two green'"),
    Case("tracks--not-a-mapping.yaml", "1:1", "tracks: expected a mapping, got a list"),
    Case("components--colours-string.yaml", "2:17", "player_colours: expected a list"),
    # YAML 1.1 surprises and numbers
    Case("game--year-octal.yaml", "3:7", "YAML 1.1 reads '02011' as a different number"),
    Case("game--year-sexagesimal.yaml", "3:7", "YAML 1.1 reads '20:09' as a different number"),
    Case("game--year-hex.yaml", "3:7", "YAML 1.1 reads '0x7D9' as a different number"),
    Case("game--year-quoted.yaml", "3:7", "got '2009'; remove the quotes"),
    Case("game--year-float.yaml", "3:7", "a whole number has no decimal point"),
    Case("game--year-words.yaml", "3:7", "expected a whole number, got 'two thousand nine'"),
    Case("game--year-huge.yaml", "3:7", "a number this long cannot be meant"),
    Case("game--players-yes.yaml", "4:16", "YAML 1.1 reads 'yes' as true/false"),
    Case("events--leader-yes.yaml", "4:11", "older YAML reads 'yes' as a yes/no value"),
    Case("events--float-number.yaml", "1:11", "number: expected a whole number, got '1.5'"),
    Case("events--negative-cubes.yaml", "5:27", "invest.red: -2 must be >= 0"),
    # Missing and unknown
    Case("game--missing-title.yaml", "1:1", "missing required key 'title'"),
    Case("game--null-title.yaml", "1:7", "title: has no value"),
    Case("events--missing-effect.yaml", "1:3", "missing required key 'effect'"),
    Case("events--bad-timing.yaml", "3:11", "'noww' is not one of: now, rest-of-turn"),
    Case("game--unknown-key.yaml", "6:1", "unknown key 'desigenr'; did you mean 'designer'?",
         ("--strict",)),
    Case("game--unknown-plugin.yaml", "14:9",
         "no installed package provides the rules plug-in 'upturn'"),
]


def test_every_case_file_is_in_the_table_and_the_corpus_is_large():
    files = sorted(p.name for p in BAD.iterdir())
    assert files == sorted(case.file for case in CASES)
    assert len(CASES) >= 30


def _assert_one_clean_line(result, shown: str, where: str, fragment: str) -> None:
    assert result.code == 1, result.err
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    findings = [line for line in result.lines if not line.startswith("pnp ")]
    assert len(findings) == 1, result.err
    line = findings[0]
    prefix = f"{shown}:{where}: " if where else f"{shown}: "
    assert line.startswith(prefix), line
    assert fragment in line, line
    assert line.isprintable(), repr(line)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.file)
def test_bad_content_file_gives_one_located_line(project, run, case):
    shutil.copyfile(BAD / case.file, project / GAME / case.target)
    result = run("check", *case.args)
    _assert_one_clean_line(result, f"content/downturn/{case.target}", case.where, case.fragment)


@pytest.mark.parametrize("case", CASES[:12], ids=lambda c: c.file)
def test_bad_content_makes_build_write_nothing(project, run, case):
    shutil.copyfile(BAD / case.file, project / GAME / case.target)
    result = run("build", *case.args)
    assert result.code == 1 and "nothing was written" in result.err, result.err
    assert not (project / "output").exists()


def _too_large(path: Path) -> str:
    path.write_bytes(b"# padding\n" * 100_001)
    return "more than the 1000000 allowed (PNP_MAX_FILE_MB); if the file is right, raise " \
        "the limit: set PNP_MAX_FILE_MB=2"


def _folder(path: Path) -> str:
    path.unlink()
    path.mkdir()
    return "is a folder"


def _pipe(path: Path) -> str:  # reading a pipe with no writer would block forever
    path.unlink()
    os.mkfifo(path)
    return "is not a regular file"


def _device(path: Path) -> str:  # /dev/zero never ends: it must never be opened
    path.unlink()
    path.symlink_to("/dev/zero")
    return "leads outside the project folder"


@pytest.mark.parametrize("make", [_too_large, _folder, _pipe, _device],
                         ids=lambda f: f.__name__.strip("_"))
def test_hostile_files_give_one_line(project, run, make, monkeypatch):
    monkeypatch.setenv("PNP_MAX_FILE_MB", "1")  # the limit met without writing 50 MB
    target = project / GAME / "events.yaml"
    fragment = make(target)
    result = run("check")
    _assert_one_clean_line(result, "content/downturn/events.yaml", "", fragment)


def test_a_missing_data_file_is_reported_where_the_manifest_names_it(project, run):
    (project / GAME / "events.yaml").unlink()
    result = run("check")
    line = next(n for n, text in enumerate(
        (project / GAME / "game.yaml").read_text(encoding="utf-8").splitlines(), 1)
        if "file: events.yaml" in text)
    _assert_one_clean_line(result, "content/downturn/game.yaml", f"{line}:11",
                           "'events.yaml' is not in content/downturn/")


@pytest.mark.parametrize("text, fragment", [
    ("Stability -1. {purple}", "unknown icon token {purple}"),
    ("Stability -1. \U0001F4A5", "character '\U0001F4A5' (U+1F4A5) is not in the font Roboto Condensed (regular)"),
    ("Stability -1. " + "word " * 600, "text overflows its"),
], ids=["unknown-token", "missing-glyph", "overflow"])
def test_card_text_problems_are_located_on_the_effect(project, run, text, fragment):
    events = project / GAME / "events.yaml"
    old = 'effect: "Stability -1."'
    line = events.read_text(encoding="utf-8").splitlines().index(f"  {old}") + 1
    source = events.read_text(encoding="utf-8").replace(old, f"effect: {text!r}", 1)
    events.write_text(source, encoding="utf-8")
    result = run("check")
    assert result.code == 1, result.err
    assert "Traceback" not in result.err
    errors = [f for f in result.lines if ": error: " in f]
    assert len(errors) == 1, result.err
    assert errors[0].startswith(f"content/downturn/events.yaml:{line}:11: error: event 1 ")
    assert fragment in errors[0]
