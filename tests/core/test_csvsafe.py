"""core.csvsafe: text cells that begin like a formula are neutralised; numbers are not."""

import csv
import io
from decimal import Decimal

import pytest

from core.csvsafe import Computed, csv_cell, csv_writer


@pytest.mark.parametrize("text", ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"])
def test_a_text_beginning_like_a_formula_gets_a_quote(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Alice", "O'Brien", "1-0", "", "x=1", " =spaced"])
def test_ordinary_text_is_unchanged(value):
    assert csv_cell(value) == value


@pytest.mark.parametrize("value", [-1, -1.5, Decimal("-2.5"), 0, 7, None, True])
def test_numbers_the_code_writes_are_unchanged(value):
    assert csv_cell(value) is value


def test_a_computed_cell_is_written_as_is():
    assert csv_cell(Computed("-")) == "-" and csv_cell(Computed("-1")) == "-1"


def test_the_writer_neutralises_each_text_cell_and_keeps_numbers():
    out = io.StringIO()
    csv_writer(out).writerow([-1, "=1+1", Computed("-0.5"), "@x", 2.5])
    assert next(csv.reader(io.StringIO(out.getvalue()))) == ["-1", "'=1+1", "-0.5", "'@x", "2.5"]
