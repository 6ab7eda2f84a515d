"""Game engines: what each game's content files hold, how they make a model, which sheets it has.

Every game folder under `content/` has a `game.yaml` with the metadata below; its `engine` key
(default: the folder name) picks the module here that knows the rest of the game's files, its
model, its sheets and its rules. Content stays pure data; the engine is the only code per game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..schema import Where, located
from ..units import Size


@dataclass(frozen=True)
class Players:
    min: int
    max: int


@dataclass(frozen=True)
class Licence:
    name: str
    url: str
    attribution: str  # printed on every sheet and card made from the game


@dataclass(frozen=True)
class GameInfo:
    title: str
    designer: str
    year: int
    players: Players
    licence: Licence
    engine: str = ""
    version: str = ""
    where: Where = located()


@dataclass(frozen=True)
class Deck:
    """A sheet of same-size components, each with a front and a back drawn from templates."""

    name: str  # the sheet name users type: `pnp build --sheets events`
    title: str  # for people: 'Event cards'
    items: tuple[Any, ...]  # model objects, each with `label` and `where`
    size: Size
    front: str  # template file names, looked up game folder first, then common
    back: str


@dataclass(frozen=True)
class Board:
    """One large component drawn whole from one template: printed on a single page of its own
    size for a copy shop, or tiled over home-printer paper."""

    name: str  # the sheet name users type: `pnp build --sheets board`
    title: str  # for people: 'Game board'
    item: Any  # the model object the template draws, with `label` and `where`
    size: Size
    template: str


class Engine(Protocol):
    name: str
    files: dict[str, tuple[str, Any]]  # content file -> (model part name, schema type)
    icons: dict[str, dict[str, str]]  # inline text tokens -> icon drawing spec

    def make_model(self, info: GameInfo, parts: dict[str, Any]) -> Any: ...

    def sheets(self, model: Any) -> list[Deck]: ...

    def boards(self, model: Any) -> list[Board]: ...


def engines() -> dict[str, Engine]:
    from . import downturn

    return {engine.name: engine for engine in (downturn.ENGINE,)}
