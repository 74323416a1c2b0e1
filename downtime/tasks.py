"""Celery tasks for downtime: ids in, call a service; safe to run twice."""

from celery import shared_task

from . import services


# acks_late + reject_on_worker_lost: a worker killed mid-job leaves the message to be delivered
# again; the per-character claims make the second run skip whoever the first one advanced.
# The names are the ones the tasks had when the app lived in campaign/downtime: messages queued
# before an upgrade still find their task after it.
@shared_task(name="campaign.downtime.tasks.run_downtime", acks_late=True, reject_on_worker_lost=True)
def run_downtime(job_id: int) -> str | None:
    job = services.downtime_run(job_id=job_id)
    return job.status if job else None


@shared_task(name="campaign.downtime.tasks.sweep_jobs")
def sweep_jobs() -> list[int]:
    """Re-send orphaned jobs (run by beat every JOB_SWEEP_SECONDS)."""
    return services.jobs_sweep()
