"""The content-format reference is generated from the schema and must match the committed one."""

from conftest import REPO
from pnp.reference import reference, type_name
from pnp.games.downturn import Event


def test_committed_reference_is_current():
    committed = (REPO / "docs" / "content-format.md").read_text(encoding="utf-8")
    generated = reference("downturn", REPO / "content" / "downturn")
    assert committed == generated, (
        "docs/content-format.md is stale: run "
        "`python -m pnp.reference downturn > docs/content-format.md`")


def test_reference_names_every_key_and_its_constraints():
    text = reference("downturn", REPO / "content" / "downturn")
    for key in ("number", "title", "timing", "effect", "invest", "leader", "crash"):
        assert f"| `{key}` |" in text
    assert "one of `now`, `rest-of-turn`, `end-of-turn`" in text
    assert "| `number` | whole number | yes | >= 1 |" in text
    assert type_name(tuple[Event, ...]) == "list of [Event](#event)"
