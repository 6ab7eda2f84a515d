"""`pnp release`: a game in; its whole print-and-play release, one zip, out.

`output/<game>/<game>-release.zip` holds what a designer posts for download:

- `letter/` and `a4/`: every sheet's PDF on that paper (the cover sheet among them) and the
  whole kit packed on the fewest sheets (`<game>-kit-<paper>.pdf`, as `pnp plan` writes it);
- `shared/`: what prints the same on either paper (a board whole, for a copy shop);
- `cutting/letter/`, `cutting/a4/`: each deck for a print-then-cut machine (the `silhouette`
  layout) with its cut files, SVG and DXF, one per fronts page;
- `previews/`: a PNG of the first face of each of the first PREVIEWS sheets;
- `LICENCE.txt` (the game's licence and attribution, and the bundled fonts' licences under
  `fonts/`), `README.md` (the page for the download: what is in it, how to print it) and
  `manifest.json` (every other file's size and SHA-256).

Each part is made by the same build `pnp build` runs, into a temporary folder, so a release
holds exactly what a build prints; any finding that stops a build stops the release, and
nothing is written. The zip is reproducible: its entries in name order, each with one
timestamp (SOURCE_DATE_EPOCH when set, else 1980-01-01, the earliest a zip can hold), one
mode and one compression level, so the same content gives the same bytes.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from .. import __version__
from ..errors import EXIT_ERRORS, EXIT_OK
from ..findings import display_path
from ..output import staged_output
from ..project import Project
from . import check_with, game_names, print_findings
from .build import cmd_build

PAPERS = ("letter", "a4")
CUT_LAYOUT = "silhouette"
PREVIEWS = 4
PREVIEW_PX = 900  # a preview's longer side at most
PREVIEW_DPI = 150
FONTS = Path(__file__).resolve().parent.parent / "data" / "fonts"
EARLIEST = (1980, 1, 1, 0, 0, 0)  # a zip's clock starts here


def cmd_release(args) -> int:
    project = Project(args.root)
    names, findings = game_names(project, args)
    if findings.errors:
        print_findings(findings)
        return EXIT_ERRORS
    out_dir = args.out or project.root / "output"
    made = []
    for name in names:
        files = _release_files(project, name, args)
        if files is None:
            print(f"pnp release: {name}: the build failed; nothing was written",
                  file=sys.stderr)
            return EXIT_ERRORS
        made.append((out_dir / name / f"{name}-release.zip", release_zip(files)))
    with staged_output() as staging:
        for path, data in made:
            staging.write(path, data)
    for path, data in made:
        print(f"wrote {display_path(path, Path.cwd())}")
        print(f"pnp release: {path.name}: {len(data) / 1e6:.1f} MB", file=sys.stderr)
    return EXIT_OK


def _release_files(project: Project, name: str, args) -> dict[str, bytes] | None:
    """Every file of a game's release by its path in the zip, or None when a build fails."""
    files: dict[str, bytes] = {}
    decks = None
    with tempfile.TemporaryDirectory(prefix="pnp-release-") as folder:
        work = Path(folder)
        for paper in PAPERS:
            kit = work / "kit" / paper
            if _build(project, name, args, paper, kit, layout="home", plan=True):
                return None
            for path in sorted((kit / name).glob("*.pdf")):
                where = paper if f"-{paper}" in path.stem else "shared"
                files[f"{where}/{path.name}"] = path.read_bytes()
            cut = work / "cut" / paper
            decks = _deck_names(project, name, args) if decks is None else decks
            if decks:
                if _build(project, name, args, paper, cut, layout=CUT_LAYOUT,
                          sheets=",".join(decks)):
                    return None
                for path in sorted((cut / name).glob(f"*-{CUT_LAYOUT}*")):
                    files[f"cutting/{paper}/{path.name}"] = path.read_bytes()
    checked = _checked(project, name, args)
    files.update(_previews(checked))
    info = checked.info
    for licence in sorted(FONTS.glob("LICENSE-*")):
        files[f"fonts/{licence.name}"] = licence.read_bytes()
    files["LICENCE.txt"] = licence_text(info).encode("utf-8")
    files["README.md"] = readme_text(name, info, sorted(files)).encode("utf-8")
    files["manifest.json"] = manifest_bytes(name, info, files)
    return files


def _build(project: Project, name: str, args, paper: str, out: Path, layout: str,
           plan: bool = False, sheets: str = "all") -> int:
    """`pnp build` of one game on `paper` into `out`, its list of written files kept quiet."""
    build = argparse.Namespace(
        command="build", root=project.root, game=[name], sheets=sheets, paper=paper, out=out,
        strict=args.strict, jobs=args.jobs, layout=layout, printer=None, ink_saver=False,
        lang="", cache=True, reprint=False, since=None, plan=plan, debug=False)
    with contextlib.redirect_stdout(io.StringIO()):
        return cmd_build(build)


def _checked(project: Project, name: str, args):
    """The game as the builds checked it (the check remembers it: nothing is drawn again)."""
    checked, _ = check_with(project, [name], argparse.Namespace(jobs=args.jobs))
    return checked[0]


def _deck_names(project: Project, name: str, args) -> list[str]:
    from ..compose.deck import Deck

    return [sheet.name for sheet in _checked(project, name, args).sheets
            if isinstance(sheet, Deck)]


def _previews(checked) -> dict[str, bytes]:
    """A PNG of the first face of each of the first PREVIEWS sheets, PREVIEW_PX at most."""
    from ..layout.plans import svg_size_mm
    from ..pdf.draw import render_png

    found = {}
    for sheet in checked.sheets:
        faces = [svg for _, sides in sheet.gallery()[:1] for svg in sides.values()][:1]
        if not faces or not faces[0] or len(found) >= PREVIEWS:
            continue
        size = svg_size_mm(faces[0]) or (100.0, 100.0)
        dpi = min(PREVIEW_DPI, PREVIEW_PX / (max(size) / 25.4))
        found[f"previews/{sheet.name}.png"] = render_png(faces[0], dpi)
    return found


def licence_text(info) -> str:
    licence = info.licence
    return (f"{info.title}\n{'=' * len(info.title)}\n\n"
            f"Designed by {info.designer} ({info.year}).\n\n"
            f"Licence: {licence.name}\n{licence.url}\n\n"
            f"Attribution (keep it with every copy): {licence.attribution}\n\n"
            "The PDFs embed the fonts Roboto Condensed (Apache License 2.0) and Noto Serif "
            "(SIL Open Font License 1.1), as subsets; their licences are in fonts/.\n")


def readme_text(name: str, info, paths: list[str]) -> str:
    players = f"{info.players.min}-{info.players.max} players" if \
        info.players.min != info.players.max else f"{info.players.min} players"
    version = f", version {info.version}" if getattr(info, "version", "") else ""
    lines = [f"# {info.title}: print and play", "",
             f"By {info.designer} ({info.year}{version}), {players}. "
             f"{info.licence.attribution}; see LICENCE.txt.", "",
             "## How to print", "",
             "Choose the folder of your paper, `letter/` (US Letter) or `a4/`. Print at "
             "**100% / Actual size**, never \"fit to page\" (each sheet carries a 50 mm ruler "
             "to check), double-sided with **flip on long edge**: each fronts page is followed "
             "by its backs page. Cut along the crop marks in the margin. "
             f"`{name}-kit-<paper>.pdf` holds the whole kit packed on the fewest sheets, with "
             "a plan page first; the other PDFs are one sheet each"
             + (", the cover sheet among them." if any("/cover-" in p for p in paths) else ".")
             + (" `shared/` holds what prints the same on either paper (a board whole, for a "
                "copy shop)." if any(p.startswith("shared/") for p in paths) else "")
             + (" `cutting/` holds each deck for a print-then-cut machine (Silhouette) with "
                "its cut files (SVG and DXF)." if any(p.startswith("cutting/") for p in paths)
                else ""), "",
             "## Contents", ""]
    lines += [f"- `{path}`" for path in paths if "/" in path]
    lines += ["- `LICENCE.txt`, `README.md`, `manifest.json` (each file's size and SHA-256)",
              "", f"Made with pnp {__version__}.", ""]
    return "\n".join(lines)


def manifest_bytes(name: str, info, files: dict[str, bytes]) -> bytes:
    listed = [{"path": path, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
              for path, data in sorted(files.items())]
    manifest = {"game": name, "title": info.title, "version": getattr(info, "version", ""),
                "pnp": __version__, "files": listed}
    return (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def release_zip(files: dict[str, bytes]) -> bytes:
    """The files as a zip whose bytes depend on nothing but them (and SOURCE_DATE_EPOCH)."""
    stamp = _timestamp()
    written = io.BytesIO()
    with zipfile.ZipFile(written, "w") as archive:
        for path in sorted(files):
            entry = zipfile.ZipInfo(path, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.create_system = 3  # Unix, for the mode below
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, files[path], compresslevel=9)
    return written.getvalue()


def _timestamp() -> tuple[int, int, int, int, int, int]:
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch.isdigit():
        return EARLIEST
    stamp = time.gmtime(int(epoch))[:6]
    return max(stamp, EARLIEST)


__all__ = ["cmd_release", "release_zip"]
