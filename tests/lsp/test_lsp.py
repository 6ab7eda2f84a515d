"""`pnp lsp` driven over stdio by a real LSP client (pygls's): an unsaved edit to Downturn's
events file, one of its templates and its game.yaml shows as a diagnostic at the edited line
(rule id as the code) and clears once fixed; diagnostics are the findings of `pnp check
--json`; field and icon names complete in templates; hover on a data row shows the card's
fitted text."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from conftest import REPO, TESTS, add_game

PNP = [sys.executable, "-m", "pnp", "lsp"]


class Session:
    """A running `pnp lsp` and what it published, by file."""

    def __init__(self, client: LanguageClient, root: Path):
        self.client, self.root = client, root
        self.published: dict[Path, list[types.Diagnostic]] = {}
        self.changed = asyncio.Event()
        self.versions: dict[str, int] = {}

    def uri(self, path: Path) -> str:
        return path.resolve().as_uri()

    def open(self, path: Path) -> None:
        self.versions[self.uri(path)] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=self.uri(path), language_id="yaml",
                                                 version=1, text=path.read_text("utf-8"))))

    def change(self, path: Path, text: str) -> None:
        uri = self.uri(path)
        self.versions[uri] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri,
                                                                version=self.versions[uri]),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    async def until(self, path: Path, test, timeout_s: float = 60.0) -> float:
        """Seconds until what was published for `path` passes `test`."""
        started = time.perf_counter()
        while not test(self.published.get(path.resolve(), [])):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), timeout_s)
        return time.perf_counter() - started


async def _session(root: Path) -> Session:
    client = LanguageClient("pnp-test", "1")
    session = Session(client, root)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        path = Path(params.uri.removeprefix("file://")).resolve()
        session.published[path] = params.diagnostics
        session.changed.set()

    await client.start_io(*PNP, cwd=str(root), env={**os.environ, "PYTHONPATH": str(REPO)})
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=root.resolve().as_uri()))
    client.initialized(types.InitializedParams())
    return session


async def _stop(session: Session) -> None:
    await session.client.shutdown_async(None)
    session.client.exit(None)
    await session.client.stop()


def _line_of(text: str, words: str) -> int:
    return next(n for n, line in enumerate(text.splitlines()) if words in line)


def _rules_at(diagnostics, line: int) -> set[str]:
    return {d.code for d in diagnostics if d.range.start.line == line}


def _check_json(root: Path, game: str, cwd: Path) -> set[tuple[Path, int, str]]:
    """`pnp check --game GAME --format json`'s findings, run as a user runs it, from the
    folder the server runs in."""
    result = subprocess.run([sys.executable, "-m", "pnp", "check", "--root", str(root),
                             "--game", game, "--format", "json"], cwd=cwd, capture_output=True,
                            text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    return {((cwd / f["file"]).resolve(), f["line"], f["rule"])
            for f in json.loads(result.stdout)["findings"]}


def _published(session: Session) -> set[tuple[Path, int, str]]:
    return {(path, d.range.start.line + 1, d.code)
            for path, found in session.published.items() for d in found}


def test_unsaved_edits_show_and_clear(tmp_path, capsys):
    add_game(tmp_path, "downturn")
    events = tmp_path / "content" / "downturn" / "events.yaml"
    game_file = tmp_path / "content" / "downturn" / "game.yaml"
    template = next((tmp_path / "templates" / "downturn").glob("event-front*.j2"))
    saved = {path: path.read_text("utf-8") for path in (events, game_file, template)}

    async def drive() -> dict[str, float]:
        session = await _session(tmp_path)
        times = {}
        try:
            session.open(events)
            await session.until(events, lambda found: events.resolve() in session.published)
            # The first check (cold) publishes nothing for a clean kit; a title too long
            # for its box, unsaved, then shows at its line.
            text = saved[events]
            line = _line_of(text, '  title: "Fed Cuts Rates"')
            long = text.replace('  title: "Fed Cuts Rates"', '  title: "' + " ".join(
                ["Federal Reserve Emergency Cuts"] * 4) + '"', 1)
            session.change(events, long)
            times["overflow"] = await session.until(
                events, lambda found: "text-overflow" in _rules_at(found, line))
            assert (events.read_text("utf-8") == text)  # nothing was saved
            found = [d for d in session.published[events.resolve()] if d.code == "text-overflow"]
            assert found[0].severity == types.DiagnosticSeverity.Error
            assert "shorten it" in found[0].message  # the hint, after the message
            session.change(events, text)
            times["cleared"] = await session.until(
                events, lambda found: "text-overflow" not in _rules_at(found, line))

            # An unknown font family in a template: at its template line.
            session.open(template)
            source = saved[template]
            row = _line_of(source, "{{ font('bold') }}")
            bad = "\n".join(line.replace("{{ font('bold') }}", 'font-family="Comic Sans MS"')
                            if n == row else line for n, line in enumerate(source.splitlines()))
            session.change(template, bad + "\n")
            times["font"] = await session.until(
                template, lambda found: "font-unknown" in _rules_at(found, row))
            session.change(template, source)
            await session.until(template, lambda found: not _rules_at(found, row))

            # An unknown key in game.yaml: an error at its line.
            session.open(game_file)
            manifest = saved[game_file]
            row = _line_of(manifest, "designer:")
            session.change(game_file, manifest.replace("designer:", "desginer:", 1))
            times["key"] = await session.until(
                game_file, lambda found: "schema-unknown-key" in _rules_at(found, row))
            session.change(game_file, manifest)
            await session.until(game_file, lambda found: not _rules_at(found, row))

            # Completion and hover, from the last check.
            async def completed(path: Path, text: str) -> set[str]:
                session.change(path, text + "\n" + saved[path])  # typed, unsaved, on line 1
                answer = await session.client.text_document_completion_async(
                    types.CompletionParams(
                        text_document=types.TextDocumentIdentifier(uri=session.uri(path)),
                        position=types.Position(line=0, character=len(text))))
                return {item.label for item in answer.items}

            assert "title" in await completed(template, "{{ card.ti")
            assert await completed(template, '{{ icon("') >= {"red", "yellow", "green", "blue"}
            assert await completed(events, "  effect: pay {gr") == {"green"}
            session.change(template, saved[template])
            session.change(events, saved[events])
            hovered = await session.client.text_document_hover_async(types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=session.uri(events)),
                position=types.Position(line=line, character=4)))
            assert hovered is not None and "Fed Cuts Rates" in hovered.contents.value
            # The diagnostics are pnp check --json's findings.
            assert _published(session) == _check_json(tmp_path, "downturn", tmp_path)
        finally:
            await _stop(session)
        return times

    times = asyncio.run(drive())
    with capsys.disabled():  # measured, not asserted (a shared machine's times vary)
        print(f"\npnp lsp: edit to diagnostic {times['overflow']:.2f} s, cleared in "
              f"{times['cleared']:.2f} s, template {times['font']:.2f} s, game.yaml "
              f"{times['key']:.2f} s", file=sys.stderr)
    assert {path: path.read_text("utf-8") for path in saved} == saved


FULL = os.environ.get("PNP_MATRIX") == "full"
# The test games, each a project of its own; every shipped kit with PNP_MATRIX=full (Downturn's
# diagnostics are compared in the test above on every run).
PROJECTS = [TESTS / "data" / "games" / name for name in ("babel", "debtors", "ledger", "serif")]
KITS = ["banking", "boomtown", "crunch", "downsize"] if FULL else []


def test_diagnostics_are_the_checks_findings():
    """One server, each project's game.yaml opened in turn: what it publishes is `pnp check
    --json`'s findings (files, lines, rule ids), which then answers from the same cache."""

    async def drive() -> list[tuple[set, set]]:
        session = await _session(REPO)
        pairs = []
        try:
            for root, game in [(root, next((root / "content").iterdir()).name)
                               for root in PROJECTS] + [(REPO, kit) for kit in KITS]:
                manifest = root / "content" / game / "game.yaml"
                session.open(manifest)
                await session.until(manifest, lambda found: manifest.resolve() in
                                    session.published)
                mine = {key for key in _published(session)
                        if _inside(key[0], root, game)}
                pairs.append((mine, _check_json(root, game, REPO)))
        finally:
            await _stop(session)
        return pairs

    for mine, checked in asyncio.run(drive()):
        assert mine == checked


def _inside(path: Path, root: Path, game: str) -> bool:
    return any(path.is_relative_to((root / folder / game).resolve())
               for folder in ("content", "templates")) or path.is_relative_to(REPO / "pnp")
