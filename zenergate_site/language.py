"""The language a page or an API answer speaks: the one chosen on the account page, else the one
chosen with the top bar's switch (a cookie, for people not logged in), else the browser's
``Accept-Language``; English when none of them names a language the site speaks.

Django's own ``LocaleMiddleware`` reads the cookie and the header but knows nothing of accounts,
and runs before the user is known; this one runs after authentication. API answers (their field
names stay English) speak it too, so error messages follow ``Accept-Language``.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.cache import patch_vary_headers

#: The languages the interface speaks, by code: what the account page and the switch offer.
CODES = frozenset(code for code, _name in settings.LANGUAGES)


#: Where a logged-in person's choice is kept for their session: copied from the account at log-in
#: and on every change, so that reading it costs no query.
SESSION_KEY = "zg_language"


def chosen(request) -> str:
    """The language the person chose on the account page, or "" for "as my browser says"."""
    session = getattr(request, "session", None)
    language = session.get(SESSION_KEY, "") if session is not None else ""
    return language if language in CODES else ""


def remember(request, language: str) -> None:
    """Keep ``language`` (the account's choice, or "") for this session."""
    if language in CODES:
        request.session[SESSION_KEY] = language
    else:
        request.session.pop(SESSION_KEY, None)


def for_request(request) -> str:
    return chosen(request) or translation.get_language_from_request(request, check_path=False)


class LanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = for_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        translation.deactivate()
        return response


def javascript_catalog(request, language: str):
    """The scripts' words in ``language`` (Django's catalogue view), at an address per language so
    that browsers may keep it for an hour whoever asks."""
    from django.http import Http404
    from django.views.i18n import JavaScriptCatalog

    if language not in CODES:
        raise Http404
    with translation.override(language):
        response = JavaScriptCatalog.as_view()(request)
    response["Cache-Control"] = "public, max-age=3600"
    return response
