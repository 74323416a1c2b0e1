"""Encounters, who fights in them, and the combat log that can be undone event by event.

A player character's wounds live on its character row and change only through the wounds
service; an NPC's wounds live on its combatant row. What happens in an encounter is an
append-only log of events, each holding exactly what it changed (before and after), so the GM
can take back the last one and every consequence with it.
"""

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from campaign.audience import Audienced, audience_constraint
from rulebook.hit_locations import AREAS
from rulebook.words import told
from zenergate_site import limits
from zenergate_site.shapes import SAID, capped

from . import shapes


class Encounter(models.Model):
    class State(models.TextChoices):
        SETUP = "setup", _("Setting up")
        RUNNING = "running", _("Running")
        ENDED = "ended", _("Ended")

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="encounters")
    name = models.CharField(max_length=limits.ENCOUNTER_NAME)
    state = models.CharField(max_length=8, choices=State.choices, default=State.SETUP)
    round = models.PositiveIntegerField(default=0)
    turn = models.PositiveIntegerField(default=0)  # position in ``order`` of whoever acts now
    order = models.JSONField(default=list, blank=True)  # combatant ids in acting order, ties in declaration order
    initiative_stat = models.CharField(max_length=3, default="MEL")  # the GM may rank by ACC instead
    round_seconds = models.PositiveSmallIntegerField(default=10)  # how long a combat turn lasts ("Combat time")
    require_approval = models.BooleanField(default=False)  # players' attacks wait for the GM
    gm_notes = models.TextField(blank=True, validators=[MaxLengthValidator(limits.GM_NOTES)])  # never to players
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(state__in=["setup", "running", "ended"]), name="encounter_state_valid"),
            models.CheckConstraint(condition=Q(initiative_stat__in=["MEL", "ACC"]), name="encounter_initiative_stat"),
            models.CheckConstraint(condition=Q(round_seconds__gte=1), name="encounter_round_seconds_positive"),
            capped("gm_notes", limits.GM_NOTES, "encounter_gm_notes_capped"),
        ]

    def __str__(self) -> str:
        return self.name


class Combatant(models.Model):
    """A campaign character in the fight, or an NPC with a quick stat block."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    character = models.ForeignKey("characters.Character", null=True, blank=True, on_delete=models.CASCADE,
                                  related_name="+")
    name = models.CharField(max_length=limits.NPC_NAME)
    revealed = models.BooleanField(default=True)  # NPCs stay hidden from players until the GM reveals them
    # --- an NPC's stat block (a character's comes from its sheet) ---------------------------
    stats = models.JSONField(default=dict, blank=True, validators=[shapes.NPC_STATS])
    hit_points = models.PositiveSmallIntegerField(null=True, blank=True, validators=shapes.HIT_POINTS.validators())
    shock_threshold = models.PositiveSmallIntegerField(null=True, blank=True,
                                                       validators=shapes.SHOCK_THRESHOLD.validators())
    endurance_max = models.PositiveSmallIntegerField(null=True, blank=True, validators=shapes.ENDURANCE.validators())
    armour_rating = models.PositiveSmallIntegerField(default=0, validators=shapes.ARMOUR.validators())
    armour_type = models.PositiveSmallIntegerField(default=0, validators=shapes.ARMOUR.validators())
    weapons = models.JSONField(default=list, blank=True, validators=[shapes.NPC_WEAPONS])
    # --- an NPC's wounds ---------------------------------------------------------------------
    trauma = models.PositiveIntegerField(default=0)
    shock = models.PositiveIntegerField(default=0)
    end_spent = models.PositiveIntegerField(default=0)
    stat_damage = models.JSONField(default=dict, blank=True, validators=[shapes.NPC_STAT_DAMAGE])
    # --- this encounter ------------------------------------------------------------------------
    initiative = models.SmallIntegerField(null=True, blank=True)
    initiative_breakdown = models.JSONField(default=list, blank=True)
    surprised = models.BooleanField(default=False)
    prone = models.BooleanField(default=False)
    cant_move = models.BooleanField(default=False)
    shock_this_round = models.PositiveIntegerField(default=0)
    # Out cold until this second on the fight's clock (rulebook.game_time); None: awake.
    out_cold_until = models.PositiveBigIntegerField(null=True, blank=True)
    skipped_rounds = models.PositiveIntegerField(default=0)  # in a row; every second one recovers END
    held = models.BooleanField(default=False)  # holding its action this round, to come back before someone
    dying_modifier = models.SmallIntegerField(null=True, blank=True)  # the last dying round's; None: none yet
    dead = models.BooleanField(default=False)
    follow_up = models.JSONField(default=dict, blank=True)  # {"<target id>": +2} after a critical hit
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["encounter_id", "position", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(character__isnull=False) | Q(hit_points__isnull=False),
                                   name="combatant_character_or_stat_block"),
            models.CheckConstraint(condition=Q(armour_rating__lte=10) & Q(armour_type__lte=10),
                                   name="combatant_armour_0_10"),
            shapes.HIT_POINTS.constraint("hit_points", "combatant_hit_points"),
            shapes.SHOCK_THRESHOLD.constraint("shock_threshold", "combatant_shock_threshold"),
            shapes.ENDURANCE.constraint("endurance_max", "combatant_endurance_max"),
            models.UniqueConstraint(fields=["encounter", "character"], condition=Q(character__isnull=False),
                                    name="combatant_character_once"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_npc(self) -> bool:
        return self.character_id is None


#: The aimed areas an attack may name, largest first (RULINGS section 6).
AIMED_AREAS = AREAS


class CombatEvent(Audienced):
    """One entry of the combat log: what happened, the dice, and exactly what it changed.

    Its audience says who may read the entry at all (an unrevealed NPC's deeds: the GM alone);
    ``data`` is what that audience reads, and ``gm_data`` adds what stays behind the GM's
    screen (an NPC's numbers). ``before`` and ``after`` hold every field the event
    changed, on the encounter, its combatants and characters' wounds, so undo can restore it.
    """

    id = models.BigAutoField(primary_key=True)
    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=16)
    summary = models.CharField(max_length=300)  # in English, as kept; ``said`` is what readers read
    said = models.JSONField(default=dict, blank=True, validators=[SAID])
    # The GM's own wording where the public one leaves a hidden NPC's numbers out ({}: the same).
    gm_said = models.JSONField(default=dict, blank=True, validators=[SAID])
    data = models.JSONField(default=dict, blank=True)
    gm_data = models.JSONField(default=dict, blank=True)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    undoes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="undone_by")
    # A player's attack waiting for the GM, answered by the attack it became or by a refusal.
    answers = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="answer")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    # A client's key: the same attack sent twice (a double tap) is made once.
    idempotency_key = models.CharField(max_length=120, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["encounter", "id"], name="combat_event_after")]
        constraints = [models.UniqueConstraint(fields=["encounter", "idempotency_key"],
                                               condition=Q(idempotency_key__isnull=False),
                                               name="combat_event_idempotency_key_once"),
                       audience_constraint("combat_event_audience_valid")]

    @property
    def told(self) -> str:
        """The entry as everyone who may read it reads it, in the reader's language."""
        return told(self.summary, self.said)

    @property
    def gm_told(self) -> str:
        """The entry as the GM reads it (a hidden NPC's numbers in), in the GM's language."""
        return told(self.gm_data.get("summary") or self.summary, self.gm_said or self.said)


class NpcSetup(models.Model):
    """A cast of NPCs the GM keeps in the campaign to start fights from: their stat blocks and
    weapons, hidden or not, never their wounds. GM-only: a set-up names hidden NPCs."""

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="npc_setups")
    name = models.CharField(max_length=limits.ENCOUNTER_NAME)
    npcs = models.JSONField(default=list, validators=[shapes.SETUP_NPCS])  # [{"name", "stats", ..., "weapons"}]
    gm_notes = models.TextField(blank=True, validators=[MaxLengthValidator(limits.GM_NOTES)])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["campaign", "name"], name="npc_setup_name_once"),
                       capped("gm_notes", limits.GM_NOTES, "npc_setup_gm_notes_capped")]

    def __str__(self) -> str:
        return self.name


class SystemFight(models.Model):
    """A fight of another rule set: who is in it, its turn order as the rulebook keeps it, its blows.

    The order is stored whole in ``state``: ``rulebook.systems.zerospace_turns.TurnOrder`` for
    ZeroSpace, Success Check and Rocket House, ``core_turns.DeclarationTurns`` for Core Rules.
    ``fighters`` maps each name to the sheet it plays (an NPC has none); ``npcs`` holds an NPC's
    numbers and condition, as a sheet would; ``blows`` every attack or round, with what it
    changed, so the last one can be undone.
    """

    campaign = models.ForeignKey("campaign.Campaign", on_delete=models.CASCADE, related_name="system_fights")
    name = models.CharField(max_length=limits.ENCOUNTER_NAME)
    system = models.CharField(max_length=20)
    state = models.JSONField(default=dict)
    fighters = models.JSONField(default=dict)  # name → sheet id, or None for an NPC
    npcs = models.JSONField(default=dict, blank=True)  # name → {"numbers": {...}, "condition": {...}}
    blows = models.JSONField(default=list, blank=True)
    ended = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.CheckConstraint(
            condition=Q(system__in=["zerospace", "success_check", "rocket_house", "core_rules"]),
            name="system_fight_system")]

    def rulings(self) -> dict:
        """The campaign's readings of this fight's rule set (none once the campaign plays another)."""
        campaign = self.campaign
        return dict(campaign.rulings or {}) if campaign.rule_set == self.system else {}

    def __str__(self) -> str:
        return self.name
