"""A character's Karma page: the ledger, the spend form with its live price, Complications."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from characters import sheet as sheet_rules
from characters.models import Character
from characters.permissions import access_character
from characters.selectors import character_with_sheet
from economy.ledger import karma_ledger
from economy.models import Complication
from rulebook.karma import DELAY_TRANSITION_UPGRADES, karmic_starvation
from zenergate_site.errors import DomainError

from .. import services as economy
from ..common import in_sentence
from ..forms import (
    ComplicationForm,
    SpendForm,
)
from .common import attach_error

Active = Character.State.ACTIVE


# --- Karma page ----------------------------------------------------------------------------
def _spend_form(character, data=None) -> SpendForm:
    others = [c for c in character.campaign.characters.filter(state=Active).order_by("name", "id")
              if c.pk != character.pk]
    # Delaying a transition is offered only once the three upgrades are in effect ("Karma").
    can_delay = set(DELAY_TRANSITION_UPGRADES) <= economy.upgrades_in_effect(character.campaign)
    return SpendForm(data, character=character, others=others, disadvantages=list(character.disadvantages.all()),
                     can_delay=can_delay)


def _complication_defaults(character) -> dict:
    """Suggest the Complication the flags call for: its cause and its ranks."""
    computed = sheet_rules.compute_sheet(character)
    budget = computed.budget
    if budget is not None and budget.overspent:
        return {"cause": Complication.Cause.STARVATION, "form": Complication.Form.WORSEN,
                "ranks": karmic_starvation(budget.spent, budget.available).complication_ranks}
    return {"cause": Complication.Cause.DEBT, "form": Complication.Form.WORSEN, "ranks": 1}


def _complications(character) -> list[Complication]:
    """The five latest Complications, each with its form's words as they read inside a sentence."""
    complications = list(character.complications.select_related("by")[:5])
    for complication in complications:
        complication.form_words = in_sentence(complication.get_form_display())
    return complications


def _karma_page(request, access, *, spend_form=None, complication_form=None, status=200):
    character = character_with_sheet(character_id=access.character.pk)
    flags = economy.karma_flags(character)
    if access.can_write and spend_form is None:
        spend_form = _spend_form(character)
    if access.is_gm and complication_form is None:
        complication_form = ComplicationForm(initial=_complication_defaults(character),
                                             disadvantages=list(character.disadvantages.all()))
    context = {
        "character": character,
        "campaign": character.campaign,
        "access": access,
        "flags": flags,
        "ledger": karma_ledger(character=character),
        "spend_form": spend_form,
        "complication_form": complication_form,
        "preview": _spend_preview(character, access.is_gm, spend_form) if spend_form is not None else None,
        "complications": _complications(character),
    }
    return render(request, "campaign/karma.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def character_karma(request, character_id: int):
    """The Karma page: balance, ledger and (for the owner and the GM) the spend form."""
    if request.method == "GET":
        return _karma_page(request, access_character(user=request.user, character_id=character_id))
    access = access_character(user=request.user, character_id=character_id, write=True)
    character = character_with_sheet(character_id=access.character.pk)
    form = _spend_form(character, request.POST)
    if not form.is_valid():
        return _karma_page(request, access, spend_form=form, status=400)
    try:
        entry, created = economy.karma_spend(
            character=character, kind=form.cleaned_data["kind"], idempotency_key=form.cleaned_data["idempotency_key"],
            by=request.user, is_gm=access.is_gm, params=form.spend_params())
    except DomainError as exc:
        kind = form.cleaned_data["kind"]
        aliases = {"character": "helped"} if kind == "assist" and exc.status_code == 400 else None
        shown = {"kind", "reason", "override", SpendForm.NEEDS.get(kind, ("kind",))[0]}
        return _karma_page(request, access, spend_form=form, status=attach_error(form, exc, aliases, shown))
    if created:
        messages.success(request, _("%(name)s spent %(amount)s Karma: %(reason)s. Balance %(balance)s.")
                         % {"name": character.name, "amount": -entry.amount, "reason": entry.told,
                            "balance": entry.balance_after})
    else:
        messages.info(request, _("That spend was already posted (the form was sent twice); nothing more was spent."))
    return redirect("character-karma", character_id=character.pk)


def _spend_preview(character, is_gm: bool, form: SpendForm) -> dict:
    """Price the spend the form describes without posting anything: cost, balance after, or why not."""
    if not form.is_bound:
        form = _spend_form(character, {"kind": form.initial.get("kind", form.fields["kind"].initial),
                                       "idempotency_key": "preview"})
    result = {"balance": character.karma}
    if character.state != Active:
        return {**result, "refused": _("%(name)s is %(state)s: Karma moves only once the GM has approved the sheet.")
                % {"name": character.name, "state": in_sentence(character.get_state_display())}}
    if not form.is_valid():
        errors = [e for name, errs in form.errors.items() if name != "idempotency_key" for e in errs]
        return {**result, "refused": errors[0] if errors else _("Fill in the form.")}
    data, kind = form.cleaned_data, form.cleaned_data["kind"]
    params = {name: data.get(name) for name in ("amount", "stat", "disadvantage", "override", "cost", "time_index")
              if data.get(name) not in (None, "")}
    try:
        spend = economy.spend_quote(character=character, kind=kind, params=params, is_gm=is_gm)
    except DomainError as exc:
        return {**result, "refused": exc.message}
    return {**result, "spend": spend, "after": character.karma - spend.cost}


@login_required
@require_GET
def karma_preview(request, character_id: int):
    """The htmx fragment under the spend form: what the spend would cost, or the rule's refusal."""
    access = access_character(user=request.user, character_id=character_id)
    character = character_with_sheet(character_id=access.character.pk)
    data = request.GET.copy()
    data.setdefault("idempotency_key", "preview")  # the preview posts nothing: no key needed
    preview = _spend_preview(character, access.is_gm, _spend_form(character, data))
    return render(request, "campaign/_spend_preview.html", {"preview": preview, "character": character})


@login_required
@require_POST
def character_complication(request, character_id: int):
    """The GM records a Complication that settles Karmic Debt or Starvation."""
    access = access_character(user=request.user, character_id=character_id, write=True)
    if not access.is_gm:
        raise PermissionDenied(_("Only the GM records Complications."))
    character = character_with_sheet(character_id=access.character.pk)
    form = ComplicationForm(request.POST, disadvantages=list(character.disadvantages.all()))
    if not form.is_valid():
        return _karma_page(request, access, complication_form=form, status=400)
    data = form.cleaned_data
    try:
        economy.complication_record(
            character=character, cause=data["cause"], form=data["form"], ranks=data["ranks"],
            description=data["description"], by=request.user, nullify=data["nullify"],
            worsen=data["worsen"], stat=data["stat"] or None)
    except DomainError as exc:
        return _karma_page(request, access, complication_form=form, status=attach_error(form, exc))
    messages.success(request, _("Complication recorded for %(name)s.") % {"name": character.name})
    return redirect("character-karma", character_id=character.pk)
