"""The API reads JSON only, and a body it cannot read is always a 400 (a body too large, a 413)."""

from typing import NoReturn

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "too_large"


def refuse_oversized_body(request) -> None:
    """Refuse a body larger than Django's limit on request bodies (``DATA_UPLOAD_MAX_MEMORY_SIZE``).

    Django enforces the limit only on the bodies it reads itself (forms); the API reads its
    JSON from the stream, so the same limit is applied here before a byte is parsed.
    """
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if limit is not None and length > limit:
        raise BodyTooLarge(_("The request body is %(length)s bytes; this server takes at most %(limit)s.")
                           % {"length": length, "limit": limit})


def _lone_surrogate(text: str) -> str | None:
    """Return the first lone UTF-16 surrogate in ``text`` (JSON's "\\ud800"), if there is one."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.object[exc.start]
    return None


def _refuse_lone_surrogates(document) -> None:
    """Refuse a document with a lone surrogate anywhere, naming the top-level field that holds it.

    Such a string is valid JSON but not text: it cannot be stored, and an error message that
    quotes it back (an unknown field, an invalid choice) could not even be written out.
    """
    stack = [(document, None)]
    while stack:  # a loop, not recursion: the document may be nested as deep as the parser allows
        value, field = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if (surrogate := _lone_surrogate(key)) is not None:
                    _refuse(field, surrogate)
                stack.append((item, key if value is document else field))
        elif isinstance(value, list):
            stack.extend((item, field) for item in value)
        elif isinstance(value, str) and (surrogate := _lone_surrogate(value)) is not None:
            _refuse(field, surrogate)


def _refuse(field: str | None, surrogate: str) -> NoReturn:
    message = _("Surrogate characters are not allowed: U+%(code)s.") % {"code": f"{ord(surrogate):04X}"}  # DRF's words
    raise exceptions.ParseError({field or "detail": [message]})


class SafeJSONParser(JSONParser):
    """JSON, where a document nested too deeply for the parser is bad input, not a server error,
    and so is text that is not text (a lone surrogate such as "\\ud800", in a key or a value)."""

    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        if request is not None:
            refuse_oversized_body(request)
        try:
            document = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(_("JSON parse error - the document is nested too deeply.")) from None
        _refuse_lone_surrogates(document)
        return document
