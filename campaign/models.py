"""Campaigns, who belongs to them, what happened in them, and their background jobs."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Campaign(models.Model):
    class StatEntry(models.TextChoices):
        ENTER = "enter", "Players enter rolled stats"
        ROLL = "roll", "Roll in the app (logged)"

    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    stat_entry = models.CharField(max_length=8, choices=StatEntry.choices, default=StatEntry.ENTER)
    max_skill_ranks = models.PositiveSmallIntegerField(default=3)
    # In-game time elapsed, in hours: downtime advances it.
    game_hours = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(max_skill_ranks__gte=1) & Q(max_skill_ranks__lte=10),
                name="campaign_max_skill_ranks_1_10",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", "GM"
        PLAYER = "player", "Player"
        VIEWER = "viewer", "Viewer"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_one_per_user"),
            models.CheckConstraint(condition=Q(role__in=["gm", "player", "viewer"]), name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.campaign}"


class LogEntry(models.Model):
    """The campaign's audit trail: who did what, and why, for every write."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="log_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="campaign_actions")
    action = models.CharField(max_length=64)
    summary = models.CharField(max_length=300)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "-created_at"], name="logentry_campaign_recent")]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"


class Job(models.Model):
    """A long-running piece of work started from a page: progress and a per-item report."""

    class Kind(models.TextChoices):
        DOWNTIME = "downtime", "Downtime"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    params = models.JSONField(default=dict, blank=True)
    progress = models.PositiveSmallIntegerField(default=0)
    total = models.PositiveSmallIntegerField(default=0)
    report = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=models.F("total")) | Q(total=0), name="job_progress_le_total"),
        ]

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return round(100 * self.progress / self.total) if self.total else 0
