"""The content-format reference is generated from the manifest's schema and must match the
committed one."""

from conftest import REPO
from pnp.load.manifest import DeckSpec
from pnp.load.reference import reference, type_name


def test_committed_reference_is_current():
    committed = (REPO / "docs" / "content-format.md").read_text(encoding="utf-8")
    assert committed == reference(), (
        "docs/content-format.md is stale: run `python -m pnp.load.reference > docs/content-format.md`")


def test_reference_names_every_manifest_key_and_field_type():
    text = reference()
    for key in ("title", "size", "front", "back", "file", "each", "quantity", "sort", "label"):
        assert f"| `{key}` |" in text
    for kind in ("text", "whole", "number", "bool", "choice", "colour", "list", "mapping", "ref",
                 "image"):
        assert f"| `{kind}` |" in text
    assert "| `copies` | whole number | no (default `1`) | >= 1 <= 100 |" in text
    assert "| `shape` | one of `rect`, `round` | no (default `rect`) |" in text
    assert type_name(dict[str, DeckSpec]) == "mapping of names to [DeckSpec](#deckspec)"
