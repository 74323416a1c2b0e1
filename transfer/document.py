"""The campaign document, format ``zenergate-campaign`` version 1: what it holds and how rows name each other.

Each list in the document is the rows of one table. A row holds the model's own columns as
they are (``Table.fields``: every column but the id, the relations and what ``without`` leaves
out), the users it names by username, and the rows it names by their document key
("character-1"), never by a database id. Timestamps are written (ISO 8601) and restored, because
rules read them (a disadvantage removed "since the last adventure closed", a revert "to that
moment").

Every list is optional, read as empty when left out: a list added later (``rolls``, the roll
feed) needs no new version, and a document written before it imports with an empty feed. The
campaign's ``rule_set`` and ``rulings`` must be ones this server's rule sets know, or the copy
could not roll a check.

Deliberately left out:

- ``Event``, the live stream: runtime state. Pages on the new server start listening after its
  own last id; every lasting change the stream announced is in the rows themselves. Likewise
  the page cache's counter (``PageVersion``): it belongs to this server's cache.
- ``Job``'s queue bookkeeping (``heartbeat_at``, ``sends``), and jobs that are still queued or
  running: the export waits for them (409). Finished downtimes are exported with their claims.
- ``Membership.joined_at``: when someone joined the copy is when it was imported.
- Cached values rebuilt from the ledger: ``Character.karma`` and ``KarmaEntry.balance_after``.
- Log entries of the import itself (action ``campaign.import``): a server's note that it
  received a copy, not part of the campaign; the next server writes its own.
- Users: only their usernames travel; passwords and tokens stay on their server.
- What a blow of another rule set's fight kept for its undo (the conditions before and after,
  the ledger lines it wrote): a blow in a copy is a record, not something to undo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from django.db import models

from campaign.models import Campaign, Event, GameSession, Job, LogEntry, Membership, SessionNote
from characters.items import ITEM_KINDS
from characters.models import Character, PoolEntry, SystemSheet
from combat.models import Combatant, CombatEvent, Encounter, NpcSetup, SystemFight
from downtime.models import (
    DowntimeClaim,
    SheetClaim,
    Therapy,
    TransitionBatch,
    TransitionRecord,
    Treatment,
)
from economy.models import Adventure, BadNewsToken, Complication, KarmaEntry, MacGuffin
from rolls.models import Roll

from .references import Drop, Each, Fields, Keys, Ref, Values

FORMAT = "zenergate-campaign"
VERSION = 1
#: The action of the log entry an import writes (never exported, see the module docstring).
IMPORT_ACTION = "campaign.import"
#: The idempotency key the app gives an adventure's payout names the adventure by id; the
#: document writes the adventure's key after this prefix instead (economy.adventures).
PAYOUT_KEY = "system:payout:"
#: The longest document key accepted ("character-12" is what the export writes).
MAX_KEY_LENGTH = 64


@dataclass(frozen=True)
class Table:
    """How one model's rows are written in the document."""

    model: type[models.Model]
    #: The kind of key its rows carry ("character"), when other rows name them.
    key: str | None = None
    #: Foreign keys to users, written as usernames.
    users: tuple[str, ...] = ()
    #: Foreign keys to other rows of the document: field → the kind of key it holds.
    refs: dict[str, str] = field(default_factory=dict)
    #: JSON columns holding references: field → spec, or a function of the row's values → spec.
    blobs: dict[str, object] = field(default_factory=dict)
    #: The model's own columns the document leaves out (derived or runtime; see the docstring).
    without: tuple[str, ...] = ()
    #: Foreign keys the document says by nesting: the campaign, the row a list is inside.
    implied: tuple[str, ...] = ()
    #: Fields documents of this version may still carry though the model dropped them: read
    #: and ignored, so an older export still imports.
    retired: tuple[str, ...] = ()
    #: Names the document uses instead of the field's own.
    names: dict[str, str] = field(default_factory=dict)
    #: Foreign keys to another line of the same character, written as that line's number
    #: (``LINE``): field → the kind of line.
    line_refs: dict[str, str] = field(default_factory=dict)
    #: Foreign keys to an earlier row of the same list, written as that row's place in it (0, 1, …).
    index_refs: tuple[str, ...] = ()

    @cached_property
    def fields(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.model._meta.concrete_fields
                     if not f.primary_key and not f.is_relation and f.name not in self.without)

    def name(self, field_name: str) -> str:
        return self.names.get(field_name, field_name)

    def blob_spec(self, field_name: str, values: dict):
        spec = self.blobs.get(field_name)
        return spec(values) if isinstance(spec, Callable) else spec


# --- References inside JSON columns ---------------------------------------------------------
COMBATANT = Ref("combatant")
#: A log entry's data: the rows it was about ("id" and "history_id" name a sheet line or a
#: history row by id, which the document does not carry).
LOG_DATA = Fields({
    "character": Ref("character"), "characters": Each(Ref("character")), "user": Ref("user"),
    "adventure": Ref("adventure"), "macguffin": Ref("macguffin"), "complication": Ref("complication"),
    "entry": Ref("entry"), "encounter": Ref("encounter"), "event": Ref("event"), "therapy": Ref("therapy"),
    "job": Ref("downtime"), "batch": Ref("transition"), "treatment": Ref("treatment"),
    "sheet": Ref("sheet"), "fight": Ref("system_fight"), "session": Ref("session"),
    "id": Drop(), "history_id": Drop(),
})
#: A ledger entry's data: who an assist helped, which disadvantage a rank came off (a line of
#: the entry's own character, by its line number: see ``LINE``).
LEDGER_DATA = Fields({"helped": Ref("character"), "disadvantage": Ref("disadvantage")})
#: What a combat event changed, kept for undo (combat.log.Changes).
CHANGES = Fields({
    "encounter": Fields({"order": Each(COMBATANT)}),
    "combatants": Keys("combatant", Fields({"follow_up": Keys("combatant")})),
    "characters": Keys("character"),
})
_ONE_COMBATANT = Fields({"combatant": COMBATANT})
#: A combat event's data by its kind (combat.services, combat.attacks).
EVENT_DATA = {
    "join": _ONE_COMBATANT, "update": _ONE_COMBATANT, "act_now": _ONE_COMBATANT, "reaction": _ONE_COMBATANT,
    "dying": _ONE_COMBATANT,
    "turn": Fields({"acting": COMBATANT}),
    "initiative": Fields({"order": Each(Fields({"combatant": COMBATANT})), "micro_time": Each(Each(COMBATANT)),
                          "dice": Keys("combatant")}),
    "attack": Fields({"attacker": COMBATANT, "target": COMBATANT}),
    # The request's weapon is the attacker's: see ``REQUEST_WEAPON``.
    "request": Fields({"request": Fields({"attacker": COMBATANT, "target": COMBATANT})}),
    "refused": Fields({"request": Ref("event")}),
    "undo": Fields({"undone": Ref("event")}),
}
#: A waiting attack request names its weapon: a character's weapon by id (here: its line
#: number, ``LINE``), an NPC's by its index in the stat block, or any weapon by name.
REQUEST_WEAPON = ("request", "weapon")
_THERAPY_USED = Fields({"therapy": Ref("therapy")})
DOWNTIME_PARAMS = Fields({"characters": Each(Ref("character")), "sheets": Each(Ref("sheet")),
                          "plans": Keys("character", Fields({"treatments": Each(_THERAPY_USED)}))})
CLAIM_REPORT = Fields({"character": Ref("character"), "treatments": Each(_THERAPY_USED)})
TRANSITION_RESPONSE = Fields({"id": Ref("transition"), "characters": Each(Fields({
    "character": Ref("character"), "karma_entry": Ref("entry")}))})


def _event_data(values: dict):
    return EVENT_DATA.get(values.get("kind"))


# --- The tables -----------------------------------------------------------------------------
CAMPAIGN = Table(Campaign)
MEMBER = Table(Membership, users=("user",), without=("joined_at",),
               implied=("campaign",), names={"user": "username"})
CHARACTER = Table(Character, key="character", users=("owner",), without=("karma",), implied=("campaign",))
#: Sheet lines by kind, as the API names them ("skills", "armour", …).
#: A weapon names the weapon skill that covers it by that skill's line number.
LINES = {kind: Table(spec.model, implied=("character",), line_refs={"skill": "skills"} if kind == "weapons" else {})
         for kind, spec in ITEM_KINDS.items()}
#: A sheet line is named by its line number: lines on the sheet are numbered by their place in
#: the list (0, 1, …), lines only in the history (removed since) after them, as they first appear.
LINE = "line"
SHEET_HISTORY = Table(Character.history.model, users=("owner", "history_user"), without=("id",),
                      implied=("campaign",))
LINE_HISTORY = {kind: Table(spec.model.history.model, users=("history_user",), without=("id",),
                            implied=("character",), line_refs=LINES[kind].line_refs)
                for kind, spec in ITEM_KINDS.items()}
ADVENTURE = Table(Adventure, key="adventure", implied=("campaign",))
TOKEN = Table(BadNewsToken, implied=("adventure",))
MACGUFFIN = Table(MacGuffin, key="macguffin", refs={"funded_during": "adventure"}, implied=("campaign",))
LEDGER = Table(KarmaEntry, key="entry", users=("by",), without=("balance_after",), implied=("campaign",),
               refs={"character": "character", "adventure": "adventure", "macguffin": "macguffin"},
               blobs={"data": LEDGER_DATA})
COMPLICATION = Table(Complication, key="complication", users=("by",), refs={"character": "character"},
                     implied=("campaign",))
ENCOUNTER = Table(Encounter, key="encounter", blobs={"order": Each(COMBATANT)}, implied=("campaign",))
FIGHTER = Table(Combatant, key="combatant", refs={"character": "character"},
                blobs={"follow_up": Keys("combatant")}, implied=("encounter",),
                # A fighter's "dying" is read from its wounds now (combat.fighters.Fighter.dying).
                retired=("dying",))
COMBAT_LOG = Table(CombatEvent, key="event", users=("by", "audience_user"), refs={"undoes": "event", "answers": "event"},
                   blobs={"data": _event_data, "gm_data": _event_data, "before": CHANGES, "after": CHANGES},
                   implied=("encounter",))
NPC_SETUP = Table(NpcSetup, implied=("campaign",))
THERAPY = Table(Therapy, key="therapy", users=("created_by",), implied=("campaign",))
DOWNTIME = Table(Job, key="downtime", users=("created_by",), without=("kind", "heartbeat_at", "sends"),
                 blobs={"params": DOWNTIME_PARAMS}, implied=("campaign",))
CLAIM = Table(DowntimeClaim, refs={"character": "character"}, blobs={"report": CLAIM_REPORT}, implied=("job",))
TREATMENT = Table(Treatment, key="treatment", users=("by",), implied=("campaign",),
                  refs={"character": "character", "therapy": "therapy", "job": "downtime"},
                  blobs={"outcome": _THERAPY_USED}, names={"job": "downtime"})
TRANSITION = Table(TransitionBatch, key="transition", users=("by",), blobs={"response": TRANSITION_RESPONSE},
                   implied=("campaign",))
TRANSITION_RECORD = Table(TransitionRecord, refs={"character": "character", "delay_entry": "entry"},
                          blobs={"outcome": Fields({"character": Ref("character")})}, implied=("batch",))
#: The other rule sets: sheets with their resources' ledger and history, fights, what downtimes did.
SYSTEM_SHEET = Table(SystemSheet, key="sheet", users=("owner",), implied=("campaign",))
POOL_ENTRY = Table(PoolEntry, users=("by",), implied=("sheet", "campaign"))
SYSTEM_SHEET_HISTORY = Table(SystemSheet.history.model, users=("owner", "history_user"), without=("id",),
                             implied=("campaign",))
BLOWS = Each(Fields({"before": Drop(), "after": Drop(), "entries": Drop()}))
SYSTEM_FIGHT = Table(SystemFight, key="system_fight", blobs={"fighters": Values("sheet"), "blows": BLOWS},
                     implied=("campaign",))
SHEET_CLAIM = Table(SheetClaim, refs={"sheet": "sheet"}, blobs={"report": Fields({"sheet": Ref("sheet")})},
                    implied=("job",))
HISTORY = Table(LogEntry, users=("actor", "audience_user"), blobs={"data": LOG_DATA}, implied=("campaign",))
#: Game nights, with their recap (a draft until ``published_at``) and the members' notes on each.
SESSION = Table(GameSession, key="session", implied=("campaign",))
SESSION_NOTE = Table(SessionNote, users=("author",), implied=("session",))
#: The roll feed, oldest first (the copy's ids keep that order); its JSON columns (a check's
#: inputs, the dice, the breakdown) name no rows.
#: A roll from a sheet names its character; a Karma reroll the roll it replaced, by its place in
#: the list (rolls are oldest first, so always an earlier one).
ROLL = Table(Roll, users=("by", "audience_user"), implied=("campaign",), refs={"character": "character"},
             index_refs=("reroll_of",))

#: Where an imported row keeps the names of authors with no account here (``recorded_by``).
RECORDED_AUTHORS = {Roll: "detail", KarmaEntry: "data"}
#: A history record keeps its author's name as its change reason: "by bob (imported)".
RECORDED_HISTORY_AUTHOR = {SHEET_HISTORY.model, *(table.model for table in LINE_HISTORY.values())}


def imported_author(name: str) -> str:
    """The change reason of a history record whose author has no account here."""
    return f"by {name} (imported)"[:100]

#: The tables the document holds, by model label.
EXPORTED: dict[str, Table] = {table.model._meta.label: table for table in (
    CAMPAIGN, MEMBER, CHARACTER, *LINES.values(), SHEET_HISTORY, *LINE_HISTORY.values(), ADVENTURE, TOKEN,
    MACGUFFIN, LEDGER, COMPLICATION, ENCOUNTER, FIGHTER, COMBAT_LOG, NPC_SETUP, THERAPY, DOWNTIME, CLAIM, TREATMENT,
    TRANSITION, TRANSITION_RECORD, HISTORY, ROLL, SYSTEM_SHEET, POOL_ENTRY, SYSTEM_SHEET_HISTORY, SYSTEM_FIGHT,
    SHEET_CLAIM, SESSION, SESSION_NOTE)}
#: The tables of the campaign's apps the document leaves out, and why.
NOT_EXPORTED: dict[str, str] = {
    Event._meta.label: "the live stream is runtime state: pages on the new server listen from its own last id",
    "campaign.PageVersion": "a cache counter of this server's rendered pages",
    "campaign.OneTimePassword": "an account's state on this server, not the campaign's",
    "campaign.Invitation": "links into this server's copy: the import invites the document's members afresh",
}

#: The top level of a document, in the order the export writes it.
TOP_LEVEL = ("format", "version", "exported_at", "campaign", "members", "characters", "sheets", "adventures",
             "pools", "ledger", "complications", "encounters", "npc_setups", "system_fights",
             "therapies", "downtimes", "treatments", "transitions", "sessions",
             "history", "rolls")
