"""Game nights under /api/v1/: the list (start, end), one night's recap (the GM edits and publishes
it) and the members' notes, as the pages (dashboard/sessions.py) offer them."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign import sessions as services
from campaign.errors import CampaignError
from campaign.models import Membership
from campaign.permissions import access_campaign
from zenergate_site.api_fields import StrictInput, TextField

from . import recap
from .sessions import session_end_drafted, session_for, sessions_seen


class NoteOut(serializers.Serializer):
    author = serializers.CharField(source="author.username", default=None, allow_null=True)
    text = serializers.CharField()
    created_at = serializers.DateTimeField()


class SessionOut(serializers.Serializer):
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True, help_text=gettext_lazy("null while the night runs."))
    recap = serializers.CharField(help_text=gettext_lazy("A draft (the GM's alone) until published_at."))
    published_at = serializers.DateTimeField(allow_null=True)


class SessionDetailOut(SessionOut):
    notes = NoteOut(many=True, source="notes.all")


class SessionsOut(serializers.Serializer):
    sessions = SessionOut(many=True)
    running = serializers.IntegerField(allow_null=True,
                                       help_text=gettext_lazy("The number of the night under way, if any."))


class SessionActionIn(StrictInput):
    action = serializers.ChoiceField(choices=["start", "end"], help_text=gettext_lazy(
        "start tonight's session, or end the running one with its recap drafted from what happened."))


class RecapIn(StrictInput):
    recap = TextField(max_length=services.TEXT_LIMIT, required=False, allow_blank=True,
                      help_text=gettext_lazy("The recap's new text."))
    publish = serializers.BooleanField(required=False, default=False,
                                       help_text=gettext_lazy("Publish it: the players read it."))
    redraft = serializers.BooleanField(required=False, default=False,
                                       help_text=gettext_lazy("Draft it again from the night's events (instead of recap)."))
    include_gm = serializers.BooleanField(required=False, default=False,
                                          help_text=gettext_lazy("With redraft: the GM's own lines too."))


class NoteIn(StrictInput):
    text = TextField(max_length=services.TEXT_LIMIT, help_text=gettext_lazy("The note."))


class SessionListApi(APIView):
    @extend_schema(responses={200: SessionsOut}, operation_id="v1_campaigns_sessions_list",
                   description="The nights a member may read (the GM: all; the others: the published ones), "
                               "oldest first.")
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        running = access.campaign.sessions.filter(ended_at__isnull=True).values_list("number", flat=True).first()
        return Response(SessionsOut({"sessions": sessions_seen(access), "running": running}).data)

    @extend_schema(request=SessionActionIn, responses={201: SessionOut},
                   description="Start tonight's session, or end the running one (GM); 409 if none runs, or one "
                               "runs already.")
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        if not access.is_gm:
            raise PermissionDenied(_("The GM starts and ends the nights."))
        data = SessionActionIn(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data["action"] == "start":
            session = services.session_start(campaign=access.campaign, by=request.user)
        else:
            session = session_end_drafted(campaign=access.campaign, by=request.user)
        return Response(SessionOut(session).data, status=status.HTTP_201_CREATED)


class SessionDetailApi(APIView):
    @extend_schema(responses={200: SessionDetailOut}, description="One night with its recap and notes; a night "
                   "not yet published is 404 but for the GM.")
    def get(self, request, campaign_id: int, number: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response(SessionDetailOut(session_for(access, number)).data)

    @extend_schema(request=RecapIn, responses={200: SessionDetailOut},
                   description="The GM edits the recap, drafts it again from the night's events, or publishes it; "
                               "409 while the night runs.")
    def patch(self, request, campaign_id: int, number: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        if not access.is_gm:
            raise PermissionDenied(_("Only the GM edits the recap."))
        session = session_for(access, number)
        data = RecapIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if values["redraft"] and "recap" in values:
            raise CampaignError(_("Send a recap or ask for a new draft, not both."), field="redraft")
        text = (recap.draft(session, include_gm=values["include_gm"]) if values["redraft"]
                else values.get("recap", session.recap))
        session = services.session_recap_save(session=session, by=request.user, recap=text, publish=values["publish"])
        return Response(SessionDetailOut(session).data)


class SessionNotesApi(APIView):
    @extend_schema(request=NoteIn, responses={201: NoteOut},
                   description="A note on a night the member may read (players and the GM; viewers read).")
    def post(self, request, campaign_id: int, number: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        if access.role == Membership.Role.VIEWER:
            raise PermissionDenied(_("Viewers read; players and the GM write notes."))
        session = session_for(access, number)
        data = NoteIn(data=request.data)
        data.is_valid(raise_exception=True)
        note = services.session_note_add(session=session, by=request.user, text=data.validated_data["text"])
        return Response(NoteOut(note).data, status=status.HTTP_201_CREATED)
