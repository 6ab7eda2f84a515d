"""Playability: a game's decks with their drawn fronts, and a way to rasterise a face, in;
warnings where pieces the data says differ look alike in greyscale or to a colour-blind
player out.

What the data says differs: a deck's `choice` fields (suit, colour, department, risk) and,
for a deck made with `each`, every name bound to a word or a record (a token's kind, its
owner); numbers are left out (they print as numerals). Decks of one size and shape are one
group, as their pieces meet on the table (a bank's tokens and a player's): a field of either
is compared wherever both have it.

A kind of piece is the values of those fields; the pixels all its faces share (up to
FACES_PER_KIND of them, their version stamps blanked) are its look, so a card's rank, name or
art, which vary within a suit, play no part in telling the suit. Two kinds that differ in
one field are compared where both looks hold: the pixels that differ there in ordinary vision
by DIFFERENT (CAM02-UCS) are what tells them apart (two values of a field on at most
PAIRS_PER_VALUES pairs of kinds: a suit against another at three ranks). Seen in greyscale or
with a dichromacy (pnp.render.vision), at least MIN_AREA_MM2 of them must still differ by as
much: a letter, a symbol or a shape of its own keeps its pixels apart in every view, a hue
alone does not. A pair that looks alike in ordinary vision too is left alone (nothing is
printed to tell it).

DIFFERENT is a difference a player sees at a glance across the table, not side by side:
play-testers mistook banking's Central Bank Debt black (#222222) for its Blue Debt (#1e5aa8),
24.6 apart in greyscale; a red and a green of one lightness are about 5 apart to a
deuteranope, and black and white 95.

Each distinct face is rasterised once, at PIXEL_MM a pixel (finer on a small piece).
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields, is_dataclass
from itertools import combinations
from typing import Any, Callable

import numpy as np

from ..findings import Finding, Location, Severity
from . import vision

RULE = "play-colour-only"
PIXEL_MM = 0.5  # the raster's pixel, or finer on a small piece:
SHORT_SIDE_PX = 64  # at least this many pixels across its short side
MIN_AREA_MM2 = 0.5  # two letters 2 mm tall (R and B) differ in more ink than this
DIFFERENT = 30.0  # CAM02-UCS distance that tells two colours apart at a glance
SAME_LEVEL = 24  # faces of one kind agree where their pixels differ by at most this (0..255)
FACES_PER_KIND = 4
PAIRS_PER_VALUES = 3  # two values of a field are compared on this many pairs of kinds at most

Raster = Callable[[str, int, int], Any]  # (svg, width_px, height_px) -> a Pillow RGBA image


@dataclass(frozen=True)
class Sample:
    """What the check reads of one kind of piece in a deck: its values, one piece's label and
    data line, and up to FACES_PER_KIND of its distinct faces, their stamps blanked."""

    deck: str
    values: tuple[tuple[str, str], ...]  # (field, value) for each field the deck has
    label: str
    where: Location
    svgs: tuple[str, ...]


@dataclass(frozen=True)
class Group:
    """The kinds of piece of the decks of one size and shape: their pieces meet on the table."""

    width_mm: float
    height_mm: float
    samples: tuple[Sample, ...]


@dataclass(frozen=True)
class Kind:
    """The pieces of one group that the data does not tell apart, and their shared look."""

    deck: str
    values: tuple[tuple[str, str], ...]  # (field, value) for each field the deck has
    label: str  # one of its pieces, for people
    where: Location
    mean: np.ndarray  # H x W x 3 uint8: the look
    held: np.ndarray  # H x W bool: where every face of the kind agrees


def playability_samples(decks: list[Any]) -> list[Group]:
    """All the check reads of a game's decks (each with `name`, `size`, `shape`, `where`,
    `items` and their drawn `fronts`), grouped: what its answer depends on."""
    groups: dict[tuple, list[Sample]] = {}
    for deck in decks:
        names = _fields(deck)
        if deck.fronts and names:
            size = (round(deck.size.width_mm, 2), round(deck.size.height_mm, 2), deck.shape)
            groups.setdefault(size, []).extend(_samples(deck, names))
    return [Group(width, height, tuple(samples))
            for (width, height, _), samples in groups.items()]


def playability_findings(groups: list[Group], raster: Raster) -> list[Finding]:
    """Every pair of kinds of piece, in every group, that only colour tells apart, and the
    views in which it does not."""
    found: list[Finding] = []
    drawn: dict[str, np.ndarray] = {}
    for group in groups:
        kinds = [_kind(sample, group, raster, drawn) for sample in group.samples]
        found += _compared(kinds, group)
    return found


def _fields(deck: Any) -> list[str]:
    """The fields of a deck's items that say which kind a piece is."""
    items = deck.items
    if not items or not is_dataclass(items[0]):
        return []
    made = "each" in getattr(deck.where, "fields", {})  # items made from the data
    chosen = []
    for spec in fields(items[0]):
        if typing.get_origin(spec.type) is typing.Literal:
            chosen.append(spec.name)
        elif made and spec.name != "where" and all(
                isinstance(value, str) or (is_dataclass(value) and hasattr(value, "label"))
                for value in (getattr(item, spec.name, None) for item in items)):
            chosen.append(spec.name)  # a name bound to words or records
    return chosen


def _value(value: Any) -> str:
    if is_dataclass(value):
        return str(getattr(value, "name", None) or getattr(value, "label", ""))
    return str(value)


def _samples(deck: Any, names: list[str]) -> list[Sample]:
    kinds: dict[tuple, tuple[Any, Any, set[str], list[str]]] = {}
    for item, face in zip(deck.items, deck.fronts):
        values = tuple((name, _value(getattr(item, name, ""))) for name in names)
        kind = kinds.get(values)
        if kind is None:
            kind = kinds[values] = (item, face, set(), [])
        _, _, read, svgs = kind
        if len(svgs) < FACES_PER_KIND and face.svg and face.svg not in read:
            read.add(face.svg)  # copies share their drawing: each is looked at once
            svg = face.svg.replace(face.stamp, "") if face.stamp else face.svg
            if svg not in svgs:
                svgs.append(svg)
    return [Sample(deck.name, values, face.label,
                   getattr(getattr(item, "where", None), "at", None) or deck.where.at,
                   tuple(svgs)) for values, (item, face, _, svgs) in kinds.items() if svgs]


def _kind(sample: Sample, group: Group, raster: Raster, drawn: dict[str, np.ndarray]) -> Kind:
    """A kind's look: its faces rasterised (each distinct face once), where they agree."""
    pixel_mm = min(PIXEL_MM, min(group.width_mm, group.height_mm) / SHORT_SIDE_PX)
    width = max(1, round(group.width_mm / pixel_mm))
    height = max(1, round(group.height_mm / pixel_mm))
    images = []
    for svg in sample.svgs:
        if svg not in drawn:
            drawn[svg] = _on_white(raster(svg, width, height))
        images.append(drawn[svg].astype(np.int16))
    stack = np.stack(images)
    held = (stack.max(axis=0) - stack.min(axis=0)).max(axis=-1) <= SAME_LEVEL
    return Kind(sample.deck, sample.values, sample.label, sample.where,
                stack.mean(axis=0).round().astype(np.uint8), held)


def _on_white(image: Any) -> np.ndarray:
    """A Pillow RGBA image composited on white paper, as H x W x 3 uint8."""
    rgba = np.asarray(image.convert("RGBA"), dtype=np.float32) / 255.0
    alpha = rgba[..., 3:4]
    return np.round((rgba[..., :3] * alpha + (1 - alpha)) * 255).astype(np.uint8)


def _compared(kinds: list[Kind], group: Group) -> list[Finding]:
    """The pairs of kinds differing in one field that a view loses, one finding per field and
    pair of values."""
    seen: dict[str, list[np.ndarray]] = {}
    for view in (vision.NORMAL, *vision.VIEWS):
        seen[view] = [vision.seen(kind.mean, view) for kind in kinds]
    height, width = kinds[0].mean.shape[:2] if kinds else (0, 0)
    px_mm2 = (group.width_mm / max(width, 1)) * (group.height_mm / max(height, 1))
    least = MIN_AREA_MM2 / px_mm2 if px_mm2 else 1
    lost: dict[tuple, tuple[Kind, Kind, list[str]]] = {}
    compared: dict[tuple, int] = {}
    for (i, first), (j, second) in combinations(enumerate(kinds), 2):
        one, other = dict(first.values), dict(second.values)
        shared = [name for name in one if name in other]
        differ = [name for name in shared if one[name] != other[name]]
        if len(differ) != 1 or first.mean.shape != second.mean.shape:
            continue
        name = differ[0]
        key = (name, *sorted((one[name], other[name])))
        if compared.get(key, 0) >= PAIRS_PER_VALUES:
            continue
        compared[key] = compared.get(key, 0) + 1
        region = first.held & second.held
        region &= vision.difference(seen[vision.NORMAL][i], seen[vision.NORMAL][j]) > DIFFERENT
        if region.sum() < least:
            continue  # nothing printed tells them apart, in any view: not a colour question
        views = [view for view in vision.VIEWS
                 if (vision.difference(seen[view][i][region], seen[view][j][region])
                     > DIFFERENT).sum() < least]
        if views:
            known = lost.get(key)
            if known is None:
                lost[key] = (first, second, views)
            else:
                known[2].extend(view for view in views if view not in known[2])
    findings = []
    for (name, _, _), (first, second, views) in lost.items():
        one, other = dict(first.values)[name], dict(second.values)[name]
        shown = [view for view in vision.VIEWS if view in views]
        findings.append(Finding(
            RULE, Severity.WARNING, first.where,
            f"{first.label} ({name} {one}) and {second.label} ({name} {other}) differ only "
            f"by colour, and look alike in {_listed(shown)}",
            subject=f"deck {first.deck}" if first.deck == second.deck else
            f"decks {first.deck} and {second.deck}", field=name,
            hint=f"add a letter or symbol per {name} (or make the colours differ in "
                 "lightness); pnp proof --simulate "
                 f"{shown[0]} shows the faces so"))
    return findings


def _listed(views: list[str]) -> str:
    return views[0] if len(views) == 1 else ", ".join(views[:-1]) + " and " + views[-1]


__all__ = ["playability_samples", "playability_findings", "RULE"]
