"""CSV exports that cannot attack their reader (formula injection, OWASP's rule).

A spreadsheet opening a CSV file runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a
formula (``=HYPERLINK(...)``, ``@SUM(A1)``, ``-2+3``), and some also after a leading tab or
carriage return. Every CSV writer of the project writes its rows through :func:`csv_writer`,
which neutralises such a **text** cell by prefixing a single quote (``'=HYPERLINK(...)``); the
spreadsheet then shows it as text.

Only strings are neutralised. Numbers the code computes (``int``, ``float``, ``Decimal``: a
score, a rating difference ``-1``) are written unchanged and stay numbers. A cell the code
itself composes from numbers and fixed marks (a crosstable cell ``3:2-0``, ``3-``, ``-``) is
not text a user typed: pass it wrapped in :class:`Computed` and it is written as is. So
whoever adds a column of user text gets the protection by default.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

#: First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection).
DANGEROUS_FIRST = ("=", "+", "-", "@", "\t", "\r", "\n", "\x00")


class Computed(str):
    """A string cell the code composed itself (no user text): written unchanged."""

    __slots__ = ()


def csv_cell(value: Any) -> Any:
    """Returns the cell to write: a text starting like a formula prefixed with ``'``; else as is."""
    if value is None or isinstance(value, (bool, int, float, Decimal, Computed)):
        return value
    text = str(value)
    if text.startswith(DANGEROUS_FIRST):
        return "'" + text
    return text


class SafeWriter:
    """A ``csv.writer`` whose rows go through :func:`csv_cell`."""

    def __init__(self, out: Any, **kwargs: Any) -> None:
        self._writer = csv.writer(out, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([csv_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out: Any, **kwargs: Any) -> SafeWriter:
    """Returns a CSV writer on ``out`` that neutralises formula-like text cells."""
    return SafeWriter(out, **kwargs)
