"""Every cache's writer read back by its reader: the user cache's store, the sheet cache, the
remembered answers, compiled Jinja, the build record and the history of builds. What is
written is what is read; an entry damaged since (truncated, a byte changed) is read as no
entry: never an error, never another value."""

from __future__ import annotations

import hashlib
import json
import lzma
import marshal
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pnp import reads
from pnp.engine import reads as recorded
from pnp.engine import answers, jinja, store
from pnp.cache.pdfs import CACHE_FILE, BuildCache
from pnp.engine.memo import SheetCache
from pnp.history import record as history

FEW = settings(max_examples=40, deadline=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture])
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@st.composite
def damage(draw, data: bytes) -> bytes:
    """`data` truncated, or with one byte changed (the same draws whatever its length, which
    may depend on a temporary folder's name)."""
    truncate, where, flip = draw(st.booleans()), draw(st.integers(0, 1 << 20)), \
        draw(st.integers(1, 255))
    if truncate or not data:
        return data[:where % max(len(data), 1)]
    at = where % len(data)
    return data[:at] + bytes([data[at] ^ flip]) + data[at + 1:]


def damaged_entry(data, where: Path, key: str) -> None:
    """Damage the store's entry for `key` in place (`data`: Hypothesis's draw)."""
    path = store._entry(where, key)
    path.write_bytes(data.draw(damage(path.read_bytes())))


# -- the store -------------------------------------------------------------------------------

@FEW
@given(key=st.text(max_size=30), value=st.binary(max_size=300), data=st.data())
def test_the_store_reads_what_it_wrote_and_no_damaged_entry(tmp_path_factory, key, value, data):
    where = tmp_path_factory.mktemp("store")
    assert store.read(where, key) is None
    store.write(where, key, value)
    assert store.read(where, key) == value
    damaged_entry(data, where, key)
    assert store.read(where, key) is None


def test_the_store_reads_no_entry_where_a_folder_or_nothing_is(tmp_path):
    store.write(tmp_path, "k", b"value")
    store._entry(tmp_path, "k").unlink()
    assert store.read(tmp_path, "k") is None
    store._entry(tmp_path, "k").mkdir()
    assert store.read(tmp_path, "k") is None
    assert store.read(None, "k") is None


# -- the sheet cache -------------------------------------------------------------------------

@dataclass(frozen=True)
class Sheet:
    name: str
    items: tuple = ()


@dataclass(frozen=True)
class Options:
    layout: str = "home"

    def sheet_layout(self) -> str:
        return self.layout


def sheet_cache(root: Path) -> SheetCache:
    env = SimpleNamespace(loader=SimpleNamespace(sources={}), globals={"lang": "en"})
    return SheetCache(root, "game", SimpleNamespace(env=env), "letter", Options(),
                      recorded.Record(), {})


WORK = st.recursive(st.none() | st.booleans() | st.integers() | TEXT | st.floats(allow_nan=False),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner,
                                                                                max_size=4),
                    max_leaves=12)


@FEW
@given(work=WORK, items=st.lists(TEXT, max_size=3), data=st.data())
def test_the_sheet_cache_recalls_what_it_kept_and_no_damaged_entry(tmp_path_factory, user_cache,
                                                                   work, items, data):
    root = tmp_path_factory.mktemp("project")
    template = root / "face.svg.j2"
    template.write_text("<svg/>", encoding="utf-8")
    kept = sheet_cache(root)
    sheet = Sheet("cards", tuple(items))
    key = kept.key(sheet, 0, 1)
    assert key is not None
    assert kept.recall(sheet, 0, key) is None
    with recorded.recording() as drawn:
        reads.read_file(template)
    kept.keep(sheet, 0, key, work, drawn)
    again = sheet_cache(root)  # as the next check makes it
    assert again.key(sheet, 0, 1) == key
    assert again.recall(sheet, 0, key) == work
    assert again.recall(sheet, 0, key[::-1]) is None  # another key: not this entry
    damaged_entry(data, kept.folder, kept._slot(sheet, 0))
    assert sheet_cache(root).recall(sheet, 0, key) is None


def test_the_sheet_cache_recalls_nothing_once_a_file_read_changed(tmp_path, user_cache):
    template = tmp_path / "face.svg.j2"
    template.write_text("<svg/>", encoding="utf-8")
    kept, sheet = sheet_cache(tmp_path), Sheet("cards", ("a",))
    key = kept.key(sheet, 0, 1)
    with recorded.recording() as drawn:
        reads.read_file(template)
    kept.keep(sheet, 0, key, {"faces": ["<svg/>"]}, drawn)
    assert sheet_cache(tmp_path).recall(sheet, 0, key) == {"faces": ["<svg/>"]}
    template.write_text("<svg></svg>", encoding="utf-8")
    assert sheet_cache(tmp_path).recall(sheet, 0, key) is None


# -- remembered answers ----------------------------------------------------------------------

def remember(argv: list[str], out: str, err: str, code: int) -> None:
    with answers.remembering(argv):
        sys.stdout.write(out)
        took = answers.elapsed(0.25)
        sys.stderr.write(f"{err} ({took})\n")
        answers.keep(code)


@FEW
@given(out=TEXT, err=TEXT, code=st.integers(0, 2), data=st.data())
def test_a_remembered_answer_is_replayed_as_printed_and_not_once_damaged(
        tmp_path_factory, user_cache, capsys, out, err, code, data):
    argv = ["check", "--root", str(tmp_path_factory.mktemp("project"))]
    capsys.readouterr()
    assert answers.replay(argv) is None
    remember(argv, out, err, code)
    capsys.readouterr()
    assert answers.replay(argv) == code
    printed = capsys.readouterr()
    assert printed.out == out
    assert printed.err.startswith(f"{err} (") and printed.err.endswith(" s)\n")
    damaged_entry(data, store.folder(answers.KIND), answers._key(argv))
    assert answers.replay(argv) is None
    assert capsys.readouterr() == ("", "")


def test_a_remembered_answer_changed_in_what_it_prints_is_not_replayed(tmp_path, user_cache,
                                                                      capsys):
    argv = ["check", "--root", str(tmp_path)]
    remember(argv, "every finding\n", "pnp check: 0 errors", 0)
    path = store._entry(store.folder(answers.KIND), answers._key(argv))
    entry = path.read_bytes()
    assert entry.count(b"every finding") == 1
    path.write_bytes(entry.replace(b"every finding", b"every fInding"))  # still valid JSON
    capsys.readouterr()
    assert answers.replay(argv) is None
    assert capsys.readouterr() == ("", "")


# -- compiled Jinja --------------------------------------------------------------------------

@FEW
@given(number=st.integers(-1000, 1000), data=st.data())
def test_a_templates_bytecode_comes_back_from_its_file_and_not_once_damaged(
        tmp_path_factory, user_cache, monkeypatch, number, data):
    folder = tmp_path_factory.mktemp("templates")
    (folder / "face.svg.j2").write_text("<svg>{{ a + %d }}</svg>" % number, encoding="utf-8")

    def render(a: int) -> str:
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder),
                                 bytecode_cache=jinja.bytecode_cache())
        return env.get_template("face.svg.j2").render(a=a)

    assert render(1) == f"<svg>{1 + number}</svg>"
    kept = list(store.folder("jinja").glob("__jinja2_*.cache"))
    assert kept
    with monkeypatch.context() as patch:  # a new environment: the code from the file
        patch.setattr(jinja2.Environment, "_compile", lambda *a, **k: pytest.fail("compiled"))
        assert render(2) == f"<svg>{2 + number}</svg>"
    for path in kept:
        path.write_bytes(data.draw(damage(path.read_bytes())))
    assert render(3) == f"<svg>{3 + number}</svg>"


# -- the build record ------------------------------------------------------------------------

@FEW
@given(files=st.dictionaries(st.from_regex(r"[a-z]{1,8}\.pdf", fullmatch=True),
                             st.binary(min_size=1, max_size=50), min_size=1, max_size=4),
       data=st.data())
def test_the_build_record_says_fresh_what_it_recorded_and_nothing_once_damaged(
        tmp_path_factory, files, data):
    folder = tmp_path_factory.mktemp("out")
    record = BuildCache(folder)
    keys = {}
    for name, pdf in files.items():
        (folder / name).write_bytes(pdf)
        keys[name] = hashlib.sha256(name.encode()).hexdigest()
        record.record(name, keys[name], pdf)
    (folder / CACHE_FILE).parent.mkdir(parents=True, exist_ok=True)
    (folder / CACHE_FILE).write_bytes(record.to_bytes())
    read = BuildCache(folder)
    assert all(read.fresh(name, key) for name, key in keys.items())
    assert not any(read.fresh(name, key[::-1]) for name, key in keys.items())
    (folder / CACHE_FILE).write_bytes(data.draw(damage(record.to_bytes())))
    damaged = BuildCache(folder)
    for name, key in keys.items():
        # A damaged record may lose entries; it never calls a PDF fresh on another's word.
        assert not damaged.fresh(name, key) or damaged.entries[name] == record.entries[name]


# -- the history of builds -------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | TEXT |
                    st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner,
                                                                                max_size=3),
                    max_leaves=8)
FACES = st.builds(
    history.FaceRecord, sheet=TEXT, label=TEXT, side=st.sampled_from(["front", "back", "board"]),
    stamp=TEXT, svg_hash=st.from_regex(r"[0-9a-f]{16}|", fullmatch=True), fields=JSON,
    size_mm=st.tuples(*[st.floats(0, 1000, allow_nan=False)] * 2),
    kind=st.sampled_from(["deck", "board", "page"]), index=st.integers(0, 10_000))


class Direct:
    """Writes at once, as a build's staging does once it is committed."""

    def write(self, destination: Path, data: bytes) -> None:
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)


@FEW
@given(faces=st.lists(FACES, max_size=5), svgs=st.dictionaries(
    st.from_regex(r"[0-9a-f]{16}", fullmatch=True), TEXT, max_size=3), data=st.data())
def test_a_build_record_reads_back_as_written_and_a_damaged_one_is_refused(
        tmp_path_factory, monkeypatch, faces, svgs, data):
    out = tmp_path_factory.mktemp("output")
    monkeypatch.setattr(history, "snapshot_of",
                        lambda checked: history.Snapshot("now", faces, svgs))
    number = history.record_build(SimpleNamespace(name="game"), out, Direct(), paper="a4")
    assert number == 1 and history.build_numbers(out, "game") == [1]
    back = history.load_build(out, "game", 1)
    assert back.faces == faces and back.svgs == svgs
    # The same faces again are that build again: nothing is recorded.
    assert history.record_build(SimpleNamespace(name="game"), out, Direct(), paper="a4") == 1
    path = history.record_path(out, "game", 1)
    written = path.read_bytes()
    path.write_bytes(data.draw(damage(written)))
    try:
        again = history.load_build(out, "game", 1)
    except history.NoBaseline as refused:
        assert "cannot be read" in str(refused) and "\n" not in str(refused)
    else:  # xz checks what it unpacks: only bytes that change nothing can pass
        assert again.faces == faces and again.svgs == svgs
    # A damaged last record is no reason to record nothing: this build is recorded anew.
    if path.read_bytes() != written:
        assert history.record_build(SimpleNamespace(name="game"), out, Direct(),
                                    paper="a4") in (1, 2)


def test_a_record_with_no_faces_reads_back_as_none(tmp_path):
    path = history.record_path(tmp_path, "game", 1)
    Direct().write(path, lzma.compress(json.dumps({"faces": [], "svgs": []}).encode()))
    with pytest.raises(history.NoBaseline):
        history.load_build(tmp_path, "game", 1)  # svgs must be a mapping
    Direct().write(path, lzma.compress(json.dumps({"faces": [], "svgs": {}}).encode()))
    assert history.load_build(tmp_path, "game", 1).faces == []
