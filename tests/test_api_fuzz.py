"""Property-based fuzzing of the whole HTTP API: every operation of the schema the app serves.

Schemathesis loads ``/api/schema/`` from the real WSGI application and generates requests for
each operation, valid (positive) and schema-breaking (negative) alike. They are sent as the GM
of two campaigns full of real data, and again as a player of two of them (what only the GM gets
must be optional in the schema), so path ids mostly name things that exist and the requests
reach the handlers and services rather than a 404. For every response:

- it is never a 5xx (the traceback of any server error is part of the failure);
- an error (4xx) is JSON with an ``"errors"`` object, as DESIGN.md ("HTTP API") promises;
- an error changed nothing: the rows of every table of the apps are the same before and after;
- it is what the schema says: a status the operation documents, the documented content type,
  and a body that validates against the documented schema (schemathesis' conformance checks).

Each request runs in a savepoint that is rolled back afterwards, so a DELETE or a payout in one
example does not take the data away from the next. Bounded and repeatable: a fixed number of
derandomized examples per operation and no shrinking. An operation
that cannot be generated, or that never got past a 404, fails: nothing is skipped silently.
"""

from __future__ import annotations

import io
import json
import os
import sys
import traceback
from collections import Counter
from dataclasses import dataclass

import pytest
import schemathesis
from django.core import signals
from django.core.management import call_command
from django.db import close_old_connections, connection, transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    FailureGroup,
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.core.result import Ok

from characters import pdf
from conftest import PASSWORD
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)

SCHEMA_PATH = "/api/schema/"
#: Generated requests per operation (fewer when an operation has fewer distinct requests);
#: FUZZ_EXAMPLES=500 explores further by hand, CI keeps the fixed default.
MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", 10))
#: Tables whose rows must not change when a request is refused.
CHECKED_APPS = ("auth", "authtoken", "campaign", "characters", "combat")
#: Without Pango the printable sheet is a deliberate 503 (see characters/tests/test_pdf.py).
PDF_AVAILABLE = pdf.pdf_available()

FUZZ_SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,  # the same examples on every run: CI is repeatable
    database=None,
    deadline=None,  # what a request answers is checked, not how fast this machine answers it
    phases=(Phase.explicit, Phase.generate),  # no shrinking: a failure reports the whole request
    # The request bodies are large, nested JSON; their generation is allowed to be slowish.
    suppress_health_check=(HealthCheck.too_slow, HealthCheck.data_too_large),
    print_blob=False,
)


# --- The data the GM works with ---------------------------------------------------------
@dataclass
class World:
    """Ids that exist, by the name of the path parameter or body field that takes them."""

    token: str
    #: A player's token (alice-like: a member with sheets of her own in two of the campaigns),
    #: for the sweep as a player: what the GM sees and they do not must be left out, not broken.
    player_token: str
    campaign_id: list[int]
    character_id: list[int]
    adventure_id: list[int]
    macguffin_id: list[int]
    job_id: list[int]
    transition_id: list[int]
    treatment_id: list[int]
    encounter_id: list[int]
    setup_id: list[int]  # the GM's NPC library
    #: (campaign, invitation) pairs that belong together.
    invitations: list[tuple[int, int]]
    roll_id: list[int]  # the feed, a failed check from a sheet among them
    sheet_id: list[int]  # sheets of another rule set (a Success Check campaign's)
    fight_id: list[int]  # a ZeroSpace fight
    #: (encounter, combatant) and (encounter, event) pairs that belong together.
    combatants: list[tuple[int, int]]
    combat_events: list[tuple[int, int]]
    #: (adventure, token) and, per sheet line kind, (character, line) pairs that belong together.
    tokens: list[tuple[int, int]]
    lines: dict[str, list[tuple[int, int]]]
    disadvantage_ids: list[int]
    history_ids: list[int]
    usernames: list[str]

    def path_choices(self, path: str, names: set[str]) -> list[dict]:
        """Every combination of existing ids that fills the path's parameters consistently."""
        if not names:
            return []
        if names == {"adventure_id", "token_id"}:
            return [{"adventure_id": a, "token_id": t} for a, t in self.tokens]
        if names == {"encounter_id", "combatant_id"}:
            return [{"encounter_id": e, "combatant_id": c} for e, c in self.combatants]
        if names == {"encounter_id", "event_id"}:
            return [{"encounter_id": e, "event_id": v} for e, v in self.combat_events]
        if names == {"character_id", "item_id"}:
            kind = path.rstrip("/").split("/")[-2]
            return [{"character_id": c, "item_id": i} for c, i in self.lines[kind]]
        if names == {"campaign_id", "invitation_id"}:
            return [{"campaign_id": c, "invitation_id": i} for c, i in self.invitations]
        if names == {"character_id", "line_id"}:  # a language line's immersion
            return [{"character_id": c, "line_id": i} for c, i in self.lines["languages"]]
        if names == {"campaign_id", "number"}:  # a game night, by its number in the campaign
            return [{"campaign_id": c, "number": n} for c in self.campaign_id for n in (1, 2)]
        (name,) = names  # every other path takes one id
        return [{name: value} for value in getattr(self, name)]


def _character(campaign, owner, name, *, by_gm, lines=(), submit=False, approve=False):
    from characters import items, lifecycle, services

    stats = {"STR": 12, "CON": 14, "RES": 13, "NIM": 15, "DEX": 16, "ACC": 12, "MEL": 10,
             "PRAC": 15, "THEO": 14, "ENC": 13, "LAN": 12, "AWA": 16, "PERS": 14}
    character = services.character_create(campaign=campaign, owner=owner, name=name, stats=stats,
                                          int_dice=[4, 2], by=owner)
    for kind, data in lines:
        items.item_create(character=character, kind_name=kind, data=data, by=by_gm, is_gm=True)
    if submit or approve:
        lifecycle.character_submit(character=character, by=owner)
    if approve:
        lifecycle.character_approve(character=character, by=by_gm)
    return character


@pytest.fixture
def world(personas, make_user, in_process_requests):
    """The GM of the demo campaign and of the personas' one, with something of every kind.

    Demo campaign (``seed_demo``): two approved characters with every kind of sheet line, an
    open adventure with a bad-news token, two MacGuffins, a queued downtime job, a Zener
    Transition and a dose of Stimutabs. The personas'
    campaign: a draft, a submitted and an approved character, and a closed adventure. Another
    GM's campaign and character: ids that exist but are not the GM's (404).
    """
    from campaign import services
    from campaign.models import Campaign, Invitation, Job
    from characters import system_sheets
    from characters.items import ITEM_KINDS
    from characters.models import Character, Disadvantage, SystemSheet
    from combat import library, system_fights
    from combat import services as combat
    from combat.models import Combatant, CombatEvent, Encounter, NpcSetup, SystemFight
    from downtime import services as downtime
    from downtime import transitions, treatments
    from downtime.models import TransitionBatch, Treatment
    from economy import services as economy
    from economy.models import Adventure, BadNewsToken, MacGuffin
    from rolls import services as rolls
    from rolls.models import Roll

    gm = personas["gm"]
    call_command("seed_demo", stdout=io.StringIO())  # its "gm" is the personas' gm
    demo = Campaign.objects.get(name="Chronosquad Seven")
    home = personas["campaign"]
    skill = ("skills", {"name": "Temporal physics", "breadth": "narrow", "ranks": 1, "stat": "THEO"})
    flaw = ("disadvantages", {"name": "Short temper", "value": 2, "ranks": 1, "affects": "patience"})
    _character(home, personas["player"], "Draft Dora", by_gm=gm, lines=[skill])
    _character(home, personas["other_player"], "Submitted Sam", by_gm=gm, lines=[skill, flaw], submit=True)
    _character(home, personas["player"], "Active Ada", by_gm=gm, lines=[skill, flaw], approve=True)
    closed = economy.adventure_start(campaign=home, name="The quiet week", base_xp=1, by=gm)
    economy.token_add(adventure=closed, note="Nothing happened", by=gm)
    economy.adventure_close(adventure=closed, outcome=Adventure.Outcome.NONE, permanent=False, selfish=[], by=gm)
    # Queued on commit: stays pending here. A transition and a treatment give their ids.
    downtime.downtime_start(campaign=demo, by=gm, request={"hours": 8, "rest": "comfortable",
                                                           "idempotency_key": "fuzz"})
    in_play = list(Character.objects.filter(campaign=demo, state="active").order_by("pk"))
    transitions.transition_make(campaign=demo, by=gm, category="1", character_ids=[in_play[0].pk],
                                idempotency_key="fuzz")
    treatments.treatment_give(character=in_play[1], by=gm, kind="stimutabs", idempotency_key="fuzz")
    # An encounter in progress: both characters and an NPC, initiative rolled.
    fight = combat.encounter_create(campaign=demo, by=gm, name="Fuzzed fight")
    for character in in_play[:2]:
        combat.combatant_add(encounter=fight, by=gm, character_id=character.pk)
    combat.combatant_add(encounter=fight, by=gm, npc={"name": "Goon", "revealed": True,
                                                     "weapons": [{"name": "Club", "damage_points": 3}]})
    combat.initiative_roll(encounter=fight, by=gm)
    library.setup_save(encounter=fight, by=gm, name="Fuzzed cast")
    rolls.sheet_roll(character=in_play[0], by=gm, line="stat:AWA", dice=[6, 6, 6])  # one a reroll may take
    services.invitation_create(campaign=demo, role="player", by=gm)
    # A night played and ended, its recap published (sessions 1 of the demo).
    from campaign import sessions

    night = sessions.session_start(campaign=demo, by=gm)
    night = sessions.session_end(campaign=demo, by=gm, recap="Fuzzed night.")
    sessions.session_recap_save(session=night, by=gm, recap="Fuzzed night.", publish=True)

    # A campaign that plays Success Check, with a sheet of its own.
    other = services.campaign_update(campaign=services.campaign_create(name="Edge of night", by=gm), by=gm,
                                     rule_set="success_check")
    services.membership_add(campaign=other, username="player", role="player", by=gm)
    system_sheets.system_sheet_create(campaign=other, owner=personas["player"], by=personas["player"], name="Kestrel",
                                      lines=[{"name": "Deception", "inputs": {"bonus": 12}}], numbers={"edge_max": 3})
    zerospace = services.campaign_update(campaign=services.campaign_create(name="Warehouse night", by=gm), by=gm,
                                         rule_set="zerospace")
    soraya = system_sheets.system_sheet_create(campaign=zerospace, owner=gm, by=gm, name="Soraya",
                                               lines=[{"name": "Close combat", "inputs": {"av": 6}}])
    system_fights.system_fight_start(campaign=zerospace, by=gm, name="Warehouse", fighters=[
        {"sheet": soraya.pk, "total": 12}, {"name": "Virek-Kohl", "total": 9}])

    gm2 = make_user("gm2")
    elsewhere = services.campaign_create(name="Elsewhere", by=gm2)
    _character(elsewhere, gm2, "Foreign Fay", by_gm=gm2, lines=[skill])

    response = _wsgi_client().post("/api/v1/auth/token/", json={"username": "gm", "password": PASSWORD})
    assert response.status_code == 200, response.get_data(as_text=True)
    as_player = _wsgi_client().post("/api/v1/auth/token/", json={"username": "player", "password": PASSWORD})
    assert as_player.status_code == 200, as_player.get_data(as_text=True)
    characters = list(Character.objects.order_by("pk"))
    return World(
        token=response.get_json()["token"],
        player_token=as_player.get_json()["token"],
        campaign_id=[demo.pk, home.pk, other.pk, zerospace.pk, elsewhere.pk],
        character_id=[c.pk for c in characters],
        adventure_id=list(Adventure.objects.order_by("pk").values_list("pk", flat=True)),
        macguffin_id=list(MacGuffin.objects.order_by("pk").values_list("pk", flat=True)),
        job_id=list(Job.objects.order_by("pk").values_list("pk", flat=True)),
        transition_id=list(TransitionBatch.objects.order_by("pk").values_list("pk", flat=True)),
        treatment_id=list(Treatment.objects.order_by("pk").values_list("pk", flat=True)),
        encounter_id=list(Encounter.objects.order_by("pk").values_list("pk", flat=True)),
        setup_id=list(NpcSetup.objects.order_by("pk").values_list("pk", flat=True)),
        invitations=list(Invitation.objects.order_by("pk").values_list("campaign_id", "pk")),
        roll_id=list(Roll.objects.order_by("pk").values_list("pk", flat=True)),
        sheet_id=list(SystemSheet.objects.order_by("pk").values_list("pk", flat=True)),
        fight_id=list(SystemFight.objects.order_by("pk").values_list("pk", flat=True)),
        combatants=list(Combatant.objects.order_by("pk").values_list("encounter_id", "pk")),
        combat_events=list(CombatEvent.objects.order_by("pk").values_list("encounter_id", "pk")),
        tokens=list(BadNewsToken.objects.order_by("pk").values_list("adventure_id", "pk")),
        lines={kind: list(spec.model.objects.order_by("pk").values_list("character_id", "pk"))
               for kind, spec in ITEM_KINDS.items()},
        disadvantage_ids=list(Disadvantage.objects.order_by("pk").values_list("pk", flat=True)),
        history_ids=list(Character.history.order_by("history_id").values_list("history_id", flat=True)),
        usernames=["alice", "bob", "carol", "player", "viewer", "outsider", "gm2"],
    )


# --- The application, as schemathesis calls it -----------------------------------------
def _app():
    from django.core.wsgi import get_wsgi_application

    return get_wsgi_application()


def _wsgi_client():
    from werkzeug import Client

    return Client(_app())


@pytest.fixture
def in_process_requests():
    """Serve requests on the test's own connection and transaction, as Django's test client does.

    Django closes the connection after each request when autocommit is off (inside the test's
    transaction); the test client disconnects that handler, and so does this fixture. Server
    errors are turned into a 500 page, so their tracebacks are kept for the failure message.
    """
    errors: list[str] = []

    def keep_traceback(sender, request=None, **kwargs):
        errors.append("".join(traceback.format_exception(*sys.exc_info())))

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    signals.got_request_exception.connect(keep_traceback)
    try:
        yield errors
    finally:
        signals.got_request_exception.disconnect(keep_traceback)
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


# --- What must hold for every response --------------------------------------------------
def _table_fingerprint() -> dict[str, str]:
    """A digest of every row of every table of the checked apps (the data is small)."""
    from django.apps import apps

    tables = sorted({model._meta.db_table for model in apps.get_models()
                     if model._meta.app_label in CHECKED_APPS and model._meta.managed
                     and not model._meta.proxy})
    sql = " UNION ALL ".join(
        f"SELECT '{table}', md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \"{table}\" t"
        for table in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return dict(cursor.fetchall())


def _describe(case, response=None, server_errors=()) -> str:
    body = case.body.decode("ascii", "replace") if isinstance(case.body, bytes) else json.dumps(case.body, default=repr)
    lines = [f"{case.method.upper()} {case.formatted_path}",
             f"  query: {case.query!r}",
             f"  body ({case.media_type}): {body[:2000]}"]
    if response is not None:
        lines.append(f"  -> {response.status_code} {response.content[:1500]!r}")
    lines.extend(server_errors)
    return "\n".join(lines)


def _content_type(response) -> str:
    for name, values in response.headers.items():
        if name.lower() == "content-type":
            return values[0] if isinstance(values, list) else values
    return ""


def _check(case, response, server_errors, before, after) -> str:
    """Assert what must hold for one response; return how to count it in the statistics."""
    status = response.status_code
    if status == 503 and case.path.endswith("/sheet.pdf") and not PDF_AVAILABLE:
        return "503 no Pango"  # the server cannot lay out a PDF here; announced at the start
    assert status < 500, "Server error:\n" + _describe(case, response, server_errors)
    if status < 400:
        return str(status)
    what, tag = _describe(case, response), str(status)
    content_type = _content_type(response)
    assert content_type.startswith("application/json"), f"Error response is not JSON:\n{what}"
    try:
        payload = json.loads(response.content)
    except ValueError:
        pytest.fail(f"Error response is not valid JSON:\n{what}")
    assert isinstance(payload, dict) and isinstance(payload.get("errors"), dict), \
        f'Error response has no "errors" object:\n{what}'
    changed = sorted(table for table in before if before[table] != after.get(table))
    assert not changed, f"A refused request changed {changed}:\n{what}"
    return tag


# --- Generation ---------------------------------------------------------------------------
#: Body fields that name existing things, and where to find ids for them.
BODY_IDS = {
    "campaign": "campaign_id", "character": "character_id", "characters": "character_id",
    "selfish": "character_id", "disadvantage": "disadvantage_ids", "nullify": "disadvantage_ids",
    "worsen": "disadvantage_ids", "history_id": "history_ids", "username": "usernames",
}
#: Text that is not text, or that tools mishandle: JSON carries it as "\\ud800", "\\u0000"…
HOSTILE_TEXT = ["\ud800", "a\udfffb", "\x00", "a\x00b", "\u202e\ufeff", "\U0001F600" * 50]
#: Query parameters that name existing things.
QUERY_IDS = {"campaign": "campaign_id"}


def _case_strategy(operation, world: World):
    """Cases for one operation: mostly with existing path ids, sometimes with generated ones."""
    names = {p.name for p in operation.path_parameters}
    queries = {p.name for p in operation.query} & set(QUERY_IDS)
    fixed_paths = world.path_choices(operation.path, names) or [None]
    fixed_queries = [None] + [{name: str(value)} for name in queries for value in getattr(world, QUERY_IDS[name])]
    branches = [operation.as_strategy(mode, path_parameters=path, query=query)
                for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
                for path in fixed_paths for query in fixed_queries]
    if names:  # ids nobody has (or that are not integers at all)
        branches += [operation.as_strategy(mode) for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)]
    return st.one_of(branches)


def _with_existing_ids(data, body, world: World):
    """Now and then put ids of things that exist into the fields of a body that name them."""
    if not isinstance(body, dict):
        return body
    body = dict(body)
    for key in sorted(set(body) & set(BODY_IDS)):
        if not data.draw(st.booleans(), label=f"existing {key}"):
            continue
        pool = getattr(world, BODY_IDS[key])
        if isinstance(body[key], list):
            body[key] = data.draw(st.lists(st.sampled_from(pool), max_size=3, unique=True), label=key)
        else:
            body[key] = data.draw(st.sampled_from(pool), label=key)
    return body


def _with_hostile_text(data, body):
    """Now and then put hostile text in a key or a value of the body or of an object in it.

    Schemathesis generates only text that UTF-8 can carry; a client can send more than that.
    Such a body goes as the JSON text itself ("\\ud800" escapes), which schemathesis sends as is.
    """
    if not isinstance(body, dict) or data.draw(st.integers(0, 3), label="hostile text?") != 0:
        return body
    text = data.draw(st.sampled_from(HOSTILE_TEXT), label="hostile text")
    body = target = dict(body)
    objects = sorted(key for key, value in body.items() if isinstance(value, dict))
    if objects and data.draw(st.booleans(), label="in an object of the body"):
        key = data.draw(st.sampled_from(objects))
        target = body[key] = dict(body[key])
    if target and data.draw(st.booleans(), label="as a value"):
        target[data.draw(st.sampled_from(sorted(target)))] = text
    else:
        target[text] = 1
    return json.dumps(body).encode()


# --- The test -------------------------------------------------------------------------------
@pytest.fixture
def api_schema(world, in_process_requests):
    """The OpenAPI schema the app serves, bound to the WSGI app."""
    return schemathesis.openapi.from_wsgi(SCHEMA_PATH, _app())


def _coverage_cases(schema, operation, world: World) -> list:
    """Schemathesis' deterministic boundary cases (its coverage phase), on existing path ids.

    They include every boundary of every field, missing and mistyped fields, methods the path
    does not allow and bodies of other media types. Where a case's path ids are whole numbers
    they are replaced, in turn, by ids that exist; mistyped ones ("0.5", "null") stay as they are.
    """
    config = schema.config.generation_for(operation=operation, phase="coverage")
    cases = list(schema.iter_coverage_cases(
        operation, generation_modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], generation_config=config))
    choices = world.path_choices(operation.path, {p.name for p in operation.path_parameters})
    for number, case in enumerate(cases):
        values = (case.path_parameters or {}).values()
        if choices and all(str(v).isascii() and str(v).isdigit() for v in values):
            case.path_parameters = dict(choices[number % len(choices)])
    return cases


@pytest.mark.fuzz
@pytest.mark.timeout(900)  # one test over every operation: its time grows with the API, not a hang
@pytest.mark.parametrize("persona", ["gm", "player"])
def test_every_operation_survives_generated_requests(api_schema, world, in_process_requests, subtests, persona):
    server_errors = in_process_requests
    auth = {"Authorization": f"Token {world.token if persona == 'gm' else world.player_token}"}
    operations, broken = [], []
    for result in api_schema.get_all_operations():
        if isinstance(result, Ok):
            operations.append(result.ok())
        else:
            broken.append(result.err())
    assert not broken, f"Operations the schema describes but schemathesis cannot test: {broken}"
    assert len(operations) >= 60, f"Only {len(operations)} operations in {SCHEMA_PATH}"
    if not PDF_AVAILABLE:
        if os.environ.get("REQUIRE_BROWSER"):  # as characters/tests/test_pdf.py: CI must lay out PDFs
            pytest.fail("WeasyPrint cannot load Pango and REQUIRE_BROWSER is set")
        sys.stderr.write("\n" + "!" * 78 + "\nAPI FUZZ: no Pango here, so sheet.pdf answers 503 and is only "
                         "fuzzed up to its access checks\n" + "!" * 78 + "\n")
    failed, statuses, reached = [], {}, Counter()
    #: Responses that disagree with the schema, by operation and kind: the first of each is kept.
    violations: dict[tuple[str, str], str] = {}

    def conforms(case, response) -> None:
        try:
            case.validate_response(response, checks=[status_code_conformance, content_type_conformance,
                                                     response_schema_conformance])
        except (FailureGroup, AssertionError) as failure:  # a group of failures, each with a title
            causes = getattr(failure, "exceptions", None) or [failure]
            for cause in causes:
                title = getattr(cause, "title", type(cause).__name__)
                violations.setdefault((case.operation.label, title),
                                      f"{title}: {str(cause)[:600]}\n{_describe(case, response)}")

    def send(case, counts: Counter) -> None:
        server_errors.clear()
        with transaction.atomic():  # a savepoint: whatever the request does is undone below
            before = _table_fingerprint()
            response = case.call(headers=auth)
            after = _table_fingerprint() if 400 <= response.status_code < 500 else before
            transaction.set_rollback(True)
        tag = _check(case, response, list(server_errors), before, after)
        # Requests with a method the operation does not have (schemathesis tries them) count apart.
        own_method = case.method.upper() == case.operation.method.upper()
        if own_method and not tag.startswith("503 no Pango"):
            conforms(case, response)
        counts[tag if own_method else f"{tag} {case.method.upper()}"] += 1
        reached[case.operation.label] += own_method and response.status_code not in (404, 405)

    for operation in operations:
        label = f"{operation.method.upper()} {operation.path}"
        counts = statuses[label] = Counter()
        strategy = _case_strategy(operation, world)

        @FUZZ_SETTINGS
        @given(data=st.data())
        def fuzz(data):
            case = data.draw(strategy, label="case")
            case.body = _with_hostile_text(data, _with_existing_ids(data, case.body, world))
            send(case, counts)

        with subtests.test(msg=label):
            try:
                for case in _coverage_cases(api_schema, operation, world):
                    send(case, counts)
                fuzz()
                # Fixed path ids exist: an operation whose handler never answered tested nothing. (As a
                # player most ids are other campaigns' and answer 404: the GM's run reaches them all;
                # the player's is there for what the schema promises a player and for no 5xx.)
                assert persona != "gm" or reached[operation.label], \
                    f"{label}: no request got past the routing and access checks ({dict(counts)})"
            except BaseException:
                failed.append(label)
                raise
    summary = "\n".join(f"{label}: {dict(sorted(c.items()))}" for label, c in statuses.items())
    print(f"Responses per operation (coverage cases + {MAX_EXAMPLES} fuzzed):\n{summary}")  # shown with -s
    assert not failed, f"{len(failed)} operations failed: {failed}\n\nStatuses per operation:\n{summary}"
    assert not violations, (f"{len(violations)} kinds of responses disagree with the schema:\n\n"
                            + "\n\n".join(violations.values()))


# --- Errors are JSON everywhere under /api/ ----------------------------------------------
def test_a_path_under_the_api_that_no_route_matches_answers_json(db, client):
    response = client.get("/api/v1/characters/not-a-number/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json") and response.json()["errors"]


def test_a_refused_pdf_request_is_labelled_json(personas, api_as):
    response = api_as("gm").get("/api/v1/characters/999999999/sheet.pdf?format=pdf")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]


@pytest.mark.parametrize("fmt", ["json", "xml", ""])
def test_the_sheet_comes_as_pdf_only(personas, api_as, make_character, fmt):
    character = make_character("player")
    response = api_as("gm").get(f"/api/v1/characters/{character.pk}/sheet.pdf?format={fmt}")
    assert response.status_code == 400 and response["Content-Type"].startswith("application/json")
    assert response.json() == {"errors": {"format": [
        "The sheet comes as pdf only: leave format out or send format=pdf."]}}


def test_the_schema_documents_every_error_with_the_one_error_body(db, client):
    schema = client.get(SCHEMA_PATH, {"format": "json"}).json()
    assert schema["components"]["schemas"]["Errors"]["required"] == ["errors"]
    operations = [(path, method, op) for path, methods in schema["paths"].items()
                  for method, op in methods.items() if method in {"get", "post", "put", "patch", "delete"}]
    assert len(operations) >= 60
    for path, method, op in operations:
        statuses = set(op["responses"])
        assert {"400", "404", "414", "431"} <= statuses, (method, path)
        if method != "get":
            assert {"409", "413", "415"} <= statuses, (method, path)
        for status, response in op["responses"].items():
            if status[0] in "45":
                assert response["content"] == {"application/json": {"schema": {
                    "$ref": "#/components/schemas/Errors"}}}, (method, path, status)
