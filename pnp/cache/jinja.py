"""Compiled Jinja, kept between runs: template and expression source in; Python code out,
compiled once per source text rather than once per process; likewise the variables a
template reads and the templates it names (`names_read`, `template_reads`).

Turning Jinja into Python (lexing, parsing, generating and compiling code) is most of what a
first `pnp check` does. Templates a loader finds are kept by Jinja's own
`FileSystemBytecodeCache` (`bytecode_cache()`), which checks each entry against a checksum
of the source. It cannot keep what is not a loader's template: the manifest's labels and
`each` expressions, rules.yaml's expressions and templates (compiled from strings), and the
names a template reads, which take a parse as long as a compile. Those are kept here, in the
same folder of the user cache (pnp.cache.store), one marshalled file per source and
environment settings. The folder's name carries Jinja's version and a digest of the
modules that set the environments up, so a change to any of them starts afresh.

Both keep a layer in memory too, for a process that checks many times (`pnp watch`, the
tests). A file that cannot be read, written or unmarshalled is ignored and the source is
compiled as before.
"""

from __future__ import annotations

import marshal
from collections import OrderedDict
from pathlib import Path
from types import CodeType

import jinja2
import jinja2.meta
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.environment import TemplateExpression
from jinja2.exceptions import TemplateSyntaxError
from jinja2.idtracking import VAR_LOAD_RESOLVE
from jinja2.parser import Parser
from jinja2.utils import internalcode

from . import store

# The modules whose environments' settings shape the generated code.
_SETTINGS = ("render/environment.py", "load/expressions.py", "rules/declarative.py", "cache/jinja.py")
# Compiled code and answers kept in memory, by key: enough for every source of a few
# projects, few enough for a process that checks thousands of edited copies (the tests).
MEMORY_ENTRIES = 2048


class _Memory(OrderedDict):
    """The most recently used `entries` values, by key."""

    def __init__(self, entries: int = MEMORY_ENTRIES) -> None:
        super().__init__()
        self.entries = entries

    def recall(self, key):
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def keep(self, key, value) -> None:
        self[key] = value
        self.move_to_end(key)
        if len(self) > self.entries:
            self.popitem(last=False)


_MEMORY = _Memory()
# What compiling a source found out about it (the names it reads, the templates it names),
# by the keys `names_read` and `template_reads` keep them under: kept on disk only once asked.
_FOUND = _Memory()
# Sources parsed to be read before they were compiled, by options and source: each compiled
# from the same parse (reading a parse leaves it as it was). A few, for the next compile.
_PARSED = _Memory(entries=64)


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


def _folder() -> Path | None:
    return store.folder("jinja", f"jinja2 {jinja2.__version__}", *_SETTINGS)


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's FileSystemBytecodeCache in the user cache's folder, behind the memory layer,
    its files written and read as the store's entries are (pnp.cache.store): an entry that
    cannot be read or was damaged since is a miss (Jinja's own raises on some and loads
    others), a hit counts as a use for pruning, and a folder deleted meanwhile is made
    again."""

    def __init__(self, folder: Path) -> None:
        super().__init__(str(folder))
        self.folder = folder

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        key = (bucket.key, bucket.checksum)
        code = _MEMORY.recall(key)
        if code is not None:
            bucket.code = code
            return
        data = store.read_file(Path(self._get_cache_filename(bucket)))
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # noqa: BLE001 - an unreadable entry only costs a compile
            bucket.reset()
        if bucket.code is not None:
            _MEMORY.keep(key, bucket.code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        _MEMORY.keep((bucket.key, bucket.checksum), bucket.code)
        store.write_file(Path(self._get_cache_filename(bucket)), bucket.bytecode_to_string())


def bytecode_cache() -> jinja2.BytecodeCache | None:
    """The bytecode cache for an environment whose templates come from a loader (set up by
    the modules in _SETTINGS); None when the user cache cannot be written."""
    folder = _folder()
    return _BytecodeCache(folder) if folder is not None else None


def _load(key: str, kind: type = CodeType):
    known = _MEMORY.recall(key)
    if known is not None:
        return known
    data = store.read(_folder(), key)
    try:
        value = marshal.loads(data) if data is not None else None
    except (ValueError, EOFError, TypeError):
        return None
    if isinstance(value, kind):
        _MEMORY.keep(key, value)
        return value
    return None


def _store(key: str, value) -> None:
    _MEMORY.keep(key, value)
    store.write(_folder(), key, marshal.dumps(value))


def names_read(env: jinja2.Environment, source: str) -> tuple[str, ...]:
    """The variables a template source reads from its context, sorted; parsing a template
    for this costs as much as compiling it, so the answer is kept like code, and a source
    this process compiled is not parsed again. A syntax error is raised as Jinja raises it."""
    key = f"reads\0{_options(env)}\0{source}"
    known = _load(key, tuple)
    if known is None:
        known = _FOUND.recall(key)
        if known is None:
            reading = _Reading(env, "<introspection>", "<introspection>", optimized=False)
            reading.visit(_parsed(env, source))
            known = tuple(sorted(reading.undeclared))
        _store(key, known)
    return known


def template_reads(env: jinja2.Environment, source: str
                   ) -> tuple[tuple[str, ...], tuple[str | None, ...]]:
    """Every name a template source loads anywhere (globals and its own variables alike,
    unlike `names_read`) and the templates it includes, imports or extends, None for one
    named by an expression; kept like `names_read`."""
    key = f"loads\0{_options(env)}\0{source}"
    known = _load(key, tuple)
    if known is None:
        known = _FOUND.recall(key)
        if known is None:
            known = _loads(_parsed(env, source))
        _store(key, known)
    return known


def _parsed(env: jinja2.Environment, source: str) -> nodes.Template:
    """The source parsed, and kept a while for its compile."""
    key = f"{_options(env)}\0{source}"
    tree = _PARSED.recall(key)
    if tree is None:
        tree = env.parse(source)
        _PARSED.keep(key, tree)
    return tree


def _loads(tree: nodes.Template) -> tuple[tuple[str, ...], tuple[str | None, ...]]:
    return (tuple(sorted({name.name for name in tree.find_all(nodes.Name)
                          if name.ctx == "load"})),
            tuple(jinja2.meta.find_referenced_templates(tree)))


class _Noting(CodeGenerator):
    """Jinja's code generator, noting the names a template reads from its context as it
    enters each frame, as jinja2.meta.find_undeclared_variables does by generating the code
    a second time."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.undeclared: set[str] = set()

    def enter_frame(self, frame) -> None:
        super().enter_frame(frame)
        for _, (action, param) in frame.symbols.loads.items():
            if action == VAR_LOAD_RESOLVE and param not in self.environment.globals:
                self.undeclared.add(param)


class _Reading(_Noting):
    """Only the names (without the optimizer, which would fold the parse it reads)."""

    def write(self, x: str) -> None:
        """Nothing is written."""


def reads_name(env: jinja2.Environment, source: str, name: str) -> bool:
    """Whether a template source reads the variable `name` from its context."""
    return name in names_read(env, source)


class CachedCompiling:
    """A mixin for a Jinja Environment: `compile` of source text that is not a loader's
    template (`from_string`), and `compile_expression`, reuse code compiled by an earlier
    run. A loader's templates are left to the environment's bytecode cache."""

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        if raw or not isinstance(source, str) or self.code_generator_class is not CodeGenerator:
            return super().compile(source, name, filename, raw, defer_init)
        if name is not None or filename is not None:
            return self._compile_noting(source, name, filename, defer_init)
        key = f"template\0{_options(self)}\0{defer_init}\0{source}"
        code = _load(key)
        if code is None:
            code = self._compile_noting(source, name, filename, defer_init)
            _store(key, code)
        return code

    @internalcode  # hidden from a template error's traceback, as Jinja's own compile is
    def _compile_noting(self, source: str, name, filename, defer_init: bool):
        """Jinja's `compile` of a source, which also notes what `names_read` and
        `template_reads` would parse the source again for, or compiles the parse they made
        (each parse as long as the compile's own): a first check parsed every template up
        to three times."""
        try:
            tree = _PARSED.pop(f"{_options(self)}\0{source}", None)
            if tree is None or tree.environment is not self:  # another's, with its filters
                tree = self._parse(source, name, filename)
            loads = _loads(tree)  # before the generator's optimizer folds the tree
            generator = _Noting(self, name, filename, None, defer_init, self.optimized)
            generator.visit(tree)
        except TemplateSyntaxError:
            self.handle_exception(source=source)
        options = _options(self)
        _FOUND.keep(f"loads\0{options}\0{source}", loads)
        _FOUND.keep(f"reads\0{options}\0{source}", tuple(sorted(generator.undeclared)))
        return self._compile(generator.stream.getvalue(), filename or "<template>")

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
