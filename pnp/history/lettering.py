"""The fonts of a reprint and a visual diff: a checked game in; its font files made drawable,
and the family pnp's own words on those pages are set in, out.

A reprint and a diff show the game's faces as its build prints them, so they draw with the
same font files (`pnp.fonts.game_font_files`, the one place that decides them); pnp's own words
(the pull list, the captions) are set in the game's body family, so a game with fonts of its
own gets no bundled body face in these files.
"""

from __future__ import annotations

from ..fonts import BUNDLED, game_font_files, use_fonts


def use_game_fonts(checked) -> None:
    """Make the game's own font files drawable in this process, beside the bundled ones."""
    use_fonts(game_font_files(getattr(checked, "game", None)))


def words_family(checked) -> str:
    """The family pnp's own words are set in: the game's body face, else the bundled one."""
    game = getattr(checked, "game", None)
    face = (game.fonts if game is not None else BUNDLED).face("body") or BUNDLED.face("body")
    return face.family
