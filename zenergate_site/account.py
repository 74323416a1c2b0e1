"""The account page: who one is here (name, e-mail), the password, the API token, one's sessions
and the campaigns one is in. A new e-mail counts once its owner opens the link mailed to it."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db import transaction
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

#: An e-mail change's link: signed for its account and the new address, good for two days.
EMAIL_SALT = "zenergate.account.email"
EMAIL_LINK_SECONDS = 2 * 24 * 3600


class NameForm(forms.Form):
    first_name = forms.CharField(max_length=150, required=False, label="Name",
                                 help_text="How the table knows you; your username stays as it is.")


class EmailForm(forms.Form):
    email = forms.EmailField(max_length=254, label="New e-mail")


def email_link_token(user_id: int, email: str) -> str:
    return signing.dumps({"user": user_id, "email": email}, salt=EMAIL_SALT)


def _context(request, **more) -> dict:
    user = request.user
    return {"name_form": NameForm(initial={"first_name": user.first_name}), "email_form": EmailForm(),
            "token": Token.objects.filter(user=user).first(),
            "memberships": user.memberships.select_related("campaign").order_by("campaign__name"), **more}


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
        messages.success(request, "Name saved.")
    elif action == "email":
        form = EmailForm(request.POST)
        if not form.is_valid():
            return render(request, "registration/account.html", _context(request, email_form=form), status=400)
        from .tasks import send_email_confirmation

        email, domain, https = form.cleaned_data["email"], request.get_host(), request.is_secure()
        transaction.on_commit(lambda: send_email_confirmation.delay(user_id=user.pk, email=email, domain=domain,
                                                                    use_https=https))
        messages.success(request, f"A link is on its way to {email}: your e-mail changes when you open it.")
    elif action == "token_new":  # shown on this answer alone: the page never shows a token again
        Token.objects.filter(user=user).delete()
        made = Token.objects.create(user=user)
        return render(request, "registration/account.html", _context(request, shown_token=made.key))
    elif action == "token_revoke":
        Token.objects.filter(user=user).delete()
        messages.success(request, "API token revoked: tools that used it must ask for a new one.")
    else:
        return render(request, "registration/account.html", _context(request, error="Choose what to change."),
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
        messages.error(request, "This link is broken or more than two days old: ask for a new one here.")
        return redirect("account")
    if change.get("user") != request.user.pk:
        messages.error(request, "This link is for another account: log in as its owner to use it.")
        return redirect("account")
    if request.method == "POST":
        request.user.email = change["email"]
        request.user.save(update_fields=["email"])
        messages.success(request, f"Your e-mail is {change['email']} now.")
        return redirect("account")
    return render(request, "registration/email_confirm.html", {"email": change["email"]})
