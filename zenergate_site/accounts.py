"""Accounts: the guarded log-in page, API tokens, logging out on every device at once, and the
one-time password a user must replace with their own before going anywhere else."""

from __future__ import annotations

import logging
from importlib import import_module

from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import SESSION_KEY, get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.contrib.auth.signals import user_logged_in
from django.contrib.auth.views import LoginView, PasswordChangeView, PasswordResetConfirmView, PasswordResetView
from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import receiver
from django.http import JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from . import login_guard, rate

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


# --- One-time passwords ------------------------------------------------------------------------
#: Set in the session at log-in while the user's password is one someone else chose.
MUST_CHANGE = "must_change_password"
#: Pages a user with a one-time password may still reach (the rest redirect to the change page).
OPEN_WITH_ONE_TIME_PASSWORD = ("password-change", "logout", "logout-everywhere", "login")


def _one_time_rows(user):
    """The user's ``OneTimePassword`` row (the campaign app's model, reached through the user)."""
    return get_user_model()._meta.get_field("one_time_password").related_model.objects.filter(user_id=user.pk)


def has_one_time_password(user) -> bool:
    """Whether ``user`` logs in with a password the GM (or a reset) chose."""
    return user.is_authenticated and _one_time_rows(user).exists()


@receiver(user_logged_in)
def _remember_one_time_password(sender, request, user, **kwargs):
    if request is not None and has_one_time_password(user):
        request.session[MUST_CHANGE] = True


def checks_viewer_itself(view):
    """Mark a view that looks up its viewer (session, user, one-time password) on its own
    connections: the middleware leaves the request's session and user unread. The event stream
    does, so that a crowd of pages opening at once queues on its few reader connections instead of
    each asking PostgreSQL for one (campaign/stream.py)."""
    view.checks_viewer_itself = True
    return view


def must_choose_password(request) -> bool:
    """Whether this request's user logged in with a one-time password they have not replaced."""
    return request.user.is_authenticated and bool(request.session.get(MUST_CHANGE))


class OneTimePasswordMiddleware:
    """Send a user logged in with a one-time password to choose their own before anything else."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(view_func, "checks_viewer_itself", False) or not must_choose_password(request):
            return None
        open_paths = {reverse(name) for name in OPEN_WITH_ONE_TIME_PASSWORD}
        if request.path in open_paths or request.path.startswith(settings.STATIC_URL):
            return None
        if request.path.startswith("/api/"):
            return JsonResponse({"errors": {"detail": [
                _("Choose your own password first: log in on the web and change the one-time password.")]}},
                status=403)
        return redirect(f"{reverse('password-change')}?next={request.get_full_path()}")


class AccountPasswordChangeView(PasswordChangeView):
    """Change one's password; a one-time password ends here and the user goes where they meant to."""

    template_name = "registration/password_change_form.html"

    def get_success_url(self):
        target = self.request.POST.get("next") or self.request.GET.get("next") or ""
        if target and url_has_allowed_host_and_scheme(target, allowed_hosts={self.request.get_host()}):
            return target
        return reverse("home")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["one_time"] = bool(self.request.session.get(MUST_CHANGE))
        context["next"] = self.request.GET.get("next", "")
        return context

    def form_valid(self, form):
        response = super().form_valid(form)
        _one_time_rows(self.request.user).delete()
        self.request.session.pop(MUST_CHANGE, None)
        messages.success(self.request, _("Your password is changed."))
        return response


class AccountPasswordResetConfirmView(PasswordResetConfirmView):
    """The emailed link's page: a password chosen here is the user's own, so no one-time one is left."""

    template_name = "registration/reset_confirm.html"

    def form_valid(self, form):
        response = super().form_valid(form)
        _one_time_rows(form.user).delete()
        return response


# --- The log-in forms -------------------------------------------------------------------------
class LoginGuardMixin:
    """Refuse a log-in while the account or the client is locked out; count wrong passwords."""

    lockout: login_guard.Lockout | None = None

    def clean(self):
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()  # a missing field: nothing was tried
        self.lockout = login_guard.reserve(self.request, username)
        if self.lockout is None:
            try:
                cleaned = super().clean()
            except ValidationError:
                # An account that may not log in here (inactive, not staff) is no wrong password.
                if self.user_cache is None:
                    self.lockout = login_guard.record_failure(self.request, username)
                else:
                    login_guard.release(self.request, username)
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

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "signup_open": settings.SIGNUP == "open"}

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
    messages.success(request, _("You are logged out on every device, and your API token no longer works."))
    return redirect("login")


class QueuedPasswordResetForm(PasswordResetForm):
    """"Forgotten your password?": the worker sends the mail (zenergate_site.tasks), so the answer
    takes the same time for a known address as for an unknown one, and says the same. At most
    ``PASSWORD_RESET_ADDRESS_LIMIT`` requests an hour from one client address are passed on."""

    def save(self, domain_override=None, use_https=False, request=None, **kwargs):
        from .tasks import send_password_reset

        if request is not None and not rate.spend("reset-address", login_guard.client_address(request),
                                                  limit=settings.PASSWORD_RESET_ADDRESS_LIMIT, window=3600):
            return
        domain = domain_override or (request.get_host() if request is not None else "localhost")
        email = self.cleaned_data["email"]
        language = translation.get_language() or ""
        transaction.on_commit(lambda: send_password_reset.delay(email=email, domain=domain, use_https=use_https,
                                                                language=language))


class QueuedPasswordResetView(PasswordResetView):
    form_class = QueuedPasswordResetForm
    template_name = "registration/reset_form.html"
