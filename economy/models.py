"""The economy's records: adventures and their bad-news tokens, Campaign MacGuffin pools, the
Karma ledger that every award and spend posts to, and the Complications that settle Karmic Debt.

Each table keeps the name it was created under (``campaign_…``) when these models lived in the
campaign app: a database made before the move upgrades without rewriting a row (see
``economy/migrations/0001_initial.py``).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign
from characters.models import Character
from rulebook.words import told
from zenergate_site import limits
from zenergate_site.shapes import SAID


class Adventure(models.Model):
    """One adventure: its base XP, its bad-news tokens and, once closed, its payout."""

    class Outcome(models.TextChoices):
        NONE = "none", _("Survived (×1)")
        ADVICE = "advice", _("Locals implement the PCs' advice (×1.5)")
        SOLUTION = "solution", _("PCs implement the solution (×2)")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="adventures")
    name = models.CharField(max_length=limits.ADVENTURE_NAME)
    base_xp = models.PositiveSmallIntegerField(default=1)
    started_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)
    permanent = models.BooleanField(default=False)

    class Meta:
        db_table = "campaign_adventure"
        ordering = ["-started_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(base_xp__lte=100), name="adventure_base_xp_sane"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class BadNewsToken(models.Model):
    adventure = models.ForeignKey(Adventure, on_delete=models.CASCADE, related_name="tokens")
    note = models.CharField(max_length=limits.TOKEN_NOTE, blank=True)
    voided = models.BooleanField(default=False)  # nullified by a stroke of good fortune
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaign_badnewstoken"
        ordering = ["created_at", "id"]


class MacGuffin(models.Model):
    """A Campaign MacGuffin: a pool every PC can pay Karma into to lift a campaign limitation."""

    class Status(models.TextChoices):
        FUNDING = "funding", _("Funding")
        FUNDED = "funded", _("Funded: takes effect next adventure")
        IN_EFFECT = "in_effect", _("In effect")

    class Upgrade(models.TextChoices):
        NONE = "", "—"
        # Keys as in rulebook.karma.DELAY_TRANSITION_UPGRADES: all three unlock delaying transitions.
        MEITNER = "enlarged_meitner_field", _("Enlarged Meitner field")
        COMMS = "limited_comms", _("Limited comms to Zener Command")
        DETECTION = "transition_threshold_detection", _("Zener Transition threshold detection")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="macguffins")
    name = models.CharField(max_length=limits.MACGUFFIN_NAME)
    limitation = models.CharField(max_length=limits.MACGUFFIN_LIMITATION, blank=True)
    target = models.PositiveIntegerField(default=4)
    progress = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.FUNDING)
    upgrade = models.CharField(max_length=32, choices=Upgrade.choices, blank=True, default="")
    funded_at = models.DateTimeField(null=True, blank=True)
    funded_during = models.ForeignKey(Adventure, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaign_macguffin"
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(target__gte=1), name="macguffin_target_positive"),
            models.CheckConstraint(condition=Q(progress__lte=F("target")), name="macguffin_progress_le_target"),
            models.UniqueConstraint(fields=["campaign", "upgrade"], condition=~Q(upgrade=""),
                                    name="macguffin_one_per_upgrade"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.progress / self.target))


class KarmaEntry(models.Model):
    """One line of a character's Karma ledger. Append-only: corrections are new entries."""

    class Kind(models.TextChoices):
        OPENING = "opening", _("Starting Karma")
        PAYOUT = "payout", _("Adventure payout")
        COMPLICATION = "complication", _("GM complication (+2)")
        NPC_BOOST = "npc_boost", _("NPC boost (+1)")
        MANUAL = "manual", _("GM correction")
        REROLL = "reroll", _("Reroll")
        ASSIST = "assist", _("+5 to another's roll")
        SKILL_POINTS = "skill_points", _("Converted to skill points")
        STAT_RAISE = "stat_raise", _("Stat raise")
        DISADVANTAGE_REMOVAL = "disadvantage_removal", _("Disadvantage rank removed")
        GOOD_FORTUNE = "good_fortune", _("Stroke of good fortune")
        DELAY_TRANSITION = "delay_transition", _("Delayed a Zener Transition")
        SETBACK_PAYOFF = "setback_payoff", _("Setback paid off")
        MACGUFFIN = "macguffin", _("Campaign MacGuffin")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="karma_entries")
    # PROTECT: the ledger is append-only; a character who has Karma history is retired, never deleted.
    character = models.ForeignKey(Character, on_delete=models.PROTECT, related_name="karma_entries")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    amount = models.IntegerField()
    balance_after = models.IntegerField()
    reason = models.CharField(max_length=limits.KARMA_REASON, blank=True)  # as typed, or the app's in English
    said = models.JSONField(default=dict, blank=True, validators=[SAID])  # the app's reason, for each reader
    adventure = models.ForeignKey(Adventure, null=True, blank=True, on_delete=models.PROTECT, related_name="karma_entries")
    macguffin = models.ForeignKey(MacGuffin, null=True, blank=True, on_delete=models.PROTECT, related_name="contributions")
    # Room for a client's 100 characters in its namespace ("client:…", "client:award:…:<id>").
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaign_karmaentry"
        ordering = ["-created_at", "-id"]
        verbose_name_plural = _("Karma entries")
        constraints = [
            models.CheckConstraint(condition=Q(balance_after__gte=0), name="karma_entry_balance_never_negative"),
            models.UniqueConstraint(fields=["character", "idempotency_key"], condition=Q(idempotency_key__isnull=False),
                                    name="karma_entry_idempotency_key_once"),
            models.UniqueConstraint(fields=["character"], condition=Q(kind="opening"), name="karma_entry_one_opening"),
            models.UniqueConstraint(fields=["character", "adventure"], condition=Q(kind="payout"),
                                    name="karma_entry_one_payout_per_adventure"),
        ]
        indexes = [models.Index(fields=["character", "-created_at"], name="karma_entry_character_recent")]

    def __str__(self) -> str:
        return f"{self.character}: {self.amount:+d} ({self.kind})"

    @property
    def told(self) -> str:
        """The reason in the reader's language (the app's reasons; a typed one as typed)."""
        return told(self.reason, self.said)


class Complication(models.Model):
    """A setback the GM records to settle Karmic Debt or Karmic Starvation, in play."""

    class Cause(models.TextChoices):
        DEBT = "debt", _("Karmic Debt")
        STARVATION = "starvation", _("Karmic Starvation")

    class Form(models.TextChoices):
        WORSEN = "worsen", _("Other disadvantages worsened")
        STAT_LOSS = "stat_loss", _("Semi-permanent stat loss")
        BLOWN_ROLL = "blown_roll", _("A mission-critical roll deliberately blown")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="complications")
    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="complications")
    cause = models.CharField(max_length=10, choices=Cause.choices)
    form = models.CharField(max_length=10, choices=Form.choices)
    ranks = models.PositiveSmallIntegerField()
    description = models.CharField(max_length=limits.COMPLICATION_DESCRIPTION)
    effects = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaign_complication"
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(condition=Q(ranks__gte=1), name="complication_ranks_positive")]
