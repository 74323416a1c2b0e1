"""The live matrix: every open page, after any write, shows what a reload would show.

DESIGN.md, "Live by construction". For each write the app has, on the authorization matrix's
campaign (one of everything: a fight with a hidden NPC and a waiting attack, pools, a session,
sheets of every kind), and for every page each persona (GM, owner, other player, viewer) may
open:

1. the page as it was rendered before the write;
2. the write, made as a user would (the API or the page's form), which must succeed;
3. what that persona's stream then says changed (the ``changed`` events they may see), applied
   to the first render as static/js/live.js applies it: each part whose data keys changed is
   replaced by its fresh copy;
4. compared with a fresh render of the page: **the same**, up to tokens (CSRF, idempotency
   keys) and the stream position.

So a part that shows data without declaring its key, or a write that changes a row without its
key reaching the stream, fails here, whichever page or write it is. The same run checks that
every row a write changed (read from the database before and after) belongs to keys the write
reported, and that no player's stream hears of a key the GM kept to themselves.

``WRITES`` lists every write; ``test_every_write_is_in_the_matrix`` fails when the URLconf or
the API schema has a write that is neither listed nor excused with a reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.urls import reverse
from django.test import Client
from rest_framework.test import APIClient

from campaign import keys as data_keys
from campaign.changes import campaign_models
from campaign.models import Event
from characters.tests.factories import INT_DICE, STATS
from tests.test_authorization_matrix import ALLOWED, LINES, MATRIX, ROUTES, Route, build_world, url_of

pytestmark = pytest.mark.django_db

PERSONAS = {"gm": "gm", "owner": "player", "other_player": "other_player", "viewer": "viewer"}
#: Who makes a write: the personas, and someone outside the campaign (joining it).
WRITERS = {**PERSONAS, "outsider": "outsider"}

#: Pages that are fragments or files, not pages a person keeps open.
NOT_PAGES = {
    "encounter-live": "a fragment of the encounter page (its pushed part, fetched while polling)",
    "campaign-macguffins-live": "a fragment of the pools page (its pushed part, fetched while polling)",
    "campaign-rolls-feed": "a fragment: the roll feed's pushed part, fetched while polling",
    "character-wounds-panel": "a fragment of the sheet",
    "character-karma-preview": "a fragment: the spend preview under the Karma form",
    "character-line-edit": "a fragment: a line's edit form",
    "character-line-new": "a fragment: a section's add form",
    "sheet-roll-form": "a fragment: the roll form of one sheet line",
    "encounter-preview": "a fragment: an attack's odds before the roll",
    "character-pdf": "a PDF, printed at a moment",
    "home": "the campaigns list: no campaign of its own",
    "tables": "the rulebook's tables: no campaign data",
    "glossary": "the game's words: no campaign data",
    "login": "no campaign", "password-change": "no campaign", "password_reset": "no campaign",
    "password_reset_done": "no campaign", "password_reset_confirm": "no campaign",
    "password_reset_complete": "no campaign", "healthz": "no campaign", "favicon": "no campaign",
    "join": "an invitation, opened before joining",
    "account": "the account's own page: like the campaigns list, no campaign of its own",
    "email-confirm": "a mailed link's confirmation: no campaign",
    "signup": "a new account's form: no campaign",
    "javascript-catalog": "the scripts' words: no campaign data",
    "campaign-stream": "the stream itself",
    "adventure-close": "the GM's close-out form: checked, but only the GM opens it",
}


def pages() -> list[tuple[Route, str]]:
    """Every (page, persona) a persona may open."""
    found = []
    for route in ROUTES:
        if route.is_api or "GET" not in route.methods or route.name in NOT_PAGES or route.name not in MATRIX:
            continue
        rule = MATRIX[route.name]["GET"]
        found += [(route, persona) for persona in PERSONAS if rule.who[persona] == ALLOWED]
    return found


# --- Reading a page's parts ------------------------------------------------------------------------
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(/?)>", re.S)
_PART = re.compile(r'<([a-zA-Z][a-zA-Z0-9]*)\b[^>]*\sdata-live="([^"]+)"[^>]*\sdata-live-keys="([^"]*)"', re.S)


@dataclass
class Part:
    name: str
    keys: list[str]
    start: int
    end: int


def parts_of(html: str) -> list[Part]:
    """Every live part of a page, with where it starts and ends (outermost first)."""
    found = []
    for match in _PART.finditer(html):
        tag, name, keys = match.group(1).lower(), match.group(2), match.group(3).split()
        depth, end = 0, None
        for token in _TAG.finditer(html, match.start()):
            if token.group(2).lower() != tag or token.group(3):
                continue
            depth += -1 if token.group(1) else 1
            if depth == 0:
                end = token.end()
                break
        assert end is not None, f"the part {name!r} is not closed"
        found.append(Part(name=name, keys=keys, start=match.start(), end=end))
    return found


_TITLE = re.compile(r"<title>.*?</title>", re.S)


def shown_part(html: str) -> str:
    """What a person sees of a page: its title and its main content (the head and the top bar
    hold no campaign data)."""
    main = html[html.index("<main"):html.index("</main>")]
    return _TITLE.search(html).group(0) + "\n" + main


def apply(before: str, fresh: str, changed: set[str]) -> str:
    """The first render with each changed part replaced by its fresh copy (outermost parts first;
    a part the fresh page no longer has is removed), as static/js/live.js does; a page that
    fetched parts takes the fresh page's title too."""
    fresh_parts = {p.name: p for p in parts_of(fresh)}
    result, taken = before, []
    for part in parts_of(before):
        if any(t.start <= part.start < t.end for t in taken):
            continue  # inside a part already replaced
        if not data_keys.any_covered(part.keys, changed):
            continue
        taken.append(part)
    for part in sorted(taken, key=lambda p: -p.start):
        new = fresh_parts.get(part.name)
        copy = fresh[new.start:new.end] if new else ""
        result = result[:part.start] + copy + result[part.end:]
    if any(not _is_pushed(before, part) for part in taken):
        result = _TITLE.sub(lambda _: _TITLE.search(fresh).group(0), result, count=1)
    return result


def _is_pushed(html: str, part: Part) -> bool:
    return "data-live-part=" in html[part.start:html.index(">", part.start)]


_NOISE = [
    (re.compile(r'(name="(?:csrfmiddlewaretoken|idempotency_key|key|check_key)"[^>]*?value=")[^"]*"'), r'\1…"'),
    (re.compile(r'(value=")[^"]*("[^>]*?name="(?:csrfmiddlewaretoken|idempotency_key|key|check_key)")'), r'\1…\2'),
    (re.compile(r'("X-CSRFToken": ")[^"]*"'), r'\1…"'),
    (re.compile(r'data-after="\d+"'), 'data-after="…"'),
]


def normal(html: str) -> str:
    for pattern, replacement in _NOISE:
        html = pattern.sub(replacement, html)
    return html


def first_difference(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"\n  shown: …{a[max(at - 200, 0):at + 150]}…\n  fresh: …{b[max(at - 200, 0):at + 150]}…"


# --- The database before and after ---------------------------------------------------------------
def snapshot() -> dict[tuple[str, int], tuple[object, dict]]:
    rows = {}
    for model in campaign_models():
        for row in model.objects.all():
            rows[(model._meta.label, row.pk)] = (row, {f.attname: getattr(row, f.attname)
                                                       for f in model._meta.concrete_fields})
    return rows


def changed_rows(before: dict, after: dict) -> list:
    out = []
    for ident in set(before) | set(after):
        old, new = before.get(ident), after.get(ident)
        if old is None or new is None or old[1] != new[1]:
            out.append((new or old)[0])
    return out


# --- The writes -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Write:
    """One write, as a user makes it: ``route`` and ``method`` name it in the URLconf."""

    route: str
    method: str
    persona: str
    body: object = None  # a dict, or a function of the world
    url: object = None  # a function of the world, where url_of's choice is not the one
    expect: tuple = (200, 201, 202, 204, 302)
    id: str = ""
    query: dict = field(default_factory=dict)
    #: What the table does first, through the services, so the write finds the state it needs (a
    #: closed adventure, a blow to undo); returns ids for ``url``/``body`` (world.made).
    setup: object = None

    def __str__(self) -> str:
        return self.id or f"{self.route} {self.method}"


def _w(route, method, persona, body=None, **options) -> Write:
    return Write(route=route, method=method, persona=persona, body=body, **options)


def _ids(name):
    return lambda world: world.ids[name]


def _membership(world, username: str) -> int:
    from campaign.models import Membership

    return Membership.objects.get(campaign_id=world.ids["campaign_id"], user__username=username).pk


def _approval_point(world) -> int:
    """The sheet's history record of the GM's approval: the earliest point a revert may reach."""
    from characters.models import Character

    return Character.history.filter(id=world.ids["character_id"], state="active").order_by(
        "history_date", "history_id").first().history_id


def _therapy(world) -> int:
    from downtime.models import Therapy

    return Therapy.objects.get(campaign_id=world.ids["campaign_id"], name="Iodine course").pk


def _sheet_url(route: str, which: str):
    """The address of ``route`` for one of the world's lifecycle sheets (world.sheets)."""
    return lambda world: reverse(route, args=[world.sheets[which]])


# --- Set-ups: the state a write needs, made as the table would (each test starts from the world) ---
def _gm(world):
    return world.users["gm"]


def _close_lisbon(world) -> dict:
    from economy import services as economy
    from economy.models import Adventure

    economy.adventure_close(adventure=Adventure.objects.get(pk=world.ids["adventure_id"]), outcome="none",
                            permanent=False, selfish=[], by=_gm(world))
    return {}


def _play_zerospace(world) -> dict:
    from campaign import services as campaign_services
    from campaign.models import Campaign

    campaign_services.campaign_update(campaign=Campaign.objects.get(pk=world.ids["campaign_id"]), by=_gm(world),
                                      rule_set="zerospace")
    return {}


def _success_check_sheet(world) -> dict:
    """A Success Check sheet of the owner's, made while the campaign played that rule set: its
    Edge comes back with rests, so its player may ask for one."""
    from campaign import services as campaign_services
    from campaign.models import Campaign
    from characters import system_sheets

    campaign = Campaign.objects.get(pk=world.ids["campaign_id"])
    playing = campaign.rule_set
    campaign = campaign_services.campaign_update(campaign=campaign, by=_gm(world), rule_set="success_check")
    owner = world.users[PERSONAS["owner"]]
    sheet = system_sheets.system_sheet_create(campaign=campaign, owner=owner, by=owner, name="Kestrel's twin",
                                              numbers={"edge_max": 3})
    campaign_services.campaign_update(campaign=campaign, by=_gm(world), rule_set=playing)
    return {"sheet": sheet.pk}


def _new_transition(world) -> dict:
    from campaign.models import Campaign
    from downtime import transitions

    made, _ = transitions.transition_make(campaign=Campaign.objects.get(pk=world.ids["campaign_id"]), by=_gm(world),
                                          category="1", character_ids=[world.ids["character_id"]],
                                          idempotency_key="matrix-gate-undo")
    return {"transition": made["id"]}


def _new_treatment(world) -> dict:
    from characters.models import Character
    from downtime import treatments

    made, _ = treatments.treatment_give(character=Character.objects.get(pk=world.ids["character_id"]), by=_gm(world),
                                        kind="stimutabs", dice=[1, 1, 1, 1], idempotency_key="matrix-dose-undo")
    return {"treatment": made.pk}


def _a_blow(world) -> dict:
    from combat import system_blows
    from combat.models import SystemFight

    system_blows.system_fight_blow(fight=SystemFight.objects.get(pk=world.ids["fight_id"]), by=_gm(world),
                                   is_gm=True, attacker="Kestrel", target="Virek-Kohl", inputs={"av": 6, "dv": 5},
                                   idempotency_key="matrix-blow-undo")
    return {}


def _archived(world) -> dict:
    from campaign import services as campaign_services
    from campaign.models import Campaign

    campaign_services.campaign_archive(campaign=Campaign.objects.get(pk=world.ids["campaign_id"]), by=_gm(world))
    return {}


def _stats_rolled_in_the_app(world) -> dict:
    from campaign import services as campaign_services
    from campaign.models import Campaign

    campaign_services.campaign_update(campaign=Campaign.objects.get(pk=world.ids["campaign_id"]), by=_gm(world),
                                      stat_entry="roll")
    return {}


def _holding(world) -> dict:
    from combat import services as combat
    from combat.models import Encounter

    combat.hold(encounter=Encounter.objects.get(pk=world.ids["encounter_id"]), by=_gm(world))  # Mara's turn
    return {}


def _goon_dying(world) -> dict:
    from django.db.models import F

    from combat.models import Combatant

    # Only the state matters here (how a fighter comes to be dying is combat's own tests' business).
    Combatant.objects.filter(pk=world.ids["combatant_id"]).update(trauma=F("hit_points"))  # HP left 0
    return {}


def _imported(world) -> dict:
    """The world's campaign as if imported from a document naming the outsider."""
    from campaign.models import LogEntry

    LogEntry.objects.create(campaign_id=world.ids["campaign_id"], action="campaign.import",
                            summary="imported the campaign from a document", data={"named": ["outsider"], "held": []})
    return {}


def _an_invitation(world) -> dict:
    from campaign import services as campaign_services
    from campaign.models import Campaign

    made = campaign_services.invitation_create(campaign=Campaign.objects.get(pk=world.ids["campaign_id"]),
                                               role="player", by=_gm(world))
    return {"token": made.token}


def _line_form(world, kind: str, fields: dict) -> dict:
    """A line's edit form as the sheet posts it: each field under the line's own prefix."""
    return {f"{kind}-{world.lines[kind]}-{name}": value for name, value in fields.items()}


WRITES: list[Write] = [
    # --- The table ----------------------------------------------------------------------------
    _w("api-campaign-detail", "PATCH", "gm", {"name": "Matrix, renamed"}),
    _w("api-campaign-archive", "POST", "gm"),
    _w("api-campaign-restore", "POST", "gm", setup=lambda w: _archived(w)),
    _w("campaign-settings", "POST", "gm", {
        "action": "settings", "name": "Matrix, renamed", "description": "", "stat_entry": "enter",
        "stat_dice": "4d6", "max_skill_ranks": 3, "typed_dice": "own", "rule_set": "zener"},
       id="campaign-settings POST settings"),
    _w("campaign-settings", "POST", "gm", {"action": "add_member", "username": "outsider", "role": "viewer"},
       id="campaign-settings POST add member"),
    _w("campaign-settings", "POST", "gm", {"action": "invite", "role": "player", "reach": "one"},
       id="campaign-settings POST invite"),
    _w("campaign-settings", "POST", "gm", lambda w: {"action": "change_role", "role": "player",
                                                     "membership": _membership(w, "viewer")},
       id="campaign-settings POST change role"),
    _w("api-campaign-members", "POST", "gm", {"username": "outsider", "role": "viewer"}),
    _w("api-campaign-invitations", "POST", "gm", {"role": "player"}),
    _w("api-campaign-invitation", "DELETE", "gm"),
    # --- Sheets -------------------------------------------------------------------------------
    _w("api-character-list", "POST", "owner", lambda w: {
        "campaign": w.ids["campaign_id"], "name": "Matrix", "stats": dict(STATS), "int_dice": list(INT_DICE)}),
    _w("api-character-detail", "PATCH", "gm", {"name": "Mara Vell"}),
    _w("api-character-detail", "DELETE", "owner", url=lambda w: f"/api/v1/characters/{w.draft_id}/"),
    _w("api-character-approve", "POST", "gm", url=_sheet_url("api-character-approve", "to approve")),
    _w("api-character-submit", "POST", "owner", url=_sheet_url("api-character-submit", "to submit by API")),
    _w("api-character-return", "POST", "gm", {"comment": "Pick a second language."},
       url=_sheet_url("api-character-return", "to return by API")),
    _w("api-character-history", "POST", "gm", lambda w: {"history_id": _approval_point(w)}),
    _w("api-character-wounds", "POST", "gm", {"trauma": 3, "shock": 2, "reason": "A fall"}),
    _w("api-character-skills", "POST", "owner", {"name": "Pistol", "breadth": "narrow", "ranks": 1, "stat": "ACC"}),
    _w("api-character-skills-detail", "PATCH", "gm", {"ranks": 3}),
    _w("api-character-skills-detail", "DELETE", "gm"),
    _w("api-character-disadvantages", "POST", "gm", {"name": "Vertigo", "value": 1, "ranks": 1}),
    _w("api-character-disadvantages-detail", "PATCH", "gm", {"ranks": 2}),
    _w("api-character-disadvantages-detail", "DELETE", "gm"),
    _w("api-character-equipment", "POST", "gm", {"name": "Torch", "breadth": "specific"}),
    _w("api-character-equipment-detail", "PATCH", "gm", {"notes": "Ten metres, knotted"}),
    _w("api-character-equipment-detail", "DELETE", "gm"),
    _w("api-character-weapons", "POST", "gm", {"name": "Club", "damage_points": 3, "melee": True}),
    _w("api-character-weapons-detail", "PATCH", "gm", {"damage_points": 3}),
    _w("api-character-weapons-detail", "DELETE", "gm"),
    _w("api-character-armour", "POST", "gm", {"name": "Helmet", "hardness": 2, "coverage": 1}),
    _w("api-character-armour-detail", "PATCH", "gm", {"worn": False}),
    _w("api-character-armour-detail", "DELETE", "gm"),
    _w("api-character-languages", "POST", "gm", {"name": "Greek", "spoken": 1, "heard": 1, "written": 0, "read": 0}),
    _w("api-character-languages-detail", "PATCH", "gm", {"spoken": 2}),
    _w("api-character-languages-detail", "DELETE", "gm"),
    _w("api-system-sheet", "PATCH", "owner", {"name": "Kestrel Vane"}),
    _w("api-system-sheet-pools", "POST", "owner", {"pool": "plot_points", "action": "spend", "use": "bonus die",
                                                   "idempotency_key": "matrix-plot"}),
    # The world's sheet is ZeroSpace's, which no rest refills: the ask is made on a Success Check one.
    _w("api-system-sheet-rest-asks", "POST", "owner", {"rest": "long_rest"}, setup=_success_check_sheet,
       url=lambda w: f"/api/v1/system-sheets/{w.made['sheet']}/rest-asks/"),
    _w("character-new", "POST", "owner", {"name": "Matrix", **STATS, "int_plus": INT_DICE[0],
                                          "int_minus": INT_DICE[1]}),
    _w("character-stats", "POST", "owner", {"name": "Sketch, redrawn", **{f"rolled_{c}": v for c, v in STATS.items()},
                                            "int_plus": INT_DICE[0], "int_minus": INT_DICE[1]}),
    _w("character-line-add", "POST", "gm", {"skills-new-name": "Climbing", "skills-new-breadth": "narrow",
                                            "skills-new-ranks": 1, "skills-new-stat": "STR"}),
    _w("character-line-update", "POST", "gm", lambda w: _line_form(w, "skills", {
        "name": "Medic", "breadth": "narrow", "ranks": 3, "stat": "PRAC"})),
    _w("character-line-delete", "POST", "gm"),
    _w("character-line-classify", "POST", "gm", lambda w: {f"classify-skills-{w.lines['skills']}-breadth": "broad"}),
    _w("character-lines-classify", "POST", "gm", lambda w: {f"classify-skills-{w.lines['unclassified']}-breadth": "narrow"},
       url=lambda w: reverse("character-lines-classify", args=[w.draft_id, "skills"])),
    _w("character-submit", "POST", "owner", url=_sheet_url("character-submit", "to submit")),
    _w("character-approve", "POST", "gm", url=_sheet_url("character-approve", "to approve")),
    _w("character-return", "POST", "gm", {"comment": "Pick a second language."},
       url=_sheet_url("character-return", "to return")),
    _w("character-state", "POST", "gm", {"state": "retired"}),
    _w("character-notes", "POST", "gm", {"gm_notes": "Owes the goon money."}),
    _w("character-wounds-record", "POST", "gm", {"trauma": 2, "shock": 1, "end": 0, "reason": "A fall"}),
    _w("character-revert", "POST", "gm", lambda w: {"history_id": _approval_point(w)}),
    _w("system-sheet", "POST", "owner", {"name": "Kestrel", "line-count": 1, "line-0-name": "Close combat",
                                         "line-0-av": 7, "number-brawn": 0, "number-presence": 0}),
    _w("system-sheet-pool", "POST", "owner", {"pool": "plot_points", "action": "spend", "use": "bonus die",
                                              "key": "matrix-plot"}),
    # --- Economy ------------------------------------------------------------------------------
    _w("api-character-karma", "POST", "owner", {"kind": "reroll", "idempotency_key": "matrix-reroll"}),
    _w("api-character-complications", "POST", "gm", lambda w: {
        "cause": "debt", "form": "worsen", "ranks": 1, "description": "The nightmares get worse",
        "worsen": [w.lines["disadvantages"]]}),
    _w("api-campaign-macguffins", "POST", "gm", {"name": "Time beacon", "target": 20}),
    _w("api-macguffin-contributions", "POST", "owner", lambda w: {
        "character": w.ids["character_id"], "amount": 1, "idempotency_key": "matrix-give"}),
    _w("api-campaign-awards", "POST", "gm", lambda w: {
        "kind": "manual", "characters": [w.ids["character_id"]], "amount": 1, "reason": "Matrix"}),
    _w("api-adventure-tokens", "POST", "gm", {"note": "The bridge is out"}),
    _w("api-adventure-token-void", "POST", "gm"),
    _w("api-adventure-close", "POST", "gm", {"outcome": "solution", "preview": False}),
    _w("character-karma", "POST", "owner", {"kind": "stat_raise", "stat": "STR", "idempotency_key": "matrix-raise"}),
    _w("character-complication", "POST", "gm", lambda w: {
        "cause": "debt", "form": "worsen", "ranks": 1, "description": "The nightmares get worse",
        "worsen": [w.lines["disadvantages"]]}),
    _w("campaign-awards", "POST", "gm", lambda w: {
        "kind": "npc_boost", "characters": [w.ids["character_id"]], "reason": "Boosted the goon",
        "idempotency_key": "matrix-boost"}),
    _w("adventure-token-add", "POST", "gm", {"note": "The bridge is out"}),
    _w("adventure-token-void", "POST", "gm"),
    _w("adventure-close", "POST", "gm", {"outcome": "advice"}),
    _w("campaign-macguffins", "POST", "gm", {"name": "Signal flare", "target_preset": "4"}),
    _w("macguffin-contribute", "POST", "owner", lambda w: {
        "character": w.ids["character_id"], "amount": 1, "idempotency_key": "matrix-give"}),
    # --- Rolls ----------------------------------------------------------------------------------
    _w("api-campaign-rolls", "POST", "other_player", {"notation": "1d20", "label": "Matrix"}),
    _w("api-campaign-rolls", "POST", "gm", {"notation": "1d20", "label": "Secret", "private": True},
       id="api-campaign-rolls POST private"),
    _w("api-character-rolls", "POST", "owner", {"line": "stat:AWA", "idempotency_key": "matrix-look"}),
    _w("api-campaign-checks", "POST", "gm", {"subject": "party:AWA", "private": True,
                                             "idempotency_key": "matrix-surprise"}),
    _w("api-roll-reroll", "POST", "owner", {"idempotency_key": "matrix-reroll"}),
    _w("campaign-roller-roll", "POST", "other_player", {"what": "notation", "notation": "2d6", "label": "Matrix"}),
    _w("check-builder-roll", "POST", "gm", {"subject": "party:AWA", "idempotency_key": "matrix-check"}),
    _w("sheet-roll", "POST", "owner", {"line": "stat:AWA", "idempotency_key": "matrix-look"}),
    _w("roll-reroll", "POST", "owner", {"idempotency_key": "matrix-reroll"}),
    # --- Downtime -------------------------------------------------------------------------------
    _w("api-campaign-transitions", "POST", "gm", lambda w: {
        "category": "1", "characters": [w.ids["character_id"]], "idempotency_key": "matrix-gate-2"}),
    _w("api-campaign-downtime", "POST", "gm", {"hours": 8, "idempotency_key": "matrix-rest-2"}),
    _w("api-job-undo", "POST", "gm"),
    _w("api-campaign-therapies", "POST", "gm", {"name": "Prussian blue"}),
    _w("api-character-treatments", "POST", "gm", lambda w: {
        "kind": "therapy", "therapy": _therapy(w), "idempotency_key": "matrix-therapy"}),
    _w("api-language-immersion", "POST", "gm", {"hours": 3, "idempotency_key": "matrix-immersion"}),
    _w("campaign-downtime", "POST", "gm", {"hours": 8, "rest": "comfortable", "idempotency_key": "matrix-rest-2"},
       id="campaign-downtime POST start"),
    _w("campaign-downtime", "POST", "gm", {"action": "therapy", "name": "Prussian blue", "con_healed": 1,
                                           "extra_reduction": "d3", "track_steps_back": "d3", "shock": "d6",
                                           "trauma": "d3", "efficacy_loss": 0},
       id="campaign-downtime POST therapy"),
    _w("campaign-downtime", "POST", "gm", lambda w: {
        "action": "activity", "characters": [w.ids["character_id"]], "activity": "ordinary", "minutes": 60,
        "reason": "A long walk"}, id="campaign-downtime POST activity"),
    _w("campaign-downtime", "POST", "gm", lambda w: {
        "action": "immersion", "language": f"{w.ids['character_id']}:{w.lines['languages']}", "hours": 3,
        "idempotency_key": "matrix-immersion"}, id="campaign-downtime POST immersion"),
    _w("campaign-job-undo", "POST", "gm"),
    _w("campaign-treat", "POST", "gm", lambda w: {
        "character": w.ids["character_id"], "treatment": f"therapy:{_therapy(w)}", "idempotency_key": "matrix-therapy"}),
    _w("campaign-transition-new", "POST", "gm", lambda w: {
        "category": "1", "characters": [w.ids["character_id"]], "idempotency_key": "matrix-gate-2"}),
    # --- Combat ---------------------------------------------------------------------------------
    _w("api-campaign-encounters", "POST", "gm", {"name": "Ambush"}),
    _w("api-encounter-detail", "PATCH", "gm", {"name": "Bar brawl"}),
    _w("api-encounter-combatants", "POST", "gm", {"name": "Bouncer", "revealed": True,
                                                  "stats": {"MEL": 13, "ACC": 10, "AWA": 11}}),
    _w("api-encounter-combatant", "PATCH", "gm", {"revealed": False}, id="api-encounter-combatant PATCH hide"),
    _w("api-encounter-initiative", "POST", "gm", {}),
    _w("api-encounter-attacks", "POST", "gm", lambda w: {
        "attacker": w.ids["pc_combatant_id"], "target": w.ids["combatant_id"], "weapon": "Knife", "stat": "MEL"}),
    _w("api-encounter-attacks", "POST", "owner", lambda w: {
        "attacker": w.ids["pc_combatant_id"], "target": w.ids["combatant_id"], "weapon": "Knife", "stat": "MEL",
        "idempotency_key": "matrix-stab"}, id="api-encounter-attacks POST a player's request"),
    _w("api-encounter-next-turn", "POST", "gm"),
    _w("api-encounter-hold", "POST", "gm"),
    _w("api-encounter-reactions", "POST", "gm", lambda w: {"combatant": w.ids["pc_combatant_id"],
                                                           "milliseconds": 500}),
    _w("api-encounter-request", "POST", "gm", {"approve": True}),
    _w("api-encounter-undo", "POST", "gm"),
    _w("api-encounter-end", "POST", "gm"),
    _w("api-encounter-again", "POST", "gm"),
    _w("api-campaign-npc-setups", "POST", "gm", lambda w: {"encounter": w.ids["encounter_id"], "name": "Goons"}),
    _w("api-npc-setup", "DELETE", "gm"),
    _w("api-npc-setup-fights", "POST", "gm", {}),
    _w("api-system-fight-actions", "POST", "gm", {"action": "next"}),
    _w("api-system-fight-blows", "POST", "owner", {"attacker": "Kestrel", "target": "Virek-Kohl",
                                                   "inputs": {"av": 6, "dv": 5}, "idempotency_key": "matrix-blow"}),
    _w("campaign-encounters", "POST", "gm", {"name": "Ambush", "initiative_stat": "MEL"}),
    _w("encounter-act", "POST", "gm", {"action": "next"}, id="encounter-act POST next"),
    _w("encounter-act", "POST", "owner", lambda w: {
        "action": "attack", "attacker": w.ids["pc_combatant_id"], "target": w.ids["combatant_id"],
        "weapon": "Knife", "stat": "MEL", "aimed_area": "whole_body", "idempotency_key": "matrix-stab"},
       id="encounter-act POST a player's attack"),
    _w("encounter-act", "POST", "gm", lambda w: {"action": "refuse", "request": w.ids["event_id"]},
       id="encounter-act POST refuse"),
    _w("encounter-act", "POST", "gm", lambda w: {"action": "reveal", "combatant": w.ids["combatant_id"]},
       id="encounter-act POST hide"),
    _w("encounter-act", "POST", "gm", {"action": "add_npc", "name": "Bouncer", "acc": 12, "mel": 13, "awa": 11,
                                       "res": 12, "con": 12, "armour_rating": 0, "weapon": "Cosh",
                                       "damage_points": 3, "ranks": 1, "melee": "on", "revealed": "on"},
       id="encounter-act POST add an NPC"),
    _w("encounter-act", "POST", "gm", {"action": "undo"}, id="encounter-act POST undo"),
    _w("encounter-act", "POST", "gm", {"action": "end"}, id="encounter-act POST end"),
    _w("npc-setup-act", "POST", "gm", {"action": "fight", "name": "", "characters": "on"},
       id="npc-setup-act POST fight"),
    _w("npc-setup-act", "POST", "gm", {"action": "delete"}, id="npc-setup-act POST delete"),
    _w("system-fight-act", "POST", "gm", {"action": "next"}),
    _w("system-fight-blow", "POST", "owner", {"attacker": "Kestrel", "target": "Virek-Kohl", "av": 6, "dv": 5,
                                              "key": "matrix-blow"}),
    # --- Sessions -------------------------------------------------------------------------------
    _w("campaign-sessions", "POST", "gm", {"action": "next", "next_session_at": "2031-05-01T19:30"},
       id="campaign-sessions POST next session"),
    _w("campaign-sessions", "POST", "gm", {"action": "start"}, id="campaign-sessions POST start"),
    _w("api-campaign-sessions", "POST", "gm", {"action": "start"}, id="api-campaign-sessions POST start"),
    _w("api-campaign-session-notes", "POST", "other_player", {"text": "Bring rope."}),
    _w("api-campaign-session", "PATCH", "gm", {"recap": "The bar fight, and after."}),
    _w("campaign-session", "POST", "other_player", {"action": "note", "text": "Bring rope."},
       id="campaign-session POST note"),
    _w("campaign-session", "POST", "gm", {"action": "save", "recap": "The bar fight, and after."},
       id="campaign-session POST recap"),
    # --- Writes that need the table to do something first (Write.setup) ------------------------
    _w("api-campaign-adventures", "POST", "gm", {"name": "Macau, 1999", "base_xp": 2}, setup=_close_lisbon),
    _w("campaign-adventures", "POST", "gm", {"name": "Vienna, 1683", "base_xp": 2}, setup=_close_lisbon),
    _w("api-campaign-system-sheets", "POST", "owner", {"name": "Juno", "lines": [
        {"name": "Close combat", "inputs": {"av": 5}}]}, setup=_play_zerospace),
    _w("system-sheet-new", "POST", "owner", {"name": "Juno"}, setup=_play_zerospace),
    _w("api-campaign-system-fights", "POST", "gm", lambda w: {"name": "Dockside", "fighters": [
        {"sheet": w.ids["sheet_id"], "total": 11}, {"name": "Deckhand", "total": 8}]}, setup=_play_zerospace),
    _w("campaign-system-fights", "POST", "gm", lambda w: {"name": "Dockside", f"sheet-{w.ids['sheet_id']}-total": 11,
                                                          "npc-0-name": "Deckhand", "npc-0-total": 8},
       setup=_play_zerospace),
    _w("api-transition-undo", "POST", "gm", setup=_new_transition,
       url=lambda w: reverse("api-transition-undo", args=[w.made["transition"]])),
    _w("campaign-transition", "POST", "gm", setup=_new_transition,
       url=lambda w: reverse("campaign-transition", args=[w.ids["campaign_id"], w.made["transition"]])),
    _w("api-treatment-undo", "POST", "gm", setup=_new_treatment,
       url=lambda w: reverse("api-treatment-undo", args=[w.made["treatment"]])),
    _w("campaign-treatment-undo", "POST", "gm", setup=_new_treatment,
       url=lambda w: reverse("campaign-treatment-undo", args=[w.ids["campaign_id"], w.made["treatment"]])),
    _w("api-system-fight-undo", "POST", "gm", setup=_a_blow),
    _w("system-fight-undo", "POST", "gm", setup=_a_blow),
    _w("api-invitation-accept", "POST", "outsider", lambda w: {"token": w.made["token"]}, setup=_an_invitation),
    _w("campaign-imported", "POST", "gm", {"invite": ["outsider"]}, setup=_imported),
    _w("api-campaign-import-invitations", "POST", "gm", {"usernames": ["outsider"]}, setup=_imported),
    _w("join", "POST", "outsider", setup=_an_invitation, url=lambda w: reverse("join", args=[w.made["token"]])),
    _w("character-roll", "POST", "owner", setup=_stats_rolled_in_the_app),
    _w("api-encounter-act-now", "POST", "gm", lambda w: {"combatant": w.ids["pc_combatant_id"]}, setup=_holding),
    _w("api-encounter-dying", "POST", "gm", lambda w: {"combatant": w.ids["combatant_id"]}, setup=_goon_dying),
]

#: Writes that change no campaign anyone has open, each with why.
NOT_CAMPAIGN_WRITES = {
    ("login", "POST"): "logging in changes no campaign",
    ("logout", "POST"): "logging out changes no campaign",
    ("logout-everywhere", "POST"): "the account's sessions, no campaign",
    ("account", "POST"): "the account's name, e-mail link or API token, no campaign",
    ("email-confirm", "POST"): "the account's e-mail, no campaign",
    ("signup", "POST"): "a new account, in no campaign yet",
    ("language", "POST"): "the interface's language: the account's choice and a cookie, no campaign",
    ("api-logout-everywhere", "POST"): "the account's sessions, no campaign",
    ("password-change", "POST"): "the account's password",
    ("password_reset", "POST"): "a mail, no campaign",
    ("password_reset_confirm", "POST"): "the account's password",
    ("api-token", "POST"): "the account's API token",
    ("home", "POST"): "a new campaign: no page of it is open yet",
    ("api-campaign-list", "POST"): "a new campaign: no page of it is open yet",
    ("campaign-import", "POST"): "a new campaign: no page of it is open yet",
    ("api-campaign-import", "POST"): "a new campaign: no page of it is open yet",
    ("api-odds", "POST"): "odds: nothing is stored",
    ("api-campaign-detail", "DELETE"): "deletes an archived campaign with its events: its pages answer 404 from "
                                       "then on (tested in transfer/tests/test_delete_played.py)",
    ("api-system-fight-blow-preview", "POST"): "a preview: nothing is stored",
    ("api-campaign-checks-preview", "POST"): "a preview: nothing is stored",
    ("character-stats-preview", "POST"): "the builder's what-if: renders unsaved stats, stores nothing",
}


def all_writes() -> set[tuple[str, str]]:
    return {(route.name, method) for route in ROUTES for method in route.methods if method != "GET"}


def test_every_write_is_in_the_matrix():
    """A new write must join the matrix (or say why no open page can show what it changes)."""
    listed = {(w.route, w.method) for w in WRITES} | set(NOT_CAMPAIGN_WRITES)
    missing = sorted(all_writes() - listed)
    stale = sorted(listed - all_writes())
    assert not missing and not stale, (
        "".join(f"  {name} {method}: add it to WRITES in tests/test_live_matrix.py\n" for name, method in missing)
        + "".join(f"  {name} {method}: listed, but no route answers it\n" for name, method in stale))


# --- The run ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    from django.db import transaction

    from characters.models import Character

    from campaign.models import Campaign
    from characters import items, lifecycle
    from characters import services as character_services

    with django_db_blocker.unblock(), transaction.atomic():
        built = build_world()
        gm, player = built.users["gm"], built.users["player"]
        campaign = Campaign.objects.get(pk=built.ids["campaign_id"])

        def sheet(name: str, submitted: bool) -> int:
            """A complete sheet of the owner's, left as a draft or handed to the GM."""
            made = character_services.character_create(campaign=campaign, owner=player, name=name,
                                                       stats=dict(STATS), int_dice=list(INT_DICE), by=player)
            for kind, data in LINES.items():
                items.item_create(character=made, kind_name=kind, data=dict(data), by=gm, is_gm=True)
            if submitted:
                lifecycle.character_submit(character=made, by=player)
            return made.pk

        # One sheet per lifecycle write, so each finds the state it needs whatever ran before it.
        built.sheets = {"to submit": sheet("Ready", False), "to submit by API": sheet("Ready II", False),
                        "to approve": sheet("Waiting", True), "to return": sheet("Waiting II", True),
                        "to return by API": sheet("Waiting III", True)}
        # A line the player added to the draft, awaiting the GM's classification.
        built.lines["unclassified"] = items.item_create(
            character=Character.objects.get(pk=built.draft_id), kind_name="skills", by=player, is_gm=False,
            data={"name": "Lockpicking", "breadth": "narrow", "ranks": 1, "stat": "PRAC"}).pk
        built.renders = {}
        yield built
        transaction.set_rollback(True)


def _client(world, persona: str, api: bool):
    user = world.users[WRITERS[persona]]
    if api:
        client = APIClient()
        client.force_authenticate(user)
    else:
        client = Client()
        client.force_login(user)
    return client


#: What a page answers once the thing it shows is gone (deleted, or out of the viewer's reach):
#: static/js/live.js then says so on the open page instead of swapping parts in.
GONE = (403, 404)


def _render(world, route: Route, persona: str, gone_ok: bool = False) -> str | None:
    rule = MATRIX[route.name]["GET"]
    response = _client(world, persona, api=False).get(url_of(route, rule, world))
    if gone_ok and response.status_code in GONE:
        return None
    assert response.status_code == 200, f"{persona} GET {route.name}: {response.status_code}"
    return response.content.decode()


def _before(world, route: Route, persona: str) -> str:
    key = (route.name, persona)
    if key not in world.renders:
        world.renders[key] = _render(world, route, persona)
    return world.renders[key]


def _write(world, write: Write):
    route = next(r for r in ROUTES if r.name == write.route)
    rule = MATRIX[write.route][write.method]
    url = write.url(world) if write.url else url_of(route, rule, world)
    body = write.body(world) if callable(write.body) else (write.body or {})
    client = _client(world, write.persona, api=route.is_api)
    call = getattr(client, write.method.lower())
    response = call(url, body, format="json") if route.is_api else call(url, body)
    assert response.status_code in write.expect, (
        f"{write} as {write.persona}: {response.status_code} {response.content[:600]!r}")
    return response


def _seen_keys(world, persona: str, after: int) -> set[str]:
    from campaign.audience import visible
    from campaign.models import Campaign

    campaign = Campaign.objects.get(pk=world.ids["campaign_id"])
    user = world.users[PERSONAS[persona]]
    rows = visible(Event.objects.filter(campaign=campaign, id__gt=after, kind="changed"), user=user,
                   is_gm=persona == "gm")
    return {key for row in rows for key in row.data["keys"]}


@pytest.mark.parametrize("write", WRITES, ids=str)
def test_every_open_page_follows_the_write(world, write):
    checked = pages()
    world.made = write.setup(world) if write.setup else {}
    befores = {(route.name, persona): _render(world, route, persona) if write.setup else _before(world, route, persona)
               for route, persona in checked}
    after = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0
    rows_before = snapshot()

    _write(world, write)

    # Every row the write changed belongs to keys it reported.
    reported = {key for row in Event.objects.filter(id__gt=after, kind="changed") for key in row.data["keys"]}
    assert reported, f"{write} published no data keys"
    unreported = []
    for row in changed_rows(rows_before, snapshot()):
        for key, _ in data_keys.of(row, world.ids["campaign_id"]):
            if not data_keys.any_covered([key], reported):
                unreported.append(f"{row._meta.label}:{row.pk} → {key}")
    assert not unreported, f"{write} changed rows whose keys it did not report: {unreported}"

    # Every page each persona has open ends as a fresh render shows it.
    failures = []
    for route, persona in checked:
        before = befores[(route.name, persona)]
        assert 'name="zg-live"' in before, f"{route.name} opens no stream"
        seen = _seen_keys(world, persona, after)
        fresh = _render(world, route, persona, gone_ok=True)
        if fresh is None:  # the page is gone: its stream must say so (its outermost part's keys)
            outer = parts_of(before)[0]
            if not data_keys.any_covered(outer.keys, seen):
                failures.append(f"{route.name} as {persona}: gone, and its stream never said ({outer.keys})")
            continue
        shown = normal(shown_part(apply(before, fresh, seen)))
        expected = normal(shown_part(fresh))
        if shown != expected:
            failures.append(f"{route.name} as {persona}:{first_difference(shown, expected)}")
    assert not failures, f"after {write}, open pages show the past:\n" + "\n".join(failures)


def test_players_never_hear_of_a_private_key(world):
    """A private roll changes the GM's feed alone: the players' streams never name it."""
    after = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0
    _write(world, _w("api-campaign-rolls", "POST", "gm", {"notation": "1d6", "label": "Secret", "private": True}))
    for persona in ("owner", "other_player", "viewer"):
        assert not _seen_keys(world, persona, after), persona
    assert "campaign:%d/rolls" % world.ids["campaign_id"] in _seen_keys(world, "gm", after)


def test_every_campaign_model_has_data_keys():
    assert [m._meta.label for m in campaign_models() if not data_keys.keyed(m)] == []

