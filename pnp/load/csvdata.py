"""Load CSV: a data file with a header row in; a YAML-style node tree that remembers file:line:col out.

A CSV file is read into the same nodes as a YAML list of mappings, so one validator checks both
with the same types and the same messages: each row becomes a mapping, each non-empty cell a
plain scalar keyed by its header. A header with a dot (`invest.red`) fills a nested mapping. A
finding about a cell carries the row's line and the column's number (the third column is :3), as
a spreadsheet counts them. The file is read with the same caps and character checks as YAML.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from yaml.error import Mark
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .content import Document, decode_text, printable, read_capped
from ..findings import Findings, Location

_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_HEADER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


class CellMark(Mark):
    """A node position in a spreadsheet: the row and column of a cell in a named sheet
    (findings print it as `cards.xlsx:Cards!B7`)."""

    def __init__(self, shown: str, line: int, column: int, sheet: str):
        super().__init__(shown, 0, line - 1, column - 1, None, None)
        self.sheet = sheet


def _mark(shown: str, line: int, column: int, sheet: str = "") -> Mark:
    """A node position: `line` and `column` are 1-based, as findings print them."""
    if sheet:
        return CellMark(shown, line, column, sheet)
    return Mark(shown, 0, line - 1, column - 1, None, None)


def load_csv(path: Path, shown: str, findings: Findings) -> Document:
    """Read a UTF-8 CSV file with a header row; every problem is a finding, never an exception."""
    where = Location(shown)
    raw = read_capped(path, where, findings)
    if raw is None:
        return Document(shown, None)
    # A spreadsheet may start the file with a byte-order mark; it is not part of the header.
    text = decode_text(raw, shown, findings, encoding="utf-8-sig",
                       hint="save the file as UTF-8 (in a spreadsheet: CSV UTF-8)")
    if text is None:
        return Document(shown, None)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        rows = []
        start = 1
        for row in reader:
            rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        findings.error("csv-syntax", Location(shown, reader.line_num or 1, 1),
                       f"CSV error: {printable(str(exc))}",
                       hint="check the quotes on this row: a quoted cell must close")
        return Document(shown, None)
    return table_document(shown, rows, findings,
                          extra_hint="remove the extra cells, or quote a cell holding a comma")


def table_document(shown: str, rows: list[tuple[int, list[str]]], findings: Findings, *,
                   sheet: str = "", extra_hint: str) -> Document:
    """A table's rows (their line, or row in a spreadsheet, and their cells as text) as a
    document: the first row that is not empty names the fields, empty rows are left out.
    `sheet` names the spreadsheet sheet the rows come from, if they do."""
    where = Location(shown, sheet=sheet)
    rows = [(line, row) for line, row in rows if any(cell.strip() for cell in row)]
    if not rows:
        findings.error("yaml-empty", where, "file is empty" if not sheet else "sheet is empty",
                       hint="add a header row naming the fields, then one row per item")
        return Document(shown, None)
    header_line, header = rows[0]
    names = [cell.strip() for cell in header]
    separator = next((sep for sep in (";", "\t", "|") if len(names) == 1 and sep in names[0]),
                     None)
    if separator is not None:
        shown_sep = {"\t": "tabs"}.get(separator, f"'{separator}'")
        findings.error("csv-header", Location(shown, header_line, 1), f"the header is "
                       f"separated by {shown_sep}, and pnp reads CSV separated by commas",
                       hint="save it again as comma-separated CSV (in a spreadsheet: "
                       "CSV UTF-8, comma-delimited)")
        return Document(shown, None)
    if len(rows) == 1:
        findings.error("csv-empty", Location(shown, header_line, 1), "the file has a header "
                       "but no rows", hint="add one row per item under the header")
        return Document(shown, None)
    ok = True
    for number, name in enumerate(names, start=1):
        if not _HEADER.fullmatch(name):
            findings.error("csv-header", Location(shown, header_line, number, sheet),
                           f"header '{printable(name)}' is not a field name",
                           hint="name each column with a field, e.g. title or invest.red")
            ok = False
        elif name in names[: number - 1]:
            findings.error("csv-header", Location(shown, header_line, number, sheet),
                           f"header '{name}' is repeated (column {names.index(name) + 1})",
                           hint="give each column its own field")
            ok = False
    if not ok:
        return Document(shown, None)
    items = []
    for line, row in rows[1:]:
        if len(row) > len(names):
            findings.error("csv-row", Location(shown, line, len(names) + 1, sheet),
                           f"row has {len(row)} cells, the header names {len(names)}",
                           hint=extra_hint)
            continue
        items.append(_row_node(shown, line, names, row, sheet))
    header_keys = [ScalarNode(_STR, name, _mark(shown, header_line, n, sheet),
                              _mark(shown, header_line, n, sheet))
                   for n, name in enumerate(names, start=1)]
    root = SequenceNode(_SEQ, items, _mark(shown, header_line, 1, sheet),
                        _mark(shown, header_line, 1, sheet))
    root.csv_header = header_keys  # the validator reads unknown columns from these
    return Document(shown, root)


def _row_node(shown: str, line: int, names: list[str], row: list[str], sheet: str
              ) -> MappingNode:
    """One row as a mapping node; dotted headers nest, empty cells are left out."""
    top: list = []
    nested: dict[str, list] = {}
    start = _mark(shown, line, 1, sheet)
    for number, (name, cell) in enumerate(zip(names, row), start=1):
        if not cell.strip():
            continue
        mark = _mark(shown, line, number, sheet)
        *parents, leaf = name.split(".")
        pairs, prefix = top, ""
        for parent in parents:
            prefix = f"{prefix}.{parent}" if prefix else parent
            if prefix not in nested:
                nested[prefix] = []
                child = MappingNode(_MAP, nested[prefix], mark, mark)
                pairs.append((ScalarNode(_STR, parent, mark, mark), child))
            pairs = nested[prefix]
        # A line break inside a quoted cell is CRLF in RFC 4180: one line break in the text.
        text = cell.strip().replace("\r\n", "\n").replace("\r", "\n")
        pairs.append((ScalarNode(_STR, leaf, mark, mark), ScalarNode(_STR, text, mark,
                                                                     mark, style=None)))
    return MappingNode(_MAP, top, start, start)
