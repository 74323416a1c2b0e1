"""The account page (who one is here: name, e-mail, the password, the API token, one's sessions
and campaigns) and the sign-up page. A new e-mail counts once its owner opens the link mailed
to it; so does a sign-up's, before the account may make campaigns."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from zenergate_site import language as site_language
from zenergate_site import limits, rate
from zenergate_site.email_links import EMAIL_LINK_SECONDS, EMAIL_SALT
from zenergate_site.errors import DomainError
from zenergate_site.login_guard import client_address
from zenergate_site.text import validate_name

from . import services as campaign_services
from .models import Account



class NameForm(forms.Form):
    first_name = forms.CharField(max_length=150, required=False, label=gettext_lazy("Name"),
                                 help_text=gettext_lazy("How the table knows you; your username stays as it is."))


class LanguageForm(forms.Form):
    language = forms.ChoiceField(choices=Account._meta.get_field("language").choices, required=False,
                                 label=gettext_lazy("Language"))


class EmailForm(forms.Form):
    email = forms.EmailField(max_length=254, label=gettext_lazy("New e-mail"))


class SignUpForm(forms.Form):
    username = forms.CharField(max_length=limits.USERNAME, validators=[validate_name], label=gettext_lazy("Username"),
                               widget=forms.TextInput(attrs={"autocomplete": "username"}))
    email = forms.EmailField(max_length=254, label=gettext_lazy("E-mail"),
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}),
                             help_text=gettext_lazy("A link goes there: open it, and the account may make campaigns."))
    password = forms.CharField(max_length=128, label=gettext_lazy("Password"),
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                               help_text=gettext_lazy("At least 8 characters, not all digits, not a common password."))


def _mail_link(request, user, email: str) -> None:
    from zenergate_site.tasks import send_email_confirmation

    user_id, domain, https = user.pk, request.get_host(), request.is_secure()
    language = translation.get_language()  # the mail speaks the page's language
    transaction.on_commit(lambda: send_email_confirmation.delay(user_id=user_id, email=email, domain=domain,
                                                                use_https=https, language=language))


@require_http_methods(["GET", "POST"])
def sign_up(request):
    """The sign-up page, when the site takes sign-ups (``SIGNUP = "open"``); elsewhere it says how
    people get in there."""
    if settings.SIGNUP != "open":
        return render(request, "registration/signup.html", {"closed": True}, status=404)
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            # Counted once the form is whole, so a typo does not use up a household's sign-ups.
            if not rate.spend("signup", client_address(request), limit=settings.SIGNUP_ADDRESS_LIMIT, window=3600):
                messages.error(request, _("Too many sign-ups from your address: try again in an hour."))
                return render(request, "registration/signup.html", {"form": form}, status=429)
            try:
                user = campaign_services.sign_up(**form.cleaned_data)
            except DomainError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
                status = exc.status_code
            except PermissionDenied as exc:
                form.add_error(None, str(exc))
                status = 403
            else:
                _mail_link(request, user, user.email)
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(request, _("Welcome, %(name)s. A link is on its way to %(email)s: open it, "
                                            "and you can make campaigns. Joining one by invitation works already.")
                                 % {"name": user.username, "email": user.email})
                return redirect("home")
    return render(request, "registration/signup.html", {"form": form}, status=status)


def _context(request, **more) -> dict:
    user = request.user
    language = Account.objects.filter(user=user).values_list("language", flat=True).first() or ""
    return {"name_form": NameForm(initial={"first_name": user.first_name}), "email_form": EmailForm(),
            "language_form": LanguageForm(initial={"language": language}),
            "token": Token.objects.filter(user=user).first(),
            "memberships": user.memberships.select_related("campaign").order_by("campaign__name"),
            "awaits_confirmation": campaign_services.awaits_confirmation(user), **more}


@login_required
@require_http_methods(["GET", "POST"])
def account_page(request):
    user, action = request.user, request.POST.get("action", "")
    if request.method == "GET":
        return render(request, "registration/account.html", _context(request))
    if action == "name":
        form = NameForm(request.POST)
        if not form.is_valid():
            return render(request, "registration/account.html", _context(request, name_form=form), status=400)
        user.first_name = form.cleaned_data["first_name"].strip()
        user.save(update_fields=["first_name"])
        messages.success(request, _("Name saved."))
    elif action == "language":
        form = LanguageForm(request.POST)
        if not form.is_valid():
            return render(request, "registration/account.html", _context(request, language_form=form), status=400)
        _choose_language(request, form.cleaned_data["language"])
        with translation.override(site_language.for_request(request)):  # said in the language chosen
            messages.success(request, _("Language saved."))
    elif action == "email":
        form = EmailForm(request.POST)
        if not form.is_valid():
            return render(request, "registration/account.html", _context(request, email_form=form), status=400)
        email = form.cleaned_data["email"]
        _mail_link(request, user, email)
        messages.success(request, _("A link is on its way to %(email)s: your e-mail changes when you open it.")
                         % {"email": email})
    elif action == "email_again" and user.email:  # the sign-up's link, lost or too old
        _mail_link(request, user, user.email)
        messages.success(request, _("A new link is on its way to %(email)s.") % {"email": user.email})
    elif action == "token_new":  # shown on this answer alone: the page never shows a token again
        Token.objects.filter(user=user).delete()
        made = Token.objects.create(user=user)
        return render(request, "registration/account.html", _context(request, shown_token=made.key))
    elif action == "token_revoke":
        Token.objects.filter(user=user).delete()
        messages.success(request, _("API token revoked: tools that used it must ask for a new one."))
    else:
        return render(request, "registration/account.html", _context(request, error=_("Choose what to change.")),
                      status=400)
    return redirect("account")


@login_required
@require_http_methods(["GET", "POST"])
def email_confirm(request, token: str):
    """The link mailed to a new address: shows the change, and makes it when confirmed (a POST,
    so that a mail scanner following links changes nothing)."""
    try:
        change = signing.loads(token, salt=EMAIL_SALT, max_age=EMAIL_LINK_SECONDS)
    except signing.BadSignature:
        messages.error(request, _("This link is broken or more than two days old: ask for a new one here."))
        return redirect("account")
    if change.get("user") != request.user.pk:
        messages.error(request, _("This link is for another account: log in as its owner to use it."))
        return redirect("account")
    if request.method == "POST":
        campaign_services.email_confirm(user=request.user, email=change["email"])
        messages.success(request, _("Your e-mail is %(email)s now.") % {"email": change["email"]})
        return redirect("account")
    return render(request, "registration/email_confirm.html", {"email": change["email"]})


def _choose_language(request, language: str) -> None:
    if request.user.is_authenticated:
        campaign_services.language_choose(user=request.user, language=language)
    site_language.remember(request, language)


def remember_language(sender, request, user, **kwargs) -> None:
    """At log-in, the account's language becomes the session's (``user_logged_in``)."""
    if request is not None and hasattr(request, "session"):
        site_language.remember(request, Account.objects.filter(user=user).values_list("language", flat=True).first()
                               or "")


@require_POST
def language_switch(request):
    """The top bar's switch: the account's choice for a person logged in, a cookie for anyone else;
    then back to the page it was used on."""
    language = request.POST.get("language", "")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    response = redirect(back)
    if language not in site_language.CODES:
        messages.error(request, _("Choose one of the languages offered."))
        return response
    _choose_language(request, language)
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                        samesite=settings.LANGUAGE_COOKIE_SAMESITE, secure=settings.SESSION_COOKIE_SECURE)
    return response
