"""`@frozen`: pnp's immutable value types, cheap to declare.

`@dataclass(frozen=True)` writes six methods for each class as Python source and compiles
them while its module loads: on Python 3.11 about half a millisecond a class, and pnp has
fifty, besides the two dozen record types a game's manifest declares. `@frozen` makes the
same kind of class: a dataclass (`fields`, `replace`, `asdict` and pickling work), immutable,
equal to another of its class by its compared fields, hashed by its hashed ones and shown by
its shown ones. Five of the methods are written once, here, for every class; only `__init__`
is compiled per class, from the same kind of source a dataclass's is, and only when the first
instance is made (a run uses about two thirds of the types).
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter
from typing import Any, dataclass_transform

_MISSING = dataclasses.MISSING


@dataclass_transform(frozen_default=True)
def frozen(cls: type | None = None, /, *, kw_only: bool = False):
    """Make `cls` a frozen dataclass (see the module's notes); with `kw_only`, made with
    keyword arguments only. A method the class defines itself is kept, as a dataclass would
    keep it."""
    if cls is None:
        return lambda cls: frozen(cls, kw_only=kw_only)
    own = dict(cls.__dict__)
    cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False, kw_only=kw_only)
    fields = dataclasses.fields(cls)
    _check_order(cls, fields)
    compared = [field.name for field in fields if field.compare]
    hashed = [field.name for field in fields
              if (field.compare if field.hash is None else field.hash)]
    cls._frozen_key = attrgetter(*compared) if compared else staticmethod(_nothing)
    cls._frozen_hash_key = attrgetter(*hashed) if hashed else staticmethod(_nothing)
    cls._frozen_shown = tuple(field.name for field in fields if field.repr)
    if "__init__" not in own:
        cls.__init__ = _first_init(cls)
    for name, method in (("__repr__", _repr), ("__eq__", _eq), ("__setattr__", _setattr),
                         ("__delattr__", _delattr)):
        if name not in own:
            setattr(cls, name, method)
    if own.get("__hash__") is None:  # not written by the class (or set to None by its __eq__)
        cls.__hash__ = _hash
    return cls


def _nothing(_value: Any) -> tuple:
    return ()


def _check_order(cls: type, fields) -> None:
    """The error a dataclass gives as its class is made, rather than at its first instance."""
    defaulted = None
    for field in fields:
        if not field.init or field.kw_only:
            continue
        if field.default is not _MISSING or field.default_factory is not _MISSING:
            defaulted = field.name
        elif defaulted:
            raise TypeError(f"{cls.__qualname__}: non-default argument '{field.name}' follows "
                            f"default argument '{defaulted}'")


def _first_init(cls: type):
    """An `__init__` that compiles the class's own, puts it in its place and calls it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls.__init__ = _compile_init(cls)
        cls.__init__(self, *args, **kwargs)

    return __init__


_FACTORY = object()  # a parameter's default when its field's default comes from a factory


def _compile_init(cls: type):
    """The `__init__` a frozen dataclass would have: each field set through object's
    `__setattr__`, defaults and factories as declared, then `__post_init__` if defined."""
    names: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    positional, keywords, body = [], [], []
    for field in dataclasses.fields(cls):
        value = field.name
        if field.default_factory is not _MISSING:
            names[f"_factory_{field.name}"] = field.default_factory
            value = f"_factory_{field.name}()"
            if field.init:
                value = f"{value} if {field.name} is _FACTORY else {field.name}"
        elif not field.init and field.default is not _MISSING:
            names[f"_default_{field.name}"] = field.default
            value = f"_default_{field.name}"
        elif not field.init:
            continue  # set by __post_init__, if at all
        if field.init:
            parameter = field.name
            if field.default_factory is not _MISSING:
                parameter += "=_FACTORY"
            elif field.default is not _MISSING:
                names[f"_default_{field.name}"] = field.default
                parameter += f"=_default_{field.name}"
            (keywords if field.kw_only else positional).append(parameter)
        body.append(f"  _set(self, {field.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        body.append("  self.__post_init__()")
    parameters = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    source = f"def __init__({parameters}):\n" + ("\n".join(body) or "  pass") + "\n"
    exec(source, names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


def _repr(self) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._frozen_shown)
    return f"{type(self).__qualname__}({shown})"


def _eq(self, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self._frozen_key(self) == other._frozen_key(other)


def _hash(self) -> int:
    return hash(self._frozen_hash_key(self))


def _setattr(self, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


__all__ = ["frozen"]
