"""Font measures forgotten, so the next text measured reads the font files again, as a new process
would (pnp.fonts keeps each face's measures for the process's life)."""

import pnp.fonts


def forget_font_measures() -> None:
    pnp.fonts._face_metrics.cache_clear()
    pnp.fonts._measure.cache_clear()
