"""Colour vision: a face's pixels (sRGB) and a way of seeing in; the pixels as seen that way,
in a perceptually uniform space, out.

Four ways of seeing a print besides ordinary vision: a greyscale print (the luminance of each
pixel, Rec. 709 weights in linear light, as a printer's "greyscale" setting does) and the
three dichromacies, protanopia, deuteranopia and tritanopia, simulated with Machado, Oliveira
and Fernandes (2009) at full severity. The simulation and the colour space come from
colorspacious (its `sRGB1+CVD` space and CAM02-UCS, in which a Euclidean distance is the
perceived colour difference, about 1 for a just-noticeable one): a published model from a
library that implements it, rather than a copy of its matrices here.

Pixels are quantised to 5 bits a channel (at most 32,768 colours, 1/31 of full scale, a
difference under about 2 in CAM02-UCS) and each colour seen is converted once a process: a
face's few hundred distinct colours, not its tens of thousands of pixels.
"""

from __future__ import annotations

from functools import cache

import numpy as np

NORMAL = "normal"
GREYSCALE = "greyscale"
DICHROMACIES = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly",
                "tritanopia": "tritanomaly"}  # colorspacious's name of each, at severity 100
VIEWS = (GREYSCALE, *DICHROMACIES)  # the ways of seeing a print is checked in
LUMINANCE = (0.2126, 0.7152, 0.0722)  # Rec. 709, of linear-light R, G and B
_LEVELS = 32  # quantisation: levels a channel


def simulate(rgb: np.ndarray, view: str) -> np.ndarray:
    """sRGB colours (floats 0..1, any shape ending in 3) as seen in `view`, in sRGB 0..1."""
    if view == NORMAL:
        return rgb
    if view == GREYSCALE:
        linear = _linear(rgb)
        grey = _encoded(linear @ np.array(LUMINANCE))
        return np.repeat(grey[..., None], 3, axis=-1)
    from colorspacious import cspace_convert

    space = {"name": "sRGB1+CVD", "cvd_type": DICHROMACIES[view], "severity": 100}
    return np.clip(cspace_convert(rgb, space, "sRGB1"), 0, 1)


def linear_matrix(view: str) -> np.ndarray:
    """The 3 x 3 matrix on linear-light RGB that `view` is (an SVG feColorMatrix's, which
    works in linear RGB by default), for showing a gallery that way."""
    if view == GREYSCALE:
        return np.tile(np.array(LUMINANCE), (3, 1))
    from colorspacious import machado_et_al_2009_matrix

    return np.asarray(machado_et_al_2009_matrix(DICHROMACIES[view], 100))


def seen(pixels: np.ndarray, view: str) -> np.ndarray:
    """An image's pixels (H x W x 3, uint8 sRGB) as seen in `view`, in CAM02-UCS (H x W x 3
    floats): a distance between two of them is their perceived difference."""
    step = 256 // _LEVELS
    level = (pixels >> 3).astype(np.int32)  # 5 bits a channel
    index = (level[..., 0] << 10) | (level[..., 1] << 5) | level[..., 2]
    table, known = _table(view)
    wanted = np.unique(index)
    new = wanted[~known[wanted]]
    if new.size:
        levels = np.stack((new // (_LEVELS * _LEVELS), new // _LEVELS % _LEVELS,
                           new % _LEVELS), axis=-1)
        rgb = (levels * step + step / 2) / 255.0
        from colorspacious import cspace_convert

        table[new] = cspace_convert(simulate(rgb, view), "sRGB1", "CAM02-UCS")
        known[new] = True
    return table[index]


def difference(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The perceived difference (CAM02-UCS distance) of two arrays of `seen` colours."""
    return np.sqrt(((first - second) ** 2).sum(axis=-1))


@cache
def _table(view: str) -> tuple[np.ndarray, np.ndarray]:
    """Each quantised colour's CAM02-UCS coordinates in `view`, filled as colours are seen."""
    size = _LEVELS ** 3
    return np.zeros((size, 3), dtype=np.float32), np.zeros(size, dtype=bool)


def _linear(rgb: np.ndarray) -> np.ndarray:
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def _encoded(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(linear, 0, 1)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)
