"""Build history: a checked game in; a record of what every face of a build was, out.

Each successful build writes `output/<game>/history/builds/NNNN.json.xz`, numbered from 1:
JSON (xz-compressed; `xz -dc` reads it) holding for every face its sheet, label, side, version
stamp, the hash of its SVG and the item's field values, and every distinct SVG once, so an old
face can be shown beside the new one without the old content. A game's faces repeat one
template many times, so a record of a game of 600 faces takes about 25 KB. Plain files beside
the PDFs, written through `output.Staging` with them: a build's record appears together with
its PDFs or not at all.

`pnp diff` and `pnp build --reprint` compare the faces of now with a build's record (the last
one by default) or with the content of a git commit, drawn afresh.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import re
import subprocess
import tarfile
import tempfile
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from xml.parsers import expat

from .. import reads
from ..output import Staging
from ..render.stamps import plain
from ..units import Size

HISTORY_DIR = "history"
BUILDS_DIR = "builds"
RECORD_SUFFIX = ".json.xz"
RECORD_VERSION = 2  # 2: the art embedded in faces kept once, apart from their SVGs
# An embedded picture (a `data:` URI) in a face's SVG, and what stands for it in a record.
_EMBEDDED = re.compile(r"data:[a-z]+/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=]+")
_ART_REFERENCE = re.compile(r"pnp-art:([0-9a-f]{16})")


@dataclass(frozen=True)
class FaceRecord:
    """One face of one component as a build printed it."""

    sheet: str  # deck, board or page name
    label: str  # how findings and the proof name the item; `#2` when two items share one
    side: str  # front, back, board or page
    stamp: str
    svg_hash: str  # the start of the sha256 of the face's SVG; '' when it was not drawn
    fields: Any = None  # the item's data (plain JSON)
    size_mm: tuple[float, float] = (0.0, 0.0)
    kind: str = "deck"  # deck, board or page
    index: int = 0  # the item's place in its sheet (a deck's print order)

    @property
    def card(self) -> tuple[str, str]:
        return self.sheet, self.label


_FACE_FIELDS = tuple(f.name for f in fields(FaceRecord))


@dataclass
class Snapshot:
    """Every face of a game at one moment: a recorded build, a git commit drawn afresh, or now.
    `svgs` maps an SVG hash to the SVG, where it is known."""

    description: str  # 'build 3', 'git main (1a2b3c4)', 'now'
    faces: list[FaceRecord]
    svgs: dict[str, str] = field(default_factory=dict)

    def svg(self, face: FaceRecord) -> str:
        return self.svgs.get(face.svg_hash, "")


class NoBaseline(Exception):
    """Nothing to compare with: the message says why, in one line."""


SVG_HASH_CHARS = 16  # 64 bits tell faces apart; a full hash would be most of a record's size


def svg_hash(svg: str) -> str:
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()[:SVG_HASH_CHARS] if svg else ""


def snapshot_of(checked, description: str = "now") -> Snapshot:
    """The faces of a checked game, with their SVGs."""
    faces, svgs, seen = [], {}, {}
    for sheet in checked.sheets:
        for index, kind, label, side, svg, stamp, item, size in _faces_of(sheet):
            key = (sheet.name, label, side)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                label = f"{label}#{seen[key]}"
            digest = svg_hash(svg)
            if digest:
                svgs[digest] = svg
            faces.append(FaceRecord(sheet.name, label, side, stamp, digest, plain(item),
                                    (size.width_mm, size.height_mm), kind, index))
    return Snapshot(description, faces, svgs)


def _faces_of(sheet):
    """(item index, kind, label, side, svg, stamp, item, size) of every face a sheet prints."""
    from ..compose.board import Board
    from ..compose.deck import Deck

    if isinstance(sheet, Deck):
        for n, item in enumerate(sheet.items):
            front = sheet.fronts[n]
            label = front.label or getattr(item, "label", "") or f"{sheet.name} {n + 1}"
            yield n, "deck", label, "front", front.svg, front.stamp, item, sheet.size
            if sheet.back:
                back = sheet.backs[n]
                yield n, "deck", label, "back", back.svg, back.stamp, item, sheet.size
        return
    if isinstance(sheet, Board):
        kind, face, size = "board", sheet.face, sheet.size
    else:  # a whole page, drawn for the proof on its gallery paper
        kind, face = "page", getattr(sheet, "preview", None)
        size = _svg_size(face.svg) if face else None
    if face is not None:
        yield 0, kind, face.label or sheet.title, kind, face.svg, face.stamp, sheet.item, size


def _svg_size(svg: str) -> Size:
    from ..render.facechecks import declared_size, root_attributes

    try:
        return declared_size(root_attributes(svg)) or Size(0, 0)
    except expat.ExpatError:
        return Size(0, 0)


# -- the record of a build -------------------------------------------------------------------

def history_dir(out_dir: Path, game: str) -> Path:
    return out_dir / game / HISTORY_DIR


def build_numbers(out_dir: Path, game: str) -> list[int]:
    folder = history_dir(out_dir, game) / BUILDS_DIR
    if not folder.is_dir():
        return []
    return sorted(int(p.name[:-len(RECORD_SUFFIX)]) for p in folder.glob("*" + RECORD_SUFFIX)
                  if p.name[:-len(RECORD_SUFFIX)].isdigit())


def record_build(checked, out_dir: Path, staging: Staging, *, paper: str,
                 git: str = "") -> int:
    """Stage the record of this build, with its faces' SVGs; its number. A build that prints
    just what the last recorded one did (the same faces, paper and commit) is that build
    again: nothing is recorded, so a build with nothing changed writes nothing."""
    last = max(build_numbers(out_dir, checked.name), default=0)
    snapshot = snapshot_of(checked)
    made = {
        "paper": paper,
        "git": git,
        # Each face's fields are plain JSON data already: no deep copy (asdict) is needed.
        "faces": [{name: getattr(face, name) for name in _FACE_FIELDS} for face in snapshot.faces],
        **_art_apart(snapshot.svgs),
    }
    if last and _same_as_recorded(made, record_path(out_dir, checked.name, last)):
        return last
    number = last + 1
    record = {"version": RECORD_VERSION, "build": number,
              "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **made}
    # Compact JSON: Python's C encoder writes it; an indented record took three times as long.
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
    staging.write(record_path(out_dir, checked.name, number), _compressed(text.encode("utf-8")))
    return number


def _compressed(data: bytes, chunk: int = 1 << 20) -> bytes:
    """`data` as `lzma.compress(data, preset=1)` writes it, fed a megabyte at a time: a
    record holding large art takes seconds to compress, and a Ctrl-C is taken between two
    calls into the library, not once all of it is done."""
    compressor = lzma.LZMACompressor(preset=1)
    parts = [compressor.compress(data[start:start + chunk])
             for start in range(0, len(data), chunk)]
    return b"".join([*parts, compressor.flush()])


def _art_apart(svgs: dict[str, str]) -> dict[str, dict[str, str]]:
    """The record's `svgs`, each picture embedded in them (`data:` URIs: a card's art, an
    icon) replaced by a reference, and its `art`, each picture once: 64 cards printing the
    same 1 MB of art took 85 MB of SVG to compress (about a minute), and as much on disk."""
    art: dict[str, str] = {}

    def referenced(match: re.Match) -> str:
        key = hashlib.sha256(match.group().encode("ascii")).hexdigest()[:SVG_HASH_CHARS]
        art[key] = match.group()
        return f"pnp-art:{key}"

    kept = {digest: _EMBEDDED.sub(referenced, svg) for digest, svg in svgs.items()}
    return {"svgs": kept, "art": art}


def _art_restored(svgs: dict[str, str], art: Any) -> dict[str, str]:
    """A record's SVGs with their pictures back in place of the references (`_art_apart`)."""
    if not isinstance(art, dict) or not art:
        return svgs
    if not all(isinstance(uri, str) for uri in art.values()):
        raise ValueError("its art is not a mapping of pictures")

    def restored(match: re.Match) -> str:
        return art.get(match.group(1), match.group())

    return {digest: _ART_REFERENCE.sub(restored, svg) for digest, svg in svgs.items()}


def _same_as_recorded(made: dict, path: Path) -> bool:
    try:
        recorded = read_record(path)
    except (OSError, ValueError, lzma.LZMAError):
        return False  # unreadable: record this build anew
    # Through JSON, as the record holds them (tuples become lists).
    return recorded.get("version") == RECORD_VERSION and all(
        recorded.get(name) == value for name, value in json.loads(json.dumps(made)).items())


def record_path(out_dir: Path, game: str, number: int) -> Path:
    return history_dir(out_dir, game) / BUILDS_DIR / f"{number:04d}{RECORD_SUFFIX}"


def read_record(path: Path) -> dict:
    # Confined to the game's history folder, as every read of a project file is.
    data = reads.read_file(path, inside=path.parent.parent)
    record = json.loads(lzma.decompress(data).decode("utf-8"))
    if not isinstance(record, dict):  # every reader may then ask it for its parts
        raise ValueError("it is not a build record (not a mapping)")
    return record


def load_build(out_dir: Path, game: str, number: int) -> Snapshot:
    """A recorded build's faces, with whatever of their SVGs the history keeps."""
    path = record_path(out_dir, game, number)
    try:
        data = read_record(path)
        faces, svgs = _recorded_faces(data)
    except (OSError, ValueError, KeyError, TypeError, lzma.LZMAError) as exc:
        raise NoBaseline(f"the record of build {number} ({path}) cannot be read: {exc}; "
                         "compare with another build (--since N) or build again") from None
    return Snapshot(f"build {number}", faces, svgs)


_FACE_TYPES = {"sheet": str, "label": str, "side": str, "stamp": str, "svg_hash": str,
               "kind": str, "index": int}


def _recorded_faces(data: Any) -> tuple[list[FaceRecord], dict[str, str]]:
    """A record's faces and SVGs, every part checked to be what record_build writes
    (ValueError saying what is not): a record edited, damaged or from elsewhere is refused
    in one line, never half read."""
    if not isinstance(data, dict) or not isinstance(data.get("faces"), list):
        raise ValueError("it is not a build record (no list of faces)")
    svgs = data.get("svgs", {})
    if not isinstance(svgs, dict):
        raise ValueError("its SVGs are not a mapping")
    faces = []
    for number, face in enumerate(data["faces"], start=1):
        if not isinstance(face, dict) or set(face) - set(_FACE_FIELDS):
            raise ValueError(f"face {number} is not a face record")
        for name, kind in _FACE_TYPES.items():
            if name in face and not isinstance(face[name], kind):
                raise ValueError(f"face {number}: {name} is not {kind.__name__}")
        size = face.get("size_mm", (0, 0))
        if not isinstance(size, (list, tuple)) or len(size) != 2 or \
                not all(isinstance(v, (int, float)) for v in size):
            raise ValueError(f"face {number}: size_mm is not two numbers")
        faces.append(FaceRecord(**{**face, "size_mm": tuple(size)}))
    return faces, _art_restored({k: v for k, v in svgs.items() if isinstance(v, str)},
                                data.get("art"))


# -- what to compare with --------------------------------------------------------------------

def baseline(project, name: str, out_dir: Path, since: str | None, paper: str) -> Snapshot:
    """The snapshot `since` names: a build number (default: the last build) or a git ref."""
    builds = build_numbers(out_dir, name)
    if since is None:
        if not builds:
            raise NoBaseline(f"{name} has no build history yet: run 'pnp build' once, edit, "
                             "then diff (or give --since GIT-REF)")
        return load_build(out_dir, name, builds[-1])
    wanted = since.strip()
    if wanted.isdigit() and int(wanted) in builds:
        return load_build(out_dir, name, int(wanted))
    return git_snapshot(project, name, wanted, paper, builds)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=60)


def git_snapshot(project, name: str, ref: str, paper: str, builds: list[int]) -> Snapshot:
    """The game as it was at a git commit, checked and drawn afresh by this pnp."""
    from ..pipeline import check_game
    from ..project import Project

    builds_note = f"builds: {', '.join(map(str, builds[-5:]))}" if builds else "no builds yet"
    root = project.root.resolve()
    try:
        inside = _git(root, "rev-parse", "--show-prefix")
    except (OSError, subprocess.SubprocessError):
        inside = None
    if inside is None or inside.returncode != 0:
        raise NoBaseline(f"'{ref}' is not a build of {name} ({builds_note}) and the project "
                         "is not a git repository, so it cannot be a git ref")
    prefix = inside.stdout.decode().strip()
    commit = _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if commit.returncode != 0:
        raise NoBaseline(f"'{ref}' is neither a build of {name} ({builds_note}) nor a git "
                         "commit of this repository")
    sha = commit.stdout.decode().strip()
    with tempfile.TemporaryDirectory(prefix="pnp-diff-") as scratch:
        archive = Path(scratch) / "tree.tar"
        tree = f"{sha}:{prefix}" if prefix else sha
        done = _git(root, "archive", "--format=tar", "-o", str(archive), tree)
        if done.returncode != 0:
            raise NoBaseline(f"git could not export {ref}: "
                             f"{done.stderr.decode().strip().splitlines()[-1:] or ['?']}")
        old = Path(scratch) / "project"
        with tarfile.open(archive) as tar:
            tar.extractall(old, filter="data")
        if not (old / "content" / name / "game.yaml").is_file():
            raise NoBaseline(f"{name} did not exist at {ref} ({sha[:7]})")
        # A scratch copy, gone in a moment: nothing of its check is worth keeping.
        checked = check_game(Project(old), name, paper, remember=False)
        if checked.game is None:
            raise NoBaseline(f"{name} at {ref} ({sha[:7]}) cannot be read: "
                             f"{len(checked.findings.errors)} errors in its content")
        return snapshot_of(checked, f"git {ref} ({sha[:7]})")


__all__ = ["FaceRecord", "Snapshot", "NoBaseline", "snapshot_of", "record_build", "load_build",
           "baseline", "build_numbers", "read_record", "record_path"]
