"""Kept impositions: a deck's imposition arguments in; its pages, as an earlier run imposed
them with the same arguments, out.

Imposing (pnp.layout.impose) is pure: the pages follow from the arguments alone (how many
pieces and their size, the paper, the layout, the bleed, the printer's margin, the longest
lines of furniture) and from pnp's own code. Placing the furniture in the margins, clear of
the crop marks, is most of its work: Downturn's six impositions take about 34 ms, which every
check spent again, an edited card's too. So, like compiled templates and measured fonts, an
imposition is kept by what computing it depends on: the arguments' repr (every field of
every value, floats exactly) and pnp's installation (its files, the installed distributions,
Python's version), in the user's cache (pnp.cache.store), capped and pruned with the rest.
An entry that cannot be read or unpickled is imposed again; pages that cannot be pickled
are not kept.
"""

from __future__ import annotations

import hashlib
from typing import Callable, TypeVar

from ..engine import store

FORMAT = 3  # 3: the entry as pnp.engine.store.write_value keeps it
KIND = "impositions"

Pages = TypeVar("Pages")


def kept(arguments: tuple, impose: Callable[[], Pages]) -> Pages:
    """What `impose()` gives for `arguments`: kept by an earlier run, or imposed now and kept."""
    folder = store.folder(KIND)
    if folder is None:
        return impose()
    key = hashlib.sha256("\0".join([str(FORMAT), store.installation(), repr(arguments)]).encode(
        "utf-8", "surrogatepass")).hexdigest()
    pages = store.read_value(folder, key)
    if pages is None:
        pages = impose()
        store.write_value(folder, key, pages)
    return pages
