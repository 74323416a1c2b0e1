"""Campaign MacGuffin pools: the page, its live fragment, and contributions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign import pagecache
from campaign.events import last_event_id
from campaign.permissions import access_campaign, campaign_standing
from characters.models import Character
from characters.permissions import access_character
from economy.models import MacGuffin
from zenergate_site.errors import DomainError

from .. import services as economy
from ..forms import (
    ContributionForm,
    MacGuffinForm,
)
from .common import attach_error

Active = Character.State.ACTIVE


# --- MacGuffin pools -----------------------------------------------------------------------
def _pool_ids(pool_id: int) -> str:
    """Each pool's form gets its own element ids: several sit on one page."""
    return f"id_pool{pool_id}_%s"


def _contributors_for(user, access) -> list[Character]:
    qs = access.campaign.characters.filter(state=Active)
    if not access.is_gm:
        qs = qs.filter(owner=user)
    return list(qs.order_by("name", "id"))


def _pools_context(request, access, *, bound=None) -> dict:
    """The pools as this viewer sees them, each with a give form where they may give."""
    mine = _contributors_for(request.user, access)
    pools = economy.pools_with_givers(access.campaign)
    for pool in pools:
        if bound is not None and bound[0] == pool.pk:
            pool.form = bound[1]
        elif mine and pool.status == MacGuffin.Status.FUNDING:
            pool.form = ContributionForm(characters=mine, auto_id=_pool_ids(pool.pk))
        else:
            pool.form = None
    return {"campaign": access.campaign, "access": access, "pools": pools, "mine": mine}


def _macguffins_page(request, access, *, create_form=None, bound=None, status=200):
    if access.is_gm and create_form is None:
        create_form = MacGuffinForm()
    context = {**_pools_context(request, access, bound=bound), "create_form": create_form,
               "live_campaign": access.campaign.pk, "live_after": last_event_id(campaign=access.campaign)}
    return render(request, "campaign/macguffins.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def macguffins(request, campaign_id: int):
    """Every MacGuffin pool, live; the GM opens new ones here."""
    if request.method == "GET":
        return _macguffins_page(request, access_campaign(user=request.user, campaign_id=campaign_id))
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=True)
    form = MacGuffinForm(request.POST)
    if not form.is_valid():
        return _macguffins_page(request, access, create_form=form, status=400)
    data = form.cleaned_data
    try:
        pool = economy.macguffin_create(campaign=access.campaign, name=data["name"], limitation=data["limitation"],
                                        target=data["target"], upgrade=data["upgrade"], by=request.user)
    except DomainError as exc:
        return _macguffins_page(request, access, create_form=form, status=attach_error(form, exc))
    messages.success(request, _("Pool “%(name)s” opened: target %(target)s Karma.") % {"name": pool.name,
                                                                                     "target": pool.target})
    return redirect("campaign-macguffins", campaign_id=campaign_id)


@login_required
@require_GET
def macguffins_live(request, campaign_id: int):
    """The pools part of the page, fetched on every pool event: new pools, progress, status,
    contributors and the viewer's give forms."""
    standing = campaign_standing(user=request.user, campaign_id=campaign_id)  # narrow: it may be cached

    def fresh():
        access = access_campaign(user=request.user, campaign_id=campaign_id)
        return render(request, "campaign/_pools.html", _pools_context(request, access))

    return pagecache.cached_page(request, name="pools-live", object_id=int(campaign_id),
                                 campaign_id=int(campaign_id), version=standing.page_version, render=fresh)


@login_required
@require_POST
def macguffin_contribute(request, macguffin_id: int):
    """A player pays Karma from their own character into a pool (the GM from any)."""
    pool = get_object_or_404(MacGuffin.objects.select_related("campaign"), pk=macguffin_id)
    access = access_campaign(user=request.user, campaign_id=pool.campaign_id)
    raw = request.POST.get("character", "")
    if raw.isdigit():  # someone else's character: 403 (or 404 outside its campaign), before anything else
        access_character(user=request.user, character_id=raw, write=True)
    elif not _contributors_for(request.user, access):
        raise PermissionDenied(_("Only players with an approved character (and the GM) can contribute."))
    form = ContributionForm(request.POST, characters=_contributors_for(request.user, access),
                            auto_id=_pool_ids(pool.pk))
    if not form.is_valid():
        return _macguffins_page(request, access, bound=(pool.pk, form), status=400)
    data = form.cleaned_data
    character = Character.objects.get(pk=data["character"])
    try:
        entry, created = economy.macguffin_contribute(macguffin=pool, character=character, amount=data["amount"],
                                                      idempotency_key=data["idempotency_key"], by=request.user)
    except DomainError as exc:
        return _macguffins_page(request, access, bound=(pool.pk, form), status=attach_error(form, exc))
    if created:
        messages.success(request, _("%(name)s gave %(amount)s Karma to %(pool)s.")
                         % {"name": character.name, "amount": -entry.amount, "pool": pool.name})
    else:
        messages.info(request, _("That contribution was already posted; nothing more was given."))
    return redirect("campaign-macguffins", campaign_id=pool.campaign_id)
