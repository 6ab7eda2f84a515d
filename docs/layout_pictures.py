"""Refresh the pictures of each built-in layout in docs/img/ (README, "How to print").

Builds Downturn's event cards in every layout into a scratch folder and renders one page of
each at 60 dpi with poppler's pdftoppm: python docs/layout_pictures.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pnp.cli import main  # noqa: E402
from pnp.compose.deck import sheet_file_name  # noqa: E402
from pnp.layout.layouts import builtin_layouts  # noqa: E402

# Which page shows the layout best (1-based): the backs page where the flip is the point.
PAGE = {"home-short-edge": 2, "home-stack": 6, "print-shop": 1}


def refresh() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        for name, layout in builtin_layouts().items():
            sheets = "aids" if name == "print-shop" else "events"
            assert main(["build", "--root", str(ROOT), "--game", "downturn", "--sheets", sheets,
                         "--layout", name, "--out", scratch]) == 0
            pdf = Path(scratch) / "downturn" / sheet_file_name(sheets, "letter", name, layout)
            page = str(PAGE.get(name, 1))
            target = ROOT / "docs" / "img" / f"layout-{name}"
            subprocess.run(["pdftoppm", "-png", "-r", "60" if name != "print-shop" else "100",
                            "-f", page, "-l", page, "-singlefile", str(pdf), str(target)],
                           check=True)
            print(f"docs/img/layout-{name}.png")


if __name__ == "__main__":
    refresh()
