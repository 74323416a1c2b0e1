"""Campaign pages: thin views over the access helper, services and selectors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from . import selectors, services
from .errors import CampaignError
from .forms import CampaignForm, DowntimeForm
from .models import Membership
from .permissions import access_campaign


@login_required
@require_http_methods(["GET", "POST"])
def home(request):
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.campaign_create(by=request.user, **form.cleaned_data)
        messages.success(request, f"Campaign “{campaign.name}” created. You are its GM.")
        return redirect("campaign-dashboard", campaign_id=campaign.pk)
    campaigns = selectors.campaign_list(viewer=request.user)
    roles = dict(request.user.memberships.values_list("campaign_id", "role"))
    rows = [(c, Membership.Role(roles[c.pk]).label) for c in campaigns]
    return render(request, "campaign/home.html", {"rows": rows, "form": form})


@login_required
def dashboard(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    campaign = access.campaign
    context = {
        "campaign": campaign,
        "access": access,
        "members": selectors.membership_list(campaign=campaign),
        "log": selectors.log_recent(campaign=campaign, limit=10),
        "downtime_form": DowntimeForm(),
        "last_job": campaign.jobs.first(),
    }
    from .views_economy import dashboard_context  # the party, MacGuffins, adventure and ledger

    context.update(dashboard_context(campaign=campaign))
    return render(request, "campaign/dashboard.html", context)


@login_required
@require_POST
def downtime_start(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    form = DowntimeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
        return redirect("campaign-dashboard", campaign_id=campaign_id)
    try:
        job = services.downtime_start(campaign=access.campaign, by=request.user, hours=form.cleaned_data["hours"])
    except CampaignError as exc:
        messages.error(request, exc.message)
        return redirect("campaign-dashboard", campaign_id=campaign_id)
    if request.htmx:
        return render(request, "campaign/_job.html", {"job": job, "campaign": access.campaign})
    return redirect("campaign-dashboard", campaign_id=campaign_id)


@login_required
def job_status(request, campaign_id: int, job_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    job = selectors.job_get(campaign=access.campaign, job_id=job_id)
    return render(request, "campaign/_job.html", {"job": job, "campaign": access.campaign})
