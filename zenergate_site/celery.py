"""The Celery application: configured from Django settings (CELERY_* names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zenergate_site.settings")

app = Celery("zenergate_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
