"""The GM's flow and the player's submission: submit, approve, return, state, notes, history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from zenergate_site.errors import DomainError

from .. import lifecycle, services
from ..errors import CharacterError
from ..forms import (
    NotesForm,
    ReturnForm,
    RevertForm,
    StateForm,
)
from ..permissions import CharacterAccess, access_character
from .page import (
    add_form_error,
    error_status,
    page_context,
    page_of,
    page_url,
    render_page,
    require_gm,
    review_forms,
)


# --- The GM flow and the player's submission -----------------------------------------------
def _lifecycle_refused(request, access, *, action: str, exc, status: int, **forms):
    page = page_of(request)
    review = review_forms(access.character, errors={action: exc.message if hasattr(exc, "message") else exc},
                     **forms)
    if request.htmx:
        context = page_context(access, page=page, overrides={"review": review})
        return render(request, "characters/_review.html", context, status=status)
    return render_page(request, access, page=page, overrides={"review": review}, status=status)


def _lifecycle_done(request, character_id: int, message: str, page: str = "sheet"):
    messages.success(request, message)
    url = page_url(page, character_id)
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def character_submit(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    try:
        character = lifecycle.character_submit(character=access.character, by=request.user)
    except DomainError as exc:
        return _lifecycle_refused(request, access, action="submit", exc=exc, status=error_status(exc))
    return _lifecycle_done(request, character_id, _("%(name)s is with the GM for approval.") % {"name": character.name})


@login_required
@require_POST
def character_approve(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    require_gm(access)
    try:
        character = lifecycle.character_approve(character=access.character, by=request.user)
    except DomainError as exc:
        return _lifecycle_refused(request, access, action="approve", exc=exc, status=error_status(exc))
    return _lifecycle_done(request, character_id, _("%(name)s is approved and in play.") % {"name": character.name})


def _gm_form_action(request, character_id: int, *, action: str, form_class, invalid: str, act, done):
    """Run a GM lifecycle action that takes a form: validate, act, then land or show why not."""
    access = access_character(user=request.user, character_id=character_id, write=True)
    require_gm(access)
    form = form_class(request.POST)
    form_key = f"{action}_form"
    if not form.is_valid():
        return _lifecycle_refused(request, access, action=action, exc=invalid, status=400, **{form_key: form})
    try:
        character = act(access.character, form.cleaned_data)
    except DomainError as exc:
        return _lifecycle_refused(request, access, action=action, exc=exc, status=error_status(exc),
                                  **{form_key: form})
    return _lifecycle_done(request, character_id, done(character))


@login_required
@require_POST
def character_return(request, character_id: int):
    return _gm_form_action(
        request, character_id, action="return", form_class=ReturnForm, invalid=_("Say what the player should change."),
        act=lambda character, data: lifecycle.character_return(character=character, by=request.user,
                                                               comment=data["comment"]),
        done=lambda character: _("%(name)s went back to its player with your comment.") % {"name": character.name})


@login_required
@require_POST
def character_state(request, character_id: int):
    return _gm_form_action(
        request, character_id, action="state", form_class=StateForm, invalid=_("Pick active, dead or retired."),
        act=lambda character, data: lifecycle.character_set_state(character=character, state=data["state"],
                                                                  by=request.user),
        done=lambda character: _("%(name)s is now %(state)s.") % {"name": character.name,
                                                                    "state": character.state_word()})


@login_required
@require_POST
def character_notes(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    require_gm(access)
    form = NotesForm(request.POST)
    status, saved = 400, False
    if form.is_valid():
        try:
            services.character_update(character=access.character, by=request.user, is_gm=True,
                                      data={"gm_notes": form.cleaned_data["gm_notes"]})
        except DomainError as exc:
            add_form_error(form, exc, fallback="gm_notes")
            status = error_status(exc)
        else:
            if not request.htmx:
                messages.success(request, _("GM notes saved."))
                return redirect(page_url(page_of(request), character_id, "gm-notes"))
            status, saved = 200, True
    if request.htmx:
        return render(request, "characters/_gm_notes.html",
                      {"character": access.character, "notes_form": form, "saved": saved, "page": page_of(request)},
                      status=status)
    return render_page(request, access, page=page_of(request), overrides={"notes_form": form}, status=status)


def _history_page(request, access: CharacterAccess, *, error: str = "", status: int = 200):
    return render(request, "characters/history.html",
                  {"character": access.character, "access": access, "rows": lifecycle.history(access.character, is_gm=access.is_gm),
                   "is_gm": access.is_gm, "error": error}, status=status)


@login_required
@require_GET
def character_history(request, character_id: int):
    return _history_page(request, access_character(user=request.user, character_id=character_id))


@login_required
@require_POST
def character_revert(request, character_id: int):
    access = access_character(user=request.user, character_id=character_id, write=True)
    require_gm(access)
    form = RevertForm(request.POST)
    try:
        if not form.is_valid():
            raise CharacterError(_("Pick a point in the sheet's history."), field="history_id")
        lifecycle.character_revert(character=access.character, by=request.user, **form.service_data())
    except DomainError as exc:
        return _history_page(request, access, error=exc.message, status=error_status(exc))
    messages.success(request, _("%(name)s is back as it was at that point. Karma was not touched.")
                     % {"name": access.character.name})
    return redirect("character-sheet", character_id=character_id)
