"""Serializers of the economy API: Karma, awards, adventures, MacGuffins, Complications.

One for input and one for output per endpoint. They check the shape and type of what a
client sends; every rule (costs, limits, who may spend what) is ``economy``'s.
"""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from rulebook.karma import SPEND_KINDS
from rulebook.stats import PRIMARY_STATS
from zenergate_site import limits
from zenergate_site.api_fields import (
    MAX_ID,
    FlagField,
    NameField,
    StrictInput,
    TextField,
    WholeNumberField,
)

from .models import Adventure, BadNewsToken, Complication, KarmaEntry, MacGuffin
from .services import AWARD_KINDS

#: Karma amounts beyond this are typos or probes, never play: refused before any query.
MAX_KARMA = 100_000
#: Spends a player may ask for on their character's ledger (MacGuffins take contributions).
SPEND_KIND_CHOICES = [kind for kind in SPEND_KINDS if kind != "macguffin"]


def _id_field(**kwargs) -> WholeNumberField:
    return WholeNumberField(min_value=1, max_value=MAX_ID, **kwargs)


def _karma_field(**kwargs) -> WholeNumberField:
    return WholeNumberField(min_value=-MAX_KARMA, max_value=MAX_KARMA, **kwargs)


def _key_field(max_length: int = limits.IDEMPOTENCY_KEY, **kwargs) -> TextField:
    # Keys are compared exactly: no trimming, so " a" and "a" are two different requests.
    return TextField(min_length=1, max_length=max_length, trim_whitespace=False, **kwargs)


# --- Ledger and spends --------------------------------------------------------------------
class KarmaEntryOut(serializers.ModelSerializer):
    by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    # The app's reasons in the reader's language; a typed one as typed.
    reason = serializers.CharField(source="told", read_only=True)

    class Meta:
        model = KarmaEntry
        fields = ["id", "kind", "amount", "balance_after", "reason", "adventure", "macguffin", "data",
                  "created_at", "by"]


class KarmaLedgerOut(serializers.Serializer):
    balance = serializers.IntegerField()
    results = KarmaEntryOut(many=True)


class KarmaSpendIn(StrictInput):
    """A spend: its kind, an idempotency key, and the parameters that kind takes."""

    kind = serializers.ChoiceField(choices=SPEND_KIND_CHOICES)
    idempotency_key = _key_field()
    reason = TextField(max_length=limits.KARMA_REASON, required=False, allow_blank=True)
    character = _id_field(required=False, help_text=_("assist: the character helped"))
    amount = _karma_field(required=False, help_text=_("skill_points: Karma converted (2 skill points each)"))
    stat = serializers.ChoiceField(choices=list(PRIMARY_STATS), required=False,
                                   help_text=_("stat_raise; setback_payoff (the stat a Complication lowered)"))
    disadvantage = _id_field(required=False, help_text=_("disadvantage_removal: the disadvantage"))
    override = FlagField(required=False,
                                        help_text=_("disadvantage_removal, GM only: allow a second rank this adventure"))
    cost = _karma_field(required=False, help_text=_("good_fortune, GM only: rolls it replaces"))
    time_index = WholeNumberField(min_value=-100, max_value=100, required=False,
                                  help_text=_("delay_transition: the delay's time-chart index"))


class KarmaSpendOut(serializers.Serializer):
    balance = serializers.IntegerField(help_text=_("the balance right after this spend"))
    entry = KarmaEntryOut()


class KarmaFlagsOut(serializers.Serializer):
    flags = serializers.ListField(child=serializers.CharField())


# --- GM awards ----------------------------------------------------------------------------
class AwardIn(StrictInput):
    kind = serializers.ChoiceField(choices=sorted(AWARD_KINDS))
    characters = serializers.ListField(child=_id_field(), allow_empty=False, max_length=100)
    amount = _karma_field(required=False, allow_null=True, help_text=_("manual only; negative for a correction"))
    reason = TextField(max_length=limits.KARMA_REASON)
    # Each character's entry gets "<key>:<character id>", which must fit the ledger's 100 characters.
    idempotency_key = _key_field(max_length=80, required=False, allow_null=True)


class AwardOut(serializers.Serializer):
    entries = KarmaEntryOut(many=True)


# --- Adventures ---------------------------------------------------------------------------
class BadNewsTokenOut(serializers.ModelSerializer):
    class Meta:
        model = BadNewsToken
        fields = ["id", "note", "voided", "created_at"]


class BadNewsTokenIn(StrictInput):
    note = TextField(max_length=limits.TOKEN_NOTE, required=False, allow_blank=True, default="")


class AdventureOut(serializers.ModelSerializer):
    is_open = serializers.BooleanField(read_only=True)
    tokens = BadNewsTokenOut(many=True, read_only=True)

    class Meta:
        model = Adventure
        fields = ["id", "name", "base_xp", "started_at", "closed_at", "is_open", "outcome", "permanent", "tokens"]


class AdventureIn(StrictInput):
    name = NameField(max_length=limits.ADVENTURE_NAME)
    base_xp = WholeNumberField(min_value=0, max_value=100)


class CloseIn(StrictInput):
    outcome = serializers.ChoiceField(choices=Adventure.Outcome.choices)
    permanent = FlagField(required=False, default=False)
    selfish = serializers.ListField(child=_id_field(), required=False, default=list, max_length=100)
    preview = FlagField(required=False, default=False)


class PayoutOut(serializers.Serializer):
    character = serializers.IntegerField()
    name = serializers.CharField()
    karma = serializers.IntegerField()
    breakdown = serializers.ListField(child=serializers.ListField(), help_text=_("[label, Karma] pairs"))


class CloseOut(serializers.Serializer):
    adventure = serializers.IntegerField()
    preview = serializers.BooleanField()
    payouts = PayoutOut(many=True)


# --- Campaign MacGuffins ------------------------------------------------------------------
class MacGuffinOut(serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)

    class Meta:
        model = MacGuffin
        fields = ["id", "name", "limitation", "progress", "target", "status", "percent", "upgrade"]


class MacGuffinIn(StrictInput):
    name = NameField(max_length=limits.MACGUFFIN_NAME)
    limitation = TextField(max_length=limits.MACGUFFIN_LIMITATION, required=False, allow_blank=True, default="")
    target = WholeNumberField(min_value=1, max_value=1000, help_text=_("4 minor, 10 new capability, 20 removed"))
    upgrade = serializers.ChoiceField(choices=MacGuffin.Upgrade.choices, required=False, allow_blank=True,
                                      default="")


class ContributionIn(StrictInput):
    character = _id_field()
    amount = _karma_field()
    idempotency_key = _key_field()


class ContributionOut(serializers.Serializer):
    progress = serializers.IntegerField(help_text=_("the pool right after this contribution"))
    target = serializers.IntegerField()
    balance = serializers.IntegerField(help_text=_("the character's balance right after it"))
    entry = KarmaEntryOut()


# --- Complications ------------------------------------------------------------------------
class ComplicationOut(serializers.ModelSerializer):
    by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = Complication
        fields = ["id", "character", "cause", "form", "ranks", "description", "effects", "created_at", "by"]


class ComplicationIn(StrictInput):
    cause = serializers.ChoiceField(choices=Complication.Cause.choices)
    form = serializers.ChoiceField(choices=Complication.Form.choices)
    ranks = WholeNumberField(min_value=1, max_value=20)
    description = TextField(max_length=limits.COMPLICATION_DESCRIPTION)
    nullify = _id_field(required=False, allow_null=True,
                        help_text=_("debt: the disadvantage that earns nothing, removed by the Complication"))
    worsen = serializers.ListField(child=_id_field(), required=False, default=list, max_length=50,
                                   help_text=_("form worsen: the disadvantages that gain ranks"))
    stat = serializers.ChoiceField(choices=list(PRIMARY_STATS), required=False, allow_null=True,
                                   help_text=_("form stat_loss: the stat that is lost"))
