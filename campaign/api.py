"""Campaign endpoints under /api/v1/: thin views over the access helper, services and selectors."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from . import events, selectors, services
from zenergate_site.api_fields import NoBodyIn

from .permissions import access_campaign
from .serializers import (
    CampaignCreateIn,
    CampaignDeleteIn,
    CampaignOut,
    CampaignUpdateIn,
    EventsOut,
    EventsQueryIn,
    InvitationAcceptIn,
    InvitationIn,
    InvitationOut,
    JoinedOut,
    LogOut,
    LogQueryIn,
    MemberAddIn,
    MemberOut,
)


class CampaignListApi(APIView):
    @extend_schema(responses=CampaignOut(many=True))
    def get(self, request):
        campaigns = list(selectors.campaign_list(viewer=request.user))
        roles = dict(request.user.memberships.values_list("campaign_id", "role"))
        return Response(CampaignOut(campaigns, many=True, context={"roles": roles}).data)

    @extend_schema(request=CampaignCreateIn, responses={201: CampaignOut})
    def post(self, request):
        data = CampaignCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_create(by=request.user, **data.validated_data)
        return Response(CampaignOut(campaign, context={"roles": {campaign.pk: "gm"}}).data,
                        status=status.HTTP_201_CREATED)


class CampaignDetailApi(APIView):
    @extend_schema(responses=CampaignOut)
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response(CampaignOut(access.campaign, context={"roles": {access.campaign.pk: access.role}}).data)

    @extend_schema(request=CampaignUpdateIn, responses=CampaignOut)
    def patch(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = CampaignUpdateIn(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_update(campaign=access.campaign, by=request.user, **data.validated_data)
        return Response(CampaignOut(campaign, context={"roles": {campaign.pk: access.role}}).data)

    @extend_schema(request=CampaignDeleteIn, responses={204: None},
                   summary="Delete an archived campaign and everything it holds (its name typed as confirm)")
    def delete(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = CampaignDeleteIn(data=request.data)
        data.is_valid(raise_exception=True)
        services.campaign_delete(campaign=access.campaign, by=request.user, confirm=data.validated_data["confirm"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class CampaignArchiveApi(APIView):
    @extend_schema(request=NoBodyIn, responses=CampaignOut,
                   summary="Archive the campaign (read-only, off the list) or, with restore, bring it back")
    def post(self, request, campaign_id: int, restore: bool = False):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        NoBodyIn(data=request.data).is_valid(raise_exception=True)
        act = services.campaign_restore if restore else services.campaign_archive
        act(campaign=access.campaign, by=request.user)
        access.campaign.refresh_from_db()
        return Response(CampaignOut(access.campaign, context={"roles": {campaign_id: access.role}}).data)


class MemberListApi(APIView):
    @extend_schema(responses=MemberOut(many=True))
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return Response(MemberOut(selectors.membership_list(campaign=access.campaign), many=True).data)

    @extend_schema(request=MemberAddIn, responses={201: MemberOut})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = MemberAddIn(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.membership_add(campaign=access.campaign, by=request.user, **data.validated_data)
        return Response(MemberOut(membership).data, status=status.HTTP_201_CREATED)


class InvitationListApi(APIView):
    """The campaign's open invitations (GM), and a new one."""

    @extend_schema(responses=InvitationOut(many=True))
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        return Response(InvitationOut(selectors.invitations_open(campaign=access.campaign), many=True,
                                      context={"request": request}).data)

    @extend_schema(request=InvitationIn, responses={201: InvitationOut})
    def post(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        data = InvitationIn(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = services.invitation_create(campaign=access.campaign, by=request.user, **data.validated_data)
        return Response(InvitationOut(invitation, context={"request": request}).data, status=status.HTTP_201_CREATED)


class InvitationDetailApi(APIView):
    @extend_schema(request=None, responses={200: InvitationOut}, summary="Revoke an invitation (GM)")
    def delete(self, request, campaign_id: int, invitation_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
        invitation = selectors.invitation_get(campaign=access.campaign, invitation_id=invitation_id)
        invitation = services.invitation_revoke(invitation=invitation, by=request.user)
        return Response(InvitationOut(invitation, context={"request": request}).data)


class InvitationAcceptApi(APIView):
    @extend_schema(request=InvitationAcceptIn, responses={201: JoinedOut},
                   summary="Join the campaign an invitation link names (its token: the link's last part)")
    def post(self, request):
        data = InvitationAcceptIn(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.invitation_accept(token=data.validated_data["token"], user=request.user)
        return Response(JoinedOut(membership).data, status=status.HTTP_201_CREATED)


class EventsApi(APIView):
    """The campaign's live stream: everything after the last id the client saw, oldest first."""

    @extend_schema(parameters=[EventsQueryIn], responses=EventsOut)
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        query = EventsQueryIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        after = query.validated_data["after"]
        rows = events.events_after(campaign=access.campaign, after=after, user=request.user, is_gm=access.is_gm)
        return Response(EventsOut({"events": rows, "last": rows[-1].id if rows else after}).data)


class LogApi(APIView):
    """The campaign log: every audit line this member may read, newest first, a page at a time."""

    @extend_schema(parameters=[LogQueryIn], responses=LogOut)
    def get(self, request, campaign_id: int):
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        query = LogQueryIn(data=request.query_params)
        query.is_valid(raise_exception=True)
        entries, next_before = selectors.log_page(campaign=access.campaign, user=request.user,
                                                  is_gm=access.is_gm, **query.validated_data)
        return Response(LogOut({"entries": entries, "next_before": next_before},
                               context={"is_gm": access.is_gm}).data)
