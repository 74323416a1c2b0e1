"""Campaign pages: thin views over the access helper, services and selectors."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from zenergate_site import rate
from zenergate_site.errors import DomainError
from zenergate_site.login_guard import client_address

from . import selectors, services
from .forms import AccountForm, CampaignForm, CampaignSettingsForm, InvitationForm, JoinForm, MemberAddForm
from .models import Membership
from .permissions import access_campaign


@login_required
@require_http_methods(["GET", "POST"])
def home(request):
    form = CampaignForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.campaign_create(by=request.user, **form.cleaned_data)
        except DomainError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            status = exc.status_code
        else:
            messages.success(request, _("Campaign “%(name)s” created. You are its GM.") % {"name": campaign.name})
            return redirect("campaign-dashboard", campaign_id=campaign.pk)
    elif request.method == "POST":
        status = 400
    campaigns = selectors.campaign_list(viewer=request.user)
    roles = dict(request.user.memberships.values_list("campaign_id", "role"))
    rows = [(c, Membership.Role(roles[c.pk]).label) for c in campaigns]
    return render(request, "campaign/home.html", {"rows": rows, "form": form,
                                                  "invitations": selectors.invitations_for(user=request.user),
                                                  "archived": selectors.archived_list(viewer=request.user),
                                                  "awaits_confirmation": services.awaits_confirmation(request.user)},
                  status=status)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request, campaign_id: int):
    """The campaign's settings and members; the GM changes them, everyone else reads them."""
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=request.method == "POST")
    campaign = access.campaign
    fields = ("name", "description", "stat_entry", "stat_dice", "max_skill_ranks", "typed_dice", "rule_set")
    action = request.POST.get("action") if request.method == "POST" else None
    form = CampaignSettingsForm(request.POST if action == "settings" or action is None and request.method == "POST"
                                else None, initial={f: getattr(campaign, f) for f in fields}, campaign=campaign)
    member_form = MemberAddForm(request.POST if action == "add_member" else None)
    account_form = AccountForm(request.POST if action == "new_account" else None, prefix="account")
    status = 200
    # A one-time password is shown on the page this POST answers, once: never in a redirect's
    # message (a cookie), a log line or the session (test_one_time_passwords_stay_off_cookies).
    shown_once = None
    if action in ("archive", "restore", "delete"):
        try:
            if action == "archive":
                services.campaign_archive(campaign=campaign, by=request.user)
                messages.success(request, _("%(name)s is archived: read-only and out of the campaigns list. "
                                            "Restore it from its settings (Archived campaigns, on the campaigns "
                                            "page).") % {"name": campaign.name})
                return redirect("home")
            if action == "restore":
                services.campaign_restore(campaign=campaign, by=request.user)
                messages.success(request, _("%(name)s is back.") % {"name": campaign.name})
                return redirect("campaign-settings", campaign_id=campaign.pk)
            name = services.campaign_delete(campaign=campaign, by=request.user, confirm=request.POST.get("confirm"))
        except DomainError as exc:
            messages.error(request, exc.message)
            return redirect(reverse("campaign-settings", args=[campaign.pk]) + "#archive")
        messages.success(request, _("%(name)s is deleted.") % {"name": name})
        return redirect("home")
    if action in ("invite", "revoke_invitation"):
        if action == "invite":
            invite_form = InvitationForm(request.POST)
            if invite_form.is_valid():
                try:
                    invitation = services.invitation_create(campaign=campaign, by=request.user,
                                                            **invite_form.service_data())
                except DomainError as exc:
                    messages.error(request, exc.message)
                else:
                    link = request.build_absolute_uri(reverse("join", args=[invitation.token]))
                    messages.success(request, _("Invitation made: pass on the link %(link)s") % {"link": link})
            else:
                messages.error(request, "; ".join(e for errs in invite_form.errors.values() for e in errs))
        else:
            invitation = campaign.invitations.filter(pk=request.POST.get("invitation") or 0).first()
            if invitation is not None:
                services.invitation_revoke(invitation=invitation, by=request.user)
                messages.success(request, _("Invitation revoked: its link no longer works."))
        return redirect(reverse("campaign-settings", args=[campaign.pk]) + "#invitations")
    if action == "reissue":
        membership = campaign.memberships.select_related("user").filter(pk=request.POST.get("membership") or 0).first()
        if membership is None:
            messages.error(request, _("That person is not a member of this campaign."))
        else:
            try:
                password = services.password_reissue(membership=membership, by=request.user)
            except DomainError as exc:
                messages.error(request, exc.message)
            else:
                shown_once = {"username": membership.user.username, "password": password, "new": False}
        if shown_once is None:
            return redirect("campaign-settings", campaign_id=campaign.pk)
    if action in ("change_role", "remove"):
        membership = campaign.memberships.filter(pk=request.POST.get("membership") or 0).first()
        if membership is None:
            messages.error(request, _("That person is not a member of this campaign."))
        else:
            try:
                services.membership_change(membership=membership, role=request.POST.get("role"),
                                           remove=action == "remove", by=request.user)
            except DomainError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("%(name)s removed.") % {"name": membership.user.username}
                                 if action == "remove" else _("%(name)s is now %(role)s.")
                                 % {"name": membership.user.username, "role": request.POST.get("role")})
        return redirect("campaign-settings", campaign_id=campaign.pk)
    if request.method == "POST" and shown_once is None:
        bound = {"add_member": member_form, "new_account": account_form}.get(action, form)
        if bound.is_valid():
            try:
                if action == "add_member":
                    membership = services.membership_add(campaign=campaign, by=request.user, **bound.cleaned_data)
                    done = _("%(name)s joined as %(role)s.") % {"name": membership.user.username,
                                                                 "role": membership.get_role_display()}
                elif action == "new_account":
                    membership, password = services.account_create(campaign=campaign, by=request.user,
                                                                   **bound.cleaned_data)
                    shown_once = {"username": membership.user.username, "password": password, "new": True}
                    account_form = AccountForm(prefix="account")
                    done = None
                else:
                    services.campaign_update(campaign=campaign, by=request.user, **bound.service_data())
                    done = _("Settings saved.")
            except DomainError as exc:
                bound.add_error(exc.field if exc.field in bound.fields else None, exc.message)
                status = exc.status_code
            else:
                if done is not None:
                    messages.success(request, done)
                    return redirect("campaign-settings", campaign_id=campaign.pk)
        else:
            status = 400
    response = render(request, "campaign/settings.html",
                  {"campaign": campaign, "access": access, "form": form, "member_form": member_form,
                   "shown_once": shown_once,
                   "account_form": account_form, "roles": Membership.Role.choices,
                   "may_make_accounts": services.may_make_accounts(request.user),
                   "invite_form": InvitationForm(), "invitations": selectors.invitations_open(campaign=campaign)
                   if access.is_gm else [],
                   "members": selectors.membership_list(campaign=campaign)}, status=status)
    if shown_once is not None:
        response["Cache-Control"] = "no-store"  # nor in a cache, nor the back button's copy
    return response


def _whole_or_none(raw) -> int | None:
    text = str(raw or "").strip()
    return int(text) if text.isdigit() and 0 < int(text) < 2**63 else None


@login_required
@require_GET
def log_page(request, campaign_id: int):
    """The campaign log: every audit line this member may read, filtered by kind and character,
    newest first, a page at a time (the GM's view of who did what, and why)."""
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    campaign = access.campaign
    kinds = selectors.log_kinds(campaign=campaign)
    kind = request.GET.get("kind", "")
    kind = kind if kind in kinds else ""
    character = _whole_or_none(request.GET.get("character"))
    session = _whole_or_none(request.GET.get("session"))
    entries, next_before = selectors.log_page(campaign=campaign, user=request.user, is_gm=access.is_gm, kind=kind,
                                              character=character, session=session,
                                              before=_whole_or_none(request.GET.get("before")))
    return render(request, "campaign/log.html", {
        "campaign": campaign, "access": access, "entries": entries, "next_before": next_before, "kinds": kinds,
        "kind": kind, "character": character, "session": session,
        "sessions": campaign.sessions.values_list("number", flat=True),
        "characters": campaign.characters.order_by("name", "pk").values_list("pk", "name")})


@require_http_methods(["GET", "POST"])
def join(request, token: str):
    """An invitation link: join with one's account, or make one here (a name and a password)."""
    invitation = services.invitation_open(token)
    form = JoinForm(request.POST or None) if not request.user.is_authenticated else None
    status = 200 if invitation is not None else 410
    if (request.method == "POST" and invitation is not None and not request.user.is_authenticated
            and not rate.spend("join", client_address(request), limit=settings.JOIN_ADDRESS_LIMIT, window=3600)):
        messages.error(request, _("Too many sign-ups from your address: try again in an hour."))
        return render(request, "campaign/join.html", {"invitation": invitation, "form": form, "token": token,
                                                      "signup_closed": settings.SIGNUP == "closed"},
                      status=429)
    if request.method == "POST" and invitation is not None:
        try:
            if request.user.is_authenticated:
                services.invitation_accept(token=token, user=request.user)
            elif form.is_valid():
                membership = services.invitation_sign_up(token=token, **form.cleaned_data)
                login(request, membership.user, backend="django.contrib.auth.backends.ModelBackend")
            else:
                status = 400
        except DomainError as exc:
            if form is not None and exc.field in form.fields:
                form.add_error(exc.field, exc.message)
            else:
                messages.error(request, exc.message)
            status = exc.status_code
        except PermissionDenied as exc:
            messages.error(request, str(exc))
            status = 403
        else:
            if status == 200:
                messages.success(request, _("Welcome to %(name)s.") % {"name": invitation.campaign.name})
                return redirect("campaign-dashboard", campaign_id=invitation.campaign_id)
    return render(request, "campaign/join.html", {"invitation": invitation, "form": form, "token": token,
                                                      "signup_closed": settings.SIGNUP == "closed"},
                  status=status)
