"""The language server: LSP messages over stdio in (pygls); diagnostics, completions and
hovers out. Each change re-checks the game the file belongs to, once the typing pauses for
DEBOUNCE_S, with every open buffer laid over the disk (pnp.lsp.checking)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..findings import Finding
from .checking import Checked, Place, check_game, place_of
from .knowing import completions, fitted_text

DEBOUNCE_S = 0.15  # a pause in typing this long re-checks
SEVERITY = {"error": types.DiagnosticSeverity.Error,
            "warning": types.DiagnosticSeverity.Warning}


class PnpServer(LanguageServer):
    """pnp's language server: the last check of each game, and the files it published to."""

    def __init__(self) -> None:
        super().__init__("pnp", __version__)
        self.checked: dict[tuple[Path, str], Checked] = {}
        self.published: dict[tuple[Path, str], set[Path]] = {}
        self.waiting: dict[tuple[Path, str], asyncio.Task] = {}

    def buffers(self) -> dict[Path, str]:
        """Every open document's text by absolute path."""
        return {Path(to_fs_path(uri)).resolve(): document.source
                for uri, document in self.workspace.text_documents.items()}

    def recheck(self, path: Path, wait_s: float = 0.0) -> None:
        """Check the games of `path` again after `wait_s` (a newer change restarts the wait)."""
        place = place_of(path)
        if place is None:
            return
        for game in place.games:
            key = (place.root, game)
            if key in self.waiting:
                self.waiting[key].cancel()
            self.waiting[key] = asyncio.ensure_future(self._check_later(key, wait_s))

    async def _check_later(self, key: tuple[Path, str], wait_s: float) -> None:
        await asyncio.sleep(wait_s)
        self.waiting.pop(key, None)
        self.publish(key, check_game(key[0], key[1], self.buffers()))

    def publish(self, key: tuple[Path, str], checked: Checked) -> None:
        """A game's diagnostics, file by file; a file that had some and has none is cleared."""
        self.checked[key] = checked
        before = self.published.get(key, set())
        opened = {path for path in self.buffers() if path in before or
                  (place_of(path) or Place(Path(), ())).games == (key[1],)}
        # The open files last: an editor (or a test) that waits for them has the rest.
        for path in sorted(before | set(checked.by_file) | opened, key=lambda p: p in opened):
            found = checked.by_file.get(path, [])
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=from_fs_path(str(path)), diagnostics=[diagnostic(f) for f in found]))
        self.published[key] = set(checked.by_file)

    def last_check(self, path: Path) -> Checked | None:
        place = place_of(path)
        if place is None:
            return None
        return next((self.checked[(place.root, game)] for game in place.games
                     if (place.root, game) in self.checked), None)


def diagnostic(finding: Finding) -> types.Diagnostic:
    """A finding as the editor shows it: at its line (the whole line from its column), with
    its rule id as the code and its hint after the message."""
    line = max(finding.where.line - 1, 0) if not finding.where.sheet else 0
    column = max(finding.where.column - 1, 0)
    words = " ".join(part for part in (finding.subject, finding.field) if part)
    message = (f"{words}: " if words else "") + finding.message + \
        (f"; {finding.hint}" if finding.hint else "")
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=line, character=column),
                          end=types.Position(line=line + 1, character=0)),
        message=message, severity=SEVERITY.get(finding.severity.value,
                                               types.DiagnosticSeverity.Information),
        code=finding.rule, source="pnp")


def make_server() -> PnpServer:
    server = PnpServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def opened(ls: PnpServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.recheck(Path(to_fs_path(params.text_document.uri)))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def changed(ls: PnpServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.recheck(Path(to_fs_path(params.text_document.uri)), DEBOUNCE_S)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def saved(ls: PnpServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.recheck(Path(to_fs_path(params.text_document.uri)))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def closed(ls: PnpServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.recheck(Path(to_fs_path(params.text_document.uri)))  # the disk's text again

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[".", '"', "'", "{"]))
    def complete(ls: PnpServer, params: types.CompletionParams) -> types.CompletionList:
        path = Path(to_fs_path(params.text_document.uri))
        document = ls.workspace.get_text_document(params.text_document.uri)
        lines = document.lines
        row = params.position.line
        before = lines[row][:params.position.character] if row < len(lines) else ""
        last = ls.last_check(path)
        kind, names = completions(last.game if last else None, before)
        item_kind = types.CompletionItemKind.Field if kind == "field" else \
            types.CompletionItemKind.Constant
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(label=name, kind=item_kind, detail=f"pnp {kind}")
            for name in names])

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: PnpServer, params: types.HoverParams) -> types.Hover | None:
        path = Path(to_fs_path(params.text_document.uri))
        last = ls.last_check(path)
        text = fitted_text(last.game if last else None, path, params.position.line + 1)
        if not text:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=text))

    return server


def cmd_lsp(args) -> int:
    """`pnp lsp`: answer an editor on stdin and stdout until it says exit."""
    make_server().start_io()
    return 0
