"""Compiled Jinja, kept between runs: template and expression source in; Python code out,
compiled once per source text rather than once per process.

Turning Jinja into Python (lexing, parsing, generating and compiling code) is most of what a
first `pnp check` does. The result depends only on the source text, the environment's syntax
options and class, Jinja's version and Python's, so it is kept on disk (marshalled code, one
file per source) in the user's cache folder: `$PNP_CACHE_DIR`, else `$XDG_CACHE_HOME/pnp`,
else `~/.cache/pnp`. The folder's name carries the versions and a digest of the modules that
set the environments up, so a change to any of them starts afresh. A file that cannot be read,
written or unmarshalled is ignored and the source is compiled as before.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from functools import cache
from pathlib import Path
from types import CodeType

import jinja2
from jinja2 import nodes
from jinja2.environment import TemplateExpression
from jinja2.exceptions import TemplateSyntaxError
from jinja2.parser import Parser

from .quick import cache_home

# The modules whose environments' settings shape the generated code.
_SETTINGS = ("render.py", "declarative.py", "jinjacache.py")


@cache
def folder() -> Path | None:
    base = cache_home()
    salt = hashlib.sha256()
    here = Path(__file__).parent
    for name in _SETTINGS:
        salt.update((here / name).read_bytes())
    path = Path(base) / (f"jinja-{jinja2.__version__}-{sys.implementation.cache_tag}-"
                         f"{salt.hexdigest()[:16]}")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path


def _options(env: jinja2.Environment) -> str:
    autoescape = env.autoescape if isinstance(env.autoescape, bool) else \
        getattr(env.autoescape, "__qualname__", "callable")
    return repr((type(env).__module__, type(env).__qualname__, autoescape, env.trim_blocks,
                 env.lstrip_blocks, env.keep_trailing_newline, env.newline_sequence,
                 env.block_start_string, env.block_end_string, env.variable_start_string,
                 env.variable_end_string, env.comment_start_string, env.comment_end_string,
                 env.line_statement_prefix, env.line_comment_prefix, env.optimized,
                 env.undefined.__qualname__, sorted(env.extensions),
                 sorted(getattr(env, "intercepted_binops", ()))))


def _path(key: str) -> Path | None:
    where = folder()
    return None if where is None else where / (hashlib.sha256(key.encode()).hexdigest()
                                                + ".code")


def _load(key: str) -> CodeType | None:
    path = _path(key)
    if path is None:
        return None
    try:
        code = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def _store(key: str, code: CodeType) -> None:
    path = _path(key)
    if path is None:
        return
    try:
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(marshal.dumps(code))
        os.replace(temporary, path)
    except OSError:
        pass


class CachedCompiling:
    """A mixin for a Jinja Environment: `compile` of source text and `compile_expression`
    reuse code compiled by an earlier run."""

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        if raw or not isinstance(source, str):
            return super().compile(source, name, filename, raw, defer_init)
        key = f"template\0{_options(self)}\0{name}\0{filename}\0{defer_init}\0{source}"
        code = _load(key)
        if code is None:
            code = super().compile(source, name, filename, raw, defer_init)
            _store(key, code)
        return code

    def compile_expression(self, source: str, undefined_to_none: bool = True):
        key = f"expression\0{_options(self)}\0{source}"
        code = _load(key)
        if code is None:
            parser = Parser(self, source, state="variable")
            try:
                expr = parser.parse_expression()
                if not parser.stream.eos:
                    raise TemplateSyntaxError("chunk after expression",
                                              parser.stream.current.lineno, None, None)
                expr.set_environment(self)
            except TemplateSyntaxError:
                self.handle_exception(source=source)
            body = [nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)]
            code = super().compile(nodes.Template(body, lineno=1))
            _store(key, code)
        template = self.template_class.from_code(self, code, self.make_globals(None), None)
        return TemplateExpression(template, undefined_to_none)
