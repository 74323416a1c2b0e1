"""Every write of the campaign app: one transaction each, locking what it checks, logged."""

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rulebook.systems import SYSTEMS, ParamError
from rulebook.words import Said, listed, said
from zenergate_site.accounts import user_logout_everywhere
from zenergate_site.text import validate_name

from .changes import change_set
from .errors import CampaignConflict, CampaignError
from .events import CampaignChanged
from .models import Account, Campaign, Invitation, LogEntry, Membership, OneTimePassword
from .stat_dice import stat_dice_range
from .signals import campaign_clearing, campaign_unlinking, member_joined

logger = logging.getLogger(__name__)

#: The advisory lock that queues sign-ups behind each other while the day's count is checked.
SIGNUP_LOCK = 0x5A47_0001


def _role_logged(role: str) -> Said:
    """A role as the campaign log's lines name it, in each reader's language."""
    return {"gm": said("GM"), "player": said("Player"), "viewer": said("Viewer")}[role]


#: The campaign's settings as its log lines name them.
SETTING_WORDS = {"name": said("name"), "description": said("description"), "stat_entry": said("stat entry"),
                 "max_skill_ranks": said("max skill ranks"), "rule_set": said("rule set"), "rulings": said("rulings"),
                 "next_session_at": said("next session")}



def _rule_set_changes(campaign: Campaign, key, rulings) -> dict:
    """Check a rule set and its rulings ({name: value}); a new rule set starts from its defaults."""
    if key not in SYSTEMS:
        raise CampaignError(_("Choose one of the rule sets: %(keys)s.") % {"keys": ", ".join(SYSTEMS)}, field="rule_set")
    if not isinstance(rulings, dict):
        raise CampaignError(_("Rulings are an object of {ruling: value}."), field="rulings")
    known = {param.name: param for param in SYSTEMS[key].rulings}
    cleaned = {}
    for name, value in rulings.items():
        if name not in known:
            rule_set = _(SYSTEMS[key].name)  # the rulebook's name, marked there
            raise CampaignError(_("%(rule_set)s has no ruling %(name)r; its rulings: %(known)s.")
                                % {"rule_set": rule_set, "name": name, "known": ", ".join(known)} if known
                                else _("%(rule_set)s has no ruling %(name)r.") % {"rule_set": rule_set, "name": name},
                                field=f"rulings.{name}")
        try:
            cleaned[name] = known[name].coerce(value)
        except ParamError as exc:
            raise CampaignError(str(exc), field=f"rulings.{name}") from None
    return {"rule_set": key, "rulings": cleaned}


@transaction.atomic
def campaign_update(*, campaign: Campaign, by, **changes) -> Campaign:
    """Change a campaign's name, description or character-building settings (GM)."""
    write = change_set(campaign=campaign, by=by)
    campaign = write.lock(Campaign.objects.filter(pk=campaign.pk))[0]
    allowed = {"name", "description", "stat_entry", "stat_dice", "max_skill_ranks", "rule_set", "rulings", "typed_dice"}
    unknown = set(changes) - allowed
    if unknown:
        raise CampaignError(_("Unknown setting(s): %(names)s.") % {"names": ", ".join(sorted(unknown))},
                            field=sorted(unknown)[0])
    if "name" in changes:
        changes["name"] = (changes["name"] or "").strip()
        if not changes["name"]:
            raise CampaignError(_("Give the campaign a name."), field="name")
    if "stat_entry" in changes and changes["stat_entry"] not in Campaign.StatEntry.values:
        raise CampaignError(_("Choose enter or roll."), field="stat_entry")
    if "typed_dice" in changes and changes["typed_dice"] not in Campaign.TypedDice.values:
        raise CampaignError(_("Choose none, own or all."), field="typed_dice")
    if "stat_dice" in changes:
        stat_dice_range(changes["stat_dice"])
        changes["stat_dice"] = changes["stat_dice"].replace(" ", "").lower()
    if "max_skill_ranks" in changes:
        ranks = changes["max_skill_ranks"]
        if isinstance(ranks, bool) or not isinstance(ranks, int) or not 1 <= ranks <= 10:
            raise CampaignError(_("The rank cap is a whole number from 1 to 10 (the article's default is 3)."),
                                field="max_skill_ranks")
    if "rule_set" in changes or "rulings" in changes:
        changes.update(_rule_set_changes(campaign, changes.get("rule_set", campaign.rule_set),
                                         changes.get("rulings", campaign.rulings if "rule_set" not in changes else {})))
    changed = [k for k, v in changes.items() if getattr(campaign, k) != v]
    for key in changed:
        setattr(campaign, key, changes[key])
    if changed:
        campaign.save(update_fields=changed)
        write.audit("campaign.update", said("%(by)s changed the campaign's %(fields)s", by=str(by), fields=listed(
                        SETTING_WORDS.get(k, k.replace("_", " ")) for k in changed)), data={"fields": changed})
        write.publish(CampaignChanged(fields=changed))
    return campaign


@transaction.atomic
def campaign_create(*, name: str, by, description: str = "", stat_entry: str = Campaign.StatEntry.ENTER) -> Campaign:
    """Create a campaign with its creator as GM (an account from the sign-up page once its
    e-mail is confirmed)."""
    name = (name or "").strip()
    if not name:
        raise CampaignError(_("Give the campaign a name."), field="name")
    ensure_may_make_campaigns(by)
    changes = change_set(campaign=None, by=by)
    campaign = Campaign.objects.create(name=name, description=description, stat_entry=stat_entry)
    changes.bind(campaign)
    Membership.objects.create(campaign=campaign, user=by, role=Membership.Role.GM)
    changes.audit("campaign.create", said("%(by)s created the campaign", by=str(by)))
    return campaign


@transaction.atomic
def membership_add(*, campaign: Campaign, username: str, role: str, by) -> Membership:
    """Add an existing user to the campaign with a role."""
    if role not in Membership.Role.values:
        raise CampaignError(_("Role must be one of: %(roles)s.") % {"roles": ", ".join(Membership.Role.values)},
                            field="role")
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CampaignError(_("There is no user called %(name)r.") % {"name": username}, field="username")
    changes = change_set(campaign=campaign, by=by)
    # Lock the campaign so two GMs adding the same person at once get one clear answer.
    changes.lock(Campaign.objects.filter(pk=campaign.pk))
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        raise CampaignConflict(_("%(name)s is already in this campaign.") % {"name": username}, field="username")
    membership = Membership.objects.create(campaign=campaign, user=user, role=role)
    changes.audit("membership.add", said("%(by)s added %(name)s as %(role)s", by=str(by), name=username,
                                         role=_role_logged(role)),
                  data={"user": user.pk, "role": role})
    return membership


def _gm_count(campaign: Campaign) -> int:
    return Membership.objects.filter(campaign=campaign, role=Membership.Role.GM).count()


@transaction.atomic
def membership_change(*, membership: Membership, role: str | None = None, remove: bool = False, by) -> Membership | None:
    """Change a member's role or remove them (GM). A campaign always keeps at least one GM."""
    changes = change_set(campaign=membership.campaign_id, by=by)
    changes.lock(Campaign.objects.filter(pk=membership.campaign_id))
    membership = Membership.objects.select_related("user", "campaign").get(pk=membership.pk)
    campaign = membership.campaign
    if role is not None and role not in Membership.Role.values:
        raise CampaignError(_("Role must be one of: %(roles)s.") % {"roles": ", ".join(Membership.Role.values)},
                            field="role")
    losing_gm = membership.role == Membership.Role.GM and (remove or role != Membership.Role.GM)
    if losing_gm and _gm_count(campaign) == 1:
        raise CampaignConflict(_("A campaign needs a GM: make someone else GM first."), field="role")
    name = membership.user.username
    if remove:
        membership.delete()
        changes.audit("membership.remove", said("%(by)s removed %(name)s", by=str(by), name=name),
                      data={"user": membership.user_id})
        return None
    if role != membership.role:
        membership.role = role
        membership.save(update_fields=["role"])
        changes.audit("membership.role", said("%(by)s made %(name)s %(role)s", by=str(by), name=name,
                                             role=_role_logged(membership.role)),
                      data={"user": membership.user_id})
    return membership


#: Letters for one-time passwords with no look-alikes (no 0/O, 1/l/I).
_PASSWORD_LETTERS = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def _one_time_password() -> str:
    return "".join(secrets.choice(_PASSWORD_LETTERS) for _ in range(14))


def may_make_accounts(user) -> bool:
    """Whether the site lets ``user`` make accounts (``ACCOUNT_CREATION``): staff always; the GMs
    of a campaign unless the setting says staff only."""
    if user.is_staff:
        return True
    return settings.ACCOUNT_CREATION == "gm"


def _refuse_account_making(by) -> None:
    if not may_make_accounts(by):
        raise PermissionDenied(_("On this site only staff make accounts: ask them, or add the person by name."))
    if by.is_staff:
        return
    # One count at a time per GM: parallel sign-ups through their links cannot pass the limit together.
    list(get_user_model().objects.select_for_update().filter(pk=by.pk).values_list("pk", flat=True))
    since = timezone.now() - timedelta(days=1)
    # Accounts the GM made, and accounts people made through the GM's invitation links.
    made = LogEntry.objects.filter(Q(actor=by, action="account.create") | Q(action="account.join", data__inviter=by.pk),
                                   created_at__gte=since).count()
    if made >= settings.ACCOUNT_CREATION_DAILY_LIMIT:
        raise CampaignConflict(_("You made %(n)s accounts in the last 24 hours, the most this site allows; "
                                 "try again tomorrow or ask the site's staff.") % {"n": made}, field="username")


@transaction.atomic
def account_create(*, campaign: Campaign, username: str, role: str, by, email: str = "") -> tuple[Membership, str]:
    """Create a user for a new player and add them to the campaign (GM); return the membership
    and a one-time password, shown once: it is stored only as a hash, and the player must choose
    their own at the first log-in."""
    _refuse_account_making(by)
    username = _checked_username(username, taken=_("There is already a user called %(name)s: add them by name."))
    User = get_user_model()
    password = _one_time_password()
    user = User.objects.create_user(username=username, password=password, email=(email or "").strip())
    OneTimePassword.objects.create(user=user, issued_by=by)
    membership = membership_add(campaign=campaign, username=username, role=role, by=by)
    change_set(campaign=campaign, by=by).audit("account.create", said("%(by)s made an account for %(name)s",
                                                                               by=str(by), name=username),
                                               data={"user": user.pk})
    return membership, password


@transaction.atomic
def password_reissue(*, membership: Membership, by) -> str:
    """Give a member who lost their password a new one-time password (GM); return it, shown once.

    The member's sessions and API token end, and they choose their own password at the next
    log-in. A GM's or staff member's password is theirs to reset, not another GM's.
    """
    user = membership.user
    if membership.role == Membership.Role.GM or user.is_staff or user.is_superuser:
        raise PermissionDenied(_("A GM's or staff member's password is reset by them (or by the site's staff)."))
    if user.pk == by.pk:
        raise CampaignError(_("Change your own password from your account page."), field="membership")
    password = _one_time_password()
    get_user_model().objects.select_for_update().get(pk=user.pk)
    user.set_password(password)
    user.save(update_fields=["password"])
    OneTimePassword.objects.update_or_create(user=user, defaults={"issued_by": by})
    transaction.on_commit(lambda: user_logout_everywhere(user=user))
    change_set(campaign=membership.campaign, by=by).audit(
        "account.password", said("%(by)s gave %(name)s a new one-time password", by=str(by), name=user.username),
        data={"user": user.pk})
    return password


# --- Invitations ---------------------------------------------------------------------------------
@transaction.atomic
def invitation_create(*, campaign: Campaign, role: str, by, single_use: bool = True, expires_at=None,
                      username: str = "", max_uses: int = Invitation.USES_DEFAULT) -> Invitation:
    """A way into the campaign with ``role`` (GM): a link used once, or by up to ``max_uses``
    people until ``expires_at``; with ``username``, for that person alone."""
    if role not in Membership.Role.values:
        raise CampaignError(_("Role must be one of: %(roles)s.") % {"roles": ", ".join(Membership.Role.values)},
                            field="role")
    if not single_use and expires_at is None:
        raise CampaignError(_("A link for several people needs an end date."), field="expires_at")
    if expires_at is not None and expires_at <= timezone.now():
        raise CampaignError(_("The end date is in the past."), field="expires_at")
    low, high = Invitation.USES.low, Invitation.USES.high
    if isinstance(max_uses, bool) or not isinstance(max_uses, int) or not low <= max_uses <= high:
        raise CampaignError(_("A link lets in %(low)s to %(high)s people.") % {"low": low, "high": high},
                            field="max_uses")
    changes = change_set(campaign=campaign, by=by)
    invitation = Invitation.objects.create(campaign=campaign, role=role, token=secrets.token_urlsafe(24),
                                           username=username, single_use=single_use, expires_at=expires_at,
                                           max_uses=1 if single_use else max_uses, created_by=by)
    changes.audit("invitation.create", said("%(by)s invited %(name)s as %(role)s", by=str(by), name=username,
                                            role=_role_logged(role)) if username else
                  said("%(by)s invited by link as %(role)s", by=str(by), role=_role_logged(role)),
                  data={"invitation": invitation.pk, "role": role})
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by) -> Invitation:
    changes = change_set(campaign=invitation.campaign_id, by=by)
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        changes.audit("invitation.revoke", said("%(by)s revoked an invitation", by=str(by)),
                      data={"invitation": invitation.pk})
    return invitation


def invitation_open(token: str) -> Invitation | None:
    """The invitation a link names, if it still lets someone in."""
    invitation = Invitation.objects.select_related("campaign").filter(token=str(token)[:64]).first()
    return invitation if invitation is not None and invitation.open_now(timezone.now()) else None


@transaction.atomic
def invitation_accept(*, token: str, user) -> Membership:
    """Join the campaign an invitation names, with its role; it is used up if it is one-use.

    Raises:
        CampaignConflict: the invitation no longer works, is for someone else, or the user is in already.
    """
    invitation = Invitation.objects.select_for_update().select_related("campaign").filter(
        token=str(token)[:64]).first()
    if invitation is None or not invitation.open_now(timezone.now()):
        raise CampaignConflict(_("This invitation no longer works: ask the GM for a new one."), field="token")
    if invitation.username and invitation.username != user.username:
        raise CampaignConflict(_("This invitation is for someone else."), field="token")
    campaign = invitation.campaign
    changes = change_set(campaign=campaign, by=user)
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        raise CampaignConflict(_("You are in %(campaign)s already.") % {"campaign": campaign.name}, field="token")
    membership = Membership.objects.create(campaign=campaign, user=user, role=invitation.role)
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    changes.audit("membership.add", said("%(name)s joined by invitation as %(role)s", name=str(user),
                                         role=_role_logged(invitation.role)),
                  data={"user": user.pk, "role": invitation.role, "invitation": invitation.pk})
    member_joined.send(sender=Campaign, campaign=campaign, user=user, membership=membership, changes=changes)
    return membership


@transaction.atomic
def invitation_sign_up(*, token: str, username: str, password: str, email: str = "") -> Membership:
    """Make an account from an invitation link and join (a person with no account yet); the
    e-mail, if given, is where a forgotten password's link goes.

    Raises:
        CampaignError: a username taken or not allowed, a weak password.
        PermissionDenied: the site lets only staff make accounts and the inviter is not staff.
    """
    invitation = invitation_open(token)
    if invitation is None:
        raise CampaignConflict(_("This invitation no longer works: ask the GM for a new one."), field="token")
    if settings.SIGNUP == "closed":
        raise PermissionDenied(_("On this site people do not make their own accounts: ask its staff or your GM for "
                                 "one, then open the link again."))
    if invitation.created_by is None or not may_make_accounts(invitation.created_by):
        raise PermissionDenied(_("On this site only staff make accounts: ask them for one, then open the link."))
    # A link's sign-ups are accounts its GM made: the same daily limit (ACCOUNT_CREATION_DAILY_LIMIT).
    try:
        _refuse_account_making(invitation.created_by)
    except CampaignConflict:
        raise CampaignConflict(_("This link has let in as many new accounts as the site allows today: try "
                                 "again tomorrow, or ask the GM."), field="username") from None
    username = (username or "").strip()
    if invitation.username and username != invitation.username:
        raise CampaignError(_("This invitation is for %(name)s.") % {"name": invitation.username}, field="username")
    candidate = _checked_new_user(username, password)
    user = get_user_model().objects.create_user(username=candidate.username, password=password,
                                                email=(email or "").strip())
    membership = invitation_accept(token=token, user=user)
    change_set(campaign=invitation.campaign_id, by=user).audit(
        "account.join", said("%(name)s made an account through %(inviter)s's invitation", name=username,
                             inviter=str(invitation.created_by)),
        data={"user": user.pk, "inviter": invitation.created_by_id})
    return membership


def invitations_by_name(*, campaign: Campaign, by, invited: list[tuple[str, str]]) -> list[Invitation]:
    """Invite each (username, role) by name, in the caller's change set and audit line (an import
    says whom it invited in its own line)."""
    changes = change_set(campaign=campaign, by=by)
    made = Invitation.objects.bulk_create(
        Invitation(campaign=campaign, role=role if role in Membership.Role.values else Membership.Role.PLAYER,
                   token=secrets.token_urlsafe(24), username=username, created_by=by)
        for username, role in invited)
    changes.changed(*made)
    return made


# --- Archive, restore, delete ------------------------------------------------------------------
@transaction.atomic
def campaign_archive(*, campaign: Campaign, by) -> Campaign:
    """Archive the campaign (GM): read-only from now on, out of everyone's campaigns list."""
    changes = change_set(campaign=campaign, by=by)
    changes.lock(Campaign.objects.filter(pk=campaign.pk))
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=timezone.now())
    changes.changed(campaign)
    changes.audit("campaign.archive", said("%(by)s archived the campaign", by=str(by)))
    campaign.refresh_from_db()
    return campaign


@transaction.atomic
def campaign_restore(*, campaign: Campaign, by) -> Campaign:
    """Bring an archived campaign back (GM): writable and listed again."""
    changes = change_set(campaign=campaign, by=by, archived_ok=True)
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=None)
    changes.changed(campaign)
    changes.audit("campaign.restore", said("%(by)s restored the campaign", by=str(by)))
    campaign.refresh_from_db()
    return campaign


@transaction.atomic
def campaign_delete(*, campaign: Campaign, by, confirm: str) -> str:
    """Delete an archived campaign and everything in it (GM), once its name is typed; return the name."""
    change_set(campaign=campaign, by=by, archived_ok=True)
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.archived_at is None:
        raise CampaignConflict(_("Archive the campaign first: only an archived campaign is deleted."), field="campaign")
    if (confirm or "").strip() != campaign.name:
        raise CampaignError(_("Type the campaign's name exactly to delete it."), field="confirm")
    name = campaign.name
    campaign_unlinking.send(sender=Campaign, campaign=campaign)
    campaign_clearing.send(sender=Campaign, campaign=campaign)
    campaign.delete()
    logger.info("Campaign deleted", extra={"campaign": name, "user_id": by.pk})
    return name


def awaits_confirmation(user) -> bool:
    """Whether ``user`` made their account on the sign-up page and has not opened its e-mail's link."""
    return Account.objects.filter(user=user, signed_up_at__isnull=False, email_confirmed_at__isnull=True).exists()


def ensure_may_make_campaigns(user) -> None:
    """Refuse a new campaign (made or imported) to an account from the sign-up page whose e-mail
    is not confirmed yet."""
    if awaits_confirmation(user):
        raise CampaignConflict(_("Confirm your e-mail first: open the link mailed to %(email)s (your account page "
                                 "sends it again). Until then you can join campaigns by invitation.")
                               % {"email": user.email})


def _checked_username(username: str, *, taken: str) -> str:
    """A new username as every path that makes accounts takes it (the GM's, a link's, the
    sign-up page's), stripped; ``taken`` says what to do when someone has it already."""
    username = (username or "").strip()
    if not username:
        raise CampaignError(_("Choose a username."), field="username")
    User = get_user_model()
    try:
        User._meta.get_field("username").run_validators(username)
        validate_name(username)
    except ValidationError:
        raise CampaignError(_("Usernames are letters, digits and @ . + - _ only."), field="username") from None
    if User.objects.filter(username__iexact=username).exists():
        raise CampaignConflict(taken % {"name": username}, field="username")
    return username


def _checked_new_user(username: str, password: str):
    """A new, unsaved user with a name and password the site takes (the sign-up and invitation
    paths share it, so a name or password one takes the other takes too)."""
    username = _checked_username(username, taken=_("There is already a user called %(name)s: if it is you, log in."))
    candidate = get_user_model()(username=username)
    try:
        password_validation.validate_password(password, candidate)
    except ValidationError as exc:
        raise CampaignError(" ".join(exc.messages), field="password") from None
    return candidate


@transaction.atomic
def sign_up(*, username: str, email: str, password: str):
    """Make an account on the sign-up page (``SIGNUP = "open"``): it may join campaigns at once,
    and make campaigns once the link mailed to ``email`` is opened.

    Raises:
        PermissionDenied: the site does not take sign-ups.
        CampaignError: a name or password not allowed, no e-mail.
        CampaignConflict: a name taken, or the site's sign-ups for the day used up.
    """
    if settings.SIGNUP != "open":
        raise PermissionDenied(_("This site does not take sign-ups: ask its staff or your GM for an account or a link."))
    email = (email or "").strip()
    if not email:
        raise CampaignError(_("Give an e-mail: the link that confirms it is how the account may make campaigns."),
                            field="email")
    # One count at a time: parallel sign-ups cannot pass the day's limit together.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [SIGNUP_LOCK])
    since = timezone.now() - timedelta(days=1)
    if settings.SIGNUP_DAILY_LIMIT and (Account.objects.filter(signed_up_at__gte=since).count()
                                        >= settings.SIGNUP_DAILY_LIMIT):
        raise CampaignConflict(_("The site has taken as many sign-ups as it allows today: try again tomorrow."),
                               field="username")
    candidate = _checked_new_user(username, password)
    user = get_user_model().objects.create_user(username=candidate.username, password=password, email=email)
    Account.objects.create(user=user, signed_up_at=timezone.now())
    logger.info("Sign-up: %s", user.username)
    return user


@transaction.atomic
def email_confirm(*, user, email: str) -> None:
    """Make ``email`` the account's (its owner opened the link mailed to it); an account from the
    sign-up page may make campaigns from now on."""
    user.email = email
    user.save(update_fields=["email"])
    Account.objects.filter(user=user, email_confirmed_at__isnull=True).update(email_confirmed_at=timezone.now())


def language_choose(*, user, language: str) -> None:
    """Keep the interface language ``user`` chose ("" for the browser's)."""
    if language not in {code for code, _name in Account._meta.get_field("language").choices}:
        raise CampaignError(_("Choose one of the languages offered."), field="language")
    Account.objects.update_or_create(user=user, defaults={"language": language})
