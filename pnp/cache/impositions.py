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
An entry that cannot be read or unpickled is imposed again.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import Callable, TypeVar

from . import store

FORMAT = 1
KIND = "impositions"

Pages = TypeVar("Pages")


def kept(arguments: tuple, impose: Callable[[], Pages]) -> Pages:
    """What `impose()` gives for `arguments`: kept by an earlier run, or imposed now and kept."""
    folder = store.folder(KIND, "cache/impositions.py")
    if folder is None:
        return impose()
    key = hashlib.sha256("\0".join([str(FORMAT), store.installation(), repr(arguments)]).encode(
        "utf-8", "surrogatepass")).hexdigest()
    data = store.read(folder, key)
    if data is not None:
        try:
            entry = pickle.loads(data)
            if entry["format"] == FORMAT and entry["key"] == key:
                return entry["pages"]
        except Exception:  # noqa: BLE001 - an unreadable entry only costs the imposition
            pass
    pages = impose()
    try:
        data = pickle.dumps({"format": FORMAT, "key": key, "pages": pages},
                            pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return pages  # not kept: imposed again next time
    store.write(folder, key, data)
    return pages
