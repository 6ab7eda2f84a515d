"""A change to any of pnp's own files redraws: the PDF record, like every kept kind, is keyed
on pnp's whole installation, not on a list of "drawing modules" kept by hand.

An installed copy of pnp (its package folder copied, as a `git pull` or an upgrade replaces it)
builds a small game in its own process; then one module is edited (a comment is enough, as the
record cannot know what an edit changes) and the same build must draw again, not answer
"0 PDFs ...; 1 unchanged". The modules edited are ones the old hand-kept list missed: PDF
finishing (page boxes, viewer preferences), units, and asset handling.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

POKER = REPO / "bench" / "poker"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A copy of pnp's package beside a project holding the 54-card poker deck."""
    base = tmp_path_factory.mktemp("upgrade")
    shutil.copytree(REPO / "pnp", base / "lib" / "pnp",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("content", "templates"):
        shutil.copytree(POKER / folder, base / "project" / folder)
    return base


def _build(base: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(base / "lib"), "PNP_CACHE_DIR": str(base / "cache"),
           "SOURCE_DATE_EPOCH": "1700000000", "PNP_JOBS": "1"}
    done = subprocess.run([sys.executable, "-m", "pnp", "build", "-j", "1"],
                          cwd=base / "project", env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def test_the_copy_is_the_pnp_that_builds(installed):
    env = {**os.environ, "PYTHONPATH": str(installed / "lib")}
    found = subprocess.run([sys.executable, "-c", "import pnp; print(pnp.__file__)"],
                           cwd=installed / "project",
                           env=env, capture_output=True, text=True, check=True).stdout
    assert Path(found.strip()).parent == installed / "lib" / "pnp"


@pytest.mark.parametrize("module", ["pdf/finish.py", "units.py", "load/assets.py"])
def test_an_edit_to_any_module_of_pnp_redraws(installed, module):
    _build(installed)
    assert "1 unchanged" in _build(installed)  # nothing changed: the record is trusted
    edited = installed / "lib" / "pnp" / module
    edited.write_text(edited.read_text(encoding="utf-8") + "\n# upgraded\n", encoding="utf-8")
    said = _build(installed)
    assert "wrote output/poker/cards-letter.pdf" in said, said
    assert "unchanged" not in said
