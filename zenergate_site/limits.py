"""How long each text a person types may be: one cap per field, used by the model, the page
form and the API serializer alike, so a text the page takes the API takes too, and the reverse.

Where the column is a ``CharField`` the database holds the same cap as its length; a
``TextField`` column (descriptions, notes, comments) holds it as a CHECK constraint and a
``MaxLengthValidator`` (zenergate_site.shapes.capped), so no path stores a longer text
(tests/test_limits.py fails when a cap has neither).
"""

# --- The table: campaigns and their members ---------------------------------------------
CAMPAIGN_NAME = 120
CAMPAIGN_DESCRIPTION = 5_000
STAT_DICE = 30
#: Django's own username column.
USERNAME = 150

# --- Characters -------------------------------------------------------------------------
CHARACTER_NAME = 80
#: The name of a sheet line: skill, disadvantage, equipment, weapon, armour, language.
LINE_NAME = 80
WEAPON_CATEGORY = 60
LANGUAGE_ERA = 60
DISADVANTAGE_AFFECTS = 200
EQUIPMENT_NOTES = 200
#: The GM's notes on a character or an encounter (never shown to players).
GM_NOTES = 20_000
#: The GM's comment when returning a submitted sheet to its player.
REVIEW_COMMENT = 2_000
#: The GM's reason for letting a stat outside the campaign's stat dice stand.
OVERRIDE_REASON = 200
#: Why wounds were recorded by hand.
WOUNDS_REASON = 200

# --- Economy ----------------------------------------------------------------------------
ADVENTURE_NAME = 120
TOKEN_NOTE = 200
MACGUFFIN_NAME = 120
MACGUFFIN_LIMITATION = 200
#: Why Karma moved (a spend, an award): the ledger's ``reason`` column.
KARMA_REASON = 300
COMPLICATION_DESCRIPTION = 300

# --- Downtime ---------------------------------------------------------------------------
THERAPY_NAME = 80
#: A therapy's dice, e.g. "d3" or "2d6".
THERAPY_DICE = 8

# --- Combat -----------------------------------------------------------------------------
ENCOUNTER_NAME = 120
#: A combatant's name (an NPC's, or the character's it was made from).
NPC_NAME = 80
NPC_WEAPON_NAME = 80

# --- The jobs between sessions ------------------------------------------------------------
#: Why a downtime job failed, as the GM reads it on the job's page.
JOB_ERROR = 2_000

# --- Game nights ------------------------------------------------------------------------
#: The longest session recap or note a member writes (a few pages).
SESSION_TEXT = 20_000

# --- Across apps ------------------------------------------------------------------------
#: A client's idempotency key (stored with room for a namespace prefix).
IDEMPOTENCY_KEY = 100
