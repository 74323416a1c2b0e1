"""The site's own jobs for the worker: password-reset mails.

The page that asks for a reset answers at once and the same way whether or not the address is
known; the worker looks the address up and sends, at most ``PASSWORD_RESET_ACCOUNT_LIMIT`` mails
an hour to one account (zenergate_site.accounts.QueuedPasswordResetForm counts per address).
"""

from celery import shared_task
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm

from . import rate

RESET_TEMPLATES = {"subject_template_name": "registration/reset_subject.txt",
                   "email_template_name": "registration/reset_email.txt"}


class _AccountLimitedResetForm(PasswordResetForm):
    def get_users(self, email):
        for user in super().get_users(email):
            if rate.spend("reset-account", user.pk, limit=settings.PASSWORD_RESET_ACCOUNT_LIMIT, window=3600):
                yield user


@shared_task(name="zenergate_site.tasks.send_password_reset")
def send_password_reset(*, email: str, domain: str, use_https: bool) -> None:
    form = _AccountLimitedResetForm({"email": email})
    if form.is_valid():
        form.save(domain_override=domain, use_https=use_https, **RESET_TEMPLATES)


@shared_task(name="zenergate_site.tasks.send_email_confirmation")
def send_email_confirmation(*, user_id: int, email: str, domain: str, use_https: bool) -> None:
    """Mail the link that makes ``email`` the account's, to that address (campaign.account)."""
    from django.core.mail import send_mail
    from django.urls import reverse

    from .accounts import email_link_token

    link = f"{'https' if use_https else 'http'}://{domain}{reverse('email-confirm', args=[email_link_token(user_id, email)])}"
    send_mail("Confirm your e-mail for the Zener Gate campaign manager",
              f"Open this link within two days to make {email} your account's e-mail:\n\n{link}\n\n"
              "If you did not ask for it, ignore this mail: nothing changes.", None, [email])
