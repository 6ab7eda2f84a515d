"""Quick answers: a `check` or `build` command line in; when nothing it reads has changed since
it last ran, its remembered answer out, without loading the pipeline, Jinja, YAML or cairo.

A designer runs `pnp check` on every save, and an editor or `pnp watch` may run it when nothing
changed at all. Loading pnp's libraries alone takes longer than the whole answer should, so the
console script asks here first (this module imports only the standard library).

The answer is keyed by a SHA-256 over everything the command reads: every file of the project's
content/ and templates/ folders, every file of pnp itself, of each installed rules plug-in's
package, the installed distributions' names and versions, the Python version, the working
folder (findings name files relative to it), SOURCE_DATE_EPOCH and the options. A build's
answer is reused only while every file it wrote is still there, byte for byte. A record is
never wrong, only unused: it names the inputs it answers for, so a failed or interrupted build
leaves the last record beside the last PDFs, both still true of each other. Anything not
recognised here (another command, an unusual option, `--no-cache`) simply runs pnp.
A build's record lives in its output folder's `.pnp-cache/`, a check's in the user's cache
folder (a check writes nothing in the project); deleting either is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

FORMAT = 1
RECORD_DIR = ".pnp-cache"
_VALUED = {"--root": "root", "--game": "game", "--paper": "paper", "--format": "format",
           "--sheets": "sheets", "--out": "out", "-j": "jobs", "--jobs": "jobs"}
_FLAGS = {"--strict": "strict", "--debug": "debug"}
_ALLOWED = {"check": {"root", "game", "paper", "format", "strict", "debug"},
            "build": {"root", "game", "paper", "sheets", "out", "jobs", "strict", "debug"}}


def options(command: str, root: Path, game, paper, strict: bool, *, format: str = "text",
            sheets: str = "all", out: Path | None = None) -> dict:
    """The options that decide a command's answer, the same whether read here or by argparse."""
    chosen = {"command": command, "root": str(Path(root).resolve()),
              "game": sorted(set(game or [])), "paper": paper, "strict": bool(strict)}
    if command == "check":
        chosen["format"] = format
    else:
        chosen["sheets"] = ",".join(s.strip() for s in sheets.split(",") if s.strip()) \
            if sheets.strip() != "all" else "all"
        chosen["out"] = str((Path(out) if out else Path(root) / "output").resolve())
    return chosen


def parse(argv: list[str]) -> dict | None:
    """The options of a plain `check` or `build` command line, or None for anything else."""
    if not argv or argv[0] not in _ALLOWED:
        return None
    command, values = argv[0], {"game": []}
    rest = argv[1:]
    while rest:
        token = rest.pop(0)
        if token in _FLAGS:
            values[_FLAGS[token]] = True
        elif token in _VALUED and rest:
            name = _VALUED[token]
            if name == "game":
                values["game"].append(rest.pop(0))
            else:
                values[name] = rest.pop(0)
        else:
            return None
    if set(values) - _ALLOWED[command] - {"game"}:
        return None
    if values.get("paper", "letter") not in ("letter", "a4") or \
            values.get("format", "text") not in ("text", "json"):
        return None
    if "jobs" in values and not values["jobs"].isdigit():
        return None
    return options(command, Path(values.get("root", ".")), values["game"],
                   values.get("paper", "letter"), values.get("strict", False),
                   format=values.get("format", "text"), sheets=values.get("sheets", "all"),
                   out=values.get("out"))


def _files(digest, folder: Path) -> None:
    if not folder.is_dir():
        digest.update(f"absent {folder}\0".encode())
        return
    for path in sorted(folder.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(f"{path.relative_to(folder)}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())


def entry_points(group: str) -> list[tuple[str, str]]:
    """(name, value) of the installed entry points in `group`, first found on sys.path first.

    Read straight from the `entry_points.txt` files of the installed distributions' metadata
    folders: importlib.metadata gives the same answer but costs more to import than a whole
    quick answer is allowed to take."""
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            folders = sorted(p for p in os.listdir(entry or ".") if p.endswith(".dist-info"))
        except OSError:
            continue
        for name in folders:
            try:
                text = Path(entry or ".", name, "entry_points.txt").read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            section = None
            for line in text.splitlines():
                line = line.strip()
                if line.startswith("[") and line.endswith("]"):
                    section = line[1:-1].strip()
                elif section == group and "=" in line and not line.startswith(("#", ";")):
                    key, value = (part.strip() for part in line.split("=", 1))
                    found.setdefault(key, value)
    return sorted(found.items())


def _plugins(digest) -> None:
    from importlib.util import find_spec

    for name, value in entry_points("pnp.rules"):
        digest.update(f"plugin {name}={value}\0".encode())
        spec = find_spec(value.split(":")[0].split(".")[0])
        if spec and spec.origin:
            origin = Path(spec.origin)
            if origin.name == "__init__.py":
                _files(digest, origin.parent)
            elif origin.is_file():
                digest.update(origin.read_bytes())


def _distributions(digest) -> None:
    """The installed distributions and their versions (their dist-info folders' names)."""
    for entry in sorted({e for e in sys.path if e.endswith(("site-packages", "dist-packages"))}):
        try:
            names = sorted(p for p in os.listdir(entry) if p.endswith((".dist-info",
                                                                         ".egg-info")))
        except OSError:
            continue
        digest.update(f"{entry}\0{' '.join(names)}\0".encode())


def inputs_key(chosen: dict) -> str:
    """Everything `chosen`'s command reads, as one digest."""
    digest = hashlib.sha256(f"quick {FORMAT} {sys.version}\0".encode())
    digest.update(json.dumps(chosen, sort_keys=True).encode())
    digest.update(f"cwd {Path.cwd()}\0SOURCE_DATE_EPOCH="
                  f"{os.environ.get('SOURCE_DATE_EPOCH', '').strip()}\0".encode())
    root = Path(chosen["root"])
    _files(digest, root / "content")
    _files(digest, root / "templates")
    _files(digest, Path(__file__).parent)
    _plugins(digest)
    _distributions(digest)
    return digest.hexdigest()


def cache_home() -> Path:
    """pnp's folder in the user's cache: `$PNP_CACHE_DIR`, else `$XDG_CACHE_HOME/pnp`, else
    `~/.cache/pnp`."""
    return Path(os.environ.get("PNP_CACHE_DIR") or (
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pnp"))


def _record_path(chosen: dict) -> Path:
    """A build's record lives beside its PDFs; a check writes nothing in the project, so its
    record lives in the user's cache, one per project and options."""
    if chosen["command"] == "build":
        return Path(chosen["out"]) / RECORD_DIR / "build.json"
    name = hashlib.sha256(json.dumps(chosen, sort_keys=True).encode()).hexdigest()[:24]
    return cache_home() / "checks" / f"{name}.json"


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def remember(chosen: dict, key: str, code: int, stdout: str, stderr: str,
             files: list[Path] = ()) -> None:
    """Keep a finished command's answer for the next identical run (best effort: a folder
    that cannot be written only costs the next run its shortcut). `key` was taken before the
    command read its inputs; if they changed while it ran, its answer may be of either, so
    nothing is kept."""
    if inputs_key(chosen) != key:
        return
    record = {"format": FORMAT, "key": key, "code": code, "stdout": stdout, "stderr": stderr,
              "files": {str(p.resolve()): _digest(p) for p in files}}
    path = _record_path(chosen)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps(record), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)


# The key `answer` took, by options: the run that follows it in the same process starts from it
# instead of reading every input again (`remember` reads them again after the run all the same).
_TAKEN: dict[str, str] = {}


def key_for_run(chosen: dict) -> str:
    """The key of `chosen`'s inputs as the run starts: the one `answer` just took, once, or a
    fresh one."""
    return _TAKEN.pop(json.dumps(chosen, sort_keys=True), None) or inputs_key(chosen)


def answer(argv: list[str]) -> int | None:
    """The remembered answer to `argv`, printed, and its exit code; None to run pnp."""
    started = time.perf_counter()
    chosen = parse(argv)
    if chosen is None:
        return None
    try:
        record = json.loads(_record_path(chosen).read_text(encoding="utf-8"))
        if record.get("format") != FORMAT:
            return None
        if any(_digest(Path(p)) != d for p, d in record["files"].items()):
            return None
        key = inputs_key(chosen)
        if record.get("key") != key:
            _TAKEN[json.dumps(chosen, sort_keys=True)] = key  # for the run that follows
            return None
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return None
    sys.stdout.write(record["stdout"])
    sys.stdout.flush()
    elapsed = time.perf_counter() - started
    sys.stderr.write(record["stderr"].replace("{elapsed}", f"{elapsed:.2f}"))
    return int(record["code"])
