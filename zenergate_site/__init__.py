"""The Zener Gate campaign manager: Django project package."""

from .celery import app as celery_app

__all__ = ("celery_app",)
