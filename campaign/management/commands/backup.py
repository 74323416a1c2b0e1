"""manage.py backup [--output FILE]: the whole database in pg_dump's custom format."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from zenergate_site import backups


class Command(BaseCommand):
    help = "Write the database to backups/zenergate-<UTC time>.dump (pg_dump, custom format)."

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", type=Path,
                            help="the file to write (default: backups/zenergate-<UTC time>.dump)")

    def handle(self, *args, output: Path | None, **options):
        path = output or backups.default_path(Path(settings.BASE_DIR) / "backups")
        try:
            backups.backup(path)
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Backed up database {settings.DATABASES['default']['NAME']} to {path} "
                          f"({path.stat().st_size // 1024} kB)")
