import sys

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.templatetags.static import static
from django.urls import include, path
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found, server_error
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import accounts, language
from .api_auth import LogoutEverywhereApi, ObtainTokenApi
from .api_errors import api_bad_request
from .errors import is_database_unavailable
from .health import healthz


def favicon(request):
    """Browsers ask for /favicon.ico before they read a page's icon link: send them to the icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


# The admin's log-in counts wrong passwords and honours lockouts like the site's.
admin.site.login_form = accounts.GuardedAdminAuthenticationForm

api_v1 = [
    path("auth/token/", ObtainTokenApi.as_view(), name="api-token"),
    path("auth/logout-everywhere/", LogoutEverywhereApi.as_view(), name="api-logout-everywhere"),
    path("", include("campaign.urls_api")),
    path("", include("characters.urls_api")),
    path("", include("economy.urls_api")),
    path("", include("downtime.urls_api")),
    path("", include("combat.urls_api")),
    path("", include("rolls.urls_api")),
    path("", include("transfer.urls_api")),
    path("", include("dashboard.urls_api")),
]

urlpatterns = [
    path("", include("campaign.urls")),
    path("", include("dashboard.urls")),
    path("", include("characters.urls")),
    path("", include("economy.urls")),
    path("", include("downtime.urls")),
    path("", include("combat.urls")),
    path("", include("rolls.urls")),
    path("", include("transfer.urls")),
    path("favicon.ico", favicon, name="favicon"),
    path("accounts/login/", accounts.GuardedLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/logout-everywhere/", accounts.logout_everywhere, name="logout-everywhere"),
    path("accounts/password/", accounts.AccountPasswordChangeView.as_view(), name="password-change"),
    path("accounts/password/reset/", accounts.QueuedPasswordResetView.as_view(), name="password_reset"),
    path("accounts/password/reset/sent/", auth_views.PasswordResetDoneView.as_view(
        template_name="registration/reset_sent.html"), name="password_reset_done"),
    path("accounts/password/reset/<uidb64>/<token>/", accounts.AccountPasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/password/reset/done/", auth_views.PasswordResetCompleteView.as_view(
        template_name="registration/reset_complete.html"), name="password_reset_complete"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view loads its start-up script from ?script rather than inline (CSP: script-src 'self').
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("healthz", healthz, name="healthz"),
    path("jsi18n/<str:language>/", language.javascript_catalog, name="javascript-catalog"),
]


def not_found(request, exception=None):
    """A 404 speaks JSON under /api/ (same shape as every API error), HTML elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"errors": {"detail": [_("Not found.")]}}, status=404)
    return page_not_found(request, exception)


def server_failed(request):
    """A 500 speaks JSON under /api/, HTML elsewhere (templates/500.html, which needs no context).

    The database not answering (no connection to be had, too many clients, a restart) is no
    server fault but a moment's wait: 503 with Retry-After, nothing changed."""
    if is_database_unavailable(sys.exc_info()[1]):
        message = _("The server is busy and could not reach its database; nothing was changed. Try again in a moment.")
        busy = escape(_("Busy"))
        response = (JsonResponse({"errors": {"detail": [message]}}, status=503) if request.path.startswith("/api/")
                    else HttpResponse(f'<!doctype html><html lang="{escape(translation.get_language() or "en")}">'
                                      f'<meta charset="utf-8"><title>{busy}</title>'
                                      f"<h1>{busy}</h1><p>{escape(message)}</p></html>", status=503))
        response["Retry-After"] = "2"
        return response
    if request.path.startswith("/api/"):
        return JsonResponse({"errors": {"detail": [_("Server error.")]}}, status=500)
    return server_error(request)


handler400 = api_bad_request
handler404 = not_found
handler500 = server_failed
