"""Every shipped kit, read back from its PDFs: each sheet `pnp list` names is written on Letter
and A4, drawn as vectors (a rasterised page prints soft and weighs megabytes), and embeds only
the bundled fonts. Each kit's own module checks its counts and its particular sheets."""

from __future__ import annotations

import pytest

from conftest import KIT_PAPERS, REPO
from pnp.pipeline import Project, check_game
from readback import font_names, images

KITS = ("crunch", "downsize", "boomtown", "banking")


def expected_files(game: str) -> set[str]:
    checked = check_game(Project(REPO), game)
    names = set()
    for sheet in checked.sheets:
        for output in checked.outputs[sheet.name]:  # e.g. board-large.pdf, cards-letter.pdf
            names.add(output.file_name.removesuffix(".pdf").replace("-letter", "-{paper}"))
    return {name.format(paper=paper) for name in names for paper in KIT_PAPERS}


@pytest.mark.parametrize("game", KITS)
def test_every_sheet_is_written_on_letter_and_a4(built_kit, game):
    written = {p.stem for p in built_kit(game).glob("*.pdf")}
    assert expected_files(game) <= written
    assert all(name.endswith(("-letter", "-a4", "-large")) for name in written), written


@pytest.mark.parametrize("game", KITS)
def test_every_sheet_is_vector_only(built_kit, game):
    pdfs = sorted(built_kit(game).glob("*.pdf"))
    assert pdfs
    assert {p.name: images(p) for p in pdfs} == {p.name: 0 for p in pdfs}


@pytest.mark.parametrize("game", KITS)
def test_every_sheet_embeds_only_the_bundled_fonts(built_kit, game):
    for path in built_kit(game).glob("*.pdf"):
        names = font_names(path)
        assert names and all(n.startswith(("RobotoCondensed", "NotoSerif")) for n in names), \
            (path.name, names)
