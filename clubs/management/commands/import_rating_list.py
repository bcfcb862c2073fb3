"""Reads a federation's rating list (CSV: id, name, rating, games) into the registry (``clubs.rating_lists``)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubs.rating_lists import RatingListError, rating_list_import


class Command(BaseCommand):
    help = ("Reads a federation's rating list (CSV: id, name, rating, games) into the registry: federation ids, "
            "ratings and games; a bad row refuses the file, naming its line and column.")

    def add_arguments(self, parser) -> None:  # noqa: ANN001
        parser.add_argument("federation", help="The federation whose list it is, as players' federation (ACF, ...).")
        parser.add_argument("path", help="The CSV file, with a header line.")
        parser.add_argument("--dry-run", action="store_true", help="Check the file and say what it would do.")
        parser.add_argument("--create-missing", action="store_true", help="Register the players the list has and "
                                                                             "the registry lacks.")

    def handle(self, *args, **options) -> None:  # noqa: ANN002, ANN003
        path = Path(options["path"])
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from error
        try:
            report = rating_list_import(acting_user=None, federation=options["federation"], text=text,
                                        dry_run=options["dry_run"], create_missing=options["create_missing"],
                                        command_line=True)
        except RatingListError as error:
            for row in error.errors:
                self.stderr.write(f"{path}: {row.text()}")
            raise CommandError(str(error)) from error
        verb = "would be" if options["dry_run"] else "were"
        self.stdout.write(f"{len(report.updated)} rating(s) {verb} updated, {len(report.seeded)} federation id(s) "
                          f"{verb} seeded by name, {len(report.created)} player(s) {verb} registered, "
                          f"{len(report.unchanged)} unchanged.")
        for row, players in report.ambiguous:
            self.stdout.write(f"  line {row.line}: {row.name} is ambiguous (players {', '.join(str(p.pk) for p in players)})")
        for row in report.unmatched:
            self.stdout.write(f"  line {row.line}: {row.name} ({row.federation_id}) is not registered")
