"""Campaigns, who belongs to them, what happened in them, and their background jobs."""

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.translation import gettext_lazy
from django.db.models import Q

from zenergate_site import limits
from rulebook.words import told
from zenergate_site.shapes import SAID, Whole, capped

from .audience import Audienced, audience_constraint
from .stat_dice import validate_stat_dice


class Campaign(models.Model):
    class StatEntry(models.TextChoices):
        ENTER = "enter", gettext_lazy("Players enter rolled stats")
        ROLL = "roll", gettext_lazy("Roll in the app (logged)")

    name = models.CharField(max_length=limits.CAMPAIGN_NAME)
    description = models.TextField(blank=True, validators=[MaxLengthValidator(limits.CAMPAIGN_DESCRIPTION)])
    stat_entry = models.CharField(max_length=8, choices=StatEntry.choices, default=StatEntry.ENTER)
    # "Roll in the app": the dice each stat is rolled with (d20 notation), every roll logged.
    stat_dice = models.CharField(max_length=limits.STAT_DICE, default="4d6", validators=[validate_stat_dice])
    max_skill_ranks = models.PositiveSmallIntegerField(default=3)
    # The rule set the roller and the roll feed use for checks (rulebook.systems), and the
    # campaign's readings of its unclear passages ({ruling: value}, defaults otherwise).
    class TypedDice(models.TextChoices):
        NONE = "none", gettext_lazy("None: the app rolls them")
        OWN = "own", gettext_lazy("Own checks, attack, damage")
        ALL = "all", gettext_lazy("All, the save and location too")

    # Which dice a player may type at the table for their own actions (the GM may type any).
    typed_dice = models.CharField(max_length=4, choices=TypedDice.choices, default=TypedDice.OWN)
    rule_set = models.CharField(max_length=20, default="zener")
    rulings = models.JSONField(default=dict, blank=True)
    # In-game time elapsed, in hours: downtime advances it.
    game_hours = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # Archived by its GM: read-only, out of the campaigns list, restorable (and then deletable).
    archived_at = models.DateTimeField(null=True, blank=True)
    # When the group meets next, as the GM set it: the dashboard shows it to everyone.
    next_session_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            capped("description", limits.CAMPAIGN_DESCRIPTION, "campaign_description_capped"),
            models.CheckConstraint(
                condition=Q(max_skill_ranks__gte=1) & Q(max_skill_ranks__lte=10),
                name="campaign_max_skill_ranks_1_10",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", gettext_lazy("GM")
        PLAYER = "player", gettext_lazy("Player")
        VIEWER = "viewer", gettext_lazy("Viewer")

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


class LogEntry(Audienced):
    """The campaign's audit trail: who did what, and why, for every write (written by change sets)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="log_entries")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="campaign_actions")
    action = models.CharField(max_length=64)
    summary = models.CharField(max_length=300)  # in English, as kept; ``said`` is what readers read
    said = models.JSONField(default=dict, blank=True, validators=[SAID])
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["campaign", "-created_at"], name="logentry_campaign_recent")]
        constraints = [audience_constraint("logentry_audience_valid")]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"

    @property
    def told(self) -> str:
        """The line in the reader's language."""
        return told(self.summary, self.said)


class Event(Audienced):
    """One entry of the campaign's live stream: append-only, ids increase in commit order.

    Pages and clients ask for everything after the last id they saw (DESIGN.md, "Live parts"),
    so a reconnect neither misses nor repeats an event. Publishers take a per-campaign advisory
    lock (campaign.changes), so a later id never becomes visible before an earlier one. Its
audience says who receives it (campaign.audience).
    """

    id = models.BigAutoField(primary_key=True)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=32)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["campaign", "id"], name="event_campaign_after")]
        constraints = [audience_constraint("event_audience_valid")]


class Job(models.Model):
    """A long-running piece of work started from a page: progress and a per-item report."""

    class Kind(models.TextChoices):
        DOWNTIME = "downtime", gettext_lazy("Downtime")

    class Status(models.TextChoices):
        QUEUED = "queued", gettext_lazy("Queued")
        RUNNING = "running", gettext_lazy("Running")
        DONE = "done", gettext_lazy("Done")
        FAILED = "failed", gettext_lazy("Failed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="jobs")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    params = models.JSONField(default=dict, blank=True)
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    report = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True, validators=[MaxLengthValidator(limits.JOB_ERROR)])
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    # A client's key: the same key again returns the same job (a double-click makes one job).
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Moved by the worker after every batch: a running job whose heartbeat stops was orphaned.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # Times the job was handed to the broker (the first send and any re-send by the sweep).
    sends = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=models.F("total")) | Q(total=0), name="job_progress_le_total"),
            capped("error", limits.JOB_ERROR, "job_error_capped"),
            models.UniqueConstraint(fields=["campaign", "kind", "idempotency_key"],
                                    condition=Q(idempotency_key__isnull=False), name="job_idempotency_key_once"),
        ]

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return round(100 * self.progress / self.total) if self.total else 0


class PageVersion(models.Model):
    """A counter per campaign that every committed write moves on (see campaign/pagecache.py).

    Rendered pages and API reads are cached under it: a new number makes every cached copy of
    the campaign's pages unreachable at once. Kept out of ``Campaign`` so that saving a
    campaign loaded earlier can never write an older number back.
    """

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, primary_key=True, related_name="+")
    version = models.BigIntegerField(default=0)


class OneTimePassword(models.Model):
    """A password someone else chose for this user (the GM's new account, or a reset): the user
    must choose their own at the next log-in before going anywhere else."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="one_time_password")
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    issued_at = models.DateTimeField(auto_now_add=True)


#: How many people a link for anyone lets in at most: the GM's choice, 20 unless they say.
INVITATION_USES = Whole(1, 200)


class Invitation(models.Model):
    """A way into a campaign with a role: a link the GM passes on (used once, or by up to
    ``max_uses`` people until a date), or an invitation for one username (a member named in an
    imported document). Revocable."""

    USES = INVITATION_USES
    USES_DEFAULT = 20

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=8, choices=Membership.Role.choices)
    token = models.CharField(max_length=64, unique=True)
    username = models.CharField(max_length=150, blank=True)  # only this person may accept
    single_use = models.BooleanField(default=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    max_uses = models.PositiveIntegerField(default=USES_DEFAULT, validators=USES.validators())
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(role__in=["gm", "player", "viewer"]), name="invitation_role_valid"),
            INVITATION_USES.constraint("max_uses", "invitation_max_uses"),
        ]

    def open_now(self, now) -> bool:
        """Whether the invitation still lets someone in."""
        return (self.revoked_at is None and not (self.single_use and self.uses) and self.uses < self.max_uses
                and (self.expires_at is None or self.expires_at > now))


class GameSession(models.Model):
    """One game night: everything the campaign's log and feed hold between its start and end
    belongs to it. After it the GM edits the drafted recap and publishes it to the players."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    recap = models.TextField(blank=True, validators=[MaxLengthValidator(limits.SESSION_TEXT)])
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-number"]
        constraints = [
            capped("recap", limits.SESSION_TEXT, "session_recap_capped"),
            models.UniqueConstraint(fields=["campaign", "number"], name="session_number_once"),
            models.UniqueConstraint(fields=["campaign"], condition=Q(ended_at__isnull=True),
                                    name="session_one_open"),
        ]


class SessionNote(models.Model):
    """A member's own note on a game night."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    text = models.TextField(validators=[MaxLengthValidator(limits.SESSION_TEXT)])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [capped("text", limits.SESSION_TEXT, "session_note_capped")]


class Account(models.Model):
    """What the site keeps about a person beyond Django's user: how the account came to be (made
    on the sign-up page, which asks for its e-mail to be confirmed before the account may make
    campaigns) and the interface language chosen on the account page."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="account")
    #: When the person made the account themselves on the sign-up page (``SIGNUP = "open"``).
    signed_up_at = models.DateTimeField(null=True, blank=True)
    #: When the link mailed to the account's e-mail was opened; None until then.
    email_confirmed_at = models.DateTimeField(null=True, blank=True)
    #: The interface language chosen on the account page ("" for the browser's).
    language = models.CharField(max_length=8, blank=True, default="",
                                choices=[("", gettext_lazy("As my browser says")), *settings.LANGUAGES])

    class Meta:
        constraints = [models.CheckConstraint(
            condition=models.Q(language__in=["", *(code for code, _name in settings.LANGUAGES)]),
            name="account_language_known")]

    @property
    def awaits_confirmation(self) -> bool:
        return self.signed_up_at is not None and self.email_confirmed_at is None
