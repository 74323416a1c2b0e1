"""The import page action: anyone logged in uploads a campaign file and lands on the copy as its GM."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

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
                messages.error(request, f"Import: {message}")
        return redirect(back)
    try:
        campaign = services.import_campaign(form.cleaned_data["document"], request.user)
    except TransferError as exc:
        problems = [(path, message) for path, found in exc.errors.items() for message in found]
        for path, message in problems[:SHOWN_PROBLEMS]:
            messages.error(request, f"Import: {path}: {message}")
        if len(problems) > SHOWN_PROBLEMS:
            messages.error(request, f"Import: and {len(problems) - SHOWN_PROBLEMS} more problems. Nothing was "
                                    "imported.")
        return redirect(back)
    done = f"Campaign “{campaign.name}” imported. You are its GM."
    if campaign.skipped_members:
        done += (f" Not on this server, so not added: {', '.join(campaign.skipped_members)}"
                 "; their characters are owned by you.")
    messages.success(request, done)
    return redirect("campaign-dashboard", campaign_id=campaign.pk)
