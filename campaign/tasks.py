"""Celery tasks: ids in, call a service, idempotent."""

from celery import shared_task

from . import services


@shared_task(acks_late=True)
def run_job(job_id: int) -> str:
    return services.job_run(job_id=job_id).status
