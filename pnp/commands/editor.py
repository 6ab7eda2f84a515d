"""`pnp lsp`: the language server (pnp.lsp) an editor starts; stdio in and out."""

from __future__ import annotations


def cmd_lsp(args) -> int:
    from ..lsp.server import serve

    return serve()
