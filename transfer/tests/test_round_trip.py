"""Export → import → export gives the same document, and the copy plays on like the original."""

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Campaign, Job, LogEntry, Membership
from characters import lifecycle
from characters.models import Language, Skill, Weapon
from combat import services as combat
from combat.models import CombatEvent
from downtime import services as downtime
from downtime import transitions
from downtime.models import TransitionBatch, Treatment
from economy.models import KarmaEntry
from rolls import selectors as roll_feed
from rolls import services as rolls
from rolls.models import Roll
from transfer import services
from transfer.document import EXPORTED, IMPORT_ACTION, imported_author

pytestmark = pytest.mark.django_db


def _normalised(document: dict) -> dict:
    """The document but for the moment it was written: everything else must come back exactly."""
    return {key: value for key, value in document.items() if key != "exported_at"}


#: The document's fields that name an account (an author, a reader); "owner" names a sheet's owner.
PEOPLE = {"by", "actor", "history_user", "audience_user", "created_by", "user", "author"}
#: Columns holding a told sentence (rulebook.words.Said): its values are text, never an account.
SAID_COLUMNS = {"said", "gm_said"}


def _as_imported_by(document: dict, importer: str, name: str) -> dict:
    """The document as its copy must come back when ``importer`` imports it: a document acts for no
    one else, so every other account it names is gone (authors none, sheets the importer's, the
    importer the only member), and the copy's name says it was imported."""
    def walk(value):
        if isinstance(value, list):
            return [walk(item) for item in value]
        if not isinstance(value, dict):
            return value
        out = {}
        for key, item in value.items():
            if key in SAID_COLUMNS:  # a told sentence names people as text, as its plain text does
                out[key] = item
            elif key in PEOPLE and isinstance(item, str):
                out[key] = item if item == importer else None
            elif key == "owner" and isinstance(item, str):
                out[key] = importer
            else:
                out[key] = walk(item)
        return out

    copy = walk(document)
    # Other authors of rolls and ledger entries are kept as text, in the row's own JSON column.
    for key, column, people in (("rolls", "detail", ("by", "audience_user")), ("ledger", "data", ("by",))):
        for row, original in zip(copy.get(key, []), document.get(key, []), strict=True):
            recorded = {name: original[name] for name in people
                        if isinstance(original.get(name), str) and original[name] != importer}
            if recorded:
                row[column] = {**(row.get(column) or {}), "recorded_by": recorded}
    # A sheet held for a player with no account in the copy names them, to be handed back; its
    # history keeps other authors' names as the records' change reasons.
    for row, original in zip(copy.get("characters", []), document.get("characters", []), strict=True):
        if original.get("owner") != importer:
            row["imported_owner"] = original["owner"]
        for key, records in (original.get("history") or {}).items():
            for record, before in zip(row["history"][key], records, strict=True):
                if isinstance(before.get("history_user"), str) and before["history_user"] != importer:
                    record["history_change_reason"] = imported_author(before["history_user"])
    copy["members"] = [{"username": importer, "role": "gm"}]
    copy["campaign"]["name"] = name
    return copy


def _rows(campaign: Campaign) -> dict[str, int]:
    """How many rows of each exported table belong to the campaign."""
    counts = {}
    for label, table in EXPORTED.items():
        if table.model is not Campaign:
            parent = table.implied[0]
            lookup = parent if parent == "campaign" else f"{parent}__campaign"
            counts[label] = table.model.objects.filter(**{lookup: campaign}).count()
    counts["campaign.LogEntry"] = campaign.log_entries.exclude(action=IMPORT_ACTION).count()
    return counts


def test_export_import_export_gives_the_same_document(rich, personas):
    first = services.export_campaign(rich)
    copy = services.import_campaign(json.loads(json.dumps(first)), personas["gm"])
    second = services.export_campaign(copy)

    named = sorted(p["username"] for p in services.import_report(copy)["people"])
    assert copy.pk != rich.pk and named == ["alice", "bob", "carol"]
    assert _normalised(second) == _normalised(_as_imported_by(first, "gm", copy.name))
    assert {**_rows(copy), "campaign.Membership": None} == {**_rows(rich), "campaign.Membership": None}
    assert _rows(copy)["campaign.Membership"] == 1  # the importer alone
    assert all(count for label, count in _rows(rich).items()), _rows(rich)  # the fixture filled every table


def test_a_karma_reroll_keeps_the_roll_it_replaced_and_the_sheet_it_came_from(rich, personas):
    document = services.export_campaign(rich)
    place, reroll = next((n, r) for n, r in enumerate(document["rolls"]) if r["reroll_of"] is not None)
    assert document["rolls"][reroll["reroll_of"]]["success"] is False and reroll["reroll_of"] < place
    copy = services.import_campaign(json.loads(json.dumps(document)), personas["gm"])
    again = Roll.objects.get(campaign=copy, reroll_of__isnull=False)
    assert again.reroll_of.campaign_id == copy.pk and again.reroll_of.success is False
    assert again.character.campaign_id == copy.pk and again.reroll_of.character_id == again.character_id
    broken = json.loads(json.dumps(document))
    broken["rolls"][place]["reroll_of"] = place  # itself: not an earlier roll
    with pytest.raises(Exception) as refused:
        services.import_campaign(broken, personas["gm"])
    assert f"rolls[{place}].reroll_of" in refused.value.errors


def test_a_weapon_keeps_the_skill_it_names_and_its_past_links(rich, personas):
    """A weapon names its weapon skill by line number; the copy links the copy's own skill, in the
    sheet and in the line's history."""
    document = services.export_campaign(rich)
    sheet = next(c for c in document["characters"] if c["name"] == "Ines Duarte")
    rifle = next(w for w in sheet["weapons"] if w["name"] == "Hunting rifle")
    assert sheet["skills"][rifle["skill"]]["name"] == "Shotgun"
    assert {h["skill"] for h in sheet["history"]["weapons"]} == {rifle["skill"], rifle["skill"] - 1}  # Rifle, Shotgun
    copy = services.import_campaign(json.loads(json.dumps(document)), personas["gm"])
    weapon = Weapon.objects.get(character__campaign=copy, name="Hunting rifle")
    assert weapon.skill.name == "Shotgun" and weapon.skill.character_id == weapon.character_id
    assert weapon.aiming == "rifle"
    assert {h.skill_id for h in weapon.history.all()} == set(
        Skill.objects.filter(character=weapon.character, name__in=("Rifle", "Shotgun")).values_list("pk", flat=True))


def test_the_document_names_rows_by_key_and_people_by_username(rich):
    document = services.export_campaign(rich)

    mara = next(c for c in document["characters"] if c["name"] == "Mara Velez")
    assert mara["key"].startswith("character-") and mara["owner"] == "alice"
    assert "karma" not in mara and "id" not in mara
    assert {m["username"]: m["role"] for m in document["members"]} == {
        "gm": "gm", "alice": "player", "bob": "player", "carol": "viewer"}
    entry = document["ledger"][0]
    assert entry["character"].startswith("character-") and "balance_after" not in entry
    fight = document["encounters"][0]
    assert all(isinstance(k, str) and k.startswith("combatant-") for k in fight["order"])
    payouts = [e["idempotency_key"] for e in document["ledger"] if e["kind"] == "payout"]
    assert payouts and all(key == "system:payout:adventure-1" for key in payouts)
    assert document["format"] == "zenergate-campaign" and document["version"] == 1
    assert all(roll["by"] in ("gm", "alice", "bob") for roll in document["rolls"])


def _feed(campaign: Campaign) -> list[dict]:
    """The campaign's roll feed as a GM reads it, newest first, without its ids."""
    return [{"by": getattr(roll.by, "username", None), **{name: getattr(roll, name) for name in EXPORTED["rolls.Roll"].fields}}
            for roll in roll_feed.feed(campaign_id=campaign.pk, is_gm=True, limit=roll_feed.MOST)]


def test_the_roll_feed_and_the_rule_set_travel(rich, personas):
    document = services.export_campaign(rich)

    assert (document["campaign"]["rule_set"], document["campaign"]["rulings"]) == ("success_check",
                                                                                   {"advantage_drop": 1})
    assert {r["kind"] for r in document["rolls"]} == {"check", "notation", "combat", "downtime"}
    check, notation, secret = document["rolls"][-5:-2]  # oldest first: then a sheet check and its reroll
    assert (check["kind"], check["by"], check["system"]) == ("check", "alice", "success_check")
    assert check["params"]["advantage_drop"] == 1 and check["probability"]
    assert (notation["by"], notation["notation"], notation["audience"]) == ("bob", "4d6kh3", "everyone")
    assert (secret["by"], secret["audience"]) == ("gm", "gm")
    assert all("id" not in r and "campaign" not in r for r in document["rolls"])

    copy = services.import_campaign(document, personas["gm"])

    assert (copy.rule_set, copy.rulings) == ("success_check", {"advantage_drop": 1})
    # Same order, same dice and odds, same moments; the importer's own rolls keep their author,
    # the others' name theirs as text.
    def as_imported(roll: dict) -> dict:
        if roll["by"] in (None, "gm"):
            return roll
        return {**roll, "by": None, "detail": {**roll["detail"], "recorded_by": {"by": roll["by"]}}}

    assert _feed(copy) == [as_imported(r) for r in _feed(rich)]
    # A check on the copy reads the copy's ruling, and lands on top of the feed.
    rolled = rolls.roll_check(campaign=copy, by=personas["gm"], check={"bonus": 6, "tn": 15}, rng=random.Random(1))
    assert rolled.params["advantage_drop"] == 1
    assert roll_feed.feed(campaign_id=copy.pk, is_gm=True, limit=1) == [rolled]


def test_the_import_rebuilds_balances_and_makes_the_caller_gm(rich, personas, make_user):
    newcomer = make_user("newcomer")
    document = services.export_campaign(rich)
    document["members"] = [m for m in document["members"] if m["username"] != "bob"] + [
        {"username": "nobody-here", "role": "player"}]
    award = next(e for e in document["ledger"] if e["kind"] == "manual")
    award["amount"] -= 5  # the balances follow the entries, whatever the source's cache said

    copy = services.import_campaign(document, newcomer)

    roles = dict(Membership.objects.filter(campaign=copy).values_list("user__username", "role"))
    assert roles == {"newcomer": "gm"}  # the others are listed for the GM to invite, not added
    named = [p["username"] for p in services.import_report(copy)["people"]]
    assert named[:4] == ["gm", "alice", "carol", "nobody-here"]  # then the characters' owners not listed
    source = {c.name: c.karma for c in rich.characters.all()}
    for character in copy.characters.all():
        changed = 5 if character.name == "Mara Velez" else 0
        assert character.karma == source[character.name] - changed
        entries = list(KarmaEntry.objects.filter(character=character).order_by("id"))
        assert character.karma == sum(e.amount for e in entries)
        running = 0
        for entry in entries:
            running += entry.amount
            assert entry.balance_after == running
    log = LogEntry.objects.get(campaign=copy, action=IMPORT_ACTION)
    assert log.actor == newcomer and log.data["named"] == named


def test_the_copy_plays_on_undo_revert_and_delays_included(rich, personas):
    gm = personas["gm"]
    copy = services.import_campaign(services.export_campaign(rich), gm)

    # The last combat event (an undo) is not undone again; the request before it is undone.
    fight = copy.encounters.get()
    event = combat.undo_last(encounter=fight, by=gm)
    assert event.undoes.kind == "request" and event.undoes.encounter_id == fight.pk
    # The transition consumed Mara's delay in the original: in the copy too, and undo frees it.
    batch = TransitionBatch.objects.get(campaign=copy)
    delay = KarmaEntry.objects.get(campaign=copy, kind="delay_transition")
    assert delay.consumed_by.batch == batch
    assert batch.response["id"] == batch.pk
    assert {r["character"] for r in batch.response["characters"]} == set(copy.characters.filter(
        state="active").values_list("pk", flat=True))
    transitions.transition_undo(batch=batch, by=gm)
    delay.refresh_from_db()
    assert not hasattr(delay, "consumed_by") or delay.consumed_by is None
    # The downtime can be undone on the copy: the clock goes back.
    job = Job.objects.get(campaign=copy, idempotency_key="week")
    assert Treatment.objects.filter(campaign=copy, job=job).exists()
    hours = copy.game_hours
    downtime.downtime_undo(job=job, by=gm)
    copy.refresh_from_db()
    assert copy.game_hours == hours - 30
    # The draft goes back to before its Latin line was removed: the line comes back, on this campaign.
    draft = copy.characters.get(name="Ines Duarte")
    latin = Language.history.filter(character_id=draft.pk, name="Latin", history_type="+").get()
    lifecycle.character_revert(character=draft, by=gm, at=latin.history_date)
    assert set(draft.languages.values_list("name", flat=True)) == {"Latin"}
    assert Language.objects.get(name="Latin", character=draft).pk == latin.id


def test_the_other_rule_sets_travel_and_their_blows_are_records(rich, personas):
    """A Rocket House sheet, its ledger and history, a fight's blows and a rest come with the copy;
    a blow in the copy is a record (no undo), a rest in it can still be undone."""
    from campaign.errors import CampaignConflict
    from characters.models import PoolEntry, SystemSheet
    from combat import system_blows
    from combat.models import SystemFight

    gm = personas["gm"]
    copy = services.import_campaign(services.export_campaign(rich), gm)
    original = SystemSheet.objects.get(campaign=rich)
    sheet = SystemSheet.objects.get(campaign=copy)
    assert (sheet.name, sheet.owner, sheet.numbers, sheet.pools, sheet.condition) == (
        original.name, gm, original.numbers, original.pools, original.condition)
    assert sheet.condition["wounds"] == ["basic"]
    assert list(PoolEntry.objects.filter(sheet=sheet).order_by("pk").values_list("action", "amount")) == list(
        PoolEntry.objects.filter(sheet=original).order_by("pk").values_list("action", "amount"))
    assert sheet.history.count() == original.history.count()
    fight = SystemFight.objects.get(campaign=copy)
    assert fight.fighters == {"Sir Gareth": sheet.pk, "Puce Knight": None}
    assert [(b["undone"], b["struck_by"]) for b in fight.blows] == [(False, "alice"), (True, "alice"), (False, "gm")]
    with pytest.raises(CampaignConflict, match="imported campaign"):
        system_blows.system_fight_undo(fight=fight, by=gm, is_gm=True)
    rest = Job.objects.get(campaign=copy, idempotency_key="rest-after-the-joust")
    assert rest.sheet_claims.get().sheet == sheet and rest.params["sheets"] == [sheet.pk]


def test_an_attack_request_waiting_in_the_copy_names_the_copys_weapon(rich, personas):
    copy = services.import_campaign(services.export_campaign(rich), personas["gm"])
    waiting = CombatEvent.objects.filter(encounter__campaign=copy, kind="request").order_by("id").last()
    attacker = waiting.encounter.combatants.get(pk=waiting.data["request"]["attacker"])
    assert waiting.data["request"]["weapon"] == attacker.character.weapons.get().pk


def test_export_reads_each_table_once_whatever_the_size(rich, personas, make_character):
    with CaptureQueriesContext(connection) as small:
        services.export_campaign(rich)
    for n in range(3):
        make_character(personas["player"], name=f"Extra {n}", campaign=rich)
    with CaptureQueriesContext(connection) as larger:
        services.export_campaign(rich)
    assert len(larger) == len(small)


@pytest.mark.django_db(transaction=True)
def test_export_reads_every_table_from_one_snapshot(personas, monkeypatch):
    seen = []

    def document(campaign):
        with connection.cursor() as cursor:
            cursor.execute("SHOW transaction_isolation")
            seen.append(cursor.fetchone()[0])
        return {}

    monkeypatch.setattr(services, "campaign_document", document)
    services.export_campaign(personas["campaign"])
    assert seen == ["repeatable read"]


def test_game_nights_travel_with_their_recaps_and_notes(rich, personas):
    """The whole campaign in its file: the nights with their dates, the published recap, the
    draft and the members' notes come back (a note by someone with no account in the copy keeps
    its text, with no author)."""
    from campaign.models import GameSession

    copy = services.import_campaign(services.export_campaign(rich), personas["gm"])
    nights = list(GameSession.objects.filter(campaign=copy).order_by("number"))
    source = list(GameSession.objects.filter(campaign=rich).order_by("number"))
    assert [(n.number, n.started_at, n.ended_at, n.recap, n.published_at) for n in nights] == [
        (n.number, n.started_at, n.ended_at, n.recap, n.published_at) for n in source]
    assert nights[0].published_at is not None and nights[0].recap.endswith("A fine night.")
    assert nights[1].published_at is None and nights[1].recap == "A quiet night (draft)."
    notes = [(n.text, n.author.username if n.author else None) for n in nights[0].notes.order_by("created_at")]
    assert notes == [("Mara owes Tomas a favour.", None), ("Next: the customs house.", "gm")]
