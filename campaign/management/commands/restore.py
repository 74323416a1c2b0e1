"""manage.py restore FILE: put the database back as a `manage.py backup` file has it."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from zenergate_site import backups


class Command(BaseCommand):
    help = ("Replace everything in the database with a backup (pg_restore --clean, in one transaction), "
            "then empty the cache.")

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--noinput", "--no-input", action="store_false", dest="interactive",
                            help="do not ask for confirmation")

    def handle(self, *args, file: Path, interactive: bool, **options):
        db = settings.DATABASES["default"]
        where = f"database {db['NAME']}" + (f" on {db['HOST']}" if db.get("HOST") else "")
        if interactive:
            answer = input(f"This replaces everything in {where} with {file}. Type 'yes' to continue: ")
            if answer.strip().lower() != "yes":
                raise CommandError("Nothing was restored.")
        try:
            backups.restore(file)
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Restored {where} from {file}; the cache was emptied.")
