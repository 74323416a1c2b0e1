"""The import page action: anyone logged in uploads a campaign file and lands on the copy as its GM,
then says whom of the people it names to invite as players."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaign.permissions import access_campaign
from zenergate_site.errors import DomainError

from . import services
from .errors import TransferError
from .forms import ImportForm

#: Problems listed on the page; the rest are counted.
SHOWN_PROBLEMS = 10


@login_required
@require_POST
def import_page(request):
    """Import the uploaded document as a new campaign, or go back to the campaigns with why not."""
    form = ImportForm(request.POST, request.FILES)
    back = reverse("home") + "#import"
    if not form.is_valid():
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, _("Import: %(problem)s") % {"problem": message})
        return redirect(back)
    try:
        campaign = services.import_campaign(form.cleaned_data["document"], request.user)
    except TransferError as exc:
        problems = [(path, message) for path, found in exc.errors.items() for message in found]
        for path, message in problems[:SHOWN_PROBLEMS]:
            messages.error(request, _("Import: %(path)s: %(problem)s") % {"path": path, "problem": message})
        if len(problems) > SHOWN_PROBLEMS:
            messages.error(request, _("Import: and %(n)s more problems. Nothing was imported.")
                           % {"n": len(problems) - SHOWN_PROBLEMS})
        return redirect(back)
    except DomainError as exc:  # the importer may not make campaigns yet
        messages.error(request, _("Import: %(problem)s") % {"problem": exc.message})
        return redirect(back)
    messages.success(request, _("Campaign “%(name)s” imported. You are its GM.") % {"name": campaign.name})
    report = services.import_report(campaign)
    if report and report["people"]:  # the people it names: the GM confirms whom to invite
        return redirect("campaign-imported", campaign_id=campaign.pk)
    return redirect("campaign-dashboard", campaign_id=campaign.pk)


@login_required
@require_http_methods(["GET", "POST"])
def imported_page(request, campaign_id: int):
    """Who the imported document named and what became of each, with the GM's choice of whom to
    invite as players (nobody is invited before)."""
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=request.method == "POST")
    if not access.is_gm:
        raise PermissionDenied(_("The import's people are the GM's to invite."))
    report = services.import_report(access.campaign)
    error = ""
    if request.method == "POST":
        try:
            report = services.import_invite(campaign=access.campaign, by=request.user,
                                            usernames=request.POST.getlist("invite"))
        except DomainError as exc:
            error = exc.message
        else:
            chosen = request.POST.getlist("invite")
            messages.success(request, _("Invited as players: %(names)s.") % {"names": ", ".join(chosen)} if chosen
                             else _("Nobody invited."))
            return redirect("campaign-imported", campaign_id=access.campaign.pk)
    return render(request, "transfer/imported.html", {"campaign": access.campaign, "access": access,
                                                      "report": report, "error": error},
                  status=400 if error else 200)
