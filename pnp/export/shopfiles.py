"""A shop export: the checked decks and a shop in; preflight findings, or the files to write
(one PNG per face, or one PDF per deck) out.

Every piece is matched to its product first, and each face checked against it (preflight.py);
the faces are then drawn on every core (`workers.run_tasks`, as a check draws its sheets), each
distinct face once however often it is used (a shared back is drawn once), the way a build
draws it into a PDF (pnp.pdf.raster), and the drawn pixels read back for their painted bleed.
Any error, and nothing is returned to write. A PDF shop's pages are drawn by the build's PDF
workers (`workers.Drawing`), and made PDF/X-1a through Ghostscript when the shop asks for CMYK.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..findings import Findings
from ..layout.plans import DocumentInfo, PagePlan, Placement
from ..units import Rect, Size
from ..engine.workers import Drawing, Job, run_tasks
from ..pdf import DRAWING
from . import preflight
from .printshop import Product, Shop, face_on_product, pick_product

CHECK_DPI = 48  # a PDF shop's faces are drawn this fine to read their painted bleed


@dataclass(frozen=True)
class ShopCard:
    """One distinct card of a deck, as a shop orders it: its front and back file (or page)
    and how many copies the product is made with."""

    label: str
    front: str
    back: str  # "" for a piece without a back
    quantity: int


@dataclass(frozen=True)
class ShopDeck:
    """A deck with its product; every face to write, each once, in the shop's order: (file
    stem, svg, side, label); and its distinct cards with their counts (the manifest)."""

    game: str
    info: object
    deck: object
    product: Product
    faces: tuple[tuple[str, str, str, str], ...]  # (file stem, svg, side, label)
    cards: tuple[ShopCard, ...] = ()


def distinct_cards(deck) -> list[tuple[int, int | None, int]]:
    """(index of its first copy's front, of its back or None, copies) of each distinct card of
    a deck, in the deck's order: two items with the same front and back are one card."""
    counted: dict[tuple[str, str], list[int]] = {}
    for index, front in enumerate(deck.fronts):
        back = deck.backs[index].svg if deck.back is not None else ""
        counted.setdefault((front.svg, back), [index, 0])[1] += 1
    return [(index, index if deck.back is not None else None, copies)
            for index, copies in counted.values()]


def _shop_faces(deck, shop: Shop, pages: bool):
    """The faces to write and the distinct cards: for a PNG shop each distinct front and back
    image once (a shared back is one file); for a PDF shop each distinct card once, its back
    and front on pages side by side in the shop's order."""
    faces, cards, stems = [], [], {}
    for index, back_index, copies in distinct_cards(deck):
        front = deck.fronts[index]
        label = front.label
        sides = [("front", front)]
        if back_index is not None:
            back = ("back", deck.backs[back_index])
            sides = [back] + sides if shop.backs_first else sides + [back]
        names = {}
        for side, face in sides:
            if pages:
                number = len(faces) + 1
                faces.append((f"{deck.name}-{number:03d}-{side}", face.svg, side, label))
                names[side] = f"page {number}"
                continue
            key = (side, face.svg)
            if key not in stems:
                stems[key] = f"{deck.name}-{sum(k[0] == side for k in stems) + 1:03d}-{side}"
                faces.append((stems[key], face.svg, side, label))
            names[side] = f"{stems[key]}.png"
        cards.append(ShopCard(label, names["front"], names.get("back", ""), copies))
    return tuple(faces), tuple(cards)


def plan_shop(games: list[tuple[object, list]], shop: Shop, found: Findings,
              findings: Findings) -> list[ShopDeck]:
    """Each deck's product and faces; findings for pieces no product fits, unsafe margins,
    coarse or CMYK images, and text the check found in the safe margin."""
    findings.extend(preflight.unsafe_text(found, shop))
    planned = []
    for checked, decks in games:
        for deck in decks:
            product = pick_product(shop, deck.size, deck.shape)
            if product is None:
                preflight.no_product(deck, shop, findings)
                continue
            preflight.safe_zone(deck, product, shop, findings)
            faces, cards = _shop_faces(deck, shop, pages=product.file == "pdf")
            # A picture's finding names where it was named: the first item drawing the face.
            item_of: dict[str, int] = {}
            for side_faces in (deck.fronts, deck.backs if deck.back is not None else ()):
                for index, face in enumerate(side_faces):
                    item_of.setdefault(face.svg, index)
            seen, icons = set(), _icons(checked)
            folder = getattr(getattr(checked.renderer, "helpers", None), "art_folder", None)
            for _, svg, side, label in faces:
                if svg not in seen:
                    seen.add(svg)
                    places = preflight.picture_places(deck.items[item_of[svg]], folder, icons)
                    preflight.image_findings(svg, deck.where.of(side), label, product, findings,
                                             places)
            planned.append(ShopDeck(checked.name, checked.info, deck, product, faces, cards))
    return planned


def _icons(checked) -> dict:
    """The game's icons: each one's spec (where it was declared) and its drawn values."""
    game = checked.game
    if game is None:
        return {}
    return {name: (spec, game.icons.get(name, {})) for name, spec in game.info.icons.items()}


def _draw_face(svg: str, piece: Size, product: Product, shape: str, dpi: int,
               keep: bool) -> tuple[bytes | None, float]:
    """One face drawn on its product at `dpi`: the PNG (when kept, with its dpi) and the share
    of its bleed left unpainted."""
    from ..pdf.raster import face_image
    from .png import encode_png

    image = face_image(face_on_product(svg, piece, product), *product.pixels(piece, dpi))
    share = preflight.unpainted_share(image, piece, product, shape)
    if not keep:
        return None, share
    if image.getchannel("A").getextrema()[0] < 255:  # unpainted is the paper: white
        from PIL import Image

        paper = Image.new("RGBA", image.size, (255, 255, 255, 255))
        image = Image.alpha_composite(paper, image.convert("RGBA"))
    return encode_png(image.convert("RGB"), dpi), share


def draw_faces(planned: list[ShopDeck], shop: Shop, workers: int,
               findings: Findings) -> dict[tuple[int, str], bytes]:
    """Every distinct face drawn once, on `workers` processes: its PNG by (deck, svg) for a PNG
    shop; for a PDF shop only the bleed is read. Bleed findings are added."""
    keep = shop.file == "png"
    tasks, owners = [], []
    for number, planned_deck in enumerate(planned):
        deck, product = planned_deck.deck, planned_deck.product
        seen = set()
        for _, svg, side, label in planned_deck.faces:
            if svg in seen:
                continue
            seen.add(svg)
            dpi = product.dpi if keep else CHECK_DPI
            tasks.append(lambda svg=svg, deck=deck, product=product, dpi=dpi: _draw_face(
                svg, deck.size, product, deck.shape, dpi, keep))
            owners.append((number, svg, deck.where.of(side), label, product))
    drawn = {}
    unpainted: dict[tuple, list[tuple[str, float]]] = {}  # one finding per deck and side
    for (number, svg, where, label, product), (png, share) in zip(owners,
                                                                 run_tasks(tasks, workers)):
        unpainted.setdefault((where, product), []).append((label, share))
        if png is not None:
            drawn[(number, svg)] = png
    for (where, product), shares in unpainted.items():
        preflight.bleed_finding(shares, where, product, findings)
    return drawn


def png_files(planned: list[ShopDeck], drawn: dict[tuple[int, str], bytes], shop: Shop,
              out_dir: Path) -> list[tuple[Path, bytes]]:
    """Each distinct face's PNG once, and each deck's manifest."""
    files = []
    for number, planned_deck in enumerate(planned):
        folder = out_dir / planned_deck.game / f"shop-{shop.name}"
        files.extend((folder / f"{stem}.png", drawn[(number, svg)])
                     for stem, svg, _, _ in planned_deck.faces)
        files.append((folder / f"{planned_deck.deck.name}-manifest.csv",
                      manifest(planned_deck, shop)))
    return files


def manifest(planned_deck: ShopDeck, shop: Shop) -> bytes:
    """A deck's order for the shop, as CSV: the product, then one row per distinct card with
    its front and back (file or page) and the quantity; the total closes it."""
    import csv
    import io

    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    product = planned_deck.product
    writer.writerow(["shop", "product", "card", "front", "back", "quantity"])
    for card in planned_deck.cards:
        writer.writerow([shop.title, product.title, card.label, card.front, card.back,
                         card.quantity])
    writer.writerow([shop.title, product.title, "total", "", "",
                     sum(card.quantity for card in planned_deck.cards)])
    return text.getvalue().encode("utf-8")


def _page(svg: str, piece: Size, product: Product) -> PagePlan:
    """One face on a page of the product's size: the trim in the middle, the bleed around it."""
    from ..compose.component import blank_svg

    image, trim = product.image_mm(piece), product.trim_for(piece)
    return PagePlan(image, Rect(product.bleed_mm, product.bleed_mm, *trim), blank_svg(image),
                    (Placement(0, 0, face_on_product(svg, piece, product)),),
                    bleed=Rect(0, 0, *image), side="front")


def pdf_files(planned: list[ShopDeck], shop: Shop, workers: int, out_dir: Path,
              fonts: tuple[str, ...] = (), findings: Findings | None = None
              ) -> list[tuple[Path, bytes]]:
    """One PDF per deck, a page per face in the shop's order, drawn on the PDF workers; PDF/X-1a
    in CMYK when the shop asks for it, each converted page measured against the shop's ink
    limit (findings added)."""
    from ..compose.component import document_info

    jobs = []
    for planned_deck in planned:
        deck, product = planned_deck.deck, planned_deck.product
        plans = [_page(svg, deck.size, product) for _, svg, _, _ in planned_deck.faces]
        info: DocumentInfo = document_info(planned_deck.info, deck.title,
                                           f"{shop.title}, {product.name}", "none")
        jobs.append(Job(deck.name, plans, info, fonts))
    with Drawing(workers, **DRAWING) as drawing:
        pdfs = drawing.draw(jobs)
    files = []
    for planned_deck, job, pdf in zip(planned, jobs, pdfs):
        if planned_deck.product.colour == "cmyk":
            pdf = _cmyk(pdf, job.document.title)
            if shop.ink_limit is not None and findings is not None:
                from .pdfx import ink_peaks

                preflight.ink_finding(ink_peaks(pdf), planned_deck.faces,
                                      planned_deck.deck.where, shop.ink_limit, shop, findings)
        folder = out_dir / planned_deck.game / f"shop-{shop.name}"
        files.append((folder / f"{planned_deck.deck.name}.pdf", pdf))
        files.append((folder / f"{planned_deck.deck.name}-manifest.csv",
                      manifest(planned_deck, shop)))
    return files


def _cmyk(pdf: bytes, title: str) -> bytes:
    from ..errors import OutsideError
    from .pdfx import rgb_colour_spaces, to_pdfx

    converted = to_pdfx(pdf, title)
    left = rgb_colour_spaces(converted)
    if left:
        raise OutsideError(f"pnp export: error: Ghostscript left RGB colour in the PDF/X-1a "
                           f"({', '.join(left[:3])}); the file was not written")
    return converted
