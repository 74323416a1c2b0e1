"""The sheet and the builder: stats, rolls and every sheet line, edited in place."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from campaign import pagecache
from campaign.models import Campaign
from zenergate_site.errors import DomainError

from .. import items, services, services_rolls
from ..forms import (
    ClassifyForm,
    StatsForm,
    line_form,
)
from ..permissions import CharacterAccess, access_character, character_standing
from .page import (
    SECTIONS,
    State,
    add_form_error,
    error_status,
    page_context,
    page_of,
    page_url,
    render_page,
    require_gm,
)


# --- The sheet and the builder ------------------------------------------------------------
@login_required
@require_GET
def character_sheet(request, character_id: int):
    # The narrow check first: a cached page needs no sheet loaded.
    standing = character_standing(user=request.user, character_id=character_id)
    return pagecache.cached_page(
        request, name="sheet", object_id=standing.character_id, campaign_id=standing.campaign_id,
        version=standing.page_version, render=lambda: render_page(request, access_character(user=request.user, character_id=character_id),
                                   page="sheet"))


@login_required
@require_GET
def character_build(request, character_id: int):
    standing = character_standing(user=request.user, character_id=character_id, write=True)
    if standing.state != State.DRAFT and not standing.is_gm:
        access = access_character(user=request.user, character_id=character_id, write=True)
        messages.info(request, _("%(name)s is %(state)s: the sheet changes through Karma spends or the GM now.")
                      % {"name": access.character.name, "state": access.character.state_word()})
        return redirect("character-sheet", character_id=character_id)
    return pagecache.cached_page(
        request, name="build", object_id=standing.character_id, campaign_id=standing.campaign_id,
        version=standing.page_version, render=lambda: render_page(request, access_character(user=request.user, character_id=character_id,
                                                             write=True), page="build"))


def _partial(request, access: CharacterAccess, *, page: str, main: str, also=(), status: int = 200,
             overrides: dict | None = None) -> HttpResponse:
    """Answer an htmx write: the changed section, then the others it moves, budget and problems out of band."""
    context = page_context(access, page=page, overrides=overrides)
    context.update({"main": main, "also": also})
    return render(request, "characters/_write_response.html", context, status=status)


@login_required
@require_POST
def stats_save(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    character = access.character
    form = StatsForm(request.POST, character=character,
                     rolled_locked=character.campaign.stat_entry == Campaign.StatEntry.ROLL and not access.is_gm)
    status, error = 400, None
    if form.is_valid():
        try:
            services.character_update(character=character, by=request.user, is_gm=access.is_gm,
                                      data=form.service_data())
        except DomainError as exc:
            status, error = error_status(exc), {"field": exc.field, "message": exc.message}
            if exc.field == "name":
                form.add_error("name", exc.message)
        else:
            if not request.htmx:
                messages.success(request, _("Stats saved."))
                return redirect(page_url("build", character_id, "sec-stats"))
            return _partial(request, access, page="build", main="stats", also=("skills",))
    overrides = {"stats_form": form, "stats_error": error}
    if request.htmx:
        return _partial(request, access, page="build", main="stats", status=status, overrides=overrides)
    return render_page(request, access, page="build", overrides=overrides, status=status)


@login_required
@require_POST
def stats_preview(request, character_id: int):
    """The stats and skills sections and the budget as they would be with what the builder's form
    holds now, before saving: the sheet values, every stat's and skill's check and odds (worn
    armour included), and the skill points the trades cost. Changes nothing."""
    access = access_character(user=request.user, character_id=character_id, write=True)
    character = access.character
    form = StatsForm(request.POST, character=character,
                     rolled_locked=character.campaign.stat_entry == Campaign.StatEntry.ROLL and not access.is_gm)
    overrides = {"stats_form": form, "stats_preview": True}
    if form.is_valid():
        overrides["generation"] = form.service_data()
    try:  # the skills' odds move with their stats, as they do once saved
        return _partial(request, access, page="build", main="stats", also=("skills",), overrides=overrides)
    except DomainError as exc:  # INT dice or swaps the rules refuse: said where the form is
        overrides.pop("generation", None)
        overrides["stats_error"] = {"field": exc.field, "message": exc.message}
        return _partial(request, access, page="build", main="stats", overrides=overrides)


@login_required
@require_POST
def stats_roll(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    character = access.character
    try:
        services_rolls.stats_roll(campaign=character.campaign, by=request.user, character=character,
                                  is_gm=access.is_gm)
    except DomainError as exc:
        overrides, status = {"stats_error": {"field": "roll", "message": exc.message}}, error_status(exc)
        if request.htmx:
            return _partial(request, access, page="build", main="stats", status=status, overrides=overrides)
        return render_page(request, access, page="build", overrides=overrides, status=status)
    if not request.htmx:
        messages.success(request, _("Stats rolled; the roll is in the campaign log."))
        return redirect(page_url("build", character_id, "sec-stats"))
    return _partial(request, access, page="build", main="stats", also=("skills",))


# --- Sheet lines ---------------------------------------------------------------------------
def _line_access(request, character_id: int, kind: str, item_id: int | None = None):
    if kind not in SECTIONS:
        raise Http404(_("No such kind of line."))
    access = access_character(user=request.user, character_id=character_id, write=True)
    item = None
    if item_id is not None:
        item = items.ITEM_KINDS[kind].model.objects.filter(pk=item_id, character_id=access.character.pk).first()
        if item is None:
            raise Http404(_("No such line on this sheet."))
        item.character = access.character
    return access, item


def _line_answer(request, access, kind: str, *, override: dict | None = None, status: int = 200):
    page = page_of(request)
    if not request.htmx and status < 400:  # a plain form's success: reloading never posts again
        return redirect(page_url(page, access.character.pk, f"sec-{kind}"))
    overrides = {kind: override} if override else None
    if request.htmx:
        # Worn armour moves the stats in play, and with them every skill's and weapon's target.
        also = ("skills", "weapons", "stats-table") if kind == "armour" and page == "sheet" else ()
        return _partial(request, access, page=page, main=kind, also=also, status=status, overrides=overrides)
    return render_page(request, access, page=page, overrides=overrides, status=status)


@login_required
@require_POST
def lines_classify(request, character_id: int, kind: str):
    """The GM classifies every line of a section awaiting it, with one button."""
    access, _none = _line_access(request, character_id, kind)
    require_gm(access)
    if kind == "languages":
        raise Http404(_("Languages are not classified."))
    pending = items.ITEM_KINDS[kind].model.objects.filter(character_id=access.character.pk, classified=False)
    forms = {line.pk: ClassifyForm(request.POST, kind=kind, prefix=f"classify-{kind}-{line.pk}")
             for line in pending.order_by("pk")}
    choices = {k: v for k, v in request.POST.items() if k.startswith(f"classify-{kind}-")}
    wrong = next(((line_id, form) for line_id, form in forms.items() if not form.is_valid()), None)
    if wrong is not None:
        errors = [e for errs in wrong[1].errors.values() for e in errs]
        return _line_answer(request, access, kind, status=400, override={
            "item_id": wrong[0], "classify_form": wrong[1], "errors": errors, "choices": choices})
    try:
        items.lines_classify(character=access.character, kind_name=kind, by=request.user,
                             rulings={line_id: form.cleaned_data for line_id, form in forms.items()})
    except DomainError as exc:
        return _line_answer(request, access, kind, status=error_status(exc),
                            override={"errors": [exc.message], "item_id": next(iter(forms), None),
                                      "choices": choices})
    return _line_answer(request, access, kind)


@login_required
@require_POST
def line_add(request, character_id: int, kind: str):
    access, _none = _line_access(request, character_id, kind)
    form = line_form(kind, request.POST, character=access.character)
    status = 400
    if form.is_valid():
        try:
            items.item_create(character=access.character, kind_name=kind, data=form.cleaned_data,
                              by=request.user, is_gm=access.is_gm)
        except DomainError as exc:
            add_form_error(form, exc)
            status = error_status(exc)
        else:
            return _line_answer(request, access, kind)
    return _line_answer(request, access, kind, override={"add_form": form}, status=status)


@login_required
@require_GET
def line_new(request, character_id: int, kind: str):
    """A section's add form, loaded when its "+ Add" opens (or the page with it open, without htmx)."""
    access, _none = _line_access(request, character_id, kind)
    page = "build" if request.GET.get("next") == "build" else "sheet"
    if not request.htmx:
        return redirect(page_url(page, character_id) + f"?add={kind}#sec-{kind}")
    section = {"kind": kind, "character": access.character, "page": page, "singular": SECTIONS[kind][1],
               "add_form": line_form(kind, character=access.character)}
    return render(request, "characters/_line_add.html", {"section": section})


@login_required
@require_GET
def line_edit(request, character_id: int, kind: str, item_id: int):
    """The edit form of one line, loaded when its "Edit" opens (or the page with it open, without htmx)."""
    access, item = _line_access(request, character_id, kind, item_id)
    page = "build" if request.GET.get("next") == "build" else "sheet"
    if not request.htmx:
        return redirect(page_url(page, character_id) + f"?edit={kind}-{item.pk}#{kind}-{item.pk}")
    section = {"kind": kind, "character": access.character, "page": page}
    form = line_form(kind, instance=item, prefix_id=item.pk, character=access.character)
    return render(request, "characters/_line_edit.html", {"section": section, "line": {"item": item, "edit_form": form}})


@login_required
@require_POST
def line_update(request, character_id: int, kind: str, item_id: int):
    access, item = _line_access(request, character_id, kind, item_id)
    form = line_form(kind, request.POST, prefix_id=item.pk, character=access.character)
    status = 400
    if form.is_valid():
        try:
            items.item_update(item=item, kind_name=kind, data=form.cleaned_data, by=request.user, is_gm=access.is_gm)
        except DomainError as exc:
            add_form_error(form, exc)
            status = error_status(exc)
        else:
            return _line_answer(request, access, kind)
    return _line_answer(request, access, kind, override={"item_id": item.pk, "edit_form": form}, status=status)


@login_required
@require_POST
def line_delete(request, character_id: int, kind: str, item_id: int):
    access, item = _line_access(request, character_id, kind, item_id)
    try:
        items.item_delete(item=item, kind_name=kind, by=request.user, is_gm=access.is_gm)
    except DomainError as exc:
        return _line_answer(request, access, kind, override={"item_id": item.pk, "errors": [exc.message]},
                            status=error_status(exc))
    return _line_answer(request, access, kind)


@login_required
@require_POST
def line_classify(request, character_id: int, kind: str, item_id: int):
    access, item = _line_access(request, character_id, kind, item_id)
    require_gm(access)
    if kind == "languages":
        raise Http404(_("Languages are not classified."))
    form = ClassifyForm(request.POST, kind=kind, prefix=f"classify-{kind}-{item.pk}")
    # The other lines' choices come along (hx-include) so that saving one keeps the rest.
    choices = {k: v for k, v in request.POST.items()
               if k.startswith(f"classify-{kind}-") and not k.startswith(f"classify-{kind}-{item.pk}-")}
    errors, status = [], 400
    if form.is_valid():
        try:
            items.item_update(item=item, kind_name=kind, data=form.service_data(), by=request.user, is_gm=True)
        except DomainError as exc:
            errors, status = [exc.message], error_status(exc)
        else:
            return _line_answer(request, access, kind, override={"choices": choices} if choices else None)
    else:
        errors = [e for errs in form.errors.values() for e in errs]
    return _line_answer(request, access, kind, override={"item_id": item.pk, "classify_form": form,
                                                         "errors": errors, "choices": choices}, status=status)
