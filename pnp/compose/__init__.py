"""Compose: a loaded Game and a renderer in; printable components (sheets) and their PDFs' page
plans out.

`make_sheets` (game.py) turns a game's decks, boards and pages into components: `Deck`,
`Board`, `Page` and `TuckBox`, each in its own module, all sharing `component.Component`. A
component draws its faces through the renderer (`render`, or the same work in `parts`), and
gives the PDFs it makes on a paper (`outputs`: page plans, laid out with pnp.layout, their
margin furniture drawn), its faces for the proof (`gallery`) and its line in `pnp list`
(`describe`). kit.py packs every deck of a game onto the fewest sheets for `pnp plan`; cover.py
counts what a cover sheet lists.
"""
