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

FORMAT = 2
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


def _both(key, stamp, data: bytes) -> None:
    """`data` into the stamp digest, and into the key digest unless it is None."""
    stamp.update(data)
    if key:
        key.update(data)


def _file(key, stamp, path: str, name: str) -> None:
    """A file's name and bytes into the `key` digest (unless None); its name, size and times
    into the `stamp` digest. The stat comes first: a change made while the file is read
    shows in the stamp."""
    info = os.stat(path)
    stamp.update(f"{name}\0{info.st_size} {info.st_mtime_ns} {info.st_ino}\0".encode())
    if key:
        with open(path, "rb") as file:
            key.update(f"{name}\0".encode())
            key.update(hashlib.sha256(file.read()).digest())


def _files(key, stamp, folder: str, prefix: str = "") -> None:
    """Every file under `folder` (see `_file`), in a stable order."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except (FileNotFoundError, NotADirectoryError):
        _both(key, stamp, f"absent {folder}\0".encode())
        return
    for entry in entries:
        if entry.is_dir():
            if entry.name != "__pycache__":
                _files(key, stamp, entry.path, f"{prefix}{entry.name}/")
        elif entry.is_file():
            _file(key, stamp, entry.path, prefix + entry.name)


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


def _plugins(key, stamp) -> None:
    from importlib.util import find_spec

    for name, value in entry_points("pnp.rules"):
        _both(key, stamp, f"plugin {name}={value}\0".encode())
        spec = find_spec(value.split(":")[0].split(".")[0])
        if spec and spec.origin:
            origin = spec.origin
            if os.path.basename(origin) == "__init__.py":
                _files(key, stamp, os.path.dirname(origin))
            elif os.path.isfile(origin):
                _file(key, stamp, origin, os.path.basename(origin))


def _distributions() -> bytes:
    """The installed distributions and their versions (their dist-info folders' names)."""
    found = []
    for entry in sorted({e for e in sys.path if e.endswith(("site-packages", "dist-packages"))}):
        try:
            names = sorted(p for p in os.listdir(entry) if p.endswith((".dist-info",
                                                                         ".egg-info")))
        except OSError:
            continue
        found.append(f"{entry}\0{' '.join(names)}\0")
    return "".join(found).encode()


def survey(chosen: dict, read: bool = True) -> tuple[str, str]:
    """(key, stamp): a digest of everything `chosen`'s command reads ('' unless `read`), and
    one of the same files' names, sizes and times, which is cheaper to take again."""
    key, stamp = hashlib.sha256() if read else None, hashlib.sha256()
    head = (f"quick {FORMAT} {sys.version}\0{json.dumps(chosen, sort_keys=True)}\0"
            f"cwd {Path.cwd()}\0SOURCE_DATE_EPOCH="
            f"{os.environ.get('SOURCE_DATE_EPOCH', '').strip()}\0").encode()
    _both(key, stamp, head + _distributions())
    _files(key, stamp, os.path.join(chosen["root"], "content"))
    _files(key, stamp, os.path.join(chosen["root"], "templates"))
    _files(key, stamp, os.path.dirname(__file__))
    _plugins(key, stamp)
    return (key.hexdigest() if key else ""), stamp.hexdigest()


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


def remember(chosen: dict, taken: tuple[str, str], code: int, stdout: str, stderr: str,
             files: list[Path] = ()) -> None:
    """Keep a finished command's answer for the next identical run (best effort: a folder
    that cannot be written only costs the next run its shortcut). `taken` is the key and
    stamp taken before the command read its inputs (`survey`); if any input changed while it
    ran, its answer may be of either version, so nothing is kept."""
    key, stamp = taken
    if survey(chosen, read=False)[1] != stamp:
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


# The key and stamp `answer` took, by options: the run that follows it in the same process
# starts from them instead of reading every input again.
_TAKEN: dict[str, tuple[str, str]] = {}


def key_for_run(chosen: dict) -> tuple[str, str]:
    """The key and stamp of `chosen`'s inputs as the run starts: those `answer` just took,
    once, or fresh ones."""
    return _TAKEN.pop(json.dumps(chosen, sort_keys=True), None) or survey(chosen)


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
        taken = survey(chosen)
        if record.get("key") != taken[0]:
            _TAKEN[json.dumps(chosen, sort_keys=True)] = taken  # for the run that follows
            return None
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return None
    sys.stdout.write(record["stdout"])
    sys.stdout.flush()
    elapsed = time.perf_counter() - started
    sys.stderr.write(record["stderr"].replace("{elapsed}", f"{elapsed:.2f}"))
    return int(record["code"])
