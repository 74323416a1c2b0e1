"""Who may do what, for every route: the authorization matrix of DESIGN.md ("Who may do what").

The routes come from the URLconf (every pattern, pages and API) and the API's methods from the
OpenAPI schema; a page's methods come from its ``require_http_methods`` decorator (GET when it
has none). ``MATRIX`` holds, for each route name and method, what each persona gets:

* anonymous: 401 from the API, a redirect to the log-in page from a page;
* outsider (in no campaign): 404 for everything in the campaign;
* viewer, other_player (a player who does not own the character), owner (the player who owns
  the character, or the campaign's player for campaign routes) and gm.

A write is checked for access only: the body is empty or minimal, so an allowed persona may get
400 or 409. "Allowed" means neither 401, 403 nor 404, and no server error; a refusal is the
exact code. A route without an entry, or an entry without a route, fails
``test_every_route_has_an_entry``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.db import transaction
from django.shortcuts import resolve_url
from django.urls import URLPattern, URLResolver, get_resolver

from characters.tests.factories import INT_DICE, STATS

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "viewer", "other_player", "owner", "gm")
USERNAMES = {"outsider": "outsider", "viewer": "viewer", "other_player": "other_player", "owner": "player",
             "gm": "gm"}
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")

#: Routes left out, each with why: they are no part of a campaign.
EXCLUDED_PREFIXES = {
    "admin/": "Django's admin: staff accounts only, guarded by the admin site itself",
    "static/": "static files, public by nature",
    "media/": "uploaded files, none are served by the app",
}
EXCLUDED_NAMES = {
    "api-schema": "the OpenAPI schema is public documentation",
    "api-docs": "Swagger UI over the schema, public documentation",
}


# --- Discovery: the URLconf and the schema ----------------------------------------------------
@dataclass(frozen=True)
class Route:
    name: str
    route: str  # the pattern as written, e.g. "api/v1/characters/<int:character_id>/"
    is_api: bool  # a DRF view: anonymous callers get 401, not the log-in page
    methods: tuple[str, ...]

    @property
    def kwargs(self) -> list[str]:
        return re.findall(r"<(?:\w+:)?(\w+)>", self.route)


def _patterns(patterns, prefix: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern


def _schema_methods() -> dict[str, tuple[str, ...]]:
    from drf_spectacular.generators import (
        SchemaGenerator,  # after the URLconf has loaded every view
    )

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {path: tuple(m.upper() for m in operations if m.upper() in METHODS)
            for path, operations in schema["paths"].items()}


def _page_methods(callback) -> tuple[str, ...]:
    """A page's methods: its class's handlers, or the list its method decorator closes over."""
    view_class = getattr(callback, "view_class", None)
    if view_class is not None:  # GET and POST: FormView's PUT only repeats POST
        return tuple(m.upper() for m in ("get", "post")
                     if m in view_class.http_method_names and hasattr(view_class, m))
    func = callback
    while func is not None:
        code = getattr(func, "__code__", None)
        if code is not None and "request_method_list" in code.co_freevars:
            cell = func.__closure__[code.co_freevars.index("request_method_list")]
            return tuple(m for m in cell.cell_contents if m in METHODS)
        func = getattr(func, "__wrapped__", None)
    return ("GET",)  # no decorator: the page is read with GET


def discover() -> tuple[list[Route], list[str]]:
    """Return every route to check, and the problems met finding them (names used twice…)."""
    patterns = list(_patterns(get_resolver().url_patterns))
    schema = _schema_methods()
    routes, problems, seen = [], [], set()
    for route, pattern in patterns:
        if any(route.startswith(prefix) for prefix in EXCLUDED_PREFIXES) or pattern.name in EXCLUDED_NAMES:
            continue
        name = pattern.name or route
        if name in seen:
            problems.append(f"the URL name {name!r} is used by two routes; the matrix names routes by it")
        seen.add(name)
        callback = pattern.callback
        is_api = hasattr(callback, "cls")  # APIView.as_view()
        if is_api:
            path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
            methods = schema.get(path)
            if methods is None:
                problems.append(f"{name} ({path}) is an API view missing from the OpenAPI schema")
                methods = tuple(m for m in METHODS if hasattr(callback.cls, m.lower()))
        else:
            methods = _page_methods(callback)
        routes.append(Route(name=name, route=route, is_api=is_api, methods=methods))
    return routes, problems


ROUTES, DISCOVERY_PROBLEMS = discover()


# --- Expectations -----------------------------------------------------------------------------
ALLOWED = "allowed"  # neither 401, 403 nor 404, and no server error
LOG_IN = "log in"  # 401 from the API, a redirect to the log-in page from a page


def _who(**overrides) -> dict:
    """GM only, unless told otherwise: the strictest shape, widened by each helper."""
    return {"anonymous": LOG_IN, "outsider": 404, "viewer": 403, "other_player": 403, "owner": 403,
            "gm": ALLOWED, **overrides}


@dataclass(frozen=True)
class Rule:
    """What each persona gets, and how to call: a body or query (dicts, or functions of the world)
    that reaches the access check, and which character the route addresses."""

    who: dict
    body: object = None
    query: object = None
    character: str = "approved"  # or "draft": both are the owner's

    def __call__(self, **options) -> Rule:
        return replace(self, **options)


MEMBERS_READ = Rule(_who(viewer=ALLOWED, other_player=ALLOWED, owner=ALLOWED))
#: A thing only the GM knows exists (a set-up of the NPC library names hidden NPCs): for every
#: member but the GM it answers as an id never used.
GM_ONLY_EXISTS = Rule(_who(viewer=404, other_player=404, owner=404))
GM_WRITES = Rule(_who())
OWNER_OR_GM_WRITES = Rule(_who(owner=ALLOWED))
PLAYERS_OR_GM_WRITE = Rule(_who(other_player=ALLOWED, owner=ALLOWED))  # viewers do not play
ANYONE_LOGGED_IN = Rule(_who(outsider=ALLOWED, viewer=ALLOWED, other_player=ALLOWED, owner=ALLOWED))
PUBLIC = Rule({persona: ALLOWED for persona in PERSONAS})

LINE_KINDS = ("skills", "disadvantages", "equipment", "weapons", "armour", "languages")


def _new_character(world) -> dict:
    # Complete, so that the access check (after the shape check) is what answers.
    return {"campaign": world.ids["campaign_id"], "name": "Matrix", "stats": STATS, "int_dice": INT_DICE}


def _contribution(world) -> dict:
    return {"character": world.ids["character_id"], "amount": 1, "idempotency_key": "matrix-contribution"}


def _attack(world) -> dict:
    # The owner's combatant attacks: only its player and the GM may act with it.
    return {"attacker": world.ids["pc_combatant_id"], "target": world.ids["combatant_id"], "preview": True}


MATRIX: dict[str, dict[str, Rule]] = {
    # --- Public: log-in, log-out, health -----------------------------------------------------
    "login": {"GET": PUBLIC, "POST": PUBLIC},
    "logout": {"POST": PUBLIC},
    "logout-everywhere": {"POST": ANYONE_LOGGED_IN},
    "account": {"GET": ANYONE_LOGGED_IN, "POST": ANYONE_LOGGED_IN(body={"action": "name", "first_name": "M"})},
    "email-confirm": {"GET": ANYONE_LOGGED_IN, "POST": ANYONE_LOGGED_IN},  # a bad link: back to the account
    # SIGNUP=invite (the default): no sign-up page for anyone; an open site's is in test_signup.py.
    "signup": {"GET": Rule({persona: 404 for persona in PERSONAS}), "POST": Rule({persona: 404 for persona in PERSONAS})},
    "password-change": {"GET": ANYONE_LOGGED_IN, "POST": ANYONE_LOGGED_IN},
    "password_reset": {"GET": PUBLIC, "POST": PUBLIC},  # a forgotten password: nobody is logged in
    "password_reset_done": {"GET": PUBLIC},
    "password_reset_confirm": {"GET": PUBLIC, "POST": PUBLIC},  # the emailed link's token is the key
    "password_reset_complete": {"GET": PUBLIC},
    "healthz": {"GET": PUBLIC},
    "language": {"POST": PUBLIC(body={"language": "de", "next": "/"})},  # the top bar's switch, logged in or not
    "javascript-catalog": {"GET": PUBLIC},  # the scripts' words: no campaign data
    "api-token": {"POST": PUBLIC},
    "api-logout-everywhere": {"POST": ANYONE_LOGGED_IN},
    # --- Campaign pages -----------------------------------------------------------------------
    "home": {"GET": ANYONE_LOGGED_IN, "POST": ANYONE_LOGGED_IN},  # POST creates a campaign of one's own
    "campaign-import": {"POST": ANYONE_LOGGED_IN},  # imports as a new campaign of one's own
    # Whom an imported document named: the GM's to invite (the world's campaign was not imported:
    # the GM reads an empty list, and inviting from it is 409).
    "campaign-imported": {"GET": GM_WRITES, "POST": GM_WRITES(body={"invite": ["outsider"]})},
    "campaign-dashboard": {"GET": MEMBERS_READ},
    "campaign-settings": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    # --- Character pages ----------------------------------------------------------------------
    "character-party": {"GET": MEMBERS_READ},
    "character-new": {"GET": PLAYERS_OR_GM_WRITE, "POST": PLAYERS_OR_GM_WRITE},
    "character-sheet": {"GET": MEMBERS_READ},
    "character-build": {"GET": OWNER_OR_GM_WRITES(character="draft")},
    "character-stats": {"POST": OWNER_OR_GM_WRITES(character="draft")},
    "character-stats-preview": {"POST": OWNER_OR_GM_WRITES(character="draft")},  # the builder's what-if
    "character-roll": {"POST": OWNER_OR_GM_WRITES(character="draft")},
    "character-line-add": {"POST": OWNER_OR_GM_WRITES},
    "character-line-update": {"POST": OWNER_OR_GM_WRITES},
    "character-line-edit": {"GET": OWNER_OR_GM_WRITES},  # the edit form of a line
    "character-line-new": {"GET": OWNER_OR_GM_WRITES},  # the add form of a section
    "character-line-delete": {"POST": OWNER_OR_GM_WRITES},
    "character-line-classify": {"POST": GM_WRITES},
    "character-lines-classify": {"POST": GM_WRITES},
    "character-submit": {"POST": OWNER_OR_GM_WRITES(character="draft")},
    "character-approve": {"POST": GM_WRITES},
    "character-return": {"POST": GM_WRITES},
    "character-state": {"POST": GM_WRITES},
    "character-notes": {"POST": GM_WRITES},
    "character-wounds-panel": {"GET": MEMBERS_READ},
    "character-wounds-record": {"POST": GM_WRITES},
    "character-history": {"GET": MEMBERS_READ},
    "character-revert": {"POST": GM_WRITES},
    "character-pdf": {"GET": MEMBERS_READ},
    # Sheets of another rule set: the same rules as a character's.
    "system-sheet-new": {"POST": PLAYERS_OR_GM_WRITE(body={"name": "Matrix"})},
    "system-sheet": {"GET": MEMBERS_READ, "POST": OWNER_OR_GM_WRITES},
    "system-sheet-pool": {"POST": OWNER_OR_GM_WRITES(body={"pool": "plot_points", "action": "spend"})},
    # --- Economy pages ------------------------------------------------------------------------
    "character-karma": {"GET": MEMBERS_READ, "POST": OWNER_OR_GM_WRITES},
    "character-karma-preview": {"GET": MEMBERS_READ},
    "character-complication": {"POST": GM_WRITES},
    "campaign-adventures": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "campaign-awards": {"POST": GM_WRITES},
    "adventure-token-add": {"POST": GM_WRITES},
    "adventure-token-void": {"POST": GM_WRITES},
    "adventure-close": {"GET": GM_WRITES, "POST": GM_WRITES},  # the close-out and its payout preview
    "campaign-macguffins": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "campaign-macguffins-live": {"GET": MEMBERS_READ},
    "macguffin-contribute": {"POST": OWNER_OR_GM_WRITES(body=lambda w: {"character": w.ids["character_id"]})},
    # --- Downtime pages -----------------------------------------------------------------------
    "campaign-downtime": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "campaign-job": {"GET": MEMBERS_READ},
    "campaign-job-undo": {"POST": GM_WRITES},
    "campaign-treat": {"POST": GM_WRITES},
    "campaign-treatment-undo": {"POST": GM_WRITES},
    "campaign-transition-new": {"GET": GM_WRITES, "POST": GM_WRITES},  # the GM's odds and roll
    "campaign-transition": {"GET": MEMBERS_READ, "POST": GM_WRITES},  # POST undoes it
    # --- Combat pages -------------------------------------------------------------------------
    "campaign-encounters": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "encounter": {"GET": MEMBERS_READ},
    "encounter-live": {"GET": MEMBERS_READ},
    "encounter-preview": {"GET": MEMBERS_READ},
    "encounter-act": {"POST": GM_WRITES},  # every action but a player's own attack is the GM's
    "npc-setup-act": {"POST": GM_ONLY_EXISTS},
    "encounter-table": {"GET": MEMBERS_READ},
    # Fights of another rule set: the GM runs them; a player holds or forces with their own.
    "campaign-system-fights": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "system-fight": {"GET": MEMBERS_READ},
    "system-fight-act": {"POST": OWNER_OR_GM_WRITES(body={"action": "hold", "name": "Kestrel"})},
    "system-fight-blow": {"POST": OWNER_OR_GM_WRITES(body={"attacker": "Kestrel", "target": "Virek-Kohl",
                                                          "av": "6", "dv": "5"})},
    "system-fight-undo": {"POST": GM_WRITES},
    # --- Dice roller, roll feed, tables -------------------------------------------------------
    "campaign-roller": {"GET": MEMBERS_READ},
    "campaign-log": {"GET": MEMBERS_READ},  # each reads the lines shared with them
    "campaign-sessions": {"GET": MEMBERS_READ, "POST": GM_WRITES(body={"action": "start"})},
    "campaign-session": {"GET": MEMBERS_READ, "POST": MEMBERS_READ(body={"action": "none"})},
    "api-campaign-sessions": {"GET": MEMBERS_READ, "POST": GM_WRITES(body={"action": "start"})},
    "api-campaign-session": {"GET": MEMBERS_READ, "PATCH": GM_WRITES(body={"recap": "Matrix recap."})},
    "api-campaign-session-notes": {"POST": PLAYERS_OR_GM_WRITE(body={"text": "Matrix note."})},
    "join": {"GET": PUBLIC, "POST": PUBLIC},  # the invitation's token is the key (a spent one here: 410)
    "campaign-roller-roll": {"POST": PLAYERS_OR_GM_WRITE},
    "check-builder": {"GET": GM_WRITES},  # the GM's screen: secret checks and everyone's lines
    "check-builder-roll": {"POST": GM_WRITES(body={"subject": "party:AWA"})},
    "sheet-roll-form": {"GET": OWNER_OR_GM_WRITES(query={"line": "stat:AWA"})},  # rolling is the sheet's own
    "sheet-roll": {"POST": OWNER_OR_GM_WRITES(body={"line": "stat:AWA"})},
    "roll-reroll": {"POST": OWNER_OR_GM_WRITES},  # the character's Karma: its player's or the GM's
    "campaign-rolls-feed": {"GET": MEMBERS_READ},
    "tables": {"GET": ANYONE_LOGGED_IN},
    "glossary": {"GET": ANYONE_LOGGED_IN},  # the game's words: no campaign in them
    "favicon": {"GET": PUBLIC},  # a redirect to the static icon  # the rulebook's tables: no campaign in them
    # --- Campaign API -------------------------------------------------------------------------
    "api-campaign-list": {"GET": ANYONE_LOGGED_IN, "POST": ANYONE_LOGGED_IN},
    "api-campaign-detail": {"GET": MEMBERS_READ, "PATCH": GM_WRITES, "DELETE": GM_WRITES},
    "api-campaign-archive": {"POST": GM_WRITES},
    "api-campaign-restore": {"POST": GM_WRITES},
    "api-campaign-members": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "api-campaign-invitations": {"GET": GM_WRITES, "POST": GM_WRITES},  # the links are the GM's to pass on
    "api-campaign-invitation": {"DELETE": GM_WRITES},
    "api-invitation-accept": {"POST": ANYONE_LOGGED_IN},  # the token is the key (none sent here: 400)
    "api-campaign-events": {"GET": MEMBERS_READ},
    # An EventSource follows no log-in redirect: the stream answers 401 itself.
    "campaign-stream": {"GET": MEMBERS_READ(who=_who(viewer=ALLOWED, other_player=ALLOWED, owner=ALLOWED,
                                                     anonymous=401))},
    "api-campaign-export": {"GET": GM_WRITES},
    "api-campaign-import": {"POST": ANYONE_LOGGED_IN},
    "api-campaign-import-invitations": {"GET": GM_WRITES, "POST": GM_WRITES(body={"usernames": ["outsider"]})},
    # --- Character API ------------------------------------------------------------------------
    "api-character-list": {"GET": MEMBERS_READ(query=lambda w: {"campaign": w.ids["campaign_id"]}),
                           "POST": PLAYERS_OR_GM_WRITE(body=_new_character)},
    "api-character-detail": {"GET": MEMBERS_READ, "PATCH": OWNER_OR_GM_WRITES, "DELETE": OWNER_OR_GM_WRITES},
    "api-character-budget": {"GET": MEMBERS_READ},
    "api-character-submit": {"POST": OWNER_OR_GM_WRITES(character="draft")},
    "api-character-approve": {"POST": GM_WRITES},
    "api-character-return": {"POST": GM_WRITES},
    "api-character-history": {"GET": MEMBERS_READ, "POST": GM_WRITES},  # POST reverts
    "api-character-wounds": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "api-character-pdf": {"GET": MEMBERS_READ},
    "api-campaign-system-sheets": {"GET": MEMBERS_READ, "POST": PLAYERS_OR_GM_WRITE(body={"name": "Matrix"})},
    "api-system-sheet": {"GET": MEMBERS_READ, "PATCH": OWNER_OR_GM_WRITES},
    "api-system-sheet-pools": {"POST": OWNER_OR_GM_WRITES(body={"pool": "plot_points", "action": "spend"})},
    "api-system-sheet-rest-asks": {"POST": OWNER_OR_GM_WRITES(body={"rest": "short_rest"})},
    **{name: methods for kind in LINE_KINDS for name, methods in (
        (f"api-character-{kind}", {"GET": MEMBERS_READ, "POST": OWNER_OR_GM_WRITES}),
        (f"api-character-{kind}-detail", {"GET": MEMBERS_READ, "PATCH": OWNER_OR_GM_WRITES,
                                          "DELETE": OWNER_OR_GM_WRITES}),
    )},
    # --- Economy API --------------------------------------------------------------------------
    "api-character-karma": {"GET": MEMBERS_READ, "POST": OWNER_OR_GM_WRITES},
    "api-character-karma-flags": {"GET": MEMBERS_READ},
    "api-character-complications": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "api-campaign-awards": {"POST": GM_WRITES},
    "api-campaign-adventures": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "api-adventure-detail": {"GET": MEMBERS_READ},
    "api-adventure-tokens": {"POST": GM_WRITES},
    "api-adventure-token-void": {"POST": GM_WRITES},
    "api-adventure-close": {"POST": GM_WRITES},
    "api-campaign-macguffins": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "api-macguffin-detail": {"GET": MEMBERS_READ},
    "api-macguffin-contributions": {"POST": OWNER_OR_GM_WRITES(body=_contribution)},
    # --- Downtime API -------------------------------------------------------------------------
    "api-campaign-downtime": {"POST": GM_WRITES},
    "api-job-detail": {"GET": MEMBERS_READ},
    "api-job-undo": {"POST": GM_WRITES},
    "api-campaign-transitions": {"POST": GM_WRITES},
    "api-transition-undo": {"POST": GM_WRITES},
    "api-campaign-therapies": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "api-character-treatments": {"POST": GM_WRITES},
    "api-treatment-undo": {"POST": GM_WRITES},
    # --- Combat API ---------------------------------------------------------------------------
    "api-campaign-encounters": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "api-encounter-detail": {"GET": MEMBERS_READ, "PATCH": GM_WRITES},
    "api-encounter-combatants": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "api-encounter-combatant": {"PATCH": GM_WRITES},
    "api-encounter-initiative": {"POST": GM_WRITES},
    "api-encounter-attacks": {"POST": OWNER_OR_GM_WRITES(body=_attack)},
    "api-encounter-dying": {"POST": GM_WRITES},
    "api-encounter-next-turn": {"POST": GM_WRITES},
    "api-encounter-hold": {"POST": GM_WRITES},
    "api-encounter-act-now": {"POST": GM_WRITES},
    "api-encounter-reactions": {"POST": GM_WRITES},
    "api-encounter-request": {"POST": GM_WRITES},  # the GM answers a player's attack request
    "api-encounter-log": {"GET": MEMBERS_READ},
    "api-encounter-undo": {"POST": GM_WRITES},
    "api-encounter-end": {"POST": GM_WRITES},
    "api-encounter-again": {"POST": GM_WRITES},
    "api-campaign-system-fights": {"GET": MEMBERS_READ, "POST": GM_WRITES},
    "api-system-fight": {"GET": MEMBERS_READ},
    "api-system-fight-actions": {"POST": OWNER_OR_GM_WRITES(body={"action": "hold", "name": "Kestrel"})},
    "api-system-fight-blows": {"POST": OWNER_OR_GM_WRITES(body={"attacker": "Kestrel", "target": "Virek-Kohl",
                                                               "inputs": {"av": 6, "dv": 5}})},
    # Anyone who plays may work out the odds of a blow: nothing in them is secret.
    "api-system-fight-blow-preview": {"POST": PLAYERS_OR_GM_WRITE(body={"attacker": "Kestrel", "target": "Virek-Kohl",
                                                                       "inputs": {"av": 6, "dv": 5}})},
    "api-system-fight-undo": {"POST": GM_WRITES},
    # The NPC library names hidden NPCs: the GM's alone, to read too.
    "api-campaign-npc-setups": {"GET": GM_WRITES, "POST": GM_WRITES(body=lambda w: {
        "encounter": w.ids["encounter_id"], "name": "Bar fight cast"})},
    "api-npc-setup": {"GET": GM_ONLY_EXISTS, "DELETE": GM_ONLY_EXISTS},
    "api-npc-setup-fights": {"POST": GM_ONLY_EXISTS},
    # --- Rolls and odds API -------------------------------------------------------------------
    "api-campaign-rolls": {"GET": MEMBERS_READ, "POST": PLAYERS_OR_GM_WRITE},
    "api-character-rolls": {"POST": OWNER_OR_GM_WRITES(body={"line": "stat:AWA"})},
    "api-campaign-checks": {"POST": GM_WRITES(body={"subject": "party:AWA"})},
    "api-campaign-log": {"GET": MEMBERS_READ},
    "api-language-immersion": {"POST": GM_WRITES(body={"hours": 1})},
    "api-campaign-checks-preview": {"POST": GM_WRITES(body={"subject": "party:AWA"})},
    "api-roll-reroll": {"POST": OWNER_OR_GM_WRITES},
    "api-odds": {"POST": ANYONE_LOGGED_IN},  # odds of any rule set: no campaign in them
}


# --- The world: one of everything in the personas' campaign -------------------------------------
@dataclass
class World:
    users: dict
    ids: dict  # URL keyword → the object it names
    lines: dict  # line kind → the id of that kind of line on the owner's approved character
    draft_id: int  # the owner's draft, for the builder and submission


GOON = {"name": "Goon", "revealed": True, "stats": {"ACC": 12, "MEL": 12, "AWA": 11},
        "weapons": [{"name": "Club", "damage_points": 3, "melee": True, "ranks": 1}]}
LINES = {
    "skills": {"name": "Medic", "breadth": "narrow", "ranks": 2, "stat": "PRAC"},
    "disadvantages": {"name": "Nightmares", "value": 1, "ranks": 1},
    "equipment": {"name": "Rope", "breadth": "specific"},
    "weapons": {"name": "Knife", "damage_points": 2, "melee": True},
    "armour": {"name": "Jacket", "hardness": 1, "coverage": 2},
    "languages": {"name": "Latin", "spoken": 1, "heard": 1, "written": 2, "read": 2},
}


def build_world() -> World:
    """Build the campaign through the services, as its GM and players would."""
    from django.contrib.auth import get_user_model

    from campaign import services as campaign_services
    from characters import items, lifecycle
    from characters import services as character_services
    from combat import attacks, library
    from combat import services as combat
    from combat.models import CombatEvent
    from downtime import services as downtime
    from downtime import transitions, treatments
    from downtime.serializers import DowntimeIn
    from economy import services as economy
    from economy.models import MacGuffin
    from rolls import services as rolls

    User = get_user_model()
    users = {}
    for username in ("gm", "player", "other_player", "viewer", "outsider"):
        user = User(username=username)
        user.set_unusable_password()  # everyone logs in with force_login
        user.save()
        users[username] = user
    gm, player = users["gm"], users["player"]
    campaign = campaign_services.campaign_create(name="Matrix campaign", by=gm)
    for username, role in (("player", "player"), ("other_player", "player"), ("viewer", "viewer")):
        campaign_services.membership_add(campaign=campaign, username=username, role=role, by=gm)

    # The owner's approved character with a line of every kind, and a draft.
    character = character_services.character_create(campaign=campaign, owner=player, name="Mara", stats=dict(STATS),
                                                     int_dice=list(INT_DICE), by=player)
    lines = {kind: items.item_create(character=character, kind_name=kind, data=dict(data), by=gm, is_gm=True).pk
             for kind, data in LINES.items()}
    lifecycle.character_submit(character=character, by=player)
    character = lifecycle.character_approve(character=character, by=gm)
    draft = character_services.character_create(campaign=campaign, owner=player, name="Sketch", stats=dict(STATS),
                                                int_dice=list(INT_DICE), by=player)

    # Karma, an adventure with a token, a MacGuffin with a contribution.
    economy.award(campaign=campaign, kind="manual", character_ids=[character.pk], by=gm, amount=3,
                  reason="Matrix set-up")
    adventure = economy.adventure_start(campaign=campaign, name="Lisbon, 1755", base_xp=2, by=gm)
    token = economy.token_add(adventure=adventure, note="The quake is early", by=gm)
    macguffin = economy.macguffin_create(campaign=campaign, name="Crystal radio", limitation="No word home",
                                         target=10, upgrade=MacGuffin.Upgrade.COMMS, by=gm)
    economy.macguffin_contribute(macguffin=macguffin, character=character, amount=1,
                                 idempotency_key="matrix-radio", by=player)

    # A therapy, a treatment, a Zener Transition and a finished downtime job.
    treatments.therapy_define(campaign=campaign, by=gm, name="Iodine course")
    treatment, _ = treatments.treatment_give(character=character, by=gm, kind="stimutabs", dice=[2, 1, 3, 2],
                                             idempotency_key="matrix-dose")
    transition, _ = transitions.transition_make(campaign=campaign, by=gm, category="1",
                                                character_ids=[character.pk], idempotency_key="matrix-gate")
    rest = DowntimeIn(data={"hours": 8, "idempotency_key": "matrix-rest"})
    rest.is_valid(raise_exception=True)
    job, _ = downtime.downtime_start(campaign=campaign, by=gm, request=rest.validated_data)
    downtime.downtime_run(job_id=job.pk)

    # The roll feed: a player's roll and the GM's private one.
    rolls.roll_notation(campaign=campaign, by=player, text="2d6+3", label="Matrix")
    rolls.roll_notation(campaign=campaign, by=gm, text="1d6", label="Behind the screen", private=True)
    failed, _ = rolls.sheet_roll(character=character, by=player, line="stat:AWA", dice=[6, 6, 6])  # Karma may reroll it
    assert failed.success is False

    # An encounter: the owner's character against a goon, initiative rolled, the owner's
    # character to act, and its attack waiting for the GM's approval.
    encounter = combat.encounter_create(campaign=campaign, by=gm, name="Bar fight", gm_notes="The goon is a plant")
    pc = combat.combatant_add(encounter=encounter, by=gm, character_id=character.pk)
    goon = combat.combatant_add(encounter=encounter, by=gm, npc=dict(GOON))
    combat.initiative_roll(encounter=encounter, by=gm, dice={pc.pk: [6], goon.pk: [1]})
    encounter = combat.encounter_update(encounter=encounter, by=gm, require_approval=True)
    request = attacks.attack_request(encounter=encounter, by=player, request=attacks.AttackRequest(
        attacker=pc.pk, target=goon.pk, weapon="Knife", stat="MEL"))
    assert CombatEvent.objects.filter(encounter=encounter).count() > 1
    setup, _ = library.setup_save(encounter=encounter, by=gm, name="Bar fight cast")  # the GM's NPC library
    from campaign import sessions  # a game night, ended, its recap published

    night = sessions.session_start(campaign=campaign, by=gm)
    night = sessions.session_end(campaign=campaign, by=gm, recap="The bar fight.")
    sessions.session_recap_save(session=night, by=gm, recap="The bar fight.", publish=True)
    from campaign import services as campaign_services

    invitation = campaign_services.invitation_create(campaign=campaign, role="player", by=gm)
    # A sheet of another rule set and a fight, made while the campaign played ZeroSpace; both stay
    # readable after the switch back.
    from characters import system_sheets
    from combat import system_fights

    campaign = campaign_services.campaign_update(campaign=campaign, by=gm, rule_set="zerospace")
    sheet = system_sheets.system_sheet_create(campaign=campaign, owner=player, by=player, name="Kestrel",
                                              lines=[{"name": "Close combat", "inputs": {"av": 6}}])
    fight = system_fights.system_fight_start(campaign=campaign, by=gm, name="Warehouse", fighters=[
        {"sheet": sheet.pk, "total": 12}, {"name": "Virek-Kohl", "total": 9, "numbers": {"dv": 5}}])
    campaign = campaign_services.campaign_update(campaign=campaign, by=gm, rule_set="zener")

    ids = {
        "campaign_id": campaign.pk, "character_id": character.pk, "adventure_id": adventure.pk,
        "token_id": token.pk, "macguffin_id": macguffin.pk, "job_id": job.pk, "treatment_id": treatment.pk,
        "transition_id": transition["id"], "encounter_id": encounter.pk, "combatant_id": goon.pk,
        "pc_combatant_id": pc.pk, "event_id": request.pk, "setup_id": setup.pk, "roll_id": failed.pk,
        "session_number": night.number, "invitation_id": invitation.pk, "sheet_id": sheet.pk,
        "fight_id": fight.pk,
    }
    return World(users=users, ids=ids, lines=lines, draft_id=draft.pk)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The campaign, built once for the module inside a transaction rolled back at its end;
    each test runs in a savepoint of its own on top of it."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


def url_of(route: Route, rule: Rule, world: World) -> str:
    values = dict(world.ids)
    if rule.character == "draft":
        values["character_id"] = world.draft_id
    kind = re.fullmatch(r"api-character-(\w+)-detail", route.name)
    kind = kind.group(1) if kind else "skills"  # pages take the kind in the URL; skills it is
    values["kind"] = kind
    values["item_id"] = world.lines.get(kind)
    values["line_id"] = world.lines.get("languages")  # immersion runs on a language line
    values["number"] = world.ids.get("session_number")
    values["uidb64"], values["token"] = "MQ", "not-a-token"  # a reset link (or an invitation) that no longer works
    values["language"] = "de"
    missing = [name for name in route.kwargs if values.get(name) is None]
    assert not missing, f"{route.name}: no object for {missing}; add one to build_world()"
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route.route)


# --- The tests ----------------------------------------------------------------------------------
def test_every_route_has_an_entry():
    """A new route (or method) needs its row here; a row whose route went away must go too."""
    found = {(route.name, method) for route in ROUTES for method in route.methods}
    listed = {(name, method) for name, methods in MATRIX.items() for method in methods}
    missing = sorted(found - listed)
    stale = sorted(listed - found)
    assert not DISCOVERY_PROBLEMS, "\n".join(DISCOVERY_PROBLEMS)
    assert not missing and not stale, (
        "The authorization matrix (tests/test_authorization_matrix.py, MATRIX) is out of step with the URLconf:\n"
        + "".join(f"  no entry for {name} {method}: say what each persona gets\n" for name, method in missing)
        + "".join(f"  {name} {method} is listed but no route answers it: remove it\n" for name, method in stale))


def test_exclusions_name_real_routes():
    """The excluded names are routes that exist, so an exclusion never hides a typo."""
    names = {pattern.name for _, pattern in _patterns(get_resolver().url_patterns)}
    assert set(EXCLUDED_NAMES) <= names


CELLS = [pytest.param(route, method, persona, id=f"{route.name} {method} {persona}")
         for route in ROUTES for method in route.methods if method in MATRIX.get(route.name, {})
         for persona in PERSONAS]


def _client(route: Route, world: World, persona: str):
    from django.test import Client
    from rest_framework.test import APIClient

    user = world.users.get(USERNAMES.get(persona))
    if route.is_api:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
    else:
        client = Client()
        if user is not None:
            client.force_login(user)
    return client


def _call(client, route: Route, method: str, url: str, rule: Rule, world: World):
    body = rule.body(world) if callable(rule.body) else (rule.body or {})
    query = rule.query(world) if callable(rule.query) else rule.query
    if query:
        url += "?" + urlencode(query)
    call = getattr(client, method.lower())
    if method == "GET":
        return call(url)
    if route.is_api:
        return call(url, body, format="json")
    if method == "POST":
        return call(url, body)
    return call(url, body, content_type="application/x-www-form-urlencoded")


def _meets(expected, response, route: Route) -> bool:
    code = response.status_code
    if expected == ALLOWED:
        return code not in (401, 403, 404) and code < 500
    if expected == LOG_IN:
        if route.is_api:
            return code == 401
        login = resolve_url(settings.LOGIN_URL)
        return code == 302 and response["Location"].startswith(login)
    return code in (expected if isinstance(expected, tuple) else (expected,))


@pytest.mark.parametrize("route, method, persona", CELLS)
def test_persona_gets_what_the_matrix_says(world, route, method, persona):
    rule = MATRIX[route.name][method]
    expected = rule.who[persona]
    url = url_of(route, rule, world)
    response = _call(_client(route, world, persona), route, method, url, rule, world)
    where = response.get("Location", "")
    assert _meets(expected, response, route), (
        f"{persona} {method} {url}: expected {expected}, got {response.status_code}"
        + (f" → {where}" if where else "") + f"\n{response.content[:500]!r}")
