"""A federation's rating list read in: each row (id, name, rating, games) seeds a registered player's federation
id, his federation rating and the games the list counts.

The file is all or nothing: a row that cannot be read (a rating that is not a whole number in
range, an id given twice, a name missing...) refuses the file with every such row named by its
line and column (``RatingListError``: 400 through the API, an error on the command line), and
nothing is written.

A row finds its player by the federation and the id (``Player.federation``/``federation_id``);
else by name (case and spacing ignored) among the players with no id in that federation: one
such player gets the id (seeded), several are ambiguous and left alone, none is unmatched (and,
with ``create_missing``, registered). Each change is on the registry's record (``PlayerLog``).
Only a federation administrator (a superuser) writes a list; any director may check one
(``dry_run``) to see what it would do. Entry bands read the rating with
``players.selectors.federation_rating``.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from accounts.roles import is_director
from clubs.services import ClubPermissionDenied
from core.text import control_characters_message
from players.models import RATING_MAX, RATING_MIN, Player, PlayerLog, player_name_key

COLUMNS = ("id", "name", "rating", "games")
REQUIRED = ("id", "name", "rating")
MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class RowError:
    line: int
    column: str
    message: str

    def text(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


class RatingListError(ValueError):
    """The file is refused: its errors, each with its line and column."""

    def __init__(self, errors: list[RowError]) -> None:
        self.errors = errors
        shown = "; ".join(e.text() for e in errors[:5]) + ("; ..." if len(errors) > 5 else "")
        super().__init__(f"The rating list is refused ({len(errors)} error{'s' if len(errors) != 1 else ''}): "
                         f"{shown}. Nothing was imported.")


@dataclass(frozen=True)
class ListRow:
    line: int
    federation_id: str
    name: str
    rating: int
    games: int | None


@dataclass
class ListReport:
    federation: str
    dry_run: bool
    updated: list[tuple[ListRow, Player]] = field(default_factory=list)
    seeded: list[tuple[ListRow, Player]] = field(default_factory=list)
    created: list[tuple[ListRow, Player]] = field(default_factory=list)
    unchanged: list[tuple[ListRow, Player]] = field(default_factory=list)
    ambiguous: list[tuple[ListRow, list[Player]]] = field(default_factory=list)
    unmatched: list[ListRow] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        def pair(row: ListRow, player: Player) -> dict[str, Any]:
            return {"line": row.line, "id": row.federation_id, "name": row.name, "rating": row.rating,
                    "games": row.games, "player": player.pk}

        return {
            "federation": self.federation, "dry_run": self.dry_run,
            "updated": [pair(r, p) for r, p in self.updated], "seeded": [pair(r, p) for r, p in self.seeded],
            "created": [pair(r, p) for r, p in self.created], "unchanged": [pair(r, p) for r, p in self.unchanged],
            "ambiguous": [{"line": r.line, "id": r.federation_id, "name": r.name, "players": [p.pk for p in ps]}
                          for r, ps in self.ambiguous],
            "unmatched": [{"line": r.line, "id": r.federation_id, "name": r.name} for r in self.unmatched],
        }


def rating_list_parse(text: str) -> list[ListRow]:
    """Reads the list's rows (a header line naming id, name, rating and, if given, games; any order, any case);
    raises ``RatingListError`` naming every bad row's line and column."""
    if text.startswith("\ufeff"):
        text = text[1:]
    reader = csv.reader(io.StringIO(text))
    errors: list[RowError] = []
    try:
        header = [h.strip().lower() for h in next(reader, [])]
    except csv.Error as error:
        raise RatingListError([RowError(1, "-", f"cannot be read as CSV ({error})")]) from error
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise RatingListError([RowError(1, c, "the header line must name this column (id, name, rating, games)")
                               for c in missing])
    where = {c: header.index(c) for c in COLUMNS if c in header}
    rows: list[ListRow] = []
    seen: dict[str, int] = {}
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            errors.append(RowError(reader.line_num, "-", f"cannot be read as CSV ({error})"))
            break
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(header):
            errors.append(RowError(line, str(len(header) + 1), "more fields than the header names"))
            continue
        value = {c: (cells[i].strip() if i < len(cells) else "") for c, i in where.items()}
        bad = len(errors)
        for column in ("id", "name"):
            message = control_characters_message(value[column])
            if not value[column]:
                errors.append(RowError(line, column, "missing"))
            elif message:
                errors.append(RowError(line, column, message))
            elif len(value[column]) > Player._meta.get_field("federation_id" if column == "id" else "name").max_length:
                errors.append(RowError(line, column, "too long"))
        rating = _whole(value["rating"], line, "rating", RATING_MIN, RATING_MAX, errors)
        games = _whole(value["games"], line, "games", 0, MAX_GAMES, errors) if value.get("games") else None
        if value["id"] and value["id"] in seen:
            errors.append(RowError(line, "id", f"{value['id']} is given on line {seen[value['id']]} already"))
        elif value["id"]:
            seen[value["id"]] = line
        if len(errors) == bad:
            rows.append(ListRow(line, value["id"], value["name"], rating, games))  # type: ignore[arg-type]
    if errors:
        raise RatingListError(errors)
    return rows


def _whole(text: str, line: int, column: str, low: int, high: int, errors: list[RowError]) -> int | None:
    try:
        number = int(text)
    except ValueError:
        errors.append(RowError(line, column, f"{text[:40]!r} is not a whole number" if text else "missing"))
        return None
    if not low <= number <= high:
        errors.append(RowError(line, column, f"{number} is out of range ({low} to {high})"))
        return None
    return number


def rating_list_import(*, acting_user: Any, federation: str, text: str, dry_run: bool = False,
                       create_missing: bool = False, command_line: bool = False) -> ListReport:
    """Reads a federation's rating list into the registry (see the module's docstring); returns what it did (or,
    with ``dry_run``, would do)."""
    if not command_line:
        if not is_director(acting_user):
            raise ClubPermissionDenied("Only a director checks a rating list, and a federation administrator "
                                       "imports one.")
        if not dry_run and not acting_user.is_superuser:
            raise ClubPermissionDenied("Only a federation administrator imports a rating list (a director may check "
                                       "one: dry_run).")
    federation = (federation or "").strip()
    rows = rating_list_parse(text)
    report = ListReport(federation=federation, dry_run=dry_run)
    with transaction.atomic():
        by_id = {p.federation_id: p for p in Player.objects.select_for_update(of=("self",)).filter(
            federation=federation, federation_id__in=[r.federation_id for r in rows])}
        keys = {player_name_key(r.name, "")[0] for r in rows if r.federation_id not in by_id}
        by_name: dict[str, list[Player]] = {}
        for p in Player.objects.select_for_update(of=("self",)).filter(federation_id=""):
            key = player_name_key(p.name, "")[0]
            if key in keys:
                by_name.setdefault(key, []).append(p)
        for row in rows:
            player = by_id.get(row.federation_id)
            if player is not None:
                changes = _changes(player, row)
                (report.updated if changes else report.unchanged).append((row, player))
                if changes and not dry_run:
                    _write(player, changes, acting_user, federation)
                continue
            named = by_name.get(player_name_key(row.name, "")[0], [])
            if len(named) > 1:
                report.ambiguous.append((row, named))
            elif named:
                player = named[0]
                report.seeded.append((row, player))
                if not dry_run:
                    _write(player, {"federation": (player.federation, federation),
                                    "federation_id": (player.federation_id, row.federation_id),
                                    **_changes(player, row)}, acting_user, federation)
                by_name[player_name_key(row.name, "")[0]] = []
            elif create_missing:
                player = Player(name=row.name, federation=federation, federation_id=row.federation_id,
                                federation_rating=row.rating, federation_games=row.games)
                if not dry_run:
                    player.save()
                    PlayerLog.objects.create(player=player, kind=PlayerLog.Kind.CREATED, actor=_actor(acting_user),
                                             as_administrator=True, reason=f"{federation} rating list",
                                             changes={k: {"before": None, "after": getattr(player, k)} for k in
                                                      ("name", "federation", "federation_id", "federation_rating",
                                                       "federation_games") if getattr(player, k) is not None})
                report.created.append((row, player))
            else:
                report.unmatched.append(row)
        if dry_run:
            transaction.set_rollback(True)
    return report


def _actor(user: Any) -> Any:
    return user if user is not None and user.is_authenticated else None


def _changes(player: Player, row: ListRow) -> dict[str, tuple[Any, Any]]:
    out = {}
    if player.federation_rating != row.rating:
        out["federation_rating"] = (player.federation_rating, row.rating)
    if row.games is not None and player.federation_games != row.games:
        out["federation_games"] = (player.federation_games, row.games)
    return out


def _write(player: Player, changes: dict[str, tuple[Any, Any]], actor: Any, federation: str) -> None:
    changes = {k: v for k, v in changes.items() if v[0] != v[1]}
    for name, (_, after) in changes.items():
        setattr(player, name, after)
    player.save(update_fields=list(changes))
    PlayerLog.objects.create(player=player, kind=PlayerLog.Kind.CHANGED, actor=_actor(actor),
                             as_administrator=bool(getattr(actor, "is_superuser", False)),
                             reason=f"{federation} rating list",
                             changes={k: {"before": b, "after": a} for k, (b, a) in changes.items()})
