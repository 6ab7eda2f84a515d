"""pnp build and the CLI around it: what gets written, and what a failed build leaves alone."""

from __future__ import annotations

from conftest import edit
from sameplace import project, same_place  # noqa: F401 - fixtures


def test_build_writes_letter_pdfs_of_events_and_banks(project, run):
    result = run("build", "--sheets", "events,banks")
    assert result.code == 0, result.err
    out = project / "output" / "downturn"
    assert sorted(p.name for p in out.glob("*.pdf")) == ["banks-letter.pdf", "events-letter.pdf"]
    assert "wrote output/downturn/events-letter.pdf" in result.out


def test_a4_build_writes_a4_pdfs(project, run):
    assert run("build", "--sheets", "banks", "--paper", "a4").code == 0
    assert (project / "output" / "downturn" / "banks-a4.pdf").read_bytes().startswith(b"%PDF-")


def test_failed_build_leaves_earlier_pdfs_untouched(project, run):
    assert run("build", "--sheets", "events,banks").code == 0
    out = project / "output" / "downturn"
    before = {p.name: p.read_bytes() for p in out.glob("*.pdf")}
    edit(project / "content/downturn/banks.yaml", "auction_order: 2", "auction_order: 1")
    result = run("build", "--sheets", "events,banks")
    assert result.code == 1
    assert "nothing was written" in result.err
    assert {p.name: p.read_bytes() for p in out.glob("*.pdf")} == before


def test_unknown_sheet_is_a_usage_error(project, run):
    result = run("build", "--sheets", "evnts")
    assert result.code == 2
    assert "no sheet named evnts" in result.err
    assert not (project / "output").exists()


def test_unknown_game_is_reported(project, run):
    result = run("check", "--game", "downtrun")
    assert result.code == 1
    assert "did you mean 'downturn'?" in result.err


def test_bad_option_is_a_usage_error(run):
    result = run("build", "--paper", "b5")  # legal, tabloid and a3 are papers now
    assert result.code == 2
    assert "invalid choice" in result.err


def test_list_shows_games_and_sheets(project, run):
    result = run("list")
    assert result.code == 0
    assert "downturn: Downturn" in result.out
    assert "events" in result.out and "42 x Event cards" in result.out
    assert "banks" in result.out and "10 x Bank cards" in result.out
