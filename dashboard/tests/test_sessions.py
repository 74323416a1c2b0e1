"""Game sessions: the GM starts and ends a night, the app drafts its recap from what happened
(in order, in the game's words, without what the GM hides), the GM edits and publishes it,
players add notes, and the next session's date shows on the dashboard."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import GameSession
from characters import items
from downtime import services as downtime
from economy.pools import macguffin_create
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)
from rolls.models import Roll
from rulebook.words import said

pytestmark = pytest.mark.django_db


def _gm_post(client, personas, **data):
    client.force_login(personas["gm"])
    return client.post(reverse("campaign-sessions", args=[personas["campaign"].pk]), data)


def test_a_nights_recap_tells_what_happened_in_order_and_nothing_hidden(personas, client, api_as,
                                                                        make_character):  # noqa: F811
    campaign, gm = personas["campaign"], api_as("gm")
    hero = make_character("player", name="Mara", karma=5, stats={"ACC": 16})
    items.item_create(character=hero, kind_name="weapons", by=personas["gm"], is_gm=True,
                      data={"name": "Pistol", "damage_points": 4})
    pool = macguffin_create(campaign=campaign, name="Radio set", limitation="", target=4, upgrade="",
                            by=personas["gm"])
    assert _gm_post(client, personas, action="start").status_code == 302

    encounter = gm.post(f"/api/v1/campaigns/{campaign.pk}/encounters/", {"name": "Rooftop"},
                        format="json").json()["id"]
    pc = gm.post(f"/api/v1/encounters/{encounter}/combatants/", {"character": hero.pk}, format="json").json()["id"]
    npc = gm.post(f"/api/v1/encounters/{encounter}/combatants/", {
        "name": "Sniper", "stats": {"ACC": 12, "RES": 12}, "revealed": True}, format="json").json()["id"]
    gm.post(f"/api/v1/encounters/{encounter}/combatants/", {"name": "Hidden Assassin", "stats": {"ACC": 12}},
            format="json")  # the GM's secret: joins unrevealed
    gm.post(f"/api/v1/encounters/{encounter}/initiative/", {"dice": {str(pc): [6], str(npc): [1]}}, format="json")
    hit = gm.post(f"/api/v1/encounters/{encounter}/attacks/", {"attacker": pc, "target": npc,
                                                               "dice": {"attack": [1, 1, 1]}}, format="json")
    assert hit.status_code == 201, hit.json()
    spent = api_as("player").post(f"/api/v1/characters/{hero.pk}/karma/", {"kind": "reroll",
                                                                           "idempotency_key": "k"}, format="json")
    assert spent.status_code == 201, spent.json()
    given = api_as("player").post(f"/api/v1/macguffins/{pool.pk}/contributions/",
                                  {"character": hero.pk, "amount": 1, "idempotency_key": "p"}, format="json")
    assert given.status_code == 201, given.json()
    started = gm.post(f"/api/v1/campaigns/{campaign.pk}/downtime/", {"hours": 8, "idempotency_key": "d"},
                      format="json")
    downtime.downtime_run(job_id=started.json()["job"])

    ended = _gm_post(client, personas, action="end")
    session = GameSession.objects.get(campaign=campaign)
    assert ended.status_code == 302 and session.ended_at is not None
    draft = session.recap
    lines = draft.splitlines()
    def first(text):
        return next((n for n, line in enumerate(lines) if text in line), f"{text!r} missing from: {lines}")
    order = [first("Sniper joins"), first("critical"), first("Karma"), first("Radio set"), first("Downtime of 8 h")]
    assert all(isinstance(n, int) for n in order), order
    assert order == sorted(order), draft
    assert "Hidden Assassin" not in draft and "Rooftop: Mara" in draft
    # The critical is named once, in the attack's own line; the roll is not told again beside it.
    (attack,) = [line for line in lines if "Mara attacks Sniper" in line]
    assert "with Pistol: critical hit at the " in attack and "(rolled" not in attack, attack
    roll = Roll.objects.get(campaign=campaign, kind=Roll.Kind.COMBAT)
    assert roll.label == "Mara attacks Sniper with Pistol: critical hit" and roll.detail == {"critical": True}
    client.force_login(personas["gm"])
    feed = client.get(reverse("campaign-roller", args=[campaign.pk])).content.decode()
    assert '<span class="badge ok">critical</span>' in feed

    # Players see nothing until the GM publishes; then the recap and their notes.
    client.force_login(personas["player"])
    url = reverse("campaign-session", args=[campaign.pk, session.number])
    assert client.get(url).status_code == 404
    client.force_login(personas["gm"])
    client.post(url, {"action": "publish", "recap": draft + "\nA fine night."})
    client.force_login(personas["player"])
    page = client.get(url).content.decode()
    assert "A fine night." in page and "Hidden Assassin" not in page
    client.post(url, {"action": "note", "text": "Mara owes Jon a drink."})
    assert "Mara owes Jon a drink." in client.get(url).content.decode()
    assert client.post(url, {"action": "publish", "recap": "rewritten"}).status_code == 403


def test_the_gm_may_draft_with_gm_only_facts(personas, client):
    from campaign.audience import GM_ONLY
    from campaign.testing import arranged
    from dashboard import recap

    _gm_post(client, personas, action="start")
    with arranged(personas["campaign"]) as write:
        write.audit("combat.secret", said("The Assassin waits on the roof"), seen=GM_ONLY)
    _gm_post(client, personas, action="end")
    session = GameSession.objects.get(campaign=personas["campaign"])
    assert "Assassin" not in session.recap
    assert "The Assassin waits on the roof" in recap.draft(session, include_gm=True)


def test_one_session_at_a_time_and_only_the_gm_runs_them(personas, client):
    _gm_post(client, personas, action="start")
    _gm_post(client, personas, action="start")
    assert GameSession.objects.filter(campaign=personas["campaign"]).count() == 1
    client.force_login(personas["player"])
    response = client.post(reverse("campaign-sessions", args=[personas["campaign"].pk]), {"action": "end"})
    assert response.status_code == 403


def test_the_next_sessions_date_is_on_the_dashboard(personas, client):
    when = timezone.localtime() + datetime.timedelta(days=3)
    _gm_post(client, personas, action="next", next_session_at=when.strftime("%Y-%m-%dT%H:%M"))
    client.force_login(personas["viewer"])
    page = client.get(reverse("campaign-dashboard", args=[personas["campaign"].pk])).content.decode()
    assert "Next session:" in page and when.strftime("%H:%M") in page
    past = _gm_post(client, personas, action="next", next_session_at="2001-01-01T10:00")
    assert past.status_code == 302
    personas["campaign"].refresh_from_db()
    assert personas["campaign"].next_session_at is not None  # the past date was refused


def test_the_log_keeps_one_nights_lines(personas, client, api_as):
    from campaign.testing import arranged

    with arranged(personas["campaign"]) as write:
        write.audit("combat.before", said("Before the night"))
    _gm_post(client, personas, action="start")
    with arranged(personas["campaign"]) as write:
        write.audit("combat.during", said("During the night"))
    _gm_post(client, personas, action="end")
    with arranged(personas["campaign"]) as write:
        write.audit("combat.after", said("After the night"))
    api = f"/api/v1/campaigns/{personas['campaign'].pk}/log/"
    night = [e["summary"] for e in api_as("player").get(api, {"session": 1}).json()["entries"]]
    assert "During the night" in night and "Before the night" not in night and "After the night" not in night
    page = client.get(reverse("campaign-log", args=[personas["campaign"].pk]), {"session": 1}).content.decode()
    assert "During the night" in page and "After the night" not in page


def test_a_night_left_open_is_ended_by_the_app_after_hours_of_quiet(personas, client, settings):
    """The GM forgot to end the session: after SESSION_QUIET_HOURS of nothing, the app ends it
    at its last activity, drafts its recap, and says so in the log; a busy night stays open."""
    from campaign.models import LogEntry
    from dashboard import recap
    from dashboard.tasks import close_quiet_sessions

    settings.SESSION_QUIET_HOURS = 6
    _gm_post(client, personas, action="start")
    session = GameSession.objects.get(campaign=personas["campaign"])
    last = LogEntry.objects.filter(campaign=personas["campaign"]).latest("created_at").created_at
    assert recap.last_activity(session) == last

    assert close_quiet_sessions() == []  # just started: open
    assert recap.close_quiet_sessions(now=last + datetime.timedelta(hours=5, minutes=59)) == []
    assert recap.close_quiet_sessions(now=last + datetime.timedelta(hours=6, minutes=1)) == [session.pk]
    session.refresh_from_db()
    assert session.ended_at == last and session.recap.startswith(f"Session {session.number},")
    assert session.published_at is None  # the GM edits and publishes it
    assert LogEntry.objects.filter(campaign=personas["campaign"], action="session.end",
                                   summary=f"The app ended session {session.number} after hours of quiet").exists()
    assert recap.close_quiet_sessions(now=last + datetime.timedelta(days=2)) == []  # ended once
