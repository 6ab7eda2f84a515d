"""Quick answers: an unchanged check or build is answered without loading pnp, and any change to
what it reads (content, a template, the options) runs pnp again."""

from __future__ import annotations

import pytest

from pnp import quick
from pnp.pipeline import check_game

CHECK = ["check", "--game", "downturn"]


def test_an_unchanged_check_is_answered_from_its_record(project, run, capsys):
    first = run(*CHECK)
    assert first.code == 0, first.err
    assert quick.answer(CHECK) == 0
    replay = capsys.readouterr()
    assert "pnp check: downturn: 0 errors, 0 warnings" in replay.err
    assert quick.answer(CHECK + ["--strict"]) is None  # other options: not this answer
    assert quick.answer(["list"]) is None


def test_a_content_edit_is_never_answered_from_the_record(project, run, capsys):
    assert run(*CHECK).code == 0
    events = project / "content/downturn/events.yaml"
    text = events.read_text(encoding="utf-8")
    assert "invest: {green: 2}" in text
    events.write_text(text.replace("invest: {green: 2}", "invest: {purple: 2}", 1),
                      encoding="utf-8")
    assert quick.answer(CHECK) is None
    broken = run(*CHECK)
    assert broken.code == 1 and "purple" in broken.err
    assert quick.answer(CHECK) == 1  # the failing answer is remembered too ...
    assert "purple" in capsys.readouterr().err
    events.write_text(text, encoding="utf-8")  # ... until the fix
    assert quick.answer(CHECK) is None


def test_a_template_edit_is_never_answered_from_the_record(project, run):
    assert run(*CHECK).code == 0
    template = next((project / "templates").rglob("*.svg.j2"))
    template.write_text(template.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert quick.answer(CHECK) is None


def test_a_build_is_answered_only_while_its_pdfs_are_intact(project, run, capsys):
    build = ["build", "--game", "downturn", "--sheets", "banks"]
    assert run(*build).code == 0
    assert quick.answer(build) == 0
    assert "0 PDFs" in capsys.readouterr().err
    assert quick.answer(build + ["--paper", "a4"]) is None
    (project / "output/downturn/banks-letter.pdf").write_bytes(b"not a pdf")
    assert quick.answer(build) is None


def test_compiled_jinja_is_kept_between_runs_and_keyed_by_its_source(tmp_path, monkeypatch):
    import jinja2

    from pnp import jinjacache

    class Env(jinjacache.CachedCompiling, jinja2.Environment):
        pass

    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    assert Env().from_string("{{ a + 1 }}").render(a=1) == "2"
    assert Env().compile_expression("a * 2")(a=4) == 8
    assert len([p for p in tmp_path.rglob("*") if p.is_file()]) == 2

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(jinja2.Environment, "_compile", no_compiling)
    fresh = Env()  # as in a new process: the code comes from the cache folder
    assert fresh.from_string("{{ a + 1 }}").render(a=2) == "3"
    assert fresh.compile_expression("a * 2")(a=5) == 10
    with pytest.raises(AssertionError, match="compiled again"):
        fresh.from_string("{{ a + 2 }}")  # other source, other code
    with pytest.raises(AssertionError, match="compiled again"):
        Env(trim_blocks=True).from_string("{{ a + 1 }}")  # other options too



def test_the_run_after_a_missed_answer_starts_from_the_key_it_took(project, run, monkeypatch):
    """Every input is read once before a check that must run, not twice; after the run only
    the files' sizes and times are taken again, and the answer is kept under the key taken
    first."""
    assert run(*CHECK).code == 0
    events = project / "content/downturn/events.yaml"
    events.write_text(events.read_text(encoding="utf-8").replace(
        'effect: "Stability +1."', 'effect: "Stability +1 at once."', 1), encoding="utf-8")
    reads = []
    real = quick.survey
    monkeypatch.setattr(quick, "survey", lambda chosen, read=True: reads.append(read) or
                        real(chosen, read))
    assert quick.answer(CHECK) is None
    assert reads == [True]
    assert run(*CHECK).code == 0
    assert reads == [True, False]  # after the run: the stamp only
    assert quick.answer(CHECK) == 0


def test_an_input_changed_during_the_run_keeps_no_answer(project, run, monkeypatch):
    """A file edited after the key was taken, while the check runs, may have been read: that
    answer is not kept, even when the edit leaves the file's size as it was, so it is never
    given for the content the key was taken of."""
    assert run(*CHECK).code == 0
    events = project / "content/downturn/events.yaml"
    text = events.read_text(encoding="utf-8")
    broken = text.replace('effect: "Stability +1."', 'effect: "Stability +2."', 1)
    assert broken != text and len(broken) == len(text)
    real = check_game

    def edited_meanwhile(*args, **kwargs):
        events.write_text(broken, encoding="utf-8")
        return real(*args, **kwargs)

    monkeypatch.setattr("pnp.pipeline.check_game", edited_meanwhile)
    assert run(*CHECK).code == 1  # it read the edit
    events.write_text(text, encoding="utf-8")
    assert quick.answer(CHECK) == 0  # the answer of the first run, not of the edited one
