"""Sheet services: building, classifying, the Karma limits, approval and reverting."""

import pytest

from characters import items, lifecycle, services
from characters.errors import CharacterConflict, CharacterError
from characters.models import Character
from characters.selectors import character_with_sheet
from characters.sheet import compute_sheet

pytestmark = pytest.mark.django_db

STATS = {"STR": 12, "CON": 14, "RES": 13, "NIM": 15, "DEX": 16, "ACC": 12, "MEL": 10,
         "PRAC": 15, "THEO": 14, "ENC": 13, "LAN": 12, "AWA": 16, "PERS": 14}


@pytest.fixture
def draft(personas):
    return services.character_create(campaign=personas["campaign"], owner=personas["player"], name="Mara",
                                     stats=STATS, int_dice=[4, 2], by=personas["player"])


def add(character, kind, by, is_gm=False, **data):
    return items.item_create(character=character, kind_name=kind, data=data, by=by, is_gm=is_gm)


def test_trades_and_swaps_change_stats_and_budget(personas):
    c = services.character_create(campaign=personas["campaign"], owner=personas["player"], name="T",
                                  stats=STATS, int_dice=[4, 2], trades={"STR": 1, "ENC": -2},
                                  karma_swaps=[{"lowered": "PERS", "raised": "AWA"}], by=personas["player"])
    assert (c.str, c.enc, c.pers, c.awa) == (13, 11, 13, 18)
    sheet = compute_sheet(character_with_sheet(character_id=c.pk))
    # INT from the traded stats: (15+14+11+12)/4 = 13, +4 −2 → 15 → 30 points; trades −3 + 4 = +1.
    assert sheet.budget.available == 31
    # AWA 18 is a high stat (−1), one swap (−1): 10 − 1 − 1 = 8.
    assert sheet.starting_karma[0] == 8


def test_bad_stats_raise_field_errors_and_save_nothing(personas):
    before = Character.objects.count()
    for bad in ({**STATS, "STR": 41}, {**STATS, "STR": "12"}, {k: v for k, v in STATS.items() if k != "PERS"},
                {**STATS, "LUCK": 3}):
        with pytest.raises(CharacterError) as excinfo:
            services.character_create(campaign=personas["campaign"], owner=personas["player"], name="X",
                                      stats=bad, int_dice=[1, 1], by=personas["player"])
        assert excinfo.value.field == "stats"
    with pytest.raises(CharacterError) as excinfo:
        services.character_create(campaign=personas["campaign"], owner=personas["player"], name="X",
                                  stats=STATS, int_dice=[0, 7], by=personas["player"])
    assert excinfo.value.field == "int_dice"
    assert Character.objects.count() == before


def test_player_breadth_is_a_proposal_and_gm_edit_classifies(draft, personas):
    skill = add(draft, "skills", personas["player"], name="Medic", breadth="broad", ranks=2, stat="PRAC")
    assert not skill.classified
    skill = items.item_update(item=skill, kind_name="skills", data={"breadth": "narrow"}, by=personas["gm"], is_gm=True)
    assert skill.classified and skill.breadth == "narrow"
    # The player raising ranks keeps the classification; changing the breadth asks again.
    skill = items.item_update(item=skill, kind_name="skills", data={"ranks": 3}, by=personas["player"], is_gm=False)
    assert skill.classified
    skill = items.item_update(item=skill, kind_name="skills", data={"breadth": "broad"}, by=personas["player"],
                              is_gm=False)
    assert not skill.classified
    with pytest.raises(CharacterError):
        add(draft, "skills", personas["player"], name="Too good", breadth="broad", ranks=4, stat="PRAC")


def test_disadvantage_karma_limits(draft, personas):
    # Starting Karma 10 → at most ⌈10/3⌉ = 4 ranks in one disadvantage.
    with pytest.raises(CharacterError) as excinfo:
        add(draft, "disadvantages", personas["player"], name="Phobia", value=2, ranks=5)
    assert "at most 4 ranks" in excinfo.value.message
    add(draft, "disadvantages", personas["player"], name="Phobia", value=2, ranks=4)


def test_submit_approve_freezes_and_opens_the_ledger(draft, personas):
    with pytest.raises(CharacterError) as excinfo:
        lifecycle.character_submit(character=draft, by=personas["player"])
    assert excinfo.value.field == "skills"
    add(draft, "skills", personas["player"], name="Medic", breadth="broad", ranks=3, stat="PRAC")
    lifecycle.character_submit(character=draft, by=personas["player"])
    with pytest.raises(CharacterError) as excinfo:
        lifecycle.character_approve(character=draft, by=personas["gm"])
    assert excinfo.value.field == "classification" and "Medic" in excinfo.value.message
    skill = draft.skills.get()
    items.item_update(item=skill, kind_name="skills", data={}, by=personas["gm"], is_gm=True)
    c = lifecycle.character_approve(character=draft, by=personas["gm"])
    c.refresh_from_db()
    assert c.state == Character.State.ACTIVE
    assert (c.hit_points, c.shock_threshold, c.endurance_max, c.intelligence) == (56, 12, 14, 15)
    assert c.karma == c.starting_karma == 10
    assert c.karma_entries.get().kind == "opening"
    with pytest.raises(CharacterConflict):
        services.character_update(character=c, by=personas["player"], is_gm=False, data={"stats": {"STR": 13}})
    with pytest.raises(CharacterConflict):  # an approved sheet only grows: nothing comes off
        items.item_delete(item=c.skills.get(), kind_name="skills", by=personas["player"], is_gm=False)


def test_overspent_draft_cannot_be_submitted(draft, personas):
    for i in range(8):
        add(draft, "skills", personas["player"], name=f"Skill {i}", breadth="broad", ranks=1, stat="PRAC")
    with pytest.raises(CharacterError) as excinfo:
        lifecycle.character_submit(character=draft, by=personas["player"])
    assert excinfo.value.field == "budget"
    assert Character.objects.get(pk=draft.pk).state == Character.State.DRAFT


def test_revert_restores_the_sheet_and_its_lines(draft, personas):
    add(draft, "skills", personas["player"], name="Medic", breadth="broad", ranks=1, stat="PRAC")
    point = draft.history.first().history_id  # the creation record
    services.character_update(character=draft, by=personas["player"], is_gm=False,
                              data={"name": "Renamed", "stats": {"STR": 20}})
    add(draft, "skills", personas["player"], name="Later skill", breadth="narrow", ranks=1, stat="ACC")
    lifecycle.character_revert(character=draft, history_id=point, by=personas["gm"])
    c = Character.objects.get(pk=draft.pk)
    assert c.name == "Mara" and c.str == 12
    # The character's creation came before both skills: the sheet is back to no skills.
    assert list(c.skills.values_list("name", flat=True)) == []
    with pytest.raises(CharacterError):
        lifecycle.character_revert(character=draft, history_id=999999, by=personas["gm"])


def approved(personas, draft):
    add(draft, "skills", personas["player"], name="Medic", breadth="broad", ranks=3, stat="PRAC")
    lifecycle.character_submit(character=draft, by=personas["player"])
    items.item_update(item=draft.skills.get(), kind_name="skills", data={}, by=personas["gm"], is_gm=True)
    return lifecycle.character_approve(character=draft, by=personas["gm"])


def test_approval_needs_a_submitted_sheet(draft, personas):
    add(draft, "skills", personas["gm"], is_gm=True, name="Medic", breadth="broad", ranks=3, stat="PRAC")
    with pytest.raises(CharacterConflict):
        lifecycle.character_approve(character=draft, by=personas["gm"])


def test_revert_cannot_undo_an_approval_and_keeps_karma_raises(draft, personas):
    from economy.services import karma_spend

    c = approved(personas, draft)
    with pytest.raises(CharacterConflict):
        lifecycle.character_revert(character=c, history_id=c.history.last().history_id, by=personas["gm"])
    after_approval = c.history.first().history_date
    karma_spend(character=c, kind="stat_raise", idempotency_key="k1", by=personas["player"], is_gm=False,
                params={"stat": "STR"})
    services.character_update(character=c, by=personas["gm"], is_gm=True, data={"name": "Renamed"})
    lifecycle.character_revert(character=c, at=after_approval, by=personas["gm"])
    c.refresh_from_db()
    # The name goes back; the Karma-bought STR 13 (rolled 12) and the state stay.
    assert (c.name, c.str, c.state, c.stat_raises) == ("Mara", 13, Character.State.ACTIVE, {"STR": 1})


def test_gm_edit_keeps_raises_and_refuses_stats_past_40(draft, personas):
    from economy.services import karma_spend

    c = approved(personas, draft)
    karma_spend(character=c, kind="stat_raise", idempotency_key="k1", by=personas["player"], is_gm=False,
                params={"stat": "STR"})
    services.character_update(character=c, by=personas["gm"], is_gm=True, data={"stats": {"STR": 20}})
    c.refresh_from_db()
    assert c.str == 21
    with pytest.raises(CharacterError) as excinfo:
        services.character_update(character=c, by=personas["gm"], is_gm=True, data={"stats": {"STR": 40}})
    assert excinfo.value.field == "stats"
    c.refresh_from_db()
    assert c.str == 21


def test_history_lists_what_changed_and_offers_only_reverts_that_can_succeed(draft, personas):
    """A history row names each field it changed, old → new; none before the approval of a sheet in play."""
    services.character_update(character=draft, by=personas["player"], is_gm=False, data={"name": "Renamed"})
    rows = lifecycle.history(draft)
    rename = next(r for r in rows if r["changes"] and r["changes"][0][0] == "name")
    assert rename["changes"][0][2] == "Renamed" and rename["changes"][0][1] != "Renamed"
    services.character_update(character=draft, by=personas["gm"], is_gm=True, data={"gm_notes": "secret plan"})
    assert not any("secret plan" in str(r["changes"]) for r in lifecycle.history(draft))
    assert any("secret plan" in str(r["changes"]) for r in lifecycle.history(draft, is_gm=True))
    assert all(r["can_revert"] for r in rows)  # a draft can go back anywhere
    skill = add(draft, "skills", personas["player"], name="Medic", breadth="broad", ranks=1, stat="PRAC")
    items.item_update(item=skill, kind_name="skills", data={}, by=personas["gm"], is_gm=True)
    lifecycle.character_submit(character=draft, by=personas["player"])
    active = lifecycle.character_approve(character=draft, by=personas["gm"])
    rows = lifecycle.history(active)
    assert rows[-1]["can_revert"] is False  # the sheet's creation is before the approval
    assert any(r["can_revert"] for r in rows)
