"""Tracker forms: what the GM console and the player view post."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext, gettext_lazy as _

from characters.models import AIMING_CHOICES
from characters.weapons import aiming_class_for
from rulebook.hit_locations import AREAS
from zenergate_site import limits
from zenergate_site.text import validate_name

_AREA_LABELS = {"whole_body": _("whole body"), "head_torso": _("head & torso"), "head_neck": _("head & neck"),
                "left_hand": _("left hand"), "right_hand": _("right hand"), "eye": _("eye")}
AREA_CHOICES = [(a, _AREA_LABELS.get(a) or a.replace("_", " ")) for a in AREAS]


class EncounterForm(forms.Form):
    name = forms.CharField(max_length=limits.ENCOUNTER_NAME, validators=[validate_name], label=_("Name"))
    initiative_stat = forms.ChoiceField(choices=[("MEL", "MEL"), ("ACC", "ACC")], initial="MEL",
                                        label=_("Initiative ranks by"))
    # "Combat Time": typically 10 seconds, more or less at the GM's discretion (the API's bounds).
    round_seconds = forms.IntegerField(min_value=1, max_value=3600, initial=10, required=False,
                                       label=_("Round length (seconds)"))
    gm_notes = forms.CharField(required=False, max_length=limits.GM_NOTES, widget=forms.Textarea(attrs={"rows": 2}),
                               label=_("GM notes (never shown to players)"))

    def clean_round_seconds(self):
        return self.cleaned_data.get("round_seconds") or 10  # left empty: the article's usual 10 s


class NpcForm(forms.Form):
    name = forms.CharField(max_length=limits.NPC_NAME, validators=[validate_name], label=_("Name"))
    acc = forms.IntegerField(min_value=1, max_value=40, initial=14, label="ACC")
    mel = forms.IntegerField(min_value=1, max_value=40, initial=14, label="MEL")
    awa = forms.IntegerField(min_value=1, max_value=40, initial=14, label="AWA")
    res = forms.IntegerField(min_value=1, max_value=40, initial=14, label="RES")
    con = forms.IntegerField(min_value=1, max_value=40, initial=14, label="CON")
    armour_rating = forms.IntegerField(min_value=0, max_value=10, initial=0, label=_("Armour"))
    weapon = forms.CharField(max_length=limits.NPC_WEAPON_NAME, initial="Pistol", label=_("Weapon"),
                             validators=[validate_name])
    damage_points = forms.IntegerField(min_value=1, max_value=30, initial=4, label=_("Damage points"))
    ranks = forms.IntegerField(min_value=0, max_value=10, initial=1, label=_("Weapon ranks"))
    melee = forms.BooleanField(required=False, label=_("Melee"))
    aiming = forms.ChoiceField(choices=[("", _("from the weapon's name")), *AIMING_CHOICES], required=False,
                               label=_("Aiming class"))
    revealed = forms.BooleanField(required=False, label=_("Players see it now"))

    def npc(self) -> dict:
        d = self.cleaned_data
        return {"name": d["name"], "revealed": d["revealed"], "armour_rating": d["armour_rating"],
                "armour_type": d["armour_rating"],
                "stats": {"ACC": d["acc"], "MEL": d["mel"], "AWA": d["awa"], "RES": d["res"], "CON": d["con"]},
                "weapons": [{"name": d["weapon"], "damage_points": d["damage_points"], "ranks": d["ranks"],
                             "melee": d["melee"], "aiming": d["aiming"] or aiming_class_for(d["weapon"]),
                             "rate_of_fire": 1, "extra_damage": 0}]}


class AttackForm(forms.Form):
    attacker = forms.TypedChoiceField(coerce=int, label=_("Attacker"))
    target = forms.TypedChoiceField(coerce=int, label=_("Target"))
    weapon = forms.ChoiceField(required=False)
    stat = forms.ChoiceField(required=False, label=_("Stat"),
                             choices=[("", _("the weapon's")), ("ACC", _("ACC (ranged)")), ("MEL", _("MEL (melee)"))])
    aimed_area = forms.ChoiceField(choices=AREA_CHOICES, initial="whole_body", label=_("Aimed at"))
    range_m = forms.FloatField(required=False, min_value=0.01, label=_("Range (m)"))
    aim_seconds = forms.FloatField(required=False, min_value=0, label=_("Aiming (s)"))
    cover = forms.IntegerField(required=False, min_value=0, max_value=20, label=_("Cover (size steps)"))
    suppression = forms.BooleanField(required=False, label=_("Suppression fire (−5, no aiming)"))
    modifier = forms.IntegerField(required=False, min_value=-50, max_value=50, label=_("GM modifier"))
    location_die = forms.TypedChoiceField(required=False, coerce=int, empty_value=100, label=_("Hit-location die"),
                                          choices=[(100, _("d100 (the table)")), (50, "d50"), (30, "d30"), (20, "d20"),
                                                   (10, "d10")])
    dice_attack = forms.CharField(required=False, max_length=40, label=_("Attack 3d6"))
    dice_location = forms.CharField(required=False, max_length=10, label=_("Hit location d100"))
    dice_damage = forms.CharField(required=False, max_length=60, label=_("Damage dice"), widget=forms.TextInput(
        attrs={"inputmode": "numeric", "pattern": "[1-6]([ ,]+[1-6])*", "title": _("d6 faces, 1 to 6, with spaces")}))
    dice_shock = forms.CharField(required=False, max_length=10, label=_("Shock d6"))
    idempotency_key = forms.CharField(widget=forms.HiddenInput, required=False)

    #: What the form keeps from one attack to the attacker's next (``remembered``).
    KEPT = ("target", "weapon", "stat", "aimed_area", "range_m", "aim_seconds", "cover", "suppression")

    #: The dice boxes a player sees under each ``Campaign.typed_dice`` (the GM sees all).
    TYPED_SLOTS = {"none": (), "own": ("attack", "damage"), "all": ("attack", "location", "damage", "shock")}

    def __init__(self, *args, attackers=(), targets=(), is_gm: bool = True, typed_dice: str = "all", **kwargs):
        super().__init__(*args, **kwargs)
        self.typed_slots = self.TYPED_SLOTS["all" if is_gm else typed_dice]
        for slot in self.TYPED_SLOTS["all"]:
            if slot not in self.typed_slots:
                del self.fields[f"dice_{slot}"]
        self.fields["attacker"].choices = [(c["id"], c["name"]) for c in attackers]
        self.fields["target"].choices = [(c["id"], c["name"]) for c in targets]
        # Each attacker's own weapons, grouped under its name: a player picks, never types.
        groups = [(c["name"], [(w["name"], f"{w['name']} ({w['damage']})") for w in c.get("weapons") or []])
                  for c in attackers]
        self.fields["weapon"].choices = [("", gettext("the first weapon"))] + [g for g in groups if g[1]]
        self._weapons = {c["id"]: c.get("weapons") or [] for c in attackers}
        if not is_gm:  # the situational modifier and a smaller location die are the GM's call
            del self.fields["modifier"]
            del self.fields["location_die"]
        self.fields["idempotency_key"].initial = uuid.uuid4().hex

    def clean(self):
        data = super().clean()
        if not data.get("stat") and "attacker" in data:  # the weapon's stat: MEL for melee, else ACC
            weapons = self._weapons.get(data["attacker"], [])
            weapon = next((w for w in weapons if w["name"] == data.get("weapon")), weapons[0] if weapons else None)
            data["stat"] = "MEL" if weapon and weapon.get("melee") else "ACC"
        return data

    def die_boxes(self) -> list[dict]:
        """The boxes of the table dice, each with its size, for the template."""
        return [{"slot": slot, "label": self.fields[f"dice_{slot}"].label,
                 "boxes": range(1, count + 1), "sides": sides} for slot, count, sides in self.DIE_BOXES
                if slot in self.typed_slots]

    @property
    def single_attacker(self) -> str | None:
        """The attacker's name when there is only one to choose (a player on their turn)."""
        choices = self.fields["attacker"].choices
        return choices[0][1] if len(choices) == 1 else None

    def remembered(self) -> dict:
        """What to keep for this attacker's next attack (range, aim, what it aimed at, ...); the
        stat as chosen, so "the weapon's" stays the weapon's."""
        return {**{name: self.cleaned_data.get(name) for name in self.KEPT}, "stat": self.data.get("stat", "")}

    def request(self) -> dict:
        d = self.cleaned_data
        return {"attacker": d["attacker"], "target": d["target"], "weapon": d["weapon"] or None, "stat": d["stat"],
                "aimed_area": d["aimed_area"], "range_m": d["range_m"], "aim_seconds": d["aim_seconds"] or 0,
                "cover": d["cover"] or 0, "suppression": bool(d.get("suppression")), "modifier": d.get("modifier") or 0,
                "location_die": d.get("location_die") or 100}

    #: The table dice typed one box per die: the slot, how many boxes, the die's size.
    DIE_BOXES = (("attack", 3, 6), ("location", 1, 100), ("shock", 1, 6))

    def dice(self) -> dict:
        out = {}
        getlist = getattr(self.data, "getlist", None)
        for slot in self.typed_slots:
            # One box per die posts the slot's name once per box; an API-style form, once.
            typed = getlist(f"dice_{slot}") if getlist else [self.data.get(f"dice_{slot}") or ""]
            text = " ".join(typed).replace(",", " ").split()
            if text:
                if not all(t.isdigit() for t in text):
                    raise forms.ValidationError(gettext("Type the faces as whole numbers, e.g. 6 5 4."))
                out[slot] = [int(t) for t in text]
        return out


class DyingForm(forms.Form):
    combatant = forms.IntegerField(widget=forms.HiddenInput)
    medical_target = forms.IntegerField(required=False, min_value=-50, max_value=60, label=_("Medic's check target"))
    medical_help = forms.BooleanField(required=False, label=_("A medic helped (the GM says it worked)"))
