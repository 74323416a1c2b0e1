from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy

from campaign.audience import Audienced, audience_constraint
from rulebook.words import told
from zenergate_site.shapes import SAID


class Roll(Audienced):
    """One roll in the campaign's feed, stored with who, when, every die and the odds it had."""

    class Kind(models.TextChoices):
        CHECK = "check", gettext_lazy("Check")
        NOTATION = "notation", gettext_lazy("Dice")
        COMBAT = "combat", gettext_lazy("Combat")
        DOWNTIME = "downtime", gettext_lazy("Downtime")

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="rolls")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    label = models.CharField(max_length=120, blank=True)  # as kept (typed, or the app's in English)
    said = models.JSONField(default=dict, blank=True, validators=[SAID])  # the app's label, for each reader
    system = models.CharField(max_length=20, blank=True)  # the rule set of a check
    params = models.JSONField(default=dict, blank=True)  # the check's inputs, rulings included
    notation = models.CharField(max_length=100, blank=True)
    dice = models.JSONField(default=list)  # [{"sides", "face", "kept", "entered"}]
    total = models.IntegerField()
    success = models.BooleanField(null=True)  # None: a roll with no target
    probability = models.CharField(max_length=80, blank=True)  # "a/b", the chance it had
    detail = models.JSONField(default=dict, blank=True)  # terms, margin, effect…
    # A check rolled from a sheet line names the character; a Karma reroll names the failed roll
    # it replaces (each roll is rerolled at most once; a failed reroll may be rerolled in turn).
    character = models.ForeignKey("characters.Character", on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    reroll_of = models.OneToOneField("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="reroll")
    # A client's key for the request that made the roll: sent again, it returns the same roll.
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["campaign", "-id"], name="roll_feed")]
        constraints = [
            models.CheckConstraint(condition=~Q(kind="notation") | ~Q(notation=""), name="roll_notation_given"),
            audience_constraint("roll_audience_valid"),
            models.UniqueConstraint(fields=["campaign", "idempotency_key"], condition=Q(idempotency_key__isnull=False),
                                    name="roll_idempotency_key_once"),
        ]

    def __str__(self) -> str:
        return f"{self.label or self.notation or self.system}: {self.total}"

    @property
    def told(self) -> str:
        """The label in the reader's language (the app's labels; a typed one as typed)."""
        return told(self.label, self.said)

    @property
    def private(self) -> bool:
        """A roll the GM keeps behind the screen."""
        return self.gm_only

    @property
    def typed(self) -> bool:
        """Some of its dice were typed at the table rather than rolled by the app."""
        return any(isinstance(die, dict) and die.get("entered") for die in self.dice or [])

    @property
    def system_name(self) -> str:
        """The rule set's display name ("Success Check"), not its key."""
        from rulebook.systems import SYSTEMS

        rule_set = SYSTEMS.get(self.system)
        return rule_set.name if rule_set is not None else self.system
