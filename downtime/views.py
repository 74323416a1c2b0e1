"""Downtime pages: plan and preview a downtime, watch its job, read its report; Zener Transitions.

Every POST answers with a redirect (a reload never posts again) or re-renders the form with the
errors beside the fields. The GM writes; every member reads the reports.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaign.errors import CampaignConflict
from campaign.events import last_event_id
from campaign.models import Job
from campaign.permissions import access_campaign
from characters import wounds
from characters.models import Character
from zenergate_site.errors import DomainError, UnavailableError

from . import immersion, selectors, services, transitions, treatments
from . import sheets as sheet_rest
from .forms import ActivityForm, DowntimeForm, ImmersionForm, TherapyForm, TransitionForm, TreatNowForm
from .models import TransitionBatch, Treatment


def _in_play(campaign):
    return list(Character.objects.filter(campaign=campaign, state=Character.State.ACTIVE)
                .prefetch_related("languages").order_by("name", "pk"))


def _live(campaign) -> dict:
    return {"live_campaign": campaign.pk, "live_after": last_event_id(campaign=campaign)}


def _form_error(form, exc: DomainError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


@login_required
@require_http_methods(["GET", "POST"])
def downtime_page(request, campaign_id: int):
    """The GM plans a downtime, previews it, and starts it; everyone sees the recent ones."""
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=request.method == "POST")
    campaign = access.campaign
    characters = _in_play(campaign)
    therapies = selectors.therapy_list(campaign=campaign)
    form = DowntimeForm(request.POST or None, characters=characters, therapies=therapies) if access.is_gm else None
    therapy_form = TherapyForm() if access.is_gm else None
    preview, sheet_preview, status = None, None, 200
    activity_form = ActivityForm(characters=characters) if access.is_gm else None
    immersion_form = ImmersionForm(characters=characters) if access.is_gm else None
    immersed = None
    if request.method == "POST" and request.POST.get("action") == "immersion":
        form = DowntimeForm(characters=characters, therapies=therapies)
        immersion_form = ImmersionForm(request.POST, characters=characters)
        if immersion_form.is_valid():
            d = immersion_form.cleaned_data
            character_id, language_id = immersion_form.target()
            character = next(c for c in characters if c.pk == character_id)
            try:
                immersed, _made = immersion.immersion_log(
                    character=character, language_id=language_id, by=request.user, hours=d["hours"],
                    aspect=d["aspect"] or None, era_gap=d["era_gap"], related=d["related"],
                    new_language=d["new_language"], gm_modifier=d["modifier"] or 0, dice=d["dice"],
                    idempotency_key=d["idempotency_key"])
            except DomainError as exc:
                _form_error(immersion_form, exc)
                status = exc.status_code
            else:
                immersion_form = ImmersionForm(characters=characters)
        else:
            status = 400
    elif request.method == "POST" and request.POST.get("action") == "activity":
        form = DowntimeForm(characters=characters, therapies=therapies)
        activity_form = ActivityForm(request.POST, characters=characters)
        if activity_form.is_valid():
            d = activity_form.cleaned_data
            try:
                spent = wounds.party_activity(campaign_id=campaign.pk, by=request.user, activity=d["activity"],
                                              minutes=d["minutes"], reason=d["reason"],
                                              character_ids=[int(pk) for pk in d["characters"]])
            except DomainError as exc:
                _form_error(activity_form, exc)
                status = exc.status_code
            else:
                now_spent = " (" + _("now spent") + ")"
                messages.success(request, _("END spent: %(spent)s.") % {"spent": "; ".join(
                    f"{s['name']} {s['end']}" + (now_spent if s["exhausted"] else "") for s in spent)})
                back = request.POST.get("next", "")  # the encounter page's card comes back to the fight
                if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
                    return redirect(back)
                return redirect(reverse("campaign-downtime", args=[campaign.pk]) + "#activity")
        else:
            status = 400
    elif request.method == "POST" and request.POST.get("action") == "therapy":
        form = DowntimeForm(characters=characters, therapies=therapies)
        therapy_form = TherapyForm(request.POST)
        if therapy_form.is_valid():
            try:
                therapy = treatments.therapy_define(campaign=campaign, by=request.user, **therapy_form.cleaned_data)
            except DomainError as exc:
                _form_error(therapy_form, exc)
                status = exc.status_code
            else:
                messages.success(request, _("Therapy “%(name)s” defined: choose it as a treatment below.")
                                 % {"name": therapy.name})
                return redirect(reverse("campaign-downtime", args=[campaign.pk]) + "#therapies")
        else:
            status = 400
    elif request.method == "POST":
        if form.is_valid():
            try:
                if request.POST.get("action") == "preview":
                    preview = services.downtime_preview(campaign=campaign, request=form.request_data())
                    sheet_preview = sheet_rest.sheet_reports(campaign=campaign, hours=form.request_data()["hours"],
                                                                   rest=form.request_data().get("rest", "comfortable"))
                else:
                    job, _made = services.downtime_start(campaign=campaign, by=request.user,
                                                         request=form.request_data())
                    return redirect("campaign-job", campaign_id=campaign.pk, job_id=job.pk)
            except DomainError as exc:
                if isinstance(exc, CampaignConflict) and exc.field == "idempotency_key":
                    # The page was sent again after a change (the back button): start afresh.
                    messages.error(request, _("This form already started a downtime (see below). Nothing new was "
                                              "started; the form is fresh now."))
                    return redirect("campaign-downtime", campaign_id=campaign.pk)
                _form_error(form, exc)
                status = exc.status_code
        else:
            status = 400
    response = render(request, "downtime/downtime.html", {
        "campaign": campaign, "access": access, "form": form, "preview": preview, "characters": characters,
        "sheet_preview": sheet_preview,
        "jobs": campaign.jobs.filter(kind=Job.Kind.DOWNTIME)[:10], "therapies": therapies,
        "therapy_form": therapy_form, "activity_form": activity_form, "immersion_form": immersion_form,
        "immersed": immersed,
        "treat_form": TreatNowForm(characters=characters, therapies=therapies) if access.is_gm and characters else None,
        "recent_treatments": selectors.treatments_recent(campaign=campaign),
    }, status=status)
    if status == UnavailableError.status_code:
        response["Retry-After"] = str(UnavailableError.retry_after)
    return response


@login_required
def job_page(request, campaign_id: int, job_id: int):
    """A downtime job: its progress bar while it runs, then every character's report."""
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    job = Job.objects.filter(campaign=access.campaign, pk=job_id).first()
    if job is None:
        raise Http404(_("No such job."))
    context = {"campaign": access.campaign, "access": access, "job": job,
               "report": selectors.report_for(job, is_gm=access.is_gm) if job.status == Job.Status.DONE else [],
               "sheet_report": selectors.sheet_report_for(job) if job.status == Job.Status.DONE else [],
               "health": services.job_health(job), **_live(access.campaign)}
    template = "downtime/_job_body.html" if request.htmx else "downtime/job.html"
    return render(request, template, context)


@login_required
@require_POST
def job_undo(request, campaign_id: int, job_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    job = Job.objects.filter(campaign=access.campaign, pk=job_id).first()
    if job is None:
        raise Http404(_("No such job."))
    _undo(request, lambda: services.downtime_undo(job=job, by=request.user),
          _("The downtime was undone: every character is back as it found them."))
    return redirect("campaign-job", campaign_id=campaign_id, job_id=job_id)


def _undo(request, act, done: str) -> None:
    """Run an undo and say how it went; a refusal names who changed since."""
    try:
        act()
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)


@login_required
@require_http_methods(["GET", "POST"])
def transition_page(request, campaign_id: int):
    """The GM picks a category and characters, sees each one's odds, and rolls the transition."""
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    campaign = access.campaign
    characters = _in_play(campaign)
    data = request.POST if request.method == "POST" else (request.GET if "category" in request.GET else None)
    form = TransitionForm(data, characters=characters)
    odds, status = [], 200
    if form.is_bound and form.is_valid():
        ids = [int(i) for i in form.cleaned_data["characters"]]
        try:
            if request.method == "POST":
                response, _ = transitions.transition_make(
                    campaign=campaign, by=request.user, category=form.cleaned_data["category"], character_ids=ids,
                    idempotency_key=form.cleaned_data["idempotency_key"], dice=_dice(form))
                return redirect("campaign-transition", campaign_id=campaign.pk, transition_id=response["id"])
            odds = transitions.transition_preview(campaign=campaign, category=form.cleaned_data["category"],
                                                  character_ids=ids)
        except DomainError as exc:
            _form_error(form, exc)
            status = exc.status_code
    elif form.is_bound:
        status = 400
    if not form.is_bound and characters:
        odds = transitions.transition_preview(campaign=campaign, category="2", character_ids=[c.pk for c in characters])
    context = {"campaign": campaign, "access": access, "form": form, "odds": odds,
               "recent": selectors.transitions_recent(campaign=campaign)}
    if request.htmx and request.method == "GET":
        return render(request, "downtime/_transition_odds.html", context, status=status)
    return render(request, "downtime/transition.html", context, status=status)


def _dice(form) -> dict:
    try:
        return form.dice()
    except Exception as exc:  # parse_faces' ValidationError: the service names the field
        raise DomainError(" ".join(getattr(exc, "messages", [str(exc)])), field="characters") from None


@login_required
@require_http_methods(["GET", "POST"])
def transition_result(request, campaign_id: int, transition_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=request.method == "POST")
    batch = TransitionBatch.objects.filter(campaign=access.campaign, pk=transition_id).first()
    if batch is None:
        raise Http404(_("No such transition."))
    if request.method == "POST":
        _undo(request, lambda: transitions.transition_undo(batch=batch, by=request.user),
              _("The transition was undone: every character is back as it found them."))
        return redirect("campaign-transition", campaign_id=campaign_id, transition_id=transition_id)
    return render(request, "downtime/transition_result.html",
                  {"campaign": access.campaign, "access": access, "batch": batch})



@login_required
@require_POST
def treat_now(request, campaign_id: int):
    """Give a therapy or Stimutabs to one character now (GM)."""
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    campaign = access.campaign
    characters = _in_play(campaign)
    form = TreatNowForm(request.POST, characters=characters, therapies=selectors.therapy_list(campaign=campaign))
    back = reverse("campaign-downtime", args=[campaign.pk]) + "#treat"
    if not form.is_valid():
        messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
        return redirect(back)
    kind, _colon, therapy = form.cleaned_data["treatment"].partition(":")
    character = next(c for c in characters if str(c.pk) == form.cleaned_data["character"])
    try:
        treatment, _made = treatments.treatment_give(
            character=character, by=request.user, kind=kind, therapy_id=int(therapy) if therapy else None,
            as_end=form.cleaned_data["as_end"] or 0, dice=form.cleaned_data["dice"],
            idempotency_key=form.cleaned_data["idempotency_key"])
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(treatment)s given to %(name)s.")
                         % {"treatment": treatment.outcome.get("name"), "name": character.name})
    return redirect(back)


@login_required
@require_POST
def treatment_undo(request, campaign_id: int, treatment_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    treatment = Treatment.objects.filter(campaign=access.campaign, pk=treatment_id).first()
    if treatment is None:
        raise Http404(_("No such treatment."))
    _undo(request, lambda: treatments.treatment_undo(treatment=treatment, by=request.user),
          _("The treatment was undone: the character is back as it found them."))
    return redirect(reverse("campaign-downtime", args=[campaign_id]) + "#treat")
