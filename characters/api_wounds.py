"""The wounds endpoint: ``/api/v1/characters/{id}/wounds/``.

Every member of the campaign reads a character's wounds; only the GM records damage taken or
healed at the table (combat and downtime change wounds through their own endpoints).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from rulebook.damage import WOUNDABLE_STATS
from rulebook.stats import PRIMARY_STATS
from zenergate_site import limits
from zenergate_site.api_fields import StrictInput, TextField, WholeNumberField

from . import wounds
from .permissions import access_character

#: Larger than any wound the rules can deal in one go; beyond it a typo is likelier.
MAX_POINTS = 1000


class StatPointsField(serializers.DictField):
    """``{"RES": 1}``: stat codes to whole numbers (negative heals)."""

    child = WholeNumberField(min_value=-MAX_POINTS, max_value=MAX_POINTS)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        unknown = [key for key in value if key not in WOUNDABLE_STATS]
        if unknown:
            raise serializers.ValidationError(_("Unknown stat %(stat)s; use one of %(stats)s.")
                                              % {"stat": repr(unknown[0]), "stats": ", ".join(WOUNDABLE_STATS)})
        return value


class WoundsIn(StrictInput):
    trauma = WholeNumberField(min_value=-MAX_POINTS, max_value=MAX_POINTS, required=False, default=0)
    shock = WholeNumberField(min_value=-MAX_POINTS, max_value=MAX_POINTS, required=False, default=0)
    end = WholeNumberField(min_value=-MAX_POINTS, max_value=MAX_POINTS, required=False, default=0)
    stat_damage = StatPointsField(required=False, default=dict)
    activity = serializers.ChoiceField(choices=["ordinary", "strenuous"], required=False, default="",
                                       help_text=gettext_lazy("END spent on activity: ordinary 1 per half hour, "
                                                              "strenuous 4 per hour."))
    minutes = WholeNumberField(min_value=0, max_value=60 * 24 * 14, required=False, default=0,
                               help_text=gettext_lazy("How long the activity lasted; only completed shares cost END."))
    con_loss_points = WholeNumberField(min_value=0, max_value=100, required=False, default=0,
                                       help_text=gettext_lazy("Long-term CON loss from radiation to move to another "
                                                              "stat."))
    con_loss_to = serializers.ChoiceField(choices=[s for s in PRIMARY_STATS if s != "CON"], required=False, default="",
                                          help_text=gettext_lazy("The stat that takes the moved loss; it heals on the "
                                                                 "same track."))
    reason = TextField(max_length=limits.WOUNDS_REASON, required=False, default="",
                       help_text=gettext_lazy("Why, for the log; may be left out when an activity says it."))


class WoundStateOut(serializers.Serializer):
    trauma = serializers.IntegerField()
    shock = serializers.IntegerField()
    end_spent = serializers.IntegerField()
    end_held = serializers.IntegerField(help_text=gettext_lazy("END lost to a therapy that has not started to recover "
                                                               "yet."))
    stat_damage = serializers.DictField(child=serializers.IntegerField())
    long_term_con = serializers.IntegerField()
    transitions = serializers.IntegerField()
    radiation = serializers.DictField(help_text=gettext_lazy("The long-term recovery track: loss by stat, step, hours "
                                                             "into it."))
    dying = serializers.BooleanField()
    dying_causes = serializers.ListField(child=serializers.CharField())
    next = serializers.ListField(child=serializers.CharField(),
                                 help_text=gettext_lazy("What heals next and when, with rest."))


class WoundsApi(APIView):
    @extend_schema(responses=WoundStateOut)
    def get(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id)
        return Response(WoundStateOut(wounds.wounds_summary(access.character)).data)

    @extend_schema(request=WoundsIn, responses={201: WoundStateOut})
    def post(self, request, character_id: int):
        access = access_character(user=request.user, character_id=character_id, write=True)
        if not access.is_gm:
            raise exceptions.PermissionDenied(_("Only the campaign's GM records wounds."))
        data = WoundsIn(data=request.data)
        data.is_valid(raise_exception=True)
        character = wounds.wounds_record(character=access.character, by=request.user, **data.validated_data)
        return Response(WoundStateOut(wounds.wounds_summary(character)).data, status=status.HTTP_201_CREATED)
