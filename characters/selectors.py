"""Reads for the characters app, scoped by the viewer."""

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from campaign.models import Membership

from .models import (
    Armour,
    Character,
    Disadvantage,
    Equipment,
    Language,
    PoolEntry,
    Skill,
    SystemSheet,
    Weapon,
)
from .weapons import WEAPON_BREADTHS
from zenergate_site.numbers import percent as percent_text

#: What a sheet's skill-point budget reads of each kind of line (``sheet.budget``).
BUDGET_FIELDS = {
    "skills": ("name", "breadth", "ranks", "classified"),
    "disadvantages": ("name", "value", "ranks"),
    "equipment": ("name", "breadth", "ranks", "classified", "fate"),
    "weapons": ("name", "classified", "fate", "skilled", "skill_id", "damage_points", "rate_of_fire",
                "extra_damage", "range_reduction_steps", "melee", "reach_steps"),
    "armour": ("name", "classified", "fate", "hardness", "coverage", "nim_penalty", "skilled"),
}


def budget_lines(character_ids) -> dict[int, dict[str, list]]:
    """Each character's lines as its budget reads them (``BUDGET_FIELDS``), one query a kind for a
    whole party: light rows, not model instances, since a party's overview needs only the sums."""
    found = {pk: {kind: [] for kind in BUDGET_FIELDS} for pk in character_ids}
    for kind, fields in BUDGET_FIELDS.items():
        model = Character._meta.get_field(kind).related_model
        rows = (model.objects.filter(character_id__in=found).order_by("position", "id")
                .values_list("character_id", *fields, named=True))
        for row in rows:
            found[row.character_id][kind].append(row)
    return found


SHEET_PREFETCH = (
    Prefetch("skills", queryset=Skill.objects.order_by("position", "id")),
    Prefetch("disadvantages", queryset=Disadvantage.objects.order_by("position", "id")),
    Prefetch("equipment", queryset=Equipment.objects.order_by("position", "id")),
    Prefetch("weapons", queryset=Weapon.objects.order_by("position", "id")),
    Prefetch("armour", queryset=Armour.objects.order_by("position", "id")),
    Prefetch("languages", queryset=Language.objects.order_by("position", "id")),
)


#: The skills a fight reads: the weapon skills give an attacker its ranks.
WEAPON_SKILLS = WEAPON_BREADTHS

#: What a character in a fight needs: stats in play read worn armour, the attack reads weapons
#: and weapon skills. Nothing else of the sheet is loaded for an attack (a character with 30
#: skills and two weapon skills loads two: the tracker loads every combatant's on every render).
COMBAT_PREFETCH = (
    Prefetch("skills", queryset=Skill.objects.filter(breadth__in=WEAPON_SKILLS).order_by("position", "id")),
    *(p for p in SHEET_PREFETCH if p.prefetch_through in ("weapons", "armour")),
)


def character_for_combat(*, character_id: int, lock: bool = False) -> Character:
    """Load a character with what a fight reads (``COMBAT_PREFETCH``), locking its row if asked."""
    rows = Character.objects.select_related("campaign", "owner").prefetch_related(*COMBAT_PREFETCH)
    if lock:
        rows = rows.select_for_update(of=("self",), no_key=True)
    return rows.get(pk=character_id)


def character_with_sheet(*, character_id: int) -> Character:
    """Load a character with every sheet line in a fixed number of queries."""
    return (Character.objects.select_related("campaign", "owner").prefetch_related(*SHEET_PREFETCH)
            .get(pk=character_id))


def character_list(*, viewer, campaign_id: int | None = None) -> QuerySet[Character]:
    """Return the characters in the viewer's campaigns (one campaign when given)."""
    if not viewer.is_authenticated:
        return Character.objects.none()
    campaigns = Membership.objects.filter(user=viewer).values("campaign_id")
    qs = Character.objects.filter(campaign_id__in=campaigns).select_related("campaign", "owner")
    if campaign_id is not None:
        qs = qs.filter(campaign_id=campaign_id)
    return qs.order_by("campaign_id", "name", "id")


# --- The sheets of the other rule sets -----------------------------------------------------------
def system_sheet_list(*, campaign_id: int) -> QuerySet[SystemSheet]:
    """The campaign's sheets of other rule sets (the caller has checked membership)."""
    return SystemSheet.objects.filter(campaign_id=campaign_id).select_related("owner").order_by("name", "id")


def pool_ledger(*, sheet: SystemSheet, limit: int = 50) -> list[PoolEntry]:
    """The newest moves of a sheet's resources, with who made them."""
    return list(PoolEntry.objects.filter(sheet=sheet).select_related("by").order_by("-created_at", "-id")[:limit])


def rest_asked(*, sheet: SystemSheet):
    """The player's latest ask for a rest that no rest has answered since (a log entry), or None:
    a rest given on the sheet, or a downtime done in the campaign (it rests every sheet in play)."""
    from campaign.models import LogEntry
    from rulebook.systems.sheets import LONG_REST, SHORT_REST

    asked = (LogEntry.objects.filter(campaign_id=sheet.campaign_id, action="sheet.rest_asked", data__sheet=sheet.pk)
             .order_by("-created_at", "-id").first())
    if asked is None:
        return None
    rested = (PoolEntry.objects.filter(sheet=sheet, action__in=(SHORT_REST, LONG_REST),
                                       created_at__gte=asked.created_at).exists()
              or LogEntry.objects.filter(campaign_id=sheet.campaign_id, action="downtime.done",
                                         created_at__gte=asked.created_at).exists())
    return None if rested else asked


def system_sheet_view(*, sheet: SystemSheet, rulings: dict | None = None) -> dict:
    """What a sheet shows: each line with its odds at every step of its system's ladder, the
    sheet's numbers with their labels, and each resource with its maximum (odds come from the
    rulebook's cached tables, so a long sheet costs no queries)."""
    from rulebook.systems.exchanges import standing
    from rulebook.systems.sheets import burden, fatigue_points, load_threshold_kg, spec_for

    spec = spec_for(sheet.system)
    rule_set = spec.rule_set
    rulings = {key: value for key, value in (rulings or {}).items() if key in {r.name for r in rule_set.rulings}}
    lines = []
    for line in sheet.lines:
        odds = spec.line_odds(line["inputs"], rulings)
        lines.append({"name": line["name"], "inputs": [(rule_set.param_named(k).label, v)
                                                      for k, v in line["inputs"].items()],
                      "odds": [{"label": label, "value": value, "probability": o.probability,
                                "percent": percent_text(o.probability)} for label, value, o in odds]})
    numbers = [{"name": p.name, "label": p.label, "value": sheet.numbers.get(p.name, p.default)} for p in spec.numbers]
    derived = []
    if sheet.system == "core_rules":
        build = sheet.numbers.get("build", 5)
        status, most = burden(build, sheet.numbers.get("carried", 0))
        derived.append((_("Load threshold"), f"{load_threshold_kg(build)} kg"))
        derived.append((_("Burden"), _("%(status)s (overloaded beyond %(most)s kg)") % {"status": _(status), "most": most}
                        if most else _("%(status)s (Build %(build)s carries nothing more)") % {
                            "status": _("clothing only") if status != "overloaded" else _(status), "build": build}))
    if sheet.system == "rocket_house":
        derived.append((_("Fatigue points"), fatigue_points(sheet.numbers.get("toughness", 0))))
    pools = [{"key": pool.key, "label": pool.label, "help": pool.help, "current": sheet.pools.get(pool.key, 0),
              "maximum": spec.pool_maximum(pool.key, sheet.numbers), "uses": pool.uses, "refills": pool.refills}
             for pool in spec.pools]
    values = {p.name: sheet.numbers.get(p.name, p.default) for p in spec.numbers}
    return {"spec": spec, "system_name": rule_set.name, "ladder": spec.ladder, "lines": lines,
            "numbers": numbers, "derived": derived, "pools": pools, "line_help": spec.line_help,
            "condition": standing(sheet.system, sheet.condition, values, damage_mode=rulings.get("damage_mode", 0))}
