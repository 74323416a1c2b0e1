"""The campaign log's combat lines name the characters each event was about, so the log's filter by
character finds a fight (combat.log.characters_named); lines written before are filled in here."""

from django.db import migrations

NAMING = ("attacker", "target", "combatant", "acting")


def name_characters(apps, schema_editor):
    LogEntry = apps.get_model("campaign", "LogEntry")
    CombatEvent = apps.get_model("combat", "CombatEvent")
    Combatant = apps.get_model("combat", "Combatant")
    fighters = dict(Combatant.objects.filter(character__isnull=False).values_list("pk", "character_id"))
    lines = LogEntry.objects.filter(action__startswith="combat.", data__has_key="event")
    events = {e.pk: e for e in CombatEvent.objects.filter(pk__in=[line.data["event"] for line in lines
                                                                  if isinstance(line.data.get("event"), int)])}
    for line in lines.iterator():
        event = events.get(line.data.get("event"))
        if event is None or "characters" in line.data:
            continue
        ids = {int(pk) for pk in (event.before or {}).get("characters", {})}
        request = event.data.get("request")
        named = [event.data.get(key) for key in NAMING] + ([request.get(key) for key in ("attacker", "target")]
                                                           if isinstance(request, dict) else [])
        ids.update(fighters[pk] for pk in named if isinstance(pk, int) and pk in fighters)
        line.data = {**line.data, "characters": sorted(ids)}
        line.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [
        ("combat", "0008_combatant_dying_from_wounds"),
        ("campaign", "0017_invitation_max_uses"),
    ]

    operations = [migrations.RunPython(name_characters, migrations.RunPython.noop)]
