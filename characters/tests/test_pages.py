"""Character pages: who may see and change what, and what a refused write shows.

Personas: gm, player (owns the character), other_player, viewer, outsider, anonymous.
"""

import re

import pytest
from django.urls import reverse

from campaign.models import LogEntry
from campaign.testing import arranged
from characters import lifecycle
from characters.items import ITEM_KINDS
from characters.models import Character
from characters.tests.test_pages_support import STATS, make_character
from rulebook.stats import PRIMARY_STATS

# d20's parser (lark) imports sre_parse, deprecated since Python 3.11: not ours to fix.
pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore::DeprecationWarning:lark")]

HTMX = {"HTTP_HX_REQUEST": "true"}


def remaining(response) -> int:
    """Return the budget's remaining points as the page (or an htmx partial) shows them."""
    return int(re.search(rb'data-budget="remaining">(-?\d+)<', response.content).group(1))


def snapshot(character) -> tuple:
    """Everything a write could change: the character row, every line, the campaign log."""
    row = Character.objects.filter(pk=character.pk).values().first()
    row.pop("updated_at", None)
    lines = {kind: list(kind_.model.objects.filter(character_id=character.pk).order_by("pk").values())
             for kind, kind_ in ITEM_KINDS.items()}
    return row, lines, LogEntry.objects.count()


def stats_post(character, **changes) -> dict:
    """The builder's stats form as the page sends it, with ``changes`` applied."""
    data = {"name": character.name, "int_plus": character.int_plus_d6, "int_minus": character.int_minus_d6,
            "next": "build"}
    for code in PRIMARY_STATS:
        data[f"rolled_{code}"] = character.rolled_stats[code]
        data[f"trade_{code}"] = (character.stat_trades or {}).get(code, 0)
    for i, swap in enumerate(character.karma_swaps or []):
        data[f"swap_lowered_{i}"], data[f"swap_raised_{i}"] = swap["lowered"], swap["raised"]
    data.update(changes)
    return data


def skill_post(prefix: str, **values) -> dict:
    base = {"name": "Xenobiology", "breadth": "broad", "ranks": 1, "stat": "THEO", "weapon_category": ""}
    base.update(values)
    return {f"{prefix}-{k}": v for k, v in base.items()} | {"next": "build"}


@pytest.fixture
def character(personas):
    return make_character(personas, skills=2, lines=True, gm_notes="Secretly a Syndicate plant.")


# --- Access ---------------------------------------------------------------------------------
def test_anonymous_is_sent_to_login(personas, character, client):
    pk, cid = character.pk, personas["campaign"].pk
    urls = [reverse(n, args=[pk]) for n in ("character-sheet", "character-build", "character-history",
                                            "character-pdf")]
    urls += [reverse("character-party", args=[cid]), reverse("character-new", args=[cid])]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login")), url
    for name in ("character-stats", "character-submit", "character-approve", "character-notes"):
        response = client.post(reverse(name, args=[pk]), {})
        assert response.status_code == 302 and response.url.startswith(reverse("login")), name
    assert client.get(reverse("api-character-pdf", args=[pk])).status_code == 401


@pytest.mark.parametrize("persona, read, build, new", [
    ("gm", 200, 200, 200),
    ("player", 200, 200, 200),
    ("other_player", 200, 403, 200),
    ("viewer", 200, 403, 403),
    ("outsider", 404, 404, 404),
])
def test_page_access(personas, character, client, persona, read, build, new):
    client.force_login(personas[persona])
    pk, cid = character.pk, personas["campaign"].pk
    for name in ("character-sheet", "character-history"):
        assert client.get(reverse(name, args=[pk])).status_code == read, name
    assert client.get(reverse("character-party", args=[cid])).status_code == read
    assert client.get(reverse("character-build", args=[pk])).status_code == build
    assert client.get(reverse("character-new", args=[cid])).status_code == new


def test_unknown_ids_are_404(personas, character, client):
    client.force_login(personas["gm"])
    assert client.get(reverse("character-sheet", args=[character.pk + 999])).status_code == 404
    other = make_character(personas, name="Other", skills=1)
    skill = other.skills.get()
    # A line of another character cannot be reached through this one.
    url = reverse("character-line-delete", args=[character.pk, "skills", skill.pk])
    assert client.post(url).status_code == 404
    assert client.post(reverse("character-line-add", args=[character.pk, "spells"]), {}).status_code == 404
    assert other.skills.exists()


def _writes(character) -> list[tuple[str, list, dict]]:
    skill = character.skills.first()
    history_id = character.history.order_by("history_id").first().history_id
    pk = character.pk
    return [
        ("character-stats", [pk], stats_post(character, name="Hijacked")),
        ("character-roll", [pk], {}),
        ("character-line-add", [pk, "skills"], skill_post("skills-new")),
        ("character-line-update", [pk, "skills", skill.pk], skill_post(f"skills-{skill.pk}", ranks=3)),
        ("character-line-delete", [pk, "skills", skill.pk], {}),
        ("character-line-classify", [pk, "skills", skill.pk], {f"classify-skills-{skill.pk}-breadth": "broad"}),
        ("character-submit", [pk], {}),
        ("character-approve", [pk], {}),
        ("character-return", [pk], {"comment": "Try again"}),
        ("character-state", [pk], {"state": "dead"}),
        ("character-notes", [pk], {"gm_notes": "overwritten"}),
        ("character-revert", [pk], {"history_id": history_id}),
    ]


@pytest.mark.parametrize("persona, status", [("other_player", 403), ("viewer", 403), ("outsider", 404)])
@pytest.mark.parametrize("htmx", [False, True])
def test_writes_by_others_are_refused_and_change_nothing(personas, character, client, persona, status, htmx):
    with arranged(personas["campaign"]):
        personas["campaign"].stat_entry = "roll"
        personas["campaign"].save()
    client.force_login(personas[persona])
    before = snapshot(character)
    for name, args, data in _writes(character):
        response = client.post(reverse(name, args=args), data, **(HTMX if htmx else {}))
        assert response.status_code == status, name
    assert snapshot(character) == before


@pytest.mark.parametrize("name", ["character-line-classify", "character-approve", "character-return",
                                  "character-state", "character-notes", "character-revert"])
def test_gm_only_writes_are_refused_to_the_owner(personas, character, client, name):
    client.force_login(personas["player"])
    before = snapshot(character)
    url_name, args, data = next(w for w in _writes(character) if w[0] == name)
    assert client.post(reverse(url_name, args=args), data).status_code == 403
    assert snapshot(character) == before


def test_gm_notes_are_never_shown_to_players(personas, character, client):
    for persona in ("player", "other_player", "viewer"):
        client.force_login(personas[persona])
        for name in ("character-sheet", "character-build", "character-history"):
            response = client.get(reverse(name, args=[character.pk]))
            assert b"Syndicate plant" not in response.content, (persona, name)
            assert b"GM notes" not in response.content
    client.force_login(personas["gm"])
    response = client.get(reverse("character-sheet", args=[character.pk]))
    assert b"Secretly a Syndicate plant." in response.content


def test_gm_edits_notes_in_place(personas, character, client):
    client.force_login(personas["gm"])
    response = client.post(reverse("character-notes", args=[character.pk]),
                           {"gm_notes": "Knows the gate code.", "next": "sheet"}, **HTMX)
    assert response.status_code == 200
    assert b'id="gm-notes"' in response.content and b"Saved." in response.content
    character.refresh_from_db()
    assert character.gm_notes == "Knows the gate code."


# --- The builder: lines -----------------------------------------------------------------------
def test_adding_a_skill_updates_the_section_and_the_budget_in_place(personas, character, client):
    client.force_login(personas["player"])
    before = remaining(client.get(reverse("character-build", args=[character.pk])))
    response = client.post(reverse("character-line-add", args=[character.pk, "skills"]),
                           skill_post("skills-new"), **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card sheet-section" id="sec-skills"')
    assert 'id="budget" hx-swap-oob="true"' in html and 'id="problems" hx-swap-oob="true"' in html
    assert "Xenobiology" in html and "awaiting GM" in html
    assert remaining(response) == before - 4  # a Broad skill's first rank
    skill = character.skills.get(name="Xenobiology")
    assert (skill.breadth, skill.ranks, skill.stat, skill.classified) == ("broad", 1, "THEO", False)
    # "Skill Standards": one rank is a trainee / junior assistant, said beside the ranks.
    assert "<dt>Ranks</dt><dd>1 (trainee / junior assistant)</dd>" in html


def test_a_refused_line_keeps_what_was_typed_next_to_the_field(personas, character, client):
    client.force_login(personas["player"])
    url = reverse("character-line-add", args=[character.pk, "skills"])
    for headers in (HTMX, {}):
        response = client.post(url, skill_post("skills-new", name="Deep-space navigation", ranks=5), **headers)
        assert response.status_code == 400
        html = response.content.decode()
        assert "Ranks are capped at 3 in this campaign." in html
        assert 'value="Deep-space navigation"' in html
        field = re.search(r'<div class="field has-error[^"]*">(.*?)</div>', html, re.S).group(1)
        assert 'name="skills-new-ranks"' in field and "capped at 3" in field
    assert not character.skills.filter(name="Deep-space navigation").exists()


def test_a_form_error_keeps_input_too(personas, character, client):
    client.force_login(personas["player"])
    response = client.post(reverse("character-line-add", args=[character.pk, "weapons"]),
                           {"weapons-new-name": "Rail gun", "weapons-new-damage_points": "lots",
                            "weapons-new-rate_of_fire": 1, "next": "sheet"}, **HTMX)
    assert response.status_code == 400
    assert b'value="Rail gun"' in response.content and b"Enter a whole number." in response.content


def test_the_add_forms_load_when_opened(personas, character, client):
    """A sheet renders no add form nobody opened: "+ Add" loads its form (htmx), or opens the page
    with it (``?add=``) where scripts do not run."""
    client.force_login(personas["player"])
    sheet = client.get(reverse("character-build", args=[character.pk])).content.decode()
    new = reverse("character-line-new", args=[character.pk, "skills"])
    assert "+ Add skill" in sheet and f'hx-get="{new}?next=build"' in sheet
    assert 'name="skills-new-name"' not in sheet
    form = client.get(new + "?next=build", **HTMX).content.decode()
    assert 'name="skills-new-name"' in form and 'name="next" value="build"' in form and "Add skill" in form
    assert client.get(new + "?next=build").url == reverse("character-build", args=[character.pk]) + "?add=skills#sec-skills"
    opened = client.get(reverse("character-build", args=[character.pk]) + "?add=skills").content.decode()
    assert 'name="skills-new-name"' in opened and 'name="weapons-new-name"' not in opened
    client.force_login(personas["other_player"])
    assert client.get(new, **HTMX).status_code in (403, 404)


@pytest.mark.parametrize("kind", ["skills", "disadvantages", "equipment", "weapons", "armour", "languages"])
def test_a_lines_addresses_built_from_its_sections_are_the_routes(character, kind):
    from characters.views.page import line_address

    for action, name in (("", "character-line-update"), ("edit/", "character-line-edit"),
                         ("delete/", "character-line-delete"), ("classify/", "character-line-classify")):
        assert f"{line_address(character.pk, kind)}{77}/{action}" == reverse(name, args=[character.pk, kind, 77])


def test_editing_a_line_in_place_on_the_sheet(personas, character, client):
    client.force_login(personas["gm"])
    skill = character.skills.first()
    data = skill_post(f"skills-{skill.pk}", name=skill.name, breadth="narrow", ranks=3, stat="AWA") | {"next": "sheet"}
    response = client.post(reverse("character-line-update", args=[character.pk, "skills", skill.pk]), data, **HTMX)
    assert response.status_code == 200
    skill.refresh_from_db()
    # A GM's edit is a classification.
    assert (skill.breadth, skill.ranks, skill.stat, skill.classified) == ("narrow", 3, "AWA", True)
    # The edited line shows its new target: 3 ranks + AWA 14 → ⌈14 / 2⌉ + 2 = 9, 12 on 3d6.
    line = response.content.decode().split(f'id="skills-{skill.pk}"')[1].split('<li class="line')[0]
    assert "≤ <strong>12</strong>" in line and "74.1%" in line


def test_a_players_change_of_breadth_asks_the_gm_again(personas, client):
    character = make_character(personas, skills=1, classified=True)
    skill = character.skills.get()
    client.force_login(personas["player"])
    data = skill_post(f"skills-{skill.pk}", name=skill.name, breadth="narrow", stat=skill.stat, ranks=skill.ranks)
    assert client.post(reverse("character-line-update", args=[character.pk, "skills", skill.pk]), data,
                       **HTMX).status_code == 200
    skill.refresh_from_db()
    assert skill.breadth == "narrow" and not skill.classified


def test_removing_a_line(personas, character, client):
    client.force_login(personas["player"])
    item = character.weapons.first()
    response = client.post(reverse("character-line-delete", args=[character.pk, "weapons", item.pk]),
                           {"next": "build"})
    assert response.status_code == 302 and response.url.endswith("/build/#sec-weapons")
    assert not character.weapons.filter(pk=item.pk).exists()


def test_the_owner_cannot_change_a_submitted_sheet(personas, client):
    character = make_character(personas, skills=1)
    lifecycle.character_submit(character=character, by=personas["player"])
    client.force_login(personas["player"])
    response = client.get(reverse("character-build", args=[character.pk]))
    assert response.status_code == 302 and response.url == reverse("character-sheet", args=[character.pk])
    sheet = client.get(reverse("character-sheet", args=[character.pk])).content
    assert b"+ Add skill" not in sheet and b">Remove<" not in sheet
    response = client.post(reverse("character-line-add", args=[character.pk, "skills"]),
                           skill_post("skills-new"), **HTMX)
    assert response.status_code == 409
    assert b"submitted: the sheet changes only through" in response.content
    assert b'value="Xenobiology"' in response.content


def test_other_players_see_the_sheet_without_edit_controls(personas, character, client):
    client.force_login(personas["other_player"])
    html = client.get(reverse("character-sheet", args=[character.pk])).content
    assert b"Pilot" in html and b"+ Add skill" not in html and b">Edit<" not in html
    assert b"Submit to the GM" not in html and b"Approve" not in html and b"Classify" not in html


# --- The builder: stats -----------------------------------------------------------------------
def test_trades_and_swaps_update_stats_budget_and_karma(personas, character, client):
    client.force_login(personas["player"])
    before = remaining(client.get(reverse("character-build", args=[character.pk])))
    data = stats_post(character, trade_STR=2, trade_PERS=-1, swap_lowered_0="MEL", swap_raised_0="ACC")
    response = client.post(reverse("character-stats", args=[character.pk]), data, **HTMX)
    assert response.status_code == 200
    assert remaining(response) == before - 6 + 2
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card" id="sec-stats">')
    assert 'id="sec-skills" hx-swap-oob="true"' in html  # the skills' targets follow the stats
    assert 'data-budget="karma">9<' in html  # 10 − 1 swap
    character.refresh_from_db()
    assert (character.str, character.pers, character.mel, character.acc) == (14, 8, 9, 17)
    assert character.karma_swaps == [{"lowered": "MEL", "raised": "ACC"}]


def test_a_refused_stat_change_keeps_the_typed_values(personas, character, client):
    client.force_login(personas["player"])
    data = stats_post(character, name="Ada Q.", trade_PERS=-9, rolled_STR=17)
    for headers in (HTMX, {}):
        response = client.post(reverse("character-stats", args=[character.pk]), data, **headers)
        assert response.status_code == 400
        html = response.content.decode()
        assert "PERS is 0, outside 1–40" in html
        assert 'name="trade_PERS" value="-9"' in html and 'name="rolled_STR" value="17"' in html
        assert 'value="Ada Q."' in html
    character.refresh_from_db()
    assert character.pers == 9 and character.str == 12 and character.name == "Ada Quill"


def test_half_a_karma_swap_is_refused(personas, character, client):
    client.force_login(personas["player"])
    response = client.post(reverse("character-stats", args=[character.pk]),
                           stats_post(character, swap_lowered_0="MEL"), **HTMX)
    assert response.status_code == 400 and b"pick both, or neither" in response.content


# --- New characters and rolling in the app ----------------------------------------------------
def test_a_player_creates_a_character_with_entered_stats(personas, client):
    client.force_login(personas["other_player"])
    data = {"name": "Tamsin Reed", **STATS, "int_plus": 3, "int_minus": 3}
    response = client.post(reverse("character-new", args=[personas["campaign"].pk]), data)
    character = Character.objects.get(name="Tamsin Reed")
    assert response.status_code == 302 and response.url == reverse("character-build", args=[character.pk])
    assert character.owner == personas["other_player"] and character.rolled_stats == STATS


def test_a_bad_new_character_keeps_the_input(personas, client):
    client.force_login(personas["player"])
    data = {"name": "", **STATS, "STR": 41, "int_plus": 3, "int_minus": 3}
    response = client.post(reverse("character-new", args=[personas["campaign"].pk]), data)
    assert response.status_code == 400
    assert b'name="STR" value="41"' in response.content and b"less than or equal to 40" in response.content
    assert not Character.objects.exists()


@pytest.fixture
def roll_campaign(personas):
    campaign = personas["campaign"]
    campaign.stat_entry, campaign.stat_dice = "roll", "3d6+2"
    with arranged(campaign):
        campaign.save()
    return campaign


def test_rolling_in_the_app_logs_every_roll_and_fills_the_inputs(personas, roll_campaign, client):
    client.force_login(personas["player"])
    url = reverse("character-new", args=[roll_campaign.pk])
    assert b"Roll stats" in client.get(url).content
    response = client.post(url, {"action": "roll", "name": "Ilse"}, **HTMX)
    assert response.status_code == 200
    entry = LogEntry.objects.get(action="character.roll")
    assert entry.actor == personas["player"] and entry.data["dice"] == "3d6+2"
    assert set(entry.data["stats"]) == set(PRIMARY_STATS) and all(5 <= v <= 20 for v in entry.data["stats"].values())
    assert all(1 <= d <= 6 for d in entry.data["int_dice"]) and entry.data["rolls"]["STR"].startswith("3d6")
    html = response.content.decode()
    for code, value in entry.data["stats"].items():
        assert re.search(rf'name="{code}" value="{value}"[^>]*readonly', html), code
    assert f'name="roll" value="{entry.pk}"' in html

    # The server takes the stats from the log, whatever the browser sends back.
    tampered = {"name": "Ilse", "roll": entry.pk, **{code: 18 for code in PRIMARY_STATS}, "int_plus": 6, "int_minus": 1}
    response = client.post(url, tampered)
    character = Character.objects.get(name="Ilse")
    assert character.rolled_stats == entry.data["stats"]
    assert [character.int_plus_d6, character.int_minus_d6] == entry.data["int_dice"]

    # One roll makes one character: posting it again (a second tab, a replay) makes nothing more.
    again = client.post(url, {**tampered, "name": "Ilse twin"})
    assert again.status_code == 400 and b"Roll the stats first" in again.content
    assert not Character.objects.filter(name="Ilse twin").exists()


def test_rolled_stats_need_a_roll_of_ones_own(personas, roll_campaign, client):
    client.force_login(personas["gm"])
    client.post(reverse("character-new", args=[roll_campaign.pk]), {"action": "roll"})
    gm_roll = LogEntry.objects.get(action="character.roll")
    client.force_login(personas["player"])
    url = reverse("character-new", args=[roll_campaign.pk])
    for roll in ("", gm_roll.pk):
        response = client.post(url, {"name": "Ilse", "roll": roll, **STATS})
        assert response.status_code == 400 and b"Roll the stats first" in response.content
        assert b'value="Ilse"' in response.content
    assert not Character.objects.exists()


def test_rolling_is_refused_where_stats_are_entered(personas, character, client):
    client.force_login(personas["player"])
    response = client.post(reverse("character-new", args=[personas["campaign"].pk]), {"action": "roll"}, **HTMX)
    assert response.status_code == 409 and b"enter the stats they rolled" in response.content
    response = client.post(reverse("character-roll", args=[character.pk]), **HTMX)
    assert response.status_code == 409
    assert not LogEntry.objects.filter(action="character.roll").exists()


def test_bad_campaign_dice_are_reported(personas, roll_campaign, client):
    roll_campaign.stat_dice = "4d6-30"
    with arranged(roll_campaign):
        roll_campaign.save()
    client.force_login(personas["player"])
    response = client.post(reverse("character-new", args=[roll_campaign.pk]), {"action": "roll"})
    assert response.status_code == 400 and b"outside 1\xe2\x80\x9340; ask the GM" in response.content


def test_rolling_a_drafts_stats_in_the_builder(personas, roll_campaign, client):
    character = make_character(personas, skills=1)
    client.force_login(personas["player"])
    page = client.get(reverse("character-build", args=[character.pk])).content.decode()
    assert re.search(r'name="rolled_STR" value="12"[^>]*disabled', page)  # a player cannot type rolled stats
    response = client.post(reverse("character-roll", args=[character.pk]), **HTMX)
    assert response.status_code == 200
    entry = LogEntry.objects.get(action="character.roll")
    assert entry.data["character"] == character.pk
    character.refresh_from_db()
    assert character.rolled_stats == entry.data["stats"]
    # Typed rolled stats are ignored for the player in a rolling campaign; trades still apply.
    client.post(reverse("character-stats", args=[character.pk]), stats_post(character, rolled_STR=40, trade_STR=1))
    character.refresh_from_db()
    assert character.rolled_stats["STR"] == entry.data["stats"]["STR"] and character.stat_trades == {"STR": 1}


def test_a_submitted_sheets_stats_are_not_rolled_again(personas, roll_campaign, client):
    character = make_character(personas, skills=1)
    lifecycle.character_submit(character=character, by=personas["player"])
    for persona in ("player", "gm"):
        client.force_login(personas[persona])
        response = client.post(reverse("character-roll", args=[character.pk]))
        assert response.status_code == 409
    assert not LogEntry.objects.filter(action="character.roll").exists()


# --- Submission and the GM flow -----------------------------------------------------------------
def test_submit_refused_shows_the_reason_in_the_review(personas, client):
    character = make_character(personas, skills=30)  # 30 + 30 further ranks: far over 28 points
    client.force_login(personas["player"])
    response = client.post(reverse("character-submit", args=[character.pk]), {"next": "build"}, **HTMX)
    assert response.status_code == 400
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="card review" id="review">')
    assert re.search(r'role="alert">The sheet spends \d+ skill points but has 28', html)
    character.refresh_from_db()
    assert character.state == "draft"


def test_submit_approve_return_and_retire(personas, client):
    character = make_character(personas, skills=2, lines=True)
    client.force_login(personas["player"])
    response = client.post(reverse("character-submit", args=[character.pk]), {"next": "build"}, **HTMX)
    assert response.status_code == 200 and response["HX-Redirect"] == reverse("character-sheet", args=[character.pk])
    character.refresh_from_db()
    assert character.state == "submitted"

    client.force_login(personas["gm"])
    sheet = client.get(reverse("character-sheet", args=[character.pk])).content.decode()
    assert sheet.count("Classify</button>") == 10  # every line but the languages
    response = client.post(reverse("character-approve", args=[character.pk]), {"next": "sheet"})
    assert response.status_code == 400 and "Classify these first" in response.content.decode()

    response = client.post(reverse("character-return", args=[character.pk]), {"comment": "  "}, **HTMX)
    assert response.status_code == 400 and b"required" in response.content
    response = client.post(reverse("character-return", args=[character.pk]),
                           {"comment": "Pick a narrower pilot skill.", "next": "sheet"})
    assert response.status_code == 302
    client.force_login(personas["player"])
    build = client.get(reverse("character-build", args=[character.pk])).content
    assert b"The GM returned this sheet" in build and b"Pick a narrower pilot skill." in build
    lifecycle.character_submit(character=character, by=personas["player"])

    client.force_login(personas["gm"])
    for kind, item_kind in ITEM_KINDS.items():
        if not item_kind.needs_classification:
            continue
        for item in item_kind.model.objects.filter(character=character):
            picked = {"skills": {"breadth": "specific"}, "equipment": {"breadth": getattr(item, "breadth", "")},
                      "disadvantages": {"value": getattr(item, "value", 1)}}.get(kind, {})
            data = {f"classify-{kind}-{item.pk}-{k}": v for k, v in picked.items()}
            response = client.post(reverse("character-line-classify", args=[character.pk, kind, item.pk]),
                                   data | {"next": "sheet"}, **HTMX)
            assert response.status_code == 200, (kind, response.content[:500])
    response = client.post(reverse("character-approve", args=[character.pk]), {"next": "sheet"}, **HTMX)
    assert response.status_code == 200 and response["HX-Redirect"]
    character.refresh_from_db()
    assert character.state == "active" and character.karma == character.starting_karma == 10

    response = client.post(reverse("character-state", args=[character.pk]), {"state": "retired"})
    character.refresh_from_db()
    assert response.status_code == 302 and character.state == "retired"
    response = client.post(reverse("character-state", args=[character.pk]), {"state": "draft"}, **HTMX)
    assert response.status_code == 400 and b"Pick active, dead or retired." in response.content


def test_approving_a_draft_is_refused_with_the_reason(personas, character, client):
    client.force_login(personas["gm"])
    page = client.get(reverse("character-build", args=[character.pk])).content
    assert b">Approve<" not in page and b"Waiting for the player to submit" in page
    response = client.post(reverse("character-approve", args=[character.pk]), {"next": "build"}, **HTMX)
    assert response.status_code == 409 and b"Only a submitted sheet can be approved" in response.content
    character.refresh_from_db()
    assert character.state == "draft"


def test_classify_needs_a_valid_breadth(personas, character, client):
    client.force_login(personas["gm"])
    skill = character.skills.first()
    response = client.post(reverse("character-line-classify", args=[character.pk, "skills", skill.pk]),
                           {f"classify-skills-{skill.pk}-breadth": "cosmic", "next": "sheet"}, **HTMX)
    assert response.status_code == 400 and b"Select a valid choice" in response.content
    skill.refresh_from_db()
    assert not skill.classified


# --- History and revert -----------------------------------------------------------------------
def test_history_lists_changes_and_the_gm_reverts(personas, character, client):
    first = character.history.order_by("history_id").first()
    client.force_login(personas["player"])
    client.post(reverse("character-stats", args=[character.pk]), stats_post(character, name="Renamed"))
    page = client.get(reverse("character-history", args=[character.pk])).content.decode()
    assert "added skill Pilot" in page and "added weapon Service pistol" in page
    assert "Revert to here" not in page
    client.force_login(personas["gm"])
    page = client.get(reverse("character-history", args=[character.pk])).content.decode()
    assert f'name="history_id" value="{first.history_id}"' in page and "data-confirm=" in page
    assert page.count(">Revert to here</button>") == page.count("<time ")  # every change, lines included
    response = client.post(reverse("character-revert", args=[character.pk]), {"history_id": first.history_id})
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.name == "Ada Quill" and not character.skills.exists()  # back to before any line

    response = client.post(reverse("character-revert", args=[character.pk]), {"history_id": 999999})
    assert response.status_code == 400 and b"No such point in this sheet" in response.content


def test_reverting_to_a_lines_change(personas, character, client):
    client.force_login(personas["gm"])
    page = client.get(reverse("character-history", args=[character.pk])).content.decode()
    # The oldest line change is "added skill Pilot": reverting there keeps only Pilot.
    at = re.findall(r'name="at" value="([^"]+)"', page)
    rows = re.findall(r"<span>(added [^<]+)</span>", page)
    assert rows[-1] == "added skill Pilot"
    response = client.post(reverse("character-revert", args=[character.pk]), {"at": at[-1]})
    assert response.status_code == 302
    assert [s.name for s in character.skills.all()] == ["Pilot"] and not character.weapons.exists()


# --- Party list -------------------------------------------------------------------------------
def test_party_list(personas, character, client):
    client.force_login(personas["viewer"])
    html = client.get(reverse("character-party", args=[personas["campaign"].pk])).content.decode()
    assert "Ada Quill" in html and "player" in html and "Draft" in html and "49/49" in html
    assert "New character" not in html
    client.force_login(personas["other_player"])
    html = client.get(reverse("character-party", args=[personas["campaign"].pk]), **HTMX).content.decode()
    assert html.lstrip().startswith('<section class="card wide party-characters"') and "New character" in html


# --- Query counts -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["character-sheet", "character-build"])
def test_page_queries_do_not_grow_with_the_sheet(personas, client, django_assert_num_queries,
                                                 django_assert_max_num_queries, name):
    small = make_character(personas, name="Small", skills=1)
    big = make_character(personas, name="Big", skills=30, lines=True, gm_notes="n")
    client.force_login(personas["gm"])
    client.get(reverse(name, args=[small.pk]))  # warm the session
    with django_assert_max_num_queries(40) as few:
        assert client.get(reverse(name, args=[small.pk])).status_code == 200
    with django_assert_num_queries(len(few.captured_queries)):
        assert client.get(reverse(name, args=[big.pk])).status_code == 200


def test_party_queries_do_not_grow_with_characters(personas, client, django_assert_num_queries,
                                                   django_assert_max_num_queries):
    make_character(personas, name="One")
    client.force_login(personas["gm"])
    url = reverse("character-party", args=[personas["campaign"].pk])
    client.get(url)
    with django_assert_max_num_queries(40) as few:
        client.get(url)
    for i in range(8):
        make_character(personas, name=f"Extra {i}", owner="other_player")
    with django_assert_num_queries(len(few.captured_queries)):
        client.get(url)


def test_classifying_one_line_keeps_the_choice_made_on_another(personas, client):
    """Issue flows: the GM picks breadths on two pending skills, saves the first; the second
    keeps its unsaved pick."""
    character = make_character(personas, skills=2)
    first, second = character.skills.order_by("position")
    client.force_login(personas["gm"])
    url = reverse("character-line-classify", args=[character.pk, "skills", first.pk])
    other = "broad" if second.breadth != "broad" else "specific"
    response = client.post(url, {f"classify-skills-{first.pk}-breadth": "narrow",
                                 f"classify-skills-{second.pk}-breadth": other}, **HTMX)
    assert response.status_code == 200
    first.refresh_from_db()
    assert first.classified and first.breadth == "narrow"
    second.refresh_from_db()
    assert not second.classified and second.breadth != other  # not saved …
    page = response.content.decode()
    select = page[page.index(f'name="classify-skills-{second.pk}-breadth"'):]
    select = select[:select.index("</select>")]
    assert f'value="{other}" selected' in select  # … but still chosen on the page


def test_the_gm_classifies_every_pending_line_with_one_button(personas, client):
    """Issue: eight lines took eight clicks. The section's "Classify all" sends every choice."""
    character = make_character(personas, skills=3)
    lines = list(character.skills.order_by("position"))
    client.force_login(personas["gm"])
    sheet = client.get(reverse("character-sheet", args=[character.pk])).content.decode()
    assert "Classify all 3 as chosen" in sheet
    picks = dict(zip([line.pk for line in lines], ["specific", "narrow", "broad"], strict=True))
    url = reverse("character-lines-classify", args=[character.pk, "skills"])
    data = {f"classify-skills-{pk}-breadth": breadth for pk, breadth in picks.items()}

    # One bad choice: nothing is classified, the line says why, the others keep their choice.
    bad = client.post(url, {**data, f"classify-skills-{lines[1].pk}-breadth": "cosmic"}, **HTMX)
    assert bad.status_code == 400 and "not one of the available choices" in bad.content.decode()
    assert not character.skills.filter(classified=True).exists()

    response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    assert {line.pk: (line.classified, line.breadth) for line in character.skills.all()} == {
        pk: (True, breadth) for pk, breadth in picks.items()}
    assert "Classify all" not in response.content.decode()
    # Players do not classify.
    client.force_login(personas["player"])
    assert client.post(url, data, **HTMX).status_code == 403
