"""The data keys of sheets (campaign.keys): a character and its lines are ``character:<id>``; the
party lists that show every character follow ``campaign:<id>/characters``."""

from django.db.models.signals import post_init

from campaign.keys import campaign, register, register_history

from .models import Character, PoolEntry, SheetItem, SystemSheet


def _remember_name(sender, instance, **kwargs):
    # A loaded name, to tell a rename from any other save (a deferred name is not read).
    instance._name_as_loaded = instance.__dict__.get("name")


post_init.connect(_remember_name, sender=Character, dispatch_uid="character-name-as-loaded")


@register(Character)
def _character(row, _, fields):
    """A sheet, and the party lists; a rename also changes ``campaign:<id>/names``, which the
    parts that name characters beside other data follow (the pools' givers, the Karma ledger)."""
    found = [f"character:{row.pk}", campaign(row.campaign_id, "characters")]
    renamed = "name" in fields if fields else row.__dict__.get("name") != getattr(row, "_name_as_loaded", None)
    if renamed:
        found.append(campaign(row.campaign_id, "names"))
    return found


# A line is its sheet's, and the party's: the check builder and the roller list every line.
register(SheetItem, lambda row, campaign_id: [f"character:{row.character_id}", campaign(campaign_id, "characters")])
register(SystemSheet, lambda row, _: [f"sheet:{row.pk}", campaign(row.campaign_id, "sheets")])
register(PoolEntry, lambda row, _: [f"sheet:{row.sheet_id}"])
register_history(Character, lambda row, _: [f"character:{row.id}/history"])
for _model in SheetItem.__subclasses__():
    register_history(_model, lambda row, _: [f"character:{row.character_id}/history"])
register_history(SystemSheet, lambda row, _: [f"sheet:{row.id}/history"])
