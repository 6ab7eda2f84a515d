"""Live server: an output folder and the watch's finished rounds in; the proof galleries over
HTTP on loopback, and an answer to "has it been rebuilt?" out.

A page opened from a file cannot be told that it changed, so `pnp watch --proof` serves the
output folder at http://127.0.0.1:PORT/ (as MkDocs' `serve` does) and counts its rounds. Every
HTML page served gets the round it was read at written into the gallery's reload script
(`data-pnp-round=""` becomes `data-pnp-round="N"`; the file on disk is not changed). The script
asks GET /.pnp/reload?since=N, which answers at once with the current round when it differs from
N, and otherwise waits until the next round (at most POLL_S, then answers N); a page whose round
is behind reloads itself. Rounds count on from the clock's milliseconds, so a page still open
when the watch is restarted sees a newer round and reloads too.

Only GET and HEAD, only files inside the folder: a path with a `..` or hidden segment (plain or
percent-encoded), or one that resolves outside the folder, is refused. Nothing is cached by the
browser, and requests are not logged.
"""

from __future__ import annotations

import mimetypes
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

HOST = "127.0.0.1"
RELOAD_PATH = "/.pnp/reload"
POLL_S = 25.0
ROUND_MARK = b'data-pnp-round=""'
TYPES = {".html": "text/html; charset=utf-8", ".ttf": "font/ttf", ".json": "application/json",
         ".svg": "image/svg+xml", ".png": "image/png", ".pdf": "application/pdf"}


class LiveServer:
    """The output folder served from a daemon thread until `close`; `finished_round` after
    every round that rewrote a gallery."""

    def __init__(self, folder: Path, port: int = 0) -> None:
        self.folder = folder.resolve()
        self._round = time.time_ns() // 1_000_000
        self._changed = threading.Condition()
        self._closing = False
        self._http = _Server((HOST, port), _Handler)  # OSError when the port is taken
        self._http.live = self
        self._thread = threading.Thread(target=self._http.serve_forever, kwargs={
            "poll_interval": 0.2}, name="pnp-live-server", daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        return self._http.server_address[1]

    def url(self, relative: str = "") -> str:
        return f"http://{HOST}:{self.port}/{quote(relative)}"

    @property
    def round(self) -> int:
        with self._changed:
            return self._round

    def finished_round(self) -> int:
        with self._changed:
            self._round += 1
            self._changed.notify_all()
            return self._round

    def wait_past(self, since: int, timeout_s: float = POLL_S) -> int:
        """The current round as soon as it differs from `since`, or after `timeout_s`."""
        with self._changed:
            self._changed.wait_for(lambda: self._round != since or self._closing, timeout_s)
            return self._round

    def close(self) -> None:
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5)

    def file_for(self, url_path: str) -> Path | None:
        """The file a request path names inside the folder, or None when it names none there
        (a directory stands for its index.html)."""
        segments = [s for s in unquote(url_path, errors="strict").split("/") if s]
        if any(s.startswith(".") or "\\" in s or "\0" in s for s in segments):
            return None
        target = self.folder.joinpath(*segments)
        try:
            if target.is_dir():
                target = target / "index.html"
            target = target.resolve()
            # A symbolic link pointing out, or a segment that is a drive, leads outside.
            return target if target.is_relative_to(self.folder) and target.is_file() else None
        except (OSError, RuntimeError):  # a name too long, a loop of symbolic links
            return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    live: LiveServer

    def handle_error(self, request, client_address) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError):  # a page reloading drops its waiting request
            return
        print(f"pnp watch: proof server: {type(exc).__name__}: {exc}", file=sys.stderr,
              flush=True)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "pnp"

    def do_GET(self) -> None:
        self._answer(body=True)

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def _refuse_method(self) -> None:
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse_method

    def _answer(self, body: bool) -> None:
        live = self.server.live
        url = urlsplit(self.path)
        if url.path == RELOAD_PATH:
            try:
                since = int(parse_qs(url.query).get("since", [""])[0])
            except ValueError:
                self._send(HTTPStatus.BAD_REQUEST, b"since must be a round number\n", body)
                return
            current = live.wait_past(since) if body else live.round
            self._send(HTTPStatus.OK, f"{current}\n".encode(), body)
            return
        try:
            path = live.file_for(url.path)
        except UnicodeDecodeError:
            path = None
        if path is None:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", body)
            return
        kind = TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] \
            or "application/octet-stream"
        current = live.round  # before the file is read: a page is never newer than its round
        try:
            data = path.read_bytes()
        except OSError:  # replaced or removed in between
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", body)
            return
        if path.suffix.lower() == ".html":
            at = data.rfind(ROUND_MARK)  # the reload script closes the page
            if at >= 0:
                data = data[:at] + f'data-pnp-round="{current}"'.encode() + \
                    data[at + len(ROUND_MARK):]
        self._send(HTTPStatus.OK, data, body, kind)

    def _send(self, status: HTTPStatus, data: bytes, body: bool,
              kind: str = "text/plain; charset=utf-8") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args) -> None:  # the watch's output is its findings
        pass
