"""Importing players from CSV: name, club, federation, federation_id, rating.

Every row is checked before anything is written; the rows refused are reported with their
line number and why (a missing name, a control character in a name, a rating that is not a
number, a duplicate in the file or of a registered player); a file the csv module cannot read (a
field over its limit) is refused whole, with the line. The accepted rows are written in one transaction.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from clubs.models import Club, club_key
from clubs.services import club_members_sync
from core.text import control_characters, control_characters_message
from players.models import RATING_MAX, RATING_MIN, Player, PlayerLog, player_name_key

COLUMNS = ("name", "club", "federation", "federation_id", "rating")


@dataclass(frozen=True)
class RefusedRow:
    line: int
    reason: str
    row: dict[str, str]
    player: int | None = None  # the registered player the row is (a duplicate of the registry)


@dataclass
class ImportReport:
    created: list[Player] = field(default_factory=list)
    refused: list[RefusedRow] = field(default_factory=list)
    dry_run: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "created": [{"id": p.pk, "name": p.name} for p in self.created],
            "refused": [{"line": r.line, "reason": r.reason, "row": r.row,
                         **({"player": r.player} if r.player is not None else {})} for r in self.refused],
            "dry_run": self.dry_run,
        }


class CSVFormatError(ValueError):
    """The file cannot be read as a players CSV (no header, no name column)."""


def _unreadable(reader: csv.DictReader, error: csv.Error) -> CSVFormatError:
    return CSVFormatError(f"Line {reader.line_num + 1} cannot be read as CSV ({error}); nothing was imported.")


def _rows(reader: csv.DictReader) -> Iterator[dict[str | None, Any]]:
    """Yields the rows of the reader; a line the csv module cannot read (a field over its 128 KiB limit)
    refuses the whole file with its line number, not a server error."""
    rows = iter(reader)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as error:
            raise _unreadable(reader, error) from error
        yield row


def with_header(text: str) -> str:
    """Returns CSV text with the header line: pasted lines without one (``Ann Lee, Leeds DC``) get the columns'
    header, in their order; lines separated by tabs (pasted from a spreadsheet) are read as such."""
    if text.startswith("\ufeff"):
        text = text[1:]
    first = next((line for line in text.splitlines() if line.strip()), "")
    if "\t" in first:  # a name holds no tab (no control character): the lines are a spreadsheet's
        text = "\n".join(",".join(_quoted(cell.strip()) for cell in line.split("\t")) for line in text.splitlines())
        first = next((line for line in text.splitlines() if line.strip()), "")
    if "name" in [cell.strip().lower() for cell in first.split(",")]:
        return text
    return ",".join(COLUMNS) + "\n" + text


def _quoted(cell: str) -> str:
    return '"' + cell.replace('"', '""') + '"' if any(c in cell for c in ',"') else cell


def players_import(text: str, *, dry_run: bool = False, acting_user: Any = None, line_offset: int = 0) -> ImportReport:
    """Imports players from CSV text; returns what was created and which lines were refused, and why.

    Each player created is on the registry's record (``PlayerLog``, ``created``) with the
    importing user as his registrar (the command line imports without one: an administrator
    then keeps those players).

    A duplicate is a row whose federation and federation id are already registered or appear
    earlier in the file, or, without a federation id, whose name and club do.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    reader = csv.DictReader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
    except csv.Error as error:
        raise _unreadable(reader, error) from error
    if "name" not in header:
        raise CSVFormatError(f"The first line must be a header naming the columns ({', '.join(COLUMNS)}).")
    reader.fieldnames = header
    known_ids = {(f, i): pk for pk, f, i in Player.objects.exclude(federation_id="").values_list(
        "pk", "federation", "federation_id")}
    known_names = {player_name_key(n, c): pk for pk, n, c in Player.objects.values_list("pk", "name", "club")}
    club_names = dict(Club.objects.values_list("key", "name"))  # a registered club's spelling (clubs app)
    seen_ids: dict[tuple[str, str], int] = {}
    seen_names: dict[tuple[str, str], int] = {}
    report = ImportReport(dry_run=dry_run)
    accepted: list[Player] = []
    for row in _rows(reader):
        line = reader.line_num - line_offset  # lines counted as the user wrote them (``with_header`` added one)
        values = {k: (row.get(k) or "").strip() for k in COLUMNS}
        values["club"] = club_names.get(club_key(values["club"]), values["club"])
        if not any(values.values()):
            continue  # a blank line

        def refuse(reason: str, values: dict[str, str] = values, line: int = line, player: int | None = None) -> None:
            report.refused.append(RefusedRow(line, reason, values, player))

        if None in row and row[None]:  # type: ignore[index]
            refuse("more fields than the header names")
            continue
        if not values["name"]:
            refuse("the name is missing")
            continue
        controls = [f"the {name} holds a control character ({', '.join(control_characters(values[name]))})"
                    for name in COLUMNS[:4] if control_characters_message(values[name])]
        if controls:
            refuse(", ".join(controls))
            continue
        too_long = [name for name in COLUMNS[:4] if len(values[name]) > Player._meta.get_field(name).max_length]
        if too_long:
            refuse(", ".join(f"the {name} is longer than {Player._meta.get_field(name).max_length} characters"
                             for name in too_long))
            continue
        rating = None
        if values["rating"]:
            try:
                rating = int(values["rating"])
            except ValueError:
                refuse(f"the rating {values['rating']!r} is not a whole number")
                continue
            if not RATING_MIN <= rating <= RATING_MAX:
                refuse(f"the rating {rating} is out of range ({RATING_MIN} to {RATING_MAX})")
                continue
        fed_key = (values["federation"], values["federation_id"])
        name_key = player_name_key(values["name"], values["club"])
        if values["federation_id"]:
            if fed_key in known_ids:
                refuse(f"{values['federation']} {values['federation_id']} is already registered", player=known_ids[fed_key])
                continue
            if fed_key in seen_ids:
                refuse(f"duplicate of line {seen_ids[fed_key]} ({values['federation']} {values['federation_id']})")
                continue
            seen_ids[fed_key] = line
        else:
            if name_key in known_names:
                refuse(f"{values['name']} ({values['club'] or 'no club'}) is already registered",
                       player=known_names[name_key])
                continue
            if name_key in seen_names:
                refuse(f"duplicate of line {seen_names[name_key]} (same name and club)")
                continue
        seen_names.setdefault(name_key, line)
        accepted.append(Player(name=values["name"], club=values["club"], federation=values["federation"],
                               federation_id=values["federation_id"], rating=rating))
    if not dry_run and accepted:
        with transaction.atomic():
            report.created = Player.objects.bulk_create(accepted)
            PlayerLog.objects.bulk_create([PlayerLog(
                player=player, kind=PlayerLog.Kind.CREATED, actor=acting_user,
                as_administrator=bool(acting_user is not None and acting_user.is_superuser),
                changes={name: {"before": None, "after": getattr(player, name)} for name in COLUMNS
                         if getattr(player, name) not in (None, "")}) for player in report.created])
            club_members_sync(acting_user=acting_user, players=report.created)
    else:
        report.created = accepted
    return report
