"""The banking card game's kit, built once for Letter and A4 and read back from its PDFs.

The token pools are compared with the content brief's worst case (Endgame starts at
5 x players Assets, each carrying about 10 tokens), worked out here from game.yaml's player
count, not taken from the rules engine.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
import yaml

from conftest import REPO, crop_marks
from readback import read_sheet
from pnp.units import PAPERS, pt_to_mm
from readback import squeeze

GAME = REPO / "content" / "banking"
PAPER_NAMES = ("letter", "a4")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def data(name: str):
    return yaml.safe_load((GAME / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def out(built_kit) -> Path:
    """Every Banking sheet, built once per test session on both papers."""
    return built_kit("banking")


@pytest.fixture(scope="module")
def players() -> int:
    return data("game.yaml")["players"]["max"]


def worst_case_tokens(players: int) -> int:
    """The brief's worst case: 5 x players Assets in play at most, about 10 tokens each."""
    return 5 * players * 10


def side(page) -> str:
    found = re.search(r"sheet\d+/\d+·(fronts|backs)", squeeze(page.extract_text() or ""))
    return found[1] if found else ""


def words(pdf, min_mm: float = 0.0, pages=None) -> list[str]:
    return [w["text"] for page in (pages or pdf.pages)
            for w in page.extract_words(extra_attrs=["size"]) if pt_to_mm(w["size"]) >= min_mm]


# The kit as shipped checks clean even with --strict on Letter and A4: test_matrix's
# test_kits_check_strict_under_every_layout (home layout), on every run.

def test_the_deck_is_52_cards_and_2_jokers_with_the_games_values(out):
    with pdfplumber.open(out / "cards-letter.pdf") as pdf:
        fronts = [page for page in pdf.pages if side(page) == "fronts"]
        backs = [page for page in pdf.pages if side(page) == "backs"]
        # the value box: the word VALUE over the figure, set in 7.2 mm type (the corner index
        # is 7.5 mm)
        values = Counter(int(w["text"]) for page in fronts
                         for w in page.extract_words(extra_attrs=["size"])
                         if w["text"].isdigit() and abs(pt_to_mm(w["size"]) - 7.2) < 0.1)
        labels = words(pdf, 0, fronts).count("VALUE")
        jokers = words(pdf, 0, fronts).count("JOKER")
        back_text = squeeze(" ".join(page.extract_text() for page in backs))
    assert labels == 54 and jokers == 2
    expected = Counter({value: 4 for value in range(1, 14)})  # Ace 1 ... King 13, four suits
    expected[0] = 2  # the two Jokers
    assert values == expected
    assert back_text.count("untitledintherules") == 54  # every back says it is our title


def test_card_values_follow_ace_one_and_the_proposal_for_faces():
    with (GAME / "cards.csv").open(encoding="utf-8", newline="") as handle:
        cards = list(csv.DictReader(handle))
    suited = [c for c in cards if c["rank"] != "Joker"]
    assert len(suited) == 52 and len({(c["rank"], c["suit"]) for c in suited}) == 52
    assert all(int(c["value"]) == RANKS.index(c["rank"]) + 1 for c in suited)


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))


def worth_by_fill(path: Path, kinds: dict[str, str]) -> tuple[Counter, Counter]:
    """Per token kind, told by the fill of its 17 mm disc (`kinds` maps a fill "#rrggbb" to a
    kind's name): how many tokens and what they are worth, adding the big figure printed inside
    each disc. The label under the figure is not used: a 5 reads "5 TOKENS", not its kind."""
    count: Counter = Counter()
    worth: Counter = Counter()
    wanted = {rgb(fill): name for fill, name in kinds.items()}
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            figures = [w for w in page.extract_words(extra_attrs=["size"])
                       if re.fullmatch(r"\$?[15]", w["text"]) and pt_to_mm(w["size"]) > 4]
            discs = {}
            for curve in page.curves:
                colour = curve.get("non_stroking_color")
                if not curve.get("fill") or not colour or len(colour) != 3:
                    continue
                if abs(pt_to_mm(curve["x1"] - curve["x0"]) - 17) > 0.2:
                    continue
                key = tuple(round(v) for v in rgb("#%02x%02x%02x" % tuple(
                    round(c * 255) for c in colour)))
                box = (round(curve["x0"], 1), round(curve["top"], 1))
                if key in wanted:
                    discs[box] = (wanted[key], curve)
            used = 0
            for name, curve in discs.values():
                inside = [f for f in figures if _inside(f, (curve["x0"], curve["top"],
                                                             curve["x1"], curve["bottom"]))]
                assert len(inside) == 1, (page.page_number, name, inside)
                used += 1
                count[name] += 1
                worth[name] += int(inside[0]["text"].lstrip("$"))
            assert used == len(figures), page.page_number  # every figure is on a known disc
    return count, worth


def _inside(char, box) -> bool:
    x0, top, x1, bottom = box
    return x0 <= char["x0"] and char["x1"] <= x1 and top <= char["top"] and \
        char["bottom"] <= bottom


def test_every_players_debt_tokens_cover_the_worst_case(out, players):
    colours = data("players.yaml")
    assert len(colours) >= players
    # told apart without colour: an initial and a shape of their own
    assert len({c["initial"] for c in colours}) == len({c["shape"] for c in colours}) == \
        len(colours)
    count, worth = worth_by_fill(out / "debt_tokens-letter.pdf",
                                 {c["fill"]: c["name"].upper() for c in colours})
    with pdfplumber.open(out / "debt_tokens-letter.pdf") as pdf:
        # Only what is printed on the tokens (inside each page's TrimBox), not the sheet's
        # notes in the margin.
        initials = Counter(ch["text"] for page in pdf.pages for ch in page.chars
                           if 2.2 <= pt_to_mm(ch["size"]) <= 2.6 and _inside(ch, page.trimbox))
    for colour in colours:
        name = colour["name"].upper()
        assert count[name] == initials[colour["initial"]] > 0, name  # colour name and initial
        assert worth[name] >= worst_case_tokens(players), name


def test_central_bank_pools_cover_the_worst_case(out, players):
    template = (REPO / "templates" / "banking" / "token.svg.j2").read_text(encoding="utf-8")
    fills = dict(re.findall(r'"(greenback|credit|cbdebt)": \("(#[0-9a-f]{6})"', template))
    _, worth = worth_by_fill(out / "tokens-letter.pdf",
                             {fill: kind.upper() for kind, fill in fills.items()})
    worst = worst_case_tokens(players)
    assert worth["CREDIT"] >= worst  # every token on every Asset a Credit Rating
    assert worth["CBDEBT"] >= worst  # Quantitative Easing: every token a repo
    assert worth["GREENBACK"] >= 20 * players + worst  # opening cash and every repo paid out


@pytest.mark.parametrize("paper", PAPER_NAMES)
@pytest.mark.parametrize("deck, size", [("tokens", (18, 18)), ("debt_tokens", (18, 18)),
                                        ("cards", (63, 88)), ("aid", (90, 125))])
def test_crop_marks_describe_the_declared_piece_size(out, deck, size, paper):
    declared = data("game.yaml")["decks"][deck]["size"]
    assert declared == "poker" or [float(n) for n in re.findall(r"[\d.]+", declared)][0] == size[0]
    with pdfplumber.open(out / f"{deck}-{paper}.pdf") as pdf:
        # the first page, and the last (a part-filled grid); every page is imposed alike
        for page in {pdf.pages[0].page_number: pdf.pages[0],
                     pdf.pages[-1].page_number: pdf.pages[-1]}.values():
            assert pt_to_mm(page.width) == pytest.approx(PAPERS[paper].width_mm, abs=0.1)
            xs, ys, _ = crop_marks(page)
            assert len(xs) >= 2 and len(ys) >= 2
            assert {round(b - a, 1) for a, b in zip(xs, xs[1:])} == {size[0]}
            assert {round(b - a, 1) for a, b in zip(ys, ys[1:])} == {size[1]}


def test_player_aid_one_per_player_with_the_thresholds_for_each_count(out, players):
    with pdfplumber.open(out / "aid-letter.pdf") as pdf:
        front = squeeze(pdf.pages[0].extract_text())
        back = squeeze(pdf.pages[1].extract_text())
    assert front.count("YOURTURN") == players
    for section in ("CreateanAsset", "RepowiththeCentralBank", "BuyanAsset"):
        assert front.count(section) == players
    for section in ("Margincalls", "Liquidation", "Endgamestartswhen"):
        assert back.count(section) == players
    low = data("game.yaml")["players"]["min"]
    for count in range(low, players + 1):
        assert back.count(f"{count}players:{5 * count}Assetsinplay,or{2 * count}liquidated") \
            == players
    assert back.count("untitled") >= players or back.count("notitle") >= players


def test_a_five_says_it_counts_five_on_the_token_and_the_aid(out):
    """The rules count tokens one by one; a 5 must say it is five of them, on every 5 token
    and on the player aid."""
    for sheet in ("tokens", "debt_tokens"):
        with pdfplumber.open(out / f"{sheet}-letter.pdf") as pdf:
            for page in pdf.pages:
                words = page.extract_words(extra_attrs=["size"])
                fives = [w for w in words if re.fullmatch(r"\$?5", w["text"])
                         and pt_to_mm(w["size"]) > 4]
                labels = [w for w in words if w["text"] == "TOKENS"]
                assert len(fives) == len(labels), (sheet, page.page_number)
    with pdfplumber.open(out / "aid-letter.pdf") as pdf:
        text = "".join("".join((page.extract_text() or "").split()) for page in pdf.pages)
    assert "a5countsfive" in text and "a5TOKENSpieceisfive" in text


def test_the_loan_at_par_is_printed_as_optional_with_its_clauses(out):
    """The rules head the loan at par "Optional Rule" and say it must be accepted: the aid names
    it among the optional rules only, and the cover sheet prints it whole."""
    backs = read_sheet(out / "aid-letter.pdf").backs
    assert backs
    for card in backs:
        rules, options = "".join(card.text.split()).split("Optionalrules")
        assert "loanatpar" not in rules.lower() and "Loanatpar" in options
    with pdfplumber.open(out / "cover-letter.pdf") as pdf:
        cover = " ".join((pdf.pages[0].extract_text() or "").split())
    assert "Loan at par:" in cover and "must be accepted" in cover
