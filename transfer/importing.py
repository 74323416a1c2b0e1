"""Turn a campaign document into the rows of a new campaign (see ``document`` for its shape).

Everything is read and checked before anything is written. Ids are taken from each table's
sequence up front, so every document key can become an id while rows are being checked, and
rows that name each other (an undo and the event it undid) need no second pass. The caller
(``services.import_campaign``) runs this in one transaction.
"""

from __future__ import annotations

import time
from collections import defaultdict

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

from campaign.models import Campaign, GameSession, Job, LogEntry, Membership, SessionNote
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
from zenergate_site.text import validate_name

from . import document as doc
from .checks import (
    BadValue,
    Problems,
    check_constraints,
    check_rule_set,
    column_value,
    default_for,
    is_moment,
    scan,
    shown,
)
from .errors import TransferError
from .references import translate
from .storage import allocate, insert


def _list(value, path: str, problems: Problems) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        problems.add(path, _("Expected a list."))
        return []
    return value


def _nested(rows: list, name: str) -> int:
    return sum(len(row[name]) for row in rows if isinstance(row, dict) and isinstance(row.get(name), list))


class Importer:
    """Reads one document into unsaved rows with their ids; ``save`` writes them."""

    def __init__(self, document, user):
        self.document, self.user = document, user
        self.problems = Problems()
        # The budget of one check: its rows, and its CPU time (IMPORT_MAX_ROWS, IMPORT_CHECK_SECONDS);
        # the document's bytes are bounded before it is parsed (DATA_UPLOAD_MAX_MEMORY_SIZE).
        self.rows_read, self.started = 0, time.process_time()
        #: kind → document key → id. ``scope`` holds the combatants and events of one encounter.
        self.ids: dict[str, dict[str, int]] = defaultdict(dict)
        self.scope: dict[str, dict[str, int]] = {}
        #: model → [(unsaved row, its path)], in the order they are written.
        self.rows: dict[type[models.Model], list[tuple[models.Model, str]]] = defaultdict(list)
        self.names: dict[type[models.Model], doc.Table] = {}
        self._users: dict[str, int | None] = {}
        #: character id → line kind → {line number: line id}.
        self.lines: dict[int, dict[str, dict[int, int]]] = defaultdict(dict)
        #: character id → line kind → how many lines are on the sheet (the rest are history only)
        self.line_counts: dict[int, dict[str, int]] = defaultdict(dict)
        self.characters: dict[int, Character] = {}
        #: Everyone the document names besides the importer (members, characters' owners), in order.
        self.named: list[str] = []
        #: Each character held for a person the document names: (its name, theirs).
        self.held: list[tuple[str, str]] = []

    def _name(self, username: str) -> None:
        if username not in self.named:
            self.named.append(username)

    def _spend(self, path: str) -> None:
        """Count a row against the check's budget; past it, refuse the document at once."""
        self.rows_read += 1
        if self.rows_read > settings.IMPORT_MAX_ROWS:
            raise TransferError({"detail": [_("The document has more than %(n)s rows, the most this server imports at "
                                              "once.") % {"n": f"{settings.IMPORT_MAX_ROWS:,}"}]})
        if self.rows_read % 64 == 0 and time.process_time() - self.started > settings.IMPORT_CHECK_SECONDS:
            raise TransferError({path or "detail": [_("Checking the document took more than %(seconds)s s; nothing "
                                                      "was imported.") % {"seconds": f"{settings.IMPORT_CHECK_SECONDS:g}"}]})

    # --- Reading ----------------------------------------------------------------------------
    def read(self) -> Campaign:
        """Check the whole document and build its rows; raise TransferError naming every problem."""
        d = self.document
        if not isinstance(d, dict):
            self.problems.add("detail", _("Expected a JSON object: a campaign document."))
            self.problems.raise_any()
        scan(d, self.problems)
        self.problems.raise_any()
        for key in d:
            if key not in doc.TOP_LEVEL:
                self.problems.add(shown(key), _("Unknown field."))
        if d.get("format") != doc.FORMAT:
            self.problems.add("format", _("Expected \"%(format)s\": this is not a campaign document.") % {"format": doc.FORMAT})
        version = d.get("version")
        if isinstance(version, bool) or version != doc.VERSION:
            self.problems.add("version", _("This server reads version %(version)s of the format, not %(given)r.")
                              % {"version": doc.VERSION, "given": version})
        if "exported_at" in d and not is_moment(d["exported_at"]):
            self.problems.add("exported_at", _("Expected a date and time with its time zone (ISO 8601)."))
        self.problems.raise_any()
        (campaign_id,) = allocate(Campaign, 1)
        self.campaign = self.row(d.get("campaign"), "campaign", doc.CAMPAIGN, pk=campaign_id)
        if self.campaign is not None:
            check_rule_set(self.campaign, "campaign", self.problems)
        self.read_members(_list(d.get("members"), "members", self.problems))
        self.read_characters(_list(d.get("characters"), "characters", self.problems))
        self.read_sheets(_list(d.get("sheets"), "sheets", self.problems))
        self.read_adventures(_list(d.get("adventures"), "adventures", self.problems))
        self.read_rows(d, "pools", doc.MACGUFFIN)
        self.read_ledger(_list(d.get("ledger"), "ledger", self.problems))
        self.read_rows(d, "complications", doc.COMPLICATION)
        self.read_encounters(_list(d.get("encounters"), "encounters", self.problems))
        self.read_rows(d, "npc_setups", doc.NPC_SETUP)
        self.read_rows(d, "system_fights", doc.SYSTEM_FIGHT)
        self.read_rows(d, "therapies", doc.THERAPY)
        self.read_parents(d, "downtimes", doc.DOWNTIME, {"claims": doc.CLAIM, "sheet_claims": doc.SHEET_CLAIM},
                          status_check=True)
        self.read_rows(d, "treatments", doc.TREATMENT)
        self.read_parents(d, "transitions", doc.TRANSITION, {"records": doc.TRANSITION_RECORD})
        self.read_parents(d, "sessions", doc.SESSION, {"notes": doc.SESSION_NOTE})  # before the log that names them
        self.read_rows(d, "history", doc.HISTORY, allocate_ids=False)
        self.read_rows(d, "rolls", doc.ROLL)
        for model, rows in self.rows.items():
            table = self.names[model]
            check_constraints(rows, self.problems, names=table.name)
        self.problems.raise_any()
        return self.campaign

    def user_id(self, username: str) -> int | None:
        """The importer's id for the importer's own name; None for anyone else.

        A document must not act for other people: naming an account here does not make that
        person a member, an owner or the author of an entry, roll or history line. Such a name
        is kept as text where the row has room for it (the log's data), never as a link.
        """
        return self.user.pk if username == self.user.username else None

    def resolve(self, kind: str, value, path: str):
        """Return the id a reference names (or a user's id, None when there is no such user)."""
        if kind == "user":
            if not isinstance(value, str):
                self.problems.add(path, _("Expected a username."))
                return None
            return self.user_id(value)
        if kind == "session" and isinstance(value, int) and not isinstance(value, bool):
            return None  # a log line of a document written before game nights travelled: this server's id
        if not isinstance(value, str):
            self.problems.add(path, _("Expected the key of a %(kind)s.") % {"kind": kind})
            return None
        known = self.scope[kind] if kind in self.scope else self.ids[kind]
        if value not in known:
            self.problems.add(path, (_("No %(kind)s in this encounter has the key %(key)r.") if kind in self.scope
                                     else _("No %(kind)s has the key %(key)r.")) % {"kind": kind, "key": shown(value)})
            return None
        return known[value]

    def row(self, value, path: str, table: doc.Table, *, resolve=None, extra: tuple[str, ...] = (),
            pk: int | None = None, keep: bool = True, **fixed):
        """Return an unsaved row of ``table`` from the document's ``value`` (None if it is no object).

        ``keep``: write it with the others (members are written as the people found instead).
        """
        model = table.model
        self.names[model] = table
        self._spend(path)
        if not isinstance(value, dict):
            self.problems.add(path, _("Expected an object."))
            return None
        resolve = resolve or self.resolve
        allowed = {table.name(n) for n in (*table.fields, *table.users, *table.refs)} | set(extra) | set(table.retired)
        if table.key:
            allowed.add("key")
        for name in value:
            if name not in allowed:
                self.problems.add(f"{path}.{shown(name)}", _("Unknown field."))
        meta, attrs = model._meta, {}
        for name in table.fields:
            field, where = meta.get_field(name), f"{path}.{table.name(name)}"
            try:
                attrs[name] = (column_value(field, value[table.name(name)]) if table.name(name) in value
                               else default_for(field))
            except BadValue as exc:
                self.problems.add(where + exc.inside, str(exc))
        for name in table.blobs:
            spec = table.blob_spec(name, attrs)
            if spec is not None and attrs.get(name) is not None:
                attrs[name] = translate(attrs[name], spec, resolve, f"{path}.{table.name(name)}", self.problems.add)
        for name, kind in table.refs.items():
            field, where = meta.get_field(name), f"{path}.{table.name(name)}"
            named = value.get(table.name(name))
            if named is None and not field.null:
                self.problems.add(where, _("This field is required."))
            attrs[field.attname] = None if named is None else resolve(kind, named, where)
        recorded = {}
        for name in table.users:
            field, where = meta.get_field(name), f"{path}.{table.name(name)}"
            named = value.get(table.name(name))
            attrs[field.attname] = None if named is None else self.resolve("user", named, where)
            if isinstance(named, str) and attrs[field.attname] is None:
                recorded[table.name(name)] = named
        # Someone else's name is kept as the text it was (feed and ledger show "bob (imported)"),
        # in the row's own JSON column where it has one: never a link to an account here.
        column = doc.RECORDED_AUTHORS.get(model)
        if recorded and column is not None and isinstance(attrs.get(column) or {}, dict):
            attrs[column] = {**(attrs.get(column) or {}), "recorded_by": recorded}
        if "history_user" in recorded and model in doc.RECORDED_HISTORY_AUTHOR:
            attrs["history_change_reason"] = doc.imported_author(recorded["history_user"])
        for name in ("name",):
            if name in table.fields and isinstance(attrs.get(name), str):
                try:
                    validate_name(attrs[name])
                except ValidationError as exc:
                    self.problems.add(f"{path}.{table.name(name)}", exc.messages[0])
        instance = model(pk=pk, **attrs, **fixed)
        if keep:
            self.rows[model].append((instance, path))
        return instance

    def keys(self, rows: list, path: str, kind: str, ids: list[int]) -> None:
        """Take the keys of a list of rows first, so that rows may name each other in any order."""
        known = self.scope[kind] if kind in self.scope else self.ids[kind]
        for i, (value, pk) in enumerate(zip(rows, ids, strict=True)):
            key, where = value.get("key") if isinstance(value, dict) else None, f"{path}[{i}].key"
            if not isinstance(key, str) or not 1 <= len(key) <= doc.MAX_KEY_LENGTH:
                self.problems.add(where, _("Give every row a key: text of 1–%(n)s characters.") % {"n": doc.MAX_KEY_LENGTH})
            elif key in self.ids[kind]:
                self.problems.add(where, _("Another %(kind)s has the key %(key)r already.") % {"kind": kind, "key": shown(key)})
            else:
                known[key] = self.ids[kind][key] = pk

    def read_rows(self, d: dict, name: str, table: doc.Table, *, allocate_ids: bool = True) -> None:
        """A list of the campaign's rows that hold no list inside."""
        rows = _list(d.get(name), name, self.problems)
        ids = allocate(table.model, len(rows)) if allocate_ids else [None] * len(rows)
        if table.key:
            self.keys(rows, name, table.key, ids)
        for i, (value, pk) in enumerate(zip(rows, ids, strict=True)):
            row = self.row(value, f"{name}[{i}]", table, pk=pk, campaign_id=self.campaign_pk, extra=table.index_refs)
            for ref in table.index_refs:  # an earlier row of this list, by its place in it
                place = value.get(ref) if row is not None else None
                if place is None:
                    continue
                if isinstance(place, bool) or not isinstance(place, int) or not 0 <= place < i or ids[place] is None:
                    self.problems.add(f"{name}[{i}].{ref}", _("Expected the place of an earlier row of this list "
                                                               "(0 for the first), or null."))
                else:
                    setattr(row, f"{ref}_id", ids[place])

    @property
    def campaign_pk(self) -> int:
        return self.campaign.pk if self.campaign is not None else None

    def read_parents(self, d: dict, name: str, table: doc.Table, children: dict[str, doc.Table],
                     status_check: bool = False) -> None:
        """Rows with lists of rows inside (downtimes and their claims, transitions and records)."""
        rows = _list(d.get(name), name, self.problems)
        ids = allocate(table.model, len(rows))
        self.keys(rows, name, table.key, ids)
        for i, (value, pk) in enumerate(zip(rows, ids, strict=True)):
            path = f"{name}[{i}]"
            parent = self.row(value, path, table, pk=pk, extra=tuple(children), campaign_id=self.campaign_pk,
                              **({"kind": Job.Kind.DOWNTIME} if status_check else {}))
            if parent is None:
                continue
            if status_check and parent.status not in (Job.Status.DONE, Job.Status.FAILED):
                self.problems.add(f"{path}.status", _("Only finished downtimes (done or failed) can be imported."))
            for child_name, child in children.items():
                for j, item in enumerate(_list(value.get(child_name), f"{path}.{child_name}", self.problems)):
                    self.row(item, f"{path}.{child_name}[{j}]", child, **{child.implied[0] + "_id": pk})

    def read_sheets(self, rows: list) -> None:
        """The other rule sets' sheets, each with its resources' ledger and its history. A sheet
        whose player has no account here is the importer's, as a character is."""
        ids = allocate(SystemSheet, len(rows))
        self.keys(rows, "sheets", "sheet", ids)
        for i, (value, pk) in enumerate(zip(rows, ids, strict=True)):
            path = f"sheets[{i}]"
            sheet = self.row(value, path, doc.SYSTEM_SHEET, pk=pk, extra=("entries", "history"),
                             campaign_id=self.campaign_pk)
            if sheet is None:
                continue
            if sheet.owner_id is None:
                sheet.owner = self.user
            for j, item in enumerate(_list(value.get("entries"), f"{path}.entries", self.problems)):
                self.row(item, f"{path}.entries[{j}]", doc.POOL_ENTRY, sheet_id=pk, campaign_id=self.campaign_pk)
            for j, record in enumerate(_list(value.get("history"), f"{path}.history", self.problems)):
                past = self.row(record, f"{path}.history[{j}]", doc.SYSTEM_SHEET_HISTORY, id=pk,
                                campaign_id=self.campaign_pk)
                if past is not None and past.owner_id is None:
                    past.owner_id = sheet.owner_id

    # --- Members and characters -------------------------------------------------------------
    def read_members(self, rows: list) -> None:
        self.memberships = [Membership(campaign_id=self.campaign_pk, user=self.user, role=Membership.Role.GM)]
        seen = set()
        for i, value in enumerate(rows):
            path = f"members[{i}]"
            member = self.row(value, path, doc.MEMBER, keep=False, campaign_id=self.campaign_pk)
            if member is None:
                continue
            username = value.get("username")
            if not isinstance(username, str):
                self.problems.add(f"{path}.username", _("Expected a username."))
            elif username in seen:
                self.problems.add(f"{path}.username", _("%(name)s is listed twice.") % {"name": shown(username)})
            else:
                seen.add(username)
                if username == self.user.username:
                    continue  # the caller is the copy's GM already
                # Nobody joins through a document, whatever role it says: the importer confirms
                # whom to invite, as players (transfer.services.import_invite).
                self._name(username)

    def read_characters(self, rows: list) -> None:
        ids = allocate(Character, len(rows))
        self.keys(rows, "characters", "character", ids)
        lines: dict[str, list] = defaultdict(list)  # kind → [(character id, path, rows, history rows)]
        for i, (value, pk) in enumerate(zip(rows, ids, strict=True)):
            path = f"characters[{i}]"
            character = self.row(value, path, doc.CHARACTER, pk=pk, extra=(*doc.LINES, "history"),
                                 campaign_id=self.campaign_pk)
            if character is None:
                continue
            if character.owner_id is None:  # the owner is not the importer: the importer keeps the sheet
                character.owner = self.user
                named = value.get(doc.CHARACTER.name("owner"))
                if isinstance(named, str) and named != self.user.username:
                    character.imported_owner = named  # handed back when they join (characters.handback)
                    self._name(named)
                    self.held.append((character.name, named))
            character.karma = 0
            self.characters[pk] = character
            history = value.get("history", {})
            if not isinstance(history, dict):
                self.problems.add(f"{path}.history", _("Expected an object."))
                history = {}
            for name in history:
                if name != "sheet" and name not in doc.LINES:
                    self.problems.add(f"{path}.history.{shown(name)}", _("Unknown field."))
            sheet = _list(history.get("sheet"), f"{path}.history.sheet", self.problems)
            for j, record in enumerate(sheet):
                past = self.row(record, f"{path}.history.sheet[{j}]", doc.SHEET_HISTORY, id=pk,
                                campaign_id=self.campaign_pk)
                if past is not None and past.owner_id is None and record.get("owner") is not None:
                    past.owner_id = character.owner_id  # as on the sheet: the owner has no account here
            for kind in doc.LINES:
                current = _list(value.get(kind), f"{path}.{kind}", self.problems)
                past = _list(history.get(kind), f"{path}.history.{kind}", self.problems)
                lines[kind].append((pk, path, current, past))
        for kind, table in doc.LINES.items():
            self.read_lines(kind, table, lines[kind])

    def read_lines(self, kind: str, table: doc.Table, characters: list) -> None:
        """One kind of sheet line for every character, and its history (see ``document.LINE``)."""
        #: character id → the numbers of its lines only in the history, as they first appear there
        removed: dict[int, dict[int, None]] = defaultdict(dict)
        for character_id, path, current, past in characters:
            for j, record in enumerate(past):
                number = record.get(doc.LINE) if isinstance(record, dict) else None
                if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                    self.problems.add(f"{path}.history.{kind}[{j}].{doc.LINE}",
                                      _("Expected the line's number: a whole number from 0."))
                elif number >= len(current):
                    removed[character_id].setdefault(number)
        ids = iter(allocate(table.model, sum(len(c[2]) + len(removed[c[0]]) for c in characters)))
        history = doc.LINE_HISTORY[kind]
        for character_id, path, current, past in characters:
            numbers = self.lines[character_id][kind] = {}
            self.line_counts[character_id][kind] = len(current)
            for j, value in enumerate(current):
                numbers[j] = next(ids)
                line = self.row(value, f"{path}.{kind}[{j}]", table, pk=numbers[j], character_id=character_id,
                                extra=tuple(table.line_refs))
                for name, other in table.line_refs.items():
                    if line is not None:
                        setattr(line, f"{name}_id", self._own_line(character_id, other, value.get(name),
                                                                   f"{path}.{kind}[{j}].{name}"))
            for number in removed[character_id]:
                numbers[number] = next(ids)
            for j, record in enumerate(past):
                line = numbers.get(record.get(doc.LINE)) if isinstance(record, dict) else None
                old = self.row(record, f"{path}.history.{kind}[{j}]", history, extra=(doc.LINE, *history.line_refs),
                               id=line, character_id=character_id)
                for name, other in history.line_refs.items():  # a past line may name one removed since
                    if old is not None:
                        setattr(old, f"{name}_id", self._own_line(character_id, other, record.get(name),
                                                                  f"{path}.history.{kind}[{j}].{name}", past=True))

    def _own_line(self, character_id: int, kind: str, number, path: str, *, past: bool = False) -> int | None:
        """Another line of the same character, by its number (``line_refs``), or null: a line on
        the sheet, or for a history row (``past``) also one only in the history."""
        if number is None:
            return None
        known = self.lines[character_id].get(kind, {})
        if isinstance(number, bool) or not isinstance(number, int) or number not in known or not (
                past or number < self.line_counts[character_id].get(kind, 0)):
            self.problems.add(path, _("Expected the number of one of the character's %(kind)s lines, or null.")
                              % {"kind": kind})
            return None
        return self.lines[character_id][kind][number]

    # --- The economy ------------------------------------------------------------------------
    def read_adventures(self, rows: list) -> None:
        ids = allocate(Adventure, len(rows))
        self.keys(rows, "adventures", "adventure", ids)
        for i, (value, pk) in enumerate(zip(rows, ids, strict=True)):
            path = f"adventures[{i}]"
            if self.row(value, path, doc.ADVENTURE, pk=pk, extra=("tokens",), campaign_id=self.campaign_pk):
                for j, token in enumerate(_list(value.get("tokens"), f"{path}.tokens", self.problems)):
                    self.row(token, f"{path}.tokens[{j}]", doc.TOKEN, adventure_id=pk)

    def _for_character(self, value) -> object:
        """Resolve the references of a row about one character: a disadvantage is one of its lines."""
        named = value.get("character") if isinstance(value, dict) else None
        character_id = self.ids["character"].get(named) if isinstance(named, str) else None

        def resolve(kind: str, ref, path: str):
            if kind != "disadvantage":
                return self.resolve(kind, ref, path)
            lines = self.lines.get(character_id, {}).get("disadvantages", {})
            if isinstance(ref, bool) or not isinstance(ref, int) or ref not in lines:
                self.problems.add(path, _("Expected the number of one of the character's disadvantage lines."))
                return None
            return lines[ref]
        return resolve

    def read_ledger(self, rows: list) -> None:
        """The Karma ledger: each balance_after and each cached balance are rebuilt from the amounts."""
        ids = allocate(KarmaEntry, len(rows))
        self.keys(rows, "ledger", "entry", ids)
        balances: dict[int, int] = defaultdict(int)
        for i, (value, pk) in enumerate(zip(rows, ids, strict=True)):
            path = f"ledger[{i}]"
            entry = self.row(value, path, doc.LEDGER, pk=pk, resolve=self._for_character(value),
                             campaign_id=self.campaign_pk)
            if entry is None:
                continue
            key = entry.idempotency_key or ""
            if key.startswith(doc.PAYOUT_KEY):
                adventure = self.resolve("adventure", key.removeprefix(doc.PAYOUT_KEY), f"{path}.idempotency_key")
                entry.idempotency_key = doc.PAYOUT_KEY + str(adventure)
            if entry.character_id is None or not isinstance(entry.amount, int):
                continue
            balances[entry.character_id] += entry.amount
            entry.balance_after = balances[entry.character_id]
            if entry.balance_after < 0:
                self.problems.add(f"{path}.amount", _("The balance of %(character)s would fall to %(balance)s here; "
                                                      "Karma never goes below zero.")
                                  % {"character": value.get("character"), "balance": entry.balance_after})
        for character_id, balance in balances.items():
            if character_id in self.characters:
                self.characters[character_id].karma = balance

    # --- Combat -----------------------------------------------------------------------------
    def read_encounters(self, rows: list) -> None:
        ids = allocate(Encounter, len(rows))
        self.keys(rows, "encounters", "encounter", ids)
        fighter_ids = iter(allocate(Combatant, _nested(rows, "combatants")))
        event_ids = iter(allocate(CombatEvent, _nested(rows, "log")))
        for i, (value, pk) in enumerate(zip(rows, ids, strict=True)):
            path = f"encounters[{i}]"
            if not isinstance(value, dict):
                self.problems.add(path, _("Expected an object."))
                continue
            # Combatants and events are named within their encounter only.
            self.scope = {"combatant": {}, "event": {}}
            combatants = _list(value.get("combatants"), f"{path}.combatants", self.problems)
            log = _list(value.get("log"), f"{path}.log", self.problems)
            combatant_ids = [next(fighter_ids) for _ in combatants]
            log_ids = [next(event_ids) for _ in log]
            self.keys(combatants, f"{path}.combatants", "combatant", combatant_ids)
            self.keys(log, f"{path}.log", "event", log_ids)
            fighters = {}
            for j, (item, fighter_id) in enumerate(zip(combatants, combatant_ids, strict=True)):
                fighter = self.row(item, f"{path}.combatants[{j}]", doc.FIGHTER, pk=fighter_id, encounter_id=pk)
                if fighter is not None:
                    fighters[fighter.pk] = fighter.character_id
            self.row(value, path, doc.ENCOUNTER, pk=pk, extra=("combatants", "log"), campaign_id=self.campaign_pk)
            for j, (item, event_id) in enumerate(zip(log, log_ids, strict=True)):
                event = self.row(item, f"{path}.log[{j}]", doc.COMBAT_LOG, pk=event_id, encounter_id=pk)
                if event is not None:
                    self._request_weapon(event, fighters, f"{path}.log[{j}].data")
            self.scope = {}

    def _request_weapon(self, event: CombatEvent, fighters: dict[int, int | None], path: str) -> None:
        """A waiting attack request names a character's weapon by its line number: make it the id."""
        outer, inner = doc.REQUEST_WEAPON
        request = event.data.get(outer) if event.kind == outer and isinstance(event.data, dict) else None
        if not isinstance(request, dict) or isinstance(request.get(inner), bool) \
                or not isinstance(request.get(inner), int):
            return
        character_id = fighters.get(request.get("attacker"))
        if character_id is None:
            return  # an NPC's weapon is its index in the stat block, document-local already
        weapons = self.lines.get(character_id, {}).get("weapons", {})
        if request[inner] not in weapons:
            self.problems.add(f"{path}.{outer}.{inner}", _("Expected the number of one of the attacker's weapon lines."))
        else:
            request[inner] = weapons[request[inner]]

    # --- Writing ----------------------------------------------------------------------------
    def save(self) -> None:
        """Write every row, parents first; timestamps as the document gives them."""
        insert(Campaign, [self.campaign])
        Membership.objects.bulk_create(self.memberships)
        insert(Character, list(self.characters.values()))
        for model in (*[t.model for t in doc.LINES.values()], doc.SHEET_HISTORY.model,
                      *[t.model for t in doc.LINE_HISTORY.values()], SystemSheet, PoolEntry,
                      doc.SYSTEM_SHEET_HISTORY.model, Adventure, BadNewsToken, MacGuffin, KarmaEntry, Complication,
                      Encounter, Combatant, CombatEvent, NpcSetup, SystemFight, Therapy, Job, DowntimeClaim,
                      SheetClaim, Treatment, TransitionBatch, TransitionRecord, GameSession, SessionNote, LogEntry,
                      Roll):
            insert(model, [instance for instance, _ in self.rows.get(model, [])])
