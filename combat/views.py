"""Tracker pages: the encounter list, the GM console and the player view (one page, scoped by
who looks), its live fragment and the attack preview. Every POST answers with a redirect."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign import parts as campaign_parts
from campaign.events import last_event_id
from campaign.permissions import access_campaign
from characters.models import Character
from rolls import selectors as roll_selectors
from zenergate_site import csrf
from zenergate_site.errors import DomainError

from . import attacks, library, parts, selectors, services
from .forms import AttackForm, DyingForm, EncounterForm, NpcForm
from .models import Combatant
from .permissions import EncounterAccess, access_encounter, access_npc_setup


@login_required
@require_http_methods(["GET", "POST"])
def encounter_list(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=request.method == "POST")
    form = EncounterForm(request.POST or None) if access.is_gm else None
    if request.method == "POST" and form.is_valid():
        encounter = services.encounter_create(campaign=access.campaign, by=request.user, **form.cleaned_data)
        return redirect("encounter", encounter_id=encounter.pk)
    return render(request, "combat/list.html", {"campaign": access.campaign, "access": access, "form": form,
                                                "encounters": access.campaign.encounters.all(),
                                                "setups": access.campaign.npc_setups.all() if access.is_gm else ()},
                  status=400 if request.method == "POST" else 200)


def _context(request, access: EncounterAccess) -> dict:
    """The page's context. The tracker comes as its audience's shared copy (parts.TRACKER, the
    copy the stream pushes, rendered once per write for every page of that audience), with the
    viewer's own attack form put in its slot; the tracker's numbers are read once per write too."""
    encounter = access.encounter
    last_event = last_event_id(campaign=encounter.campaign)
    state = parts.tracker_state(access, last_event=last_event)
    mine = set(Combatant.objects.filter(encounter=encounter, character__owner=request.user)
               .values_list("pk", flat=True))
    attackers = [c for c in state["combatants"] if access.is_gm or c["id"] in mine]
    if not access.is_gm:  # a player acts with their own character, on its turn
        attackers = [c for c in attackers if c["id"] == state["acting"]]
    context = {"campaign": encounter.campaign, "access": access, "encounter": encounter, "state": state,
               "is_gm": access.is_gm, "turn_key": parts.turn_key(state),
               "attack_form": _attack_form(request, access, state, attackers), "mine": sorted(mine),
               "live_campaign": encounter.campaign_id, "live_after": last_event}
    context["live_html"] = _live_html(request, access, context)
    if access.is_gm:
        present = {c["character"] for c in state["combatants"] if c["character"]}
        context["characters"] = Character.objects.filter(campaign=encounter.campaign,
                                                         state=Character.State.ACTIVE).exclude(pk__in=present)
        context["npc_form"] = NpcForm()
        # The fighters who are characters: what the Checks card's activity charges (a chase, a climb).
        context["pcs_here"] = [{"character": c["character"], "name": c["name"]}
                               for c in state["combatants"] if c["character"]]
    return context


def _live_html(request, access: EncounterAccess, context: dict) -> str:
    """The tracker part for this viewer: the audience's copy with the viewer's slot in it."""
    shared = campaign_parts.render(parts.TRACKER, access.encounter.pk, campaign_id=access.encounter.campaign_id,
                                   gm=access.is_gm, last_event=context["live_after"])
    empty = parts.empty_slot(context["turn_key"])
    if shared.count(empty) == 1:
        own = render_to_string("combat/_attack_slot.html", {**context, "csrf_token": csrf.PLACEHOLDER}).strip()
        return mark_safe(csrf.fill(shared.replace(empty, own).encode(), request).decode())
    # A write came between the two reads and the copy shows another turn: render this viewer's own.
    return render_to_string("combat/_live.html", {**parts.shared_context(access, context["state"]), **context},
                            request)


def _remembered_key(encounter_id: int, attacker_id: int) -> str:
    return f"attack:{encounter_id}:{attacker_id}"


def _attack_form(request, access: EncounterAccess, state: dict, attackers: list[dict]) -> AttackForm | None:
    """The attack form while the fight runs, set for the combatant acting: what it chose for its
    last attack (target, weapon, range, aim, ...) when it made one from this browser, else against
    the first one on the other side with its first weapon."""
    if not attackers or state["state"] != "running":
        return None
    attacker = next((c for c in attackers if c["id"] == state["acting"]), attackers[0])
    others = [c for c in state["combatants"] if c["id"] != attacker["id"] and not c["dead"]]
    target = next((c for c in others if c["npc"] != attacker["npc"]), others[0] if others else None)
    weapons = attacker.get("weapons") or []
    initial = {"attacker": attacker["id"], "target": target and target["id"],
               "weapon": weapons[0]["name"] if weapons else ""}
    kept = request.session.get(_remembered_key(access.encounter.pk, attacker["id"])) or {}
    if kept.get("target") not in {c["id"] for c in others}:
        kept.pop("target", None)  # gone, dead or hidden since: the default target it is
    initial.update({k: v for k, v in kept.items() if v not in (None, "")})
    return AttackForm(attackers=attackers, targets=state["combatants"], is_gm=access.is_gm, initial=initial,
                      typed_dice=access.encounter.campaign.typed_dice)


@login_required
@require_GET
def encounter_page(request, encounter_id: int):
    access = access_encounter(user=request.user, encounter_id=encounter_id)
    return render(request, "combat/encounter.html", {**_context(request, access), "check_key": uuid.uuid4().hex})


@login_required
@require_GET
def encounter_live(request, encounter_id: int):
    """The parts of the page that change, in one fragment: requests, order and combatants, the
    attack form, dying rounds and the log (``?part=log``: the log alone)."""
    access = access_encounter(user=request.user, encounter_id=encounter_id)
    if request.GET.get("part") == "log":
        return render(request, "combat/_log.html", parts.shared_context(access))
    return HttpResponse(_context(request, access)["live_html"])


@login_required
@require_GET
def attack_preview(request, encounter_id: int):
    access = access_encounter(user=request.user, encounter_id=encounter_id)
    state = selectors.tracker(access=access)
    form = AttackForm(request.GET, attackers=state["combatants"], targets=state["combatants"], is_gm=access.is_gm,
                      typed_dice=access.encounter.campaign.typed_dice)
    preview, error = None, None
    if form.is_valid():
        combatant = Combatant.objects.select_related("character").filter(
            encounter=access.encounter, pk=form.cleaned_data["attacker"]).first()
        if combatant is not None and access.may_act_with(combatant):
            try:
                preview = attacks.attack_preview(encounter=access.encounter, is_gm=access.is_gm,
                                                 request=attacks.AttackRequest(**form.request()))
            except DomainError as exc:
                error = exc.message
    else:
        error = "; ".join(e for errs in form.errors.values() for e in errs)
    return render(request, "combat/_preview.html", {"preview": preview, "error": error})


def _back(encounter_id: int):
    return redirect(reverse("encounter", args=[encounter_id]))


@login_required
@require_POST
def encounter_act(request, encounter_id: int):
    """One dispatcher for the console's buttons: each calls one service, then comes back."""
    action = request.POST.get("action", "")
    is_attack = action == "attack"
    access = access_encounter(user=request.user, encounter_id=encounter_id, write=not is_attack)
    encounter, by = access.encounter, request.user
    try:
        if is_attack:
            state = selectors.tracker(access=access)
            form = AttackForm(request.POST, attackers=state["combatants"], targets=state["combatants"],
                              is_gm=access.is_gm, typed_dice=access.encounter.campaign.typed_dice)
            if not form.is_valid():
                raise DomainError("; ".join(e for errs in form.errors.values() for e in errs))
            combatant = Combatant.objects.select_related("character").get(pk=form.cleaned_data["attacker"])
            if not access.may_act_with(combatant):
                raise PermissionDenied(_("Only the GM and the character's player act with it."))
            try:
                dice = form.dice()
            except Exception as exc:
                raise DomainError(" ".join(getattr(exc, "messages", [str(exc)]))) from None
            attack = attacks.AttackRequest(**form.request())
            if encounter.require_approval and not access.is_gm:
                event = attacks.attack_request(encounter=encounter, by=by, request=attack, dice=dice,
                                               idempotency_key=form.cleaned_data["idempotency_key"] or None)
            else:
                event = attacks.attack_make(encounter=encounter, by=by, request=attack, dice=dice, is_gm=access.is_gm,
                                            idempotency_key=form.cleaned_data["idempotency_key"] or None)
                messages.success(request, event.gm_told if access.is_gm else event.told)
            request.session[_remembered_key(encounter.pk, combatant.pk)] = form.remembered()
        elif action == "add_character":
            services.combatant_add(encounter=encounter, by=by, character_id=int(request.POST.get("character", 0)))
        elif action == "add_npc":
            form = NpcForm(request.POST)
            if not form.is_valid():
                raise DomainError("; ".join(f"{k}: {e}" for k, errs in form.errors.items() for e in errs))
            services.combatant_add(encounter=encounter, by=by, npc=form.npc())
        elif action in ("reveal", "surprised", "prone", "cant_move"):
            combatant = Combatant.objects.get(encounter=encounter, pk=int(request.POST.get("combatant", 0)))
            field = "revealed" if action == "reveal" else action
            services.combatant_update(combatant=combatant, by=by, **{field: not getattr(combatant, field)})
        elif action == "initiative":
            services.initiative_roll(encounter=encounter, by=by)
        elif action in ("next", "skip"):
            services.turn_next(encounter=encounter, by=by, skip=action == "skip")
        elif action == "hold":
            services.hold(encounter=encounter, by=by)
        elif action == "act_now":
            services.act_now(encounter=encounter, by=by, combatant_id=int(request.POST.get("combatant", 0)))
        elif action in ("approve", "refuse"):
            event = attacks.request_answer(encounter=encounter, by=by, request_id=int(request.POST.get("request", 0)),
                                           approve=action == "approve")
            messages.success(request, event.gm_told if access.is_gm else event.told)
        elif action == "approval":
            services.encounter_update(encounter=encounter, by=by, require_approval=not encounter.require_approval)
        elif action == "undo":
            event = services.undo_last(encounter=encounter, by=by)
            messages.success(request, event.gm_told if access.is_gm else event.told)
        elif action == "end":
            services.encounter_end(encounter=encounter, by=by)
        elif action == "save_setup":
            setup, created = library.setup_save(encounter=encounter, by=by, name=request.POST.get("name", ""))
            said = (_("Saved the NPC set-up %(name)s: start a fight from it on the Combat page.") if created else
                    _("Replaced the NPC set-up %(name)s: start a fight from it on the Combat page."))
            messages.success(request, said % {"name": setup.name})
        elif action == "again":
            again = library.fight_again(encounter=encounter, by=by)
            messages.success(request, _("%(name)s is set up: roll initiative when the table is ready.")
                             % {"name": again.name})
            return _back(again.pk)
        elif action == "dying":
            form = DyingForm(request.POST)
            if not form.is_valid():
                raise DomainError(_("Give the medic's target as a whole number."))
            event = attacks.dying_check(encounter=encounter, by=by, combatant_id=form.cleaned_data["combatant"],
                                        medical_target=form.cleaned_data["medical_target"],
                                        medical_help=form.cleaned_data["medical_help"])
            messages.success(request, event.gm_told if access.is_gm else event.told)
        else:
            raise DomainError(_("Unknown action."))
    except (DomainError, Combatant.DoesNotExist, ValueError) as exc:
        messages.error(request, getattr(exc, "message", None) or _("That combatant is not in this encounter."))
    return _back(encounter_id)


@login_required
@require_POST
def npc_setup_act(request, setup_id: int):
    """Start a fight from a set-up of the NPC library, or delete the set-up (GM)."""
    setup, access = access_npc_setup(user=request.user, setup_id=setup_id)
    action = request.POST.get("action", "")
    try:
        if action == "fight":
            encounter = library.fight_from_setup(setup=setup, by=request.user, name=request.POST.get("name", ""),
                                                 characters=request.POST.get("characters") == "on")
            messages.success(request, _("%(name)s is set up: roll initiative when the table is ready.")
                             % {"name": encounter.name})
            return _back(encounter.pk)
        if action == "delete":
            library.setup_delete(setup=setup, by=request.user)
            messages.success(request, _("Deleted the NPC set-up %(name)s.") % {"name": setup.name})
        else:
            raise DomainError(_("Unknown action."))
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("campaign-encounters", args=[access.campaign.pk]))


@login_required
@require_GET
def encounter_table(request, encounter_id: int):
    """The table display: a read-only screen for a TV or a laptop facing the players (order, whose
    turn, wounds as how hurt each looks, the last rolls, in large type), the players' view for
    everyone who opens it. ``?part=table`` or ``?part=table-rolls``: one part, for live.js."""
    access = access_encounter(user=request.user, encounter_id=encounter_id)
    campaign = access.encounter.campaign
    rolls = {"rolls": roll_selectors.feed(campaign_id=campaign.pk, user=None, is_gm=False, limit=6)}
    part = request.GET.get("part")
    if part == "table-rolls":
        return render(request, "combat/_table_rolls.html", rolls)
    context = parts.table_context(access.encounter)
    if part == "table":
        return render(request, "combat/_table.html", context)
    return render(request, "combat/table.html", {**context, **rolls, "campaign": campaign,
                                                 "live_campaign": campaign.pk,
                                                 "live_after": last_event_id(campaign=campaign)})
