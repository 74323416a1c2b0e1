"""The site's own jobs for the worker: password-reset mails.

The page that asks for a reset answers at once and the same way whether or not the address is
known; the worker looks the address up and sends, at most ``PASSWORD_RESET_ACCOUNT_LIMIT`` mails
an hour to one account (zenergate_site.accounts.QueuedPasswordResetForm counts per address).
"""

from celery import shared_task
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.utils import translation
from django.utils.translation import gettext as _

from . import rate

RESET_TEMPLATES = {"subject_template_name": "registration/reset_subject.txt",
                   "email_template_name": "registration/reset_email.txt"}


class _AccountLimitedResetForm(PasswordResetForm):
    def get_users(self, email):
        for user in super().get_users(email):
            if rate.spend("reset-account", user.pk, limit=settings.PASSWORD_RESET_ACCOUNT_LIMIT, window=3600):
                yield user


def _language(language: str = "", user_id: int | None = None) -> str:
    """The language a mail speaks: the one the page that asked for it spoke, else the one the
    account chose, else the site's."""
    codes = {code for code, _name in settings.LANGUAGES}
    if language not in codes and user_id is not None:
        from django.contrib.auth import get_user_model

        account = get_user_model()._meta.get_field("account").related_model
        language = account.objects.filter(user_id=user_id).values_list("language", flat=True).first() or ""
    return language if language in codes else settings.LANGUAGE_CODE


@shared_task(name="zenergate_site.tasks.send_password_reset")
def send_password_reset(*, email: str, domain: str, use_https: bool, language: str = "") -> None:
    form = _AccountLimitedResetForm({"email": email})
    if form.is_valid():
        with translation.override(_language(language)):
            form.save(domain_override=domain, use_https=use_https, **RESET_TEMPLATES)


@shared_task(name="zenergate_site.tasks.send_email_confirmation")
def send_email_confirmation(*, user_id: int, email: str, domain: str, use_https: bool, language: str = "") -> None:
    """Mail the link that makes ``email`` the account's, to that address (campaign.account)."""
    from django.core.mail import send_mail
    from django.urls import reverse

    from .email_links import email_link_token

    link = f"{'https' if use_https else 'http'}://{domain}{reverse('email-confirm', args=[email_link_token(user_id, email)])}"
    with translation.override(_language(language, user_id)):
        send_mail(_("Confirm your e-mail for the Zener Gate campaign manager"),
                  _("Open this link within two days to make %(email)s your account's e-mail:\n\n%(link)s\n\n"
                    "If you did not ask for it, ignore this mail: nothing changes.") % {"email": email, "link": link},
                  None, [email])
