"""Load spreadsheets: an .xlsx file (and the sheet named in it) in; the same nodes as a CSV file
out (pnp.load.csvdata), each cell located as `cards.xlsx:Cards!B7`.

Designers keep their cards in Excel or LibreOffice; a deck or table may name the workbook
instead of a CSV export of it. The file's bytes are read through pnp.reads like every content
file (so caches see it), with the same size cap, and parsed from memory by openpyxl (which
parses its XML with defusedxml). Each cell becomes the text a CSV export of it would hold (a
whole number without a decimal point, TRUE as true, a date as 2024-05-01), so a row is checked
by the one validator with the same types and messages as a CSV row: the first row that is not
empty names the fields, empty rows are left out. A cell holding an error (#DIV/0!) or a
formula whose result was never saved is a finding at that cell, never an empty value.
"""

from __future__ import annotations

import datetime
import io
import zipfile
from pathlib import Path
from typing import Any

from .content import REFUSED_RAW, Document, describe_char, printable, read_capped
from .csvdata import table_document
from ..findings import Findings, Location

SPREADSHEET_SUFFIXES = (".xlsx",)
# What the workbook's parts may unpack to: far above a deck's worth of rows, far below what a
# hostile file (a 1 MB archive of zeros) could make the parser hold.
MAX_UNPACKED_BYTES = 64_000_000
_EXTRA_HINT = "delete the cells right of the last named column, or name their column"


def load_spreadsheet(path: Path, shown: str, findings: Findings, sheet: str,
                     sheet_where: Location) -> Document:
    """Read one sheet of the workbook at `path` (`sheet`, or the first one when empty); every
    problem is a finding, never an exception. `sheet_where` is where the manifest names the
    sheet, for a finding about a sheet that is not there."""
    raw = read_capped(path, Location(shown), findings)
    if raw is None:
        return Document(shown, None)
    try:
        sizes = [part.file_size for part in zipfile.ZipFile(io.BytesIO(raw)).infolist()]
    except (zipfile.BadZipFile, ValueError, OSError):
        findings.error("spreadsheet-unreadable", Location(shown), "is not an .xlsx workbook",
                       hint="save it from a spreadsheet program as Excel 2007-365 (.xlsx)")
        return Document(shown, None)
    if sum(sizes) > MAX_UNPACKED_BYTES:
        findings.error("spreadsheet-unreadable", Location(shown),
                       f"unpacks to {sum(sizes):,} bytes, more than {MAX_UNPACKED_BYTES:,}",
                       hint="keep the game's data in a workbook of its own")
        return Document(shown, None)
    try:
        names, rows = _read_xlsx(raw, sheet)
    except Exception as exc:  # openpyxl raises many kinds for a damaged file: one finding
        findings.error("spreadsheet-unreadable", Location(shown),
                       f"cannot read the workbook: {printable(str(exc)) or type(exc).__name__}",
                       hint="open it in a spreadsheet program and save it again as .xlsx")
        return Document(shown, None)
    if rows is None:
        from .schema import suggest  # only for a sheet that is not there

        findings.error("spreadsheet-sheet", sheet_where,
                       f"'{printable(sheet)}' is not a sheet of {shown}",
                       hint=suggest(sheet, names) or f"its sheets: {', '.join(names)}")
        return Document(shown, None)
    chosen = sheet or names[0]
    texts, reported = [], set()
    for row_number, cells in rows:
        row = []
        for column, (value, kind) in enumerate(cells, start=1):
            before = len(findings)
            text = _cell_text(value, kind, Location(shown, row_number, column, chosen),
                              findings)
            if len(findings) > before:
                reported.add(row_number)
            row.append(text)
        while row and not row[-1].strip():
            row.pop()
        texts.append((row_number, row))
    document = table_document(shown, texts, findings, sheet=chosen, extra_hint=_EXTRA_HINT)
    if document.root is not None and reported:
        # A row with a cell found wrong is left out: its one finding, at that cell, says what
        # to do; the validator would report the same cell again as a missing key.
        document.root.value = [item for item in document.root.value
                               if item.start_mark.line + 1 not in reported]
    return document


def _read_xlsx(raw: bytes, sheet: str) -> tuple[list[str], list | None]:
    """The workbook's sheet names, and the chosen sheet's rows (None when it has no such
    sheet): (row number, [(saved value, kind), ...]), the kind "error" for a cell showing an
    error, "formula" for a formula, "" for any other."""
    import openpyxl  # only for a game with a spreadsheet

    values = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    formulas = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=False)
    try:
        names = [worksheet.title for worksheet in values.worksheets]
        if not names:
            raise ValueError("the workbook has no sheet")
        name = sheet or names[0]
        if name not in names:
            return names, None
        rows = []
        for row_number, (saved, written) in enumerate(zip(_rows(values[name]),
                                                          _rows(formulas[name])), start=1):
            cells = [(cell.value, "error" if getattr(cell, "data_type", "") == "e" else
                      "formula" if getattr(source, "data_type", "") == "f" else "")
                     for cell, source in zip(saved, written)]
            if cells:
                rows.append((row_number, cells))
        return names, rows
    finally:
        values.close()
        formulas.close()


def _rows(worksheet) -> Any:
    """Every row the sheet's file holds, from row 1 and column 1 (a sheet whose recorded size
    is wrong, as some programs write it, is read whole all the same)."""
    worksheet.reset_dimensions()
    return worksheet.iter_rows()


def _cell_text(value: Any, kind: str, where: Location, findings: Findings) -> str:
    """The text a CSV export of the cell holds; a finding (and no text) for a cell that
    holds no value it could print."""
    if kind == "error":
        findings.error("spreadsheet-cell", where, f"cell shows the error {printable(str(value))}",
                       hint="fix the formula, or type the value")
        return ""
    if value is None:
        if kind == "formula":
            findings.error("spreadsheet-cell", where, "formula has no saved result",
                           hint="open the file in a spreadsheet program and save it, so the "
                                "result is stored with the formula")
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        # A spreadsheet keeps every number as a float: 3 is stored as 3.0.
        return str(int(value)) if value.is_integer() and abs(value) < 2 ** 53 else repr(value)
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time():
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    text = str(value)  # text, or a duration
    bad = REFUSED_RAW.search(text)
    if bad:
        findings.error("text-control-char", where, f"contains {describe_char(bad.group())}",
                       hint="remove it; it cannot be printed")
        return ""
    return text
