"""A database made by the migrations before audiences upgrades without losing a secret: every
GM-only event, combat log entry and private roll is GM-only afterwards, the rest is for everyone."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

BEFORE = [("campaign", "0009_rule_set"), ("combat", "0001_initial"), ("rolls", "0001_initial")]
AFTER = [("campaign", "0010_audience"), ("combat", "0002_audience"), ("rolls", "0002_audience")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def back_to_the_latest_migrations():
    """Going back to the targets above unapplies what depends on them (the economy's models,
    whose migrations come later): the tests after this one need every app migrated again."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_gm_only_rows_stay_gm_only_after_the_upgrade(django_user_model):
    old = _migrate(BEFORE)
    Campaign, Event = old.get_model("campaign", "Campaign"), old.get_model("campaign", "Event")
    Encounter, CombatEvent = old.get_model("combat", "Encounter"), old.get_model("combat", "CombatEvent")
    Roll = old.get_model("rolls", "Roll")
    campaign = Campaign.objects.create(name="Before the upgrade")
    encounter = Encounter.objects.create(campaign_id=campaign.pk, name="Old fight")
    Event.objects.create(campaign_id=campaign.pk, kind="combat", gm_only=True)
    Event.objects.create(campaign_id=campaign.pk, kind="roll", gm_only=False)
    CombatEvent.objects.create(encounter_id=encounter.pk, kind="join", summary="Secret joins", gm_only=True)
    CombatEvent.objects.create(encounter_id=encounter.pk, kind="join", summary="Alice joins", gm_only=False)
    Roll.objects.create(campaign_id=campaign.pk, kind="notation", notation="1d20", dice=[], total=3, private=True)
    Roll.objects.create(campaign_id=campaign.pk, kind="notation", notation="1d6", dice=[], total=4, private=False)

    new = _migrate(AFTER)
    audiences = {
        "events": dict(new.get_model("campaign", "Event").objects.values_list("kind", "audience")),
        "log": dict(new.get_model("combat", "CombatEvent").objects.values_list("summary", "audience")),
        "rolls": dict(new.get_model("rolls", "Roll").objects.values_list("notation", "audience")),
    }
    assert audiences == {"events": {"combat": "gm", "roll": "everyone"},
                         "log": {"Secret joins": "gm", "Alice joins": "everyone"},
                         "rolls": {"1d20": "gm", "1d6": "everyone"}}
