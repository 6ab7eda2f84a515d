"""pnp list: each game's sheets, read from its content without drawing a face or planning a
page; what it prints for a game that cannot be read, and for one that cannot be drawn."""

from __future__ import annotations

import jinja2
import pytest

from conftest import REPO, TESTS, edit

GOLDEN = TESTS / "golden" / "list.txt"
UNREADABLE = "downturn: downturn\n  (sheets unavailable until 'pnp check' is clean)\n"


def test_every_kit_lists_its_sheets_as_approved(run, update_golden):
    """The five kits' lists, as `pnp list` printed them when it ran a whole check for them."""
    result = run("list", "--root", str(REPO))
    assert result.code == 0, result.err
    if update_golden:
        GOLDEN.write_text(result.out, encoding="utf-8")
    assert result.out == GOLDEN.read_text(encoding="utf-8")
    assert result.err == ""


@pytest.fixture
def looked_up(monkeypatch) -> list[str]:
    """The templates looked up from here on: drawing a face looks its template up."""
    names: list[str] = []
    get_template = jinja2.Environment.get_template

    def noted(self, name, *args, **kwargs):
        names.append(str(name))
        return get_template(self, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "get_template", noted)
    return names


def test_list_draws_nothing_that_check_draws(project, run, looked_up):
    listed = run("list")
    assert listed.code == 0, listed.err
    assert "events        42 x Event cards (63 x 88 mm)" in listed.out
    assert looked_up == []
    assert run("check").code == 0
    assert "event-front.svg.j2" in looked_up  # the probe sees drawing when there is some


@pytest.mark.parametrize("broken", ["syntax", "missing"])
def test_a_template_that_cannot_be_drawn_stops_check_and_not_list(project, run, broken):
    before = run("list")
    template = project / "templates" / "downturn" / "event-front.svg.j2"
    if broken == "syntax":
        edit(template, 'stroke="{{ band }}"', 'stroke="{{ band }"')
    else:
        template.unlink()
    checked = run("check")
    assert checked.code == 1
    assert "event-front.svg.j2" in checked.err
    listed = run("list")
    assert (listed.code, listed.out, listed.err) == (0, before.out, before.err)


@pytest.mark.parametrize("file, old, new", [
    ("game.yaml", "title: Downturn", "title: [Downturn"),  # YAML that does not parse
    ("events.yaml", "stability: -1", "stability: lots"),  # a row with an error
], ids=["yaml", "row"])
def test_a_game_that_cannot_be_read_is_listed_without_sheets(project, run, file, old, new):
    edit(project / "content" / "downturn" / file, old, new)
    assert run("check").code == 1
    listed = run("list")
    assert (listed.code, listed.out, listed.err) == (0, UNREADABLE, "")
