from django.urls import path

from . import account, stream, views

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/<int:campaign_id>/settings/", views.settings_page, name="campaign-settings"),
    path("campaigns/<int:campaign_id>/log/", views.log_page, name="campaign-log"),
    path("join/<str:token>/", views.join, name="join"),
    # The person's own account; the log-in and password pages are the site's (zenergate_site/urls.py).
    path("accounts/", account.account_page, name="account"),
    path("accounts/signup/", account.sign_up, name="signup"),
    path("accounts/email/<str:token>/", account.email_confirm, name="email-confirm"),
    path("language/", account.language_switch, name="language"),
    path("campaigns/<int:campaign_id>/stream/", stream.campaign_stream, name="campaign-stream"),
]
