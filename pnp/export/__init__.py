"""Export: a checked game in; a proof gallery, Tabletop Simulator decks and
print-shop PNGs out.
"""
