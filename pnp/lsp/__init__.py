"""`pnp lsp`: a language server over stdio (pygls) in; pnp's findings in the editor out.

A front end beside pnp.watch: an editor's open buffers in (unsaved text laid over the files on
disk, pnp.reads.overlaid), the check `pnp check` runs out, as diagnostics (rule id as code,
hint in the message), with completion of field and icon names and hover on a data row.
"""
