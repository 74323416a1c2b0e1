"""Celery tasks of the dashboard: closing game sessions the GM left open."""

from celery import shared_task

from . import recap


@shared_task(name="dashboard.tasks.close_quiet_sessions")
def close_quiet_sessions() -> list[int]:
    """End every session quiet for SESSION_QUIET_HOURS (run by beat), each with its recap drafted."""
    return recap.close_quiet_sessions()
