"""Read a whole campaign into one document (see ``document`` for its shape).

One query per table, whatever the campaign's size; ids become document keys on the way out.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.models import Campaign, GameSession, Job, LogEntry, SessionNote
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

from . import document as doc
from .errors import TransferConflict
from .references import translate


def plain(value):
    """Return a column's value as JSON: timestamps in ISO 8601, decimals as text."""
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _as_id(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return None


def _by(rows, attname: str) -> dict[int, list]:
    grouped = defaultdict(list)
    for row in rows:
        grouped[getattr(row, attname)].append(row)
    return grouped


class Exporter:
    """Reads every table of one campaign, then writes the document."""

    def __init__(self, campaign: Campaign):
        self.campaign = campaign
        self.keys: dict[str, dict[int, str]] = defaultdict(dict)
        self.usernames: dict[int, str] = {}
        #: character id → line kind → {line id: line number} (``document.LINE``).
        self.line_numbers: dict[int, dict[str, dict[int, int]]] = defaultdict(dict)

    # --- Reading ------------------------------------------------------------------------------
    def read(self) -> None:
        c = self.campaign
        unfinished = Job.objects.filter(campaign=c, status__in=(Job.Status.QUEUED, Job.Status.RUNNING)).first()
        if unfinished is not None:
            raise TransferConflict(_("A downtime is still under way (job %(job)s): export the campaign once it has "
                                     "finished.") % {"job": unfinished.pk}, field="detail")
        self.characters = list(Character.objects.filter(campaign=c).order_by("id"))
        ids = [character.pk for character in self.characters]
        self.lines = {kind: _by(table.model.objects.filter(character__campaign=c).order_by("position", "id"),
                                "character_id") for kind, table in doc.LINES.items()}
        self.sheet_history = _by(doc.SHEET_HISTORY.model.objects.filter(id__in=ids)
                                 .order_by("history_date", "history_id"), "id")
        self.line_history = {kind: _by(table.model.objects.filter(character_id__in=ids)
                                       .order_by("history_date", "history_id"), "character_id")
                             for kind, table in doc.LINE_HISTORY.items()}
        self.adventures = list(Adventure.objects.filter(campaign=c).order_by("id"))
        self.tokens = _by(BadNewsToken.objects.filter(adventure__campaign=c).order_by("id"), "adventure_id")
        self.macguffins = list(MacGuffin.objects.filter(campaign=c).order_by("id"))
        self.ledger = list(KarmaEntry.objects.filter(campaign=c).order_by("id"))
        self.complications = list(Complication.objects.filter(campaign=c).order_by("id"))
        self.encounters = list(Encounter.objects.filter(campaign=c).order_by("id"))
        self.combatants = _by(Combatant.objects.filter(encounter__campaign=c).order_by("position", "id"),
                              "encounter_id")
        self.combat_log = _by(CombatEvent.objects.filter(encounter__campaign=c).order_by("id"), "encounter_id")
        self.npc_setups = list(NpcSetup.objects.filter(campaign=c).order_by("id"))
        self.therapies = list(Therapy.objects.filter(campaign=c).order_by("id"))
        self.downtimes = list(Job.objects.filter(campaign=c, kind=Job.Kind.DOWNTIME).order_by("id"))
        self.claims = _by(DowntimeClaim.objects.filter(job__campaign=c).order_by("id"), "job_id")
        self.treatments = list(Treatment.objects.filter(campaign=c).order_by("id"))
        self.transitions = list(TransitionBatch.objects.filter(campaign=c).order_by("id"))
        self.records = _by(TransitionRecord.objects.filter(batch__campaign=c).order_by("id"), "batch_id")
        self.history = list(LogEntry.objects.filter(campaign=c).exclude(action=doc.IMPORT_ACTION).order_by("id"))
        self.rolls = list(Roll.objects.filter(campaign=c).order_by("id"))
        self.members = list(c.memberships.select_related("user").order_by("role", "user__username"))
        self.sheets = list(SystemSheet.objects.filter(campaign=c).order_by("id"))
        self.pool_entries = _by(PoolEntry.objects.filter(sheet__campaign=c).order_by("id"), "sheet_id")
        self.sheets_history = _by(doc.SYSTEM_SHEET_HISTORY.model.objects.filter(campaign=c)
                                  .order_by("history_date", "history_id"), "id")
        self.system_fights = list(SystemFight.objects.filter(campaign=c).order_by("id"))
        self.sheet_claims = _by(SheetClaim.objects.filter(job__campaign=c).order_by("id"), "job_id")
        self.sessions = list(GameSession.objects.filter(campaign=c).order_by("number"))
        self.notes = _by(SessionNote.objects.filter(session__campaign=c).order_by("created_at", "id"), "session_id")

        for kind, rows in (("character", self.characters), ("adventure", self.adventures),
                           ("macguffin", self.macguffins), ("entry", self.ledger),
                           ("complication", self.complications), ("encounter", self.encounters),
                           ("combatant", [f for e in self.encounters for f in self.combatants[e.pk]]),
                           ("event", [v for e in self.encounters for v in self.combat_log[e.pk]]),
                           ("therapy", self.therapies), ("downtime", self.downtimes),
                           ("treatment", self.treatments), ("transition", self.transitions),
                           ("sheet", self.sheets), ("system_fight", self.system_fights),
                           ("session", self.sessions)):
            self.keys[kind] = {row.pk: f"{kind}-{number}" for number, row in enumerate(rows, 1)}
        for character in self.characters:
            for kind in doc.LINES:
                numbers = {line.pk: n for n, line in enumerate(self.lines[kind][character.pk])}
                for record in self.line_history[kind][character.pk]:
                    numbers.setdefault(record.id, len(numbers))
                self.line_numbers[character.pk][kind] = numbers
        self._read_usernames()

    def _read_usernames(self) -> None:
        ids = {m.user_id for m in self.members}
        tables = [(doc.CHARACTER, self.characters), (doc.LEDGER, self.ledger), (doc.COMPLICATION, self.complications),
                  (doc.THERAPY, self.therapies), (doc.DOWNTIME, self.downtimes), (doc.TREATMENT, self.treatments),
                  (doc.TRANSITION, self.transitions), (doc.HISTORY, self.history), (doc.ROLL, self.rolls),
                  (doc.SHEET_HISTORY, [r for rows in self.sheet_history.values() for r in rows]),
                  (doc.SYSTEM_SHEET, self.sheets),
                  (doc.POOL_ENTRY, [e for rows in self.pool_entries.values() for e in rows]),
                  (doc.SYSTEM_SHEET_HISTORY, [r for rows in self.sheets_history.values() for r in rows]),
                  (doc.COMBAT_LOG, [v for rows in self.combat_log.values() for v in rows]),
                  (doc.SESSION_NOTE, [n for rows in self.notes.values() for n in rows])]
        tables += [(doc.LINE_HISTORY[kind], [r for rows in by_character.values() for r in rows])
                   for kind, by_character in self.line_history.items()]
        for table, rows in tables:
            for name in table.users:
                attname = table.model._meta.get_field(name).attname
                ids.update(getattr(row, attname) for row in rows)
        ids.update(_as_id(entry.data.get("user")) for entry in self.history if isinstance(entry.data, dict))
        ids.discard(None)
        self.usernames = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))

    # --- Writing ------------------------------------------------------------------------------
    def resolve(self, kind: str, value, path: str = ""):
        if kind == "user":
            return self.usernames.get(_as_id(value))
        return self.keys[kind].get(_as_id(value))

    def row(self, obj, table: doc.Table, resolve=None) -> dict:
        """Return one row: its key, the rows and users it names, and its own columns."""
        out = {"key": self.keys[table.key][obj.pk]} if table.key else {}
        meta = obj._meta
        for name, kind in table.refs.items():
            out[table.name(name)] = self.keys[kind].get(getattr(obj, meta.get_field(name).attname))
        values = {name: plain(getattr(obj, name)) for name in table.fields}
        for name, value in values.items():
            spec = table.blob_spec(name, values)
            out[table.name(name)] = translate(value, spec, resolve or self.resolve, name) if spec else value
        for name in table.users:
            out[table.name(name)] = self.usernames.get(getattr(obj, meta.get_field(name).attname))
        return out

    def indexed(self, rows: list, table: doc.Table) -> list[dict]:
        """A list of rows that may name earlier rows of it by place (``Table.index_refs``)."""
        place = {row.pk: n for n, row in enumerate(rows)}
        return [{**self.row(row, table), **{name: place.get(getattr(row, f"{name}_id")) for name in table.index_refs}}
                for row in rows]

    def document(self) -> dict:
        return {
            "format": doc.FORMAT,
            "version": doc.VERSION,
            "exported_at": timezone.now().isoformat(),
            "campaign": self.row(self.campaign, doc.CAMPAIGN),
            "members": [self.row(m, doc.MEMBER) for m in self.members],
            "characters": [self.character(c) for c in self.characters],
            "sheets": [{**self.row(sheet, doc.SYSTEM_SHEET),
                        "entries": [self.row(e, doc.POOL_ENTRY) for e in self.pool_entries[sheet.pk]],
                        "history": [self.row(r, doc.SYSTEM_SHEET_HISTORY) for r in self.sheets_history[sheet.pk]]}
                       for sheet in self.sheets],
            "adventures": [{**self.row(a, doc.ADVENTURE),
                            "tokens": [self.row(t, doc.TOKEN) for t in self.tokens[a.pk]]} for a in self.adventures],
            "pools": [self.row(m, doc.MACGUFFIN) for m in self.macguffins],
            "ledger": [self.entry(e) for e in self.ledger],
            "complications": [self.row(c, doc.COMPLICATION) for c in self.complications],
            "encounters": [self.encounter(e) for e in self.encounters],
            "npc_setups": [self.row(s, doc.NPC_SETUP) for s in self.npc_setups],
            "system_fights": [self.row(f, doc.SYSTEM_FIGHT) for f in self.system_fights],
            "therapies": [self.row(t, doc.THERAPY) for t in self.therapies],
            "downtimes": [{**self.row(j, doc.DOWNTIME),
                           "claims": [self.row(c, doc.CLAIM) for c in self.claims[j.pk]],
                           "sheet_claims": [self.row(c, doc.SHEET_CLAIM) for c in self.sheet_claims[j.pk]]}
                          for j in self.downtimes],
            "treatments": [self.row(t, doc.TREATMENT) for t in self.treatments],
            "transitions": [{**self.row(t, doc.TRANSITION),
                             "records": [self.row(r, doc.TRANSITION_RECORD) for r in self.records[t.pk]]}
                            for t in self.transitions],
            "sessions": [{**self.row(s, doc.SESSION), "notes": [self.row(n, doc.SESSION_NOTE) for n in self.notes[s.pk]]}
                         for s in self.sessions],
            "history": [self.row(entry, doc.HISTORY) for entry in self.history],
            "rolls": self.indexed(self.rolls, doc.ROLL),
        }

    def entry(self, entry: KarmaEntry) -> dict:
        out = self.row(entry, doc.LEDGER, self._for_character(entry.character_id))
        key = entry.idempotency_key or ""
        if key.startswith(doc.PAYOUT_KEY):
            adventure = self.keys["adventure"].get(_as_id(key.removeprefix(doc.PAYOUT_KEY)))
            out["idempotency_key"] = doc.PAYOUT_KEY + (adventure or "")
        return out

    def _for_character(self, character_id: int):
        """Resolve references of one character's rows: a disadvantage is one of its lines."""
        def resolve(kind: str, value, path: str = ""):
            if kind == "disadvantage":
                return self.line_numbers[character_id]["disadvantages"].get(_as_id(value))
            return self.resolve(kind, value, path)
        return resolve

    def character(self, character: Character) -> dict:
        out = self.row(character, doc.CHARACTER)
        numbers = self.line_numbers[character.pk]
        for kind, table in doc.LINES.items():
            out[kind] = [self.row(line, table) for line in self.lines[kind][character.pk]]
            for name, other in table.line_refs.items():
                for row, line in zip(out[kind], self.lines[kind][character.pk], strict=True):
                    row[table.name(name)] = numbers[other].get(getattr(line, f"{name}_id"))
        history = {"sheet": [self.row(r, doc.SHEET_HISTORY) for r in self.sheet_history[character.pk]]}
        for kind, table in doc.LINE_HISTORY.items():
            history[kind] = [{doc.LINE: numbers[kind][r.id], **self.row(r, table),
                              **{table.name(n): numbers[other].get(getattr(r, f"{n}_id"))
                                 for n, other in table.line_refs.items()}}
                             for r in self.line_history[kind][character.pk]]
        out["history"] = history
        return out

    def encounter(self, encounter: Encounter) -> dict:
        out = self.row(encounter, doc.ENCOUNTER)
        fighters = {f.pk: f for f in self.combatants[encounter.pk]}
        out["combatants"] = [self.row(f, doc.FIGHTER) for f in fighters.values()]
        out["log"] = [self._event(event, fighters) for event in self.combat_log[encounter.pk]]
        return out

    def _event(self, event: CombatEvent, fighters: dict[int, Combatant]) -> dict:
        out = self.row(event, doc.COMBAT_LOG)
        outer, inner = doc.REQUEST_WEAPON
        request = event.data.get(outer) if event.kind == outer and isinstance(event.data, dict) else None
        # By id (a whole number); text names the weapon and stays as it is.
        if isinstance(request, dict) and isinstance(request.get(inner), int) and not isinstance(request[inner], bool):
            attacker = fighters.get(_as_id(request.get("attacker")))
            if attacker is not None and attacker.character_id is not None:
                weapons = self.line_numbers[attacker.character_id].get("weapons", {})
                out["data"][outer][inner] = weapons.get(request[inner])
        return out


def campaign_document(campaign: Campaign) -> dict:
    """Return the whole campaign as a document (TransferConflict while a downtime is under way)."""
    exporter = Exporter(campaign)
    exporter.read()
    return exporter.document()
