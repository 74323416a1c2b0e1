"""Accounts: the guarded log-in page, API tokens, and logging out on every device at once."""

from __future__ import annotations

import logging
from importlib import import_module

from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import SESSION_KEY, get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from . import login_guard

logger = logging.getLogger(__name__)


# --- Services ------------------------------------------------------------------------------
def token_issue(*, user) -> Token:
    """Give the user a new API token; the one they had stops working."""
    with transaction.atomic():
        # Two log-ins of one user at once would both create a token; the row lock orders them.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def user_logout_everywhere(*, user) -> int:
    """End every session of the user (every browser and device) and revoke their API token.

    Sessions live in the database (``SESSION_ENGINE`` ``db`` or ``cached_db``); a session's
    owner is only in its encoded data, so each live session is decoded once. Returns how many
    sessions ended.
    """
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    owner = str(user.pk)
    live = store_class.get_model_class().objects.filter(expire_date__gt=timezone.now())
    keys = [session.session_key for session in live.iterator()
            if store_class().decode(session.session_data).get(SESSION_KEY) == owner]
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        for key in keys:
            store_class().delete(key)  # also drops the cached copy under cached_db
    logger.info("Logged out everywhere", extra={"user_id": user.pk, "sessions": len(keys)})
    return len(keys)


# --- The log-in forms -------------------------------------------------------------------------
class LoginGuardMixin:
    """Refuse a log-in while the account or the client is locked out; count wrong passwords."""

    lockout: login_guard.Lockout | None = None

    def clean(self):
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()  # a missing field: nothing was tried
        self.lockout = login_guard.lockout_for(self.request, username)
        if self.lockout is None:
            try:
                cleaned = super().clean()
            except ValidationError:
                # An account that may not log in here (inactive, not staff) is no wrong password.
                if self.user_cache is None:
                    self.lockout = login_guard.record_failure(self.request, username)
                if self.lockout is None:
                    raise
            else:
                login_guard.record_success(self.request, username)
                return cleaned
        raise ValidationError(self.lockout.message, code="locked")


class GuardedAuthenticationForm(LoginGuardMixin, AuthenticationForm):
    pass


class GuardedAdminAuthenticationForm(LoginGuardMixin, AdminAuthenticationForm):
    pass


# --- Pages ----------------------------------------------------------------------------------
class GuardedLoginView(LoginView):
    """The log-in page; while locked out it answers 429 with how long to wait."""

    authentication_form = GuardedAuthenticationForm
    redirect_authenticated_user = True

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.lockout is not None:
            response.status_code = 429
            response["Retry-After"] = str(form.lockout.seconds)
        return response


@login_required
@require_POST
def logout_everywhere(request):
    user_logout_everywhere(user=request.user)
    logout(request)
    messages.success(request, "You are logged out on every device, and your API token no longer works.")
    return redirect("login")
