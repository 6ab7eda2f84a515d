"""Reads: every project file a check reads is noted, with what was found there, in the records
open at the time, and a record can be asked whether its reads give the same answers now
(pnp.reads)."""

from __future__ import annotations

import os

import pytest

from pnp import reads
from pnp.engine import reads as recorded
from pnp.render.renderer import Renderer


def test_a_record_holds_each_read_and_what_it_found(tmp_path):
    (tmp_path / "a.yaml").write_bytes(b"a: 1\n")
    (tmp_path / "folder").mkdir()
    with recorded.recording() as outer:
        assert reads.read_file(tmp_path / "a.yaml") == b"a: 1\n"
        with recorded.recording() as inner:
            with pytest.raises(FileNotFoundError):
                reads.read_file(tmp_path / "missing.yaml")
            with pytest.raises(reads.NotAFile):
                reads.read_file(tmp_path / "folder")
            assert not reads.exists(tmp_path / "gone")
    assert inner.reads == {str(tmp_path / "missing.yaml"): reads.ABSENT,
                           str(tmp_path / "folder"): reads.FOLDER,
                           str(tmp_path / "gone"): reads.ABSENT}
    assert outer.reads == {str(tmp_path / "a.yaml"): reads.digest(b"a: 1\n"), **inner.reads}
    assert not outer.mixed
    reads.read_file(tmp_path / "a.yaml")  # no record open: noted nowhere
    assert len(outer.reads) == 4


def test_a_file_read_twice_with_two_answers_mixes_the_record(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_bytes(b"one")
    with recorded.recording() as record:
        reads.read_file(path)
        reads.read_file(path)
        assert not record.mixed
        path.write_bytes(b"two")
        reads.read_file(path)
    assert record.mixed


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_not_a_file_and_is_never_waited_on(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    with recorded.recording() as record, pytest.raises(reads.NotAFile):
        reads.read_file(tmp_path / "pipe")
    assert record.reads == {str(tmp_path / "pipe"): reads.NOT_A_FILE}


def test_answers_now_tell_every_change_from_what_was_recorded(tmp_path):
    path = tmp_path / "t.svg.j2"
    path.write_bytes(b"abc")
    with recorded.recording() as was_abc:
        reads.read_file(path)
    path.write_bytes(b"ab")
    with recorded.recording() as was_ab:
        reads.read_file(path)
    path.write_bytes(b"abcd")  # grown past both: the first three bytes are as they were
    answers = recorded.Answers()
    assert not answers.same(was_ab.reads)
    assert not answers.same(was_abc.reads)  # each asked as far as its own length and one more
    path.write_bytes(b"abc")
    assert recorded.Answers().same(was_abc.reads)
    path.unlink()
    assert not recorded.Answers().same(was_abc.reads)
    with recorded.recording() as was_absent:
        reads.exists(path)
    assert recorded.Answers().same(was_absent.reads)
    path.write_bytes(b"")  # created empty: something is there now
    assert not recorded.Answers().same(was_absent.reads)


def test_what_the_run_read_itself_is_the_answer_it_works_from(tmp_path):
    path = tmp_path / "events.yaml"
    path.write_bytes(b"old")
    with recorded.recording() as run:
        reads.read_file(path)
    path.write_bytes(b"new")  # saved after the run read it
    assert recorded.Answers(run).same(run.reads)
    assert not recorded.Answers().same(run.reads)


def test_template_lookups_are_reads_found_or_not_and_kept_ones_are_noted_again(tmp_path):
    own, common = tmp_path / "own", tmp_path / "common"
    own.mkdir()
    common.mkdir()
    (common / "face.svg.j2").write_text("<svg/>", encoding="utf-8")
    env = Renderer([own, common], {}, {}).env
    with recorded.recording() as first:
        env.get_template("face.svg.j2")
        with pytest.raises(Exception):
            env.get_template("none.svg.j2")
    found = {str(own / "face.svg.j2"): reads.ABSENT,
             str(common / "face.svg.j2"): reads.digest(b"<svg/>")}
    missed = {str(own / "none.svg.j2"): reads.ABSENT, str(common / "none.svg.j2"): reads.ABSENT}
    assert first.reads == {**found, **missed}
    with recorded.recording() as again:  # Jinja has it compiled: no lookup, the same reads
        env.get_template("face.svg.j2")
    assert again.reads == found


def test_what_is_at_a_path_and_what_a_folder_holds_are_reads_too(tmp_path):
    folder = tmp_path / "content"
    folder.mkdir()
    (folder / "a.yaml").write_text("a: 1\n")
    with recorded.recording() as record:
        assert reads.listing(folder) == ["a.yaml"]
        assert reads.kind(folder / "a.yaml") == reads.FILE
        assert reads.kind(folder / "b.yaml") == reads.ABSENT
        assert reads.kind(folder) == reads.FOLDER
        assert reads.listing(tmp_path / "none") == []
    assert recorded.Answers().same(record.reads)
    (folder / "a.yaml").write_text("a: 2\n")  # the same names, the same kinds: still true
    assert recorded.Answers().same(record.reads)
    (folder / "b.yaml").write_text("b: 1\n")  # a file appears where none was
    assert not recorded.Answers().same(record.reads)
    (folder / "b.yaml").unlink()
    assert recorded.Answers().same(record.reads)
    (folder / "c.yaml").write_text("")  # a new name in the folder
    assert not recorded.Answers().same(record.reads)
    (folder / "c.yaml").unlink()
    (tmp_path / "none").mkdir()  # a folder that was not there
    assert not recorded.Answers().same(record.reads)
