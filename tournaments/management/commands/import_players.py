"""Imports players from a CSV file (name, club, federation, federation_id, rating)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.csv_import import CSVFormatError, players_import


class Command(BaseCommand):
    help = "Imports players from CSV (name, club, federation, federation_id, rating); reports the rows refused."

    def add_arguments(self, parser) -> None:  # noqa: ANN001
        parser.add_argument("path", help="The CSV file, with a header line.")
        parser.add_argument("--dry-run", action="store_true", help="Check the file; write nothing.")

    def handle(self, *args, **options) -> None:  # noqa: ANN002, ANN003
        path = Path(options["path"])
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from error
        try:
            report = players_import(text, dry_run=options["dry_run"])
        except CSVFormatError as error:
            raise CommandError(str(error)) from error
        verb = "would be imported" if options["dry_run"] else "imported"
        self.stdout.write(f"{len(report.created)} player(s) {verb}.")
        if report.refused:
            self.stdout.write(f"{len(report.refused)} row(s) refused:")
            for refused in report.refused:
                self.stdout.write(f"  line {refused.line}: {refused.reason}")
