"""The page cache never shows a page older than the data: every kind of write, every viewer.

Tests here commit for real (``transaction=True``): the cache's version moves when a write
commits, as it does in production. The oracle for "what the page should be" is the same page
rendered with the cache turned off; the two must be equal, CSRF tokens aside (each render masks
the token afresh). The cache is also checked to be in play: the read before each write is a hit.
"""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from rest_framework.test import APIClient

from campaign.changes import change_set
from characters.models import Character
from conftest import PASSWORD
from downtime import services as downtime

pytestmark = [pytest.mark.page_cache, pytest.mark.django_db(transaction=True)]

VIEWERS = ("player", "other_player", "gm")
TOKEN = re.compile(rb'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": ?)"[^"]+"')


def _strip(body: bytes) -> bytes:
    return TOKEN.sub(rb"\1-", body)


class Table:
    """A logged-in browser and API client for each viewer, and the pages they watch."""

    def __init__(self, personas, character: Character, draft: Character):
        self.personas, self.character, self.draft = personas, character, draft
        self.browsers, self.apis = {}, {}
        for name in VIEWERS:
            browser = Client()
            browser.force_login(personas[name])
            browser.get(f"/campaigns/{character.campaign_id}/")  # sets the CSRF cookie
            self.browsers[name] = browser
            api = APIClient()
            api.force_authenticate(personas[name])
            self.apis[name] = api

    def urls(self, name: str) -> list[str]:
        campaign = self.character.campaign_id
        urls = [f"/characters/{self.character.pk}/", f"/campaigns/{campaign}/", f"/campaigns/{campaign}/macguffins/live/"]
        if name in ("player", "gm"):  # the draft's builder: its owner and the GM
            urls.append(f"/characters/{self.draft.pk}/build/")
        return urls

    def read_all(self) -> dict:
        """Every viewer's every page, read twice: the second read must come from the cache."""
        seen = {}
        for name in VIEWERS:
            for url in self.urls(name):
                self.browsers[name].get(url)
                response = self.browsers[name].get(url)
                assert response.status_code == 200, (name, url)
                assert response["X-Page-Cache"] == "hit", (name, url)
                seen[name, url] = response.content
            seen[name, "api"] = self.apis[name].get(f"/api/v1/characters/{self.character.pk}/").json()
        return seen

    def check_fresh(self, before: dict) -> dict:
        """Each page equals a render without the cache; return what each viewer now sees."""
        now = {}
        for name in VIEWERS:
            for url in self.urls(name):
                cached = self.browsers[name].get(url)
                assert cached["X-Page-Cache"] == "miss", f"{name} got a stale copy of {url}"
                with override_settings(PAGE_CACHE_SECONDS=0):
                    fresh = self.browsers[name].get(url)
                assert _strip(cached.content) == _strip(fresh.content), (name, url)
                now[name, url] = cached.content
            api = self.apis[name].get(f"/api/v1/characters/{self.character.pk}/").json()
            with override_settings(PAGE_CACHE_SECONDS=0):
                assert api == self.apis[name].get(f"/api/v1/characters/{self.character.pk}/").json(), name
            now[name, "api"] = api
        return now


@pytest.fixture
def table(personas, make_character):
    character = make_character("player", karma=10, name="Mara Velez")
    draft = make_character("player", name="Draft Dana", approve=False)
    return Table(personas, character, draft)


def _sheet(table, name):
    return table.browsers[name].get(f"/characters/{table.character.pk}/").content


def test_a_line_edit_shows_at_once(table):
    table.read_all()
    skill = table.draft.skills.first()
    response = table.apis["player"].patch(f"/api/v1/characters/{table.draft.pk}/skills/{skill.pk}/",
                                          {"name": "Chronal mechanics"}, format="json")
    assert response.status_code == 200, response.content
    table.check_fresh({})
    assert b"Chronal mechanics" in table.browsers["gm"].get(f"/characters/{table.draft.pk}/build/").content


def test_a_stat_trade_shows_at_once(table):
    table.read_all()
    response = table.apis["player"].patch(f"/api/v1/characters/{table.draft.pk}/", {"trades": {"STR": 1}},
                                          format="json")
    assert response.status_code == 200, response.content
    table.check_fresh({})
    assert Character.objects.get(pk=table.draft.pk).stat_trades == {"STR": 1}


def test_a_karma_spend_shows_at_once(table):
    before = table.read_all()
    response = table.apis["player"].post(f"/api/v1/characters/{table.character.pk}/karma/",
                                         {"kind": "reroll", "idempotency_key": "cache-1"}, format="json")
    assert response.status_code == 201, response.content
    after = table.check_fresh(before)
    for name in VIEWERS:
        assert (before[name, "api"]["karma"], after[name, "api"]["karma"]) == (10, 9)


def test_a_wound_shows_at_once(table):
    before = table.read_all()
    response = table.apis["gm"].post(f"/api/v1/characters/{table.character.pk}/wounds/",
                                     {"trauma": 3, "reason": "A fall from the customs house roof"}, format="json")
    assert response.status_code == 201, response.content
    after = table.check_fresh(before)
    sheet = f"/characters/{table.character.pk}/"
    for name in VIEWERS:  # the wound bars moved on every viewer's sheet
        assert _strip(before[name, sheet]) != _strip(after[name, sheet]), name
    assert Character.objects.get(pk=table.character.pk).trauma == 3


def test_a_downtime_shows_at_once(table):
    with transaction.atomic():  # a setting-up write, through the one write path like any other
        change_set(campaign=table.character.campaign_id)
        Character.objects.filter(pk=table.character.pk).update(trauma=4)
    before = table.read_all()
    job, _ = downtime.downtime_start(campaign=table.character.campaign, by=table.personas["gm"],
                                     request={"hours": 48, "rest": "comfortable", "idempotency_key": "cache-dt"})
    downtime.downtime_run(job_id=job.pk)  # what the worker does with the message
    after = table.check_fresh(before)
    sheet = f"/characters/{table.character.pk}/"
    for name in VIEWERS:
        assert _strip(before[name, sheet]) != _strip(after[name, sheet]), name
    assert Character.objects.get(pk=table.character.pk).trauma < 4


def test_a_revert_shows_at_once(table):
    history = table.apis["gm"].get(f"/api/v1/characters/{table.character.pk}/history/").json()
    point = next(row["history_id"] for row in history if row["history_id"] and row["can_revert"])
    table.apis["gm"].patch(f"/api/v1/characters/{table.character.pk}/", {"name": "Mara the Bold"}, format="json")
    before = table.read_all()
    assert all(before[name, "api"]["name"] == "Mara the Bold" for name in VIEWERS)
    response = table.apis["gm"].post(f"/api/v1/characters/{table.character.pk}/history/",
                                     {"history_id": point}, format="json")
    assert response.status_code == 200, response.content
    after = table.check_fresh(before)
    assert all(after[name, "api"]["name"] == "Mara Velez" for name in VIEWERS)


def test_gm_notes_show_to_the_gm_at_once_and_never_to_players(table):
    before = table.read_all()
    secret = "The sniper is the brother of Mara"
    response = table.apis["gm"].patch(f"/api/v1/characters/{table.character.pk}/", {"gm_notes": secret},
                                      format="json")
    assert response.status_code == 200, response.content
    after = table.check_fresh(before)
    assert secret.encode() in after["gm", f"/characters/{table.character.pk}/"]
    assert after["gm", "api"]["gm_notes"] == secret
    for name in ("player", "other_player"):
        for key, body in after.items():
            if key[0] == name:
                assert secret not in (body.decode() if isinstance(body, bytes) else str(body)), key
        # Read again from the cache, now warm for the GM too: still nothing.
        hit = table.browsers[name].get(f"/characters/{table.character.pk}/")
        assert hit["X-Page-Cache"] == "hit" and secret.encode() not in hit.content


def test_a_write_in_another_campaign_leaves_this_one_cached(table, elsewhere, make_character, django_user_model):
    table.read_all()
    stranger = django_user_model.objects.get(username="stranger")
    make_character(stranger, campaign=elsewhere, name="Far away")
    response = table.browsers["player"].get(f"/characters/{table.character.pk}/")
    assert response["X-Page-Cache"] == "hit"


def test_pages_with_a_query_or_a_message_are_rendered_not_cached(table):
    browser = table.browsers["player"]
    url = f"/characters/{table.draft.pk}/build/"
    browser.get(url)
    assert browser.get(url)["X-Page-Cache"] == "hit"
    skill = table.draft.skills.first()
    opened = browser.get(url + f"?edit=skills-{skill.pk}")
    assert "X-Page-Cache" not in opened and f'name="skills-{skill.pk}-ranks"'.encode() in opened.content
    # A plain form post redirects with a message; the page after it shows the message.
    redirect = browser.post(f"/characters/{table.draft.pk}/stats/", {"name": "Draft Dana"})
    assert redirect.status_code in (302, 400)
    if redirect.status_code == 302:
        page = browser.get(url)
        assert "X-Page-Cache" not in page and b"Stats saved." in page.content


def test_a_cached_read_costs_the_same_few_queries_whatever_the_campaign_holds(table, make_character,
                                                                              django_assert_num_queries):
    """Session, user, and one narrow access check that also reads the version: nothing that grows."""
    from economy.services import award

    browser = table.browsers["player"]
    pages = [f"/characters/{table.character.pk}/", f"/campaigns/{table.character.campaign_id}/",
             f"/characters/{table.draft.pk}/build/", f"/campaigns/{table.character.campaign_id}/macguffins/live/"]
    for url in pages:
        browser.get(url)
        with django_assert_num_queries(3):
            assert browser.get(url)["X-Page-Cache"] == "hit"
    for n in range(6):
        make_character("other_player", name=f"Extra {n}", skills=[
            {"name": f"Skill {n}-{k}", "breadth": "specific", "ranks": 1, "stat": "PRAC"} for k in range(8)])
    award(campaign=table.character.campaign, kind="manual", character_ids=[table.character.pk],
          by=table.personas["gm"], amount=5, reason="Many entries")
    for url in pages:
        browser.get(url)
        with django_assert_num_queries(3):
            assert browser.get(url)["X-Page-Cache"] == "hit"


def test_a_log_in_keeps_the_pages_cached_and_each_copy_carries_its_own_token(table, personas):
    """The key is the page and the viewer (the copy is stamped with the campaign's version), not
    the session: a player who logs in again (a new CSRF secret) is served the copy cached before,
    with a token of the new session that the server accepts."""
    sheet = f"/characters/{table.character.pk}/"
    assert table.browsers["player"].get(sheet)["X-Page-Cache"] in ("hit", "miss")
    assert table.browsers["player"].get(sheet)["X-Page-Cache"] == "hit"

    again = Client(enforce_csrf_checks=True)
    assert again.login(username=personas["player"].username, password=PASSWORD)
    again.get("/")  # the new session's CSRF cookie
    response = again.get(sheet)
    assert response["X-Page-Cache"] == "hit"  # the log-in changed no key
    body = response.content.decode()
    assert "zg-csrf-token-here" not in body
    token = re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', body)[1]
    old_body = table.browsers["player"].get(sheet).content.decode()
    assert token != re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', old_body)[1]
    # The token served with the cached copy is this session's: a form posted with it is accepted.
    logout = again.post("/accounts/logout/", {"csrfmiddlewaretoken": token})
    assert logout.status_code == 302
    refused = Client(enforce_csrf_checks=True)
    refused.force_login(personas["player"])
    refused.get("/")
    assert refused.post("/accounts/logout/", {"csrfmiddlewaretoken": token}).status_code == 403


def _copies(pattern: str) -> int:
    """How many keys the cache server holds that match ``pattern`` (the test's own Redis database)."""
    from django.core.cache import cache

    client = cache._cache.get_client()
    return sum(1 for _ in client.scan_iter(match=cache.make_key(pattern), count=1000))


def test_the_cache_holds_one_copy_of_a_page_per_viewer_however_many_writes(table):
    """A write makes every copy stale and the next read replaces it: a busy night does not fill
    the cache server with copies of pages that nobody will ask for again."""
    from economy.services import award

    table.read_all()
    sheets = f"zg:page:sheet:{table.character.pk}:*"
    reads = f"zg:data:character:{table.character.pk}:*"
    assert (_copies(sheets), _copies(reads)) == (len(VIEWERS), len(VIEWERS))
    for n in range(4):
        award(campaign=table.character.campaign, kind="manual", character_ids=[table.character.pk],
              by=table.personas["gm"], amount=1, reason=f"Scene {n}")
        table.check_fresh({})  # each viewer's first read after the write renders anew, and is fresh
        table.read_all()
    assert (_copies(sheets), _copies(reads)) == (len(VIEWERS), len(VIEWERS))


def test_a_part_keeps_one_copy_per_audience_and_renders_once_per_write(table):
    from campaign import pagecache, parts

    campaign_id = table.character.campaign_id
    parts.RENDERS.clear()
    for n in range(4):
        pagecache.move_version(campaign_id)  # what a change set does when its write commits
        for _ in range(3):  # three streams woken by the same write
            made = parts.audience_cached("probe", None, campaign_id=campaign_id, gm=False, last_event=n,
                                         make=lambda n=n: f"render {n}")
            assert made == f"render {n}"
    assert parts.RENDERS[("probe", "players")] == 4
    assert _copies(f"zg:part:probe:*:{campaign_id}") == 1
