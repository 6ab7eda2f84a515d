"""The font table: which face draws a family, weight and style, and a table sent to another
process (a drawing worker has its own hash seed) that is the same table there."""

from __future__ import annotations

import pickle
import subprocess
import sys

from conftest import REPO
from pnp.fonts import BUNDLED, FontTable


def test_the_face_chosen_is_fontconfigs_choice_and_the_same_when_asked_again():
    chosen = BUNDLED.drawing("'Roboto Condensed', sans-serif", "700", "oblique")
    assert (chosen.family, chosen.weight, chosen.style) == ("Roboto Condensed", "bold", "italic")
    # the slant wins over the weight: Noto Serif has only a bold upright face
    assert BUNDLED.drawing("Noto Serif", "normal", "italic").file == "NotoSerif-Bold.ttf"
    assert BUNDLED.drawing("Comic Sans") is None
    assert BUNDLED.drawing("Roboto Condensed", "700", "oblique") is chosen


def test_a_table_read_back_in_another_process_hashes_as_that_process_works_it_out():
    BUNDLED.drawing("Noto Serif")  # answers kept in this process
    hash(BUNDLED)
    sent = pickle.dumps(BUNDLED)
    code = ("import pickle, sys; from pnp.fonts import BUNDLED; "
            "table = pickle.loads(sys.stdin.buffer.read()); "
            "assert table == BUNDLED and hash(table) == hash(BUNDLED) "
            "and {BUNDLED: 1}[table] == 1")
    for seed in ("1", "2"):
        subprocess.run([sys.executable, "-c", code], input=sent, check=True, cwd=REPO,
                       env={"PYTHONHASHSEED": seed, "PATH": ""})
    assert pickle.loads(sent) == BUNDLED and isinstance(pickle.loads(sent), FontTable)
