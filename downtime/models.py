"""What downtime, Zener Transitions and treatments did to each character, kept for undo.

Every record holds the character's stored wounds exactly as they were before and after, so an
undo can put them back, and can tell when something else changed the character since.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from zenergate_site import limits


class DowntimeClaim(models.Model):
    """One character advanced by one downtime job: taken once, in the same transaction as the wounds.

    The unique (job, character) row is what makes a job advance each character exactly once,
    whichever worker runs it and however often its message is delivered.
    """

    job = models.ForeignKey("campaign.Job", on_delete=models.CASCADE, related_name="downtime_claims")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    before = models.JSONField()
    after = models.JSONField()
    report = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["job_id", "character_id"]
        constraints = [models.UniqueConstraint(fields=["job", "character"], name="downtime_claim_once")]


class SheetClaim(models.Model):
    """One sheet of another rule set rested by one downtime job: taken once, with the sheet's change.

    ``before`` and ``after`` hold the sheet's condition and resources, for the job's undo.
    """

    job = models.ForeignKey("campaign.Job", on_delete=models.CASCADE, related_name="sheet_claims")
    sheet = models.ForeignKey("characters.SystemSheet", on_delete=models.CASCADE, related_name="+")
    before = models.JSONField()
    after = models.JSONField()
    report = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["job_id", "sheet_id"]
        constraints = [models.UniqueConstraint(fields=["job", "sheet"], name="downtime_sheet_claim_once")]


class Therapy(models.Model):
    """An anti-radiation therapy the GM defines: its dice stay hidden from the players."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="therapies")
    name = models.CharField(max_length=limits.THERAPY_NAME)
    con_healed = models.PositiveSmallIntegerField(default=1)
    extra_reduction = models.CharField(max_length=limits.THERAPY_DICE, default="d3")
    track_steps_back = models.CharField(max_length=limits.THERAPY_DICE, default="d3")
    shock = models.CharField(max_length=limits.THERAPY_DICE, default="d6")
    trauma = models.CharField(max_length=limits.THERAPY_DICE, default="d3")
    efficacy_loss = models.PositiveSmallIntegerField(default=0)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name_plural = "therapies"
        constraints = [
            models.CheckConstraint(condition=Q(con_healed__lte=3), name="therapy_con_healed_0_3"),
            models.CheckConstraint(condition=Q(efficacy_loss__lte=3), name="therapy_efficacy_loss_0_3"),
        ]

    def __str__(self) -> str:
        return self.name


class Treatment(models.Model):
    """A therapy, a drug or a chamber given to one character, by a downtime job or at once."""

    class Kind(models.TextChoices):
        THERAPY = "therapy", gettext_lazy("Anti-radiation therapy")
        STIMUTABS = "stimutabs", gettext_lazy("Stimutabs")
        HYPERBARIC = "hyperbaric", gettext_lazy("Hyperbaric chamber")

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="treatments")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    therapy = models.ForeignKey(Therapy, null=True, blank=True, on_delete=models.PROTECT, related_name="uses")
    job = models.ForeignKey("campaign.Job", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)
    before = models.JSONField()
    after = models.JSONField()
    outcome = models.JSONField(default=dict)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(kind="therapy") | Q(therapy__isnull=False),
                                   name="treatment_therapy_named"),
            models.UniqueConstraint(fields=["campaign", "idempotency_key"], condition=Q(idempotency_key__isnull=False),
                                    name="treatment_idempotency_key_once"),
        ]


class TransitionBatch(models.Model):
    """One Zener Transition the GM triggered for some characters, answered once per key."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="transitions")
    category = models.CharField(max_length=2)
    idempotency_key = models.CharField(max_length=120)
    response = models.JSONField(default=dict)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "idempotency_key"], name="transition_idempotency_key_once"),
            models.CheckConstraint(condition=Q(category__in=["1", "2", "3A", "3B"]), name="transition_category_valid"),
        ]


class TransitionRecord(models.Model):
    """What one transition did to one character, or that a bought delay postponed it."""

    batch = models.ForeignKey(TransitionBatch, on_delete=models.CASCADE, related_name="records")
    character = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField(null=True, blank=True)  # the character's nth transition
    # The delay_transition Karma spend this transition consumed (postponed), once only.
    delay_entry = models.OneToOneField("economy.KarmaEntry", null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="consumed_by")
    before = models.JSONField()
    after = models.JSONField()
    outcome = models.JSONField(default=dict)

    class Meta:
        ordering = ["batch_id", "character_id"]
        constraints = [models.UniqueConstraint(fields=["batch", "character"], name="transition_record_once")]


#: The treatment kinds, for the API schema's enum names.
TREATMENT_KINDS = Treatment.Kind.choices
