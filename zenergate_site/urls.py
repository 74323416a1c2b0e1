from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.urls import include, path
from django.views.defaults import page_not_found
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from .api_auth import ObtainTokenApi
from .health import healthz

api_v1 = [
    path("auth/token/", ObtainTokenApi.as_view(), name="api-token"),
    path("", include("campaign.urls_api")),
    path("", include("characters.urls_api")),
    path("", include("campaign.economy.urls_api")),
    path("", include("campaign.downtime.urls_api")),
    path("", include("combat.urls_api")),
]

urlpatterns = [
    path("", include("campaign.urls")),
    path("", include("campaign.dashboard.urls")),
    path("", include("characters.urls")),
    path("", include("campaign.economy.urls")),
    path("", include("campaign.downtime.urls")),
    path("", include("combat.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("healthz", healthz, name="healthz"),
]


def not_found(request, exception=None):
    """A 404 speaks JSON under /api/ (same shape as every API error), HTML elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"errors": {"detail": ["Not found."]}}, status=404)
    return page_not_found(request, exception)


handler404 = not_found
