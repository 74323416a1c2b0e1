"""manage.py clear_cache: empty the page cache (after restoring a database by other means)."""

from django.core.management.base import BaseCommand

from zenergate_site import backups


class Command(BaseCommand):
    help = "Empty Django's cache (rendered pages, log-in failure counts); the broker's queue stays."

    def handle(self, *args, **options):
        removed = backups.cache_clear()
        self.stdout.write(f"Cache emptied ({removed} keys).")
