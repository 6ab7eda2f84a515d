"""Importing pnp has no side effects: the import system is left as it was, nothing is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys

# Run in a fresh interpreter, so nothing this test process has imported already hides a change.
_PROBE = """
import json, sys

def finders():
    # Some finders are classes (BuiltinImporter, PathFinder), others instances.
    kinds = [f if isinstance(f, type) else type(f) for f in sys.meta_path]
    return [f"{kind.__module__}.{kind.__qualname__}" for kind in kinds]

before = finders()
import pnp, pnp.cli, pnp.pipeline
print(json.dumps([before, finders()]))
"""


def test_importing_pnp_leaves_the_import_system_and_the_cache_alone(tmp_path):
    cache = tmp_path / "cache"
    env = {**os.environ, "PNP_CACHE_DIR": str(cache)}
    run = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                         text=True, timeout=60, check=True)
    before, after = json.loads(run.stdout)
    assert after == before
    assert not cache.exists() or not any(cache.iterdir())
