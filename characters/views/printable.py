"""The printable two-page sheet, as a page and through the API."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.views import APIView

from .. import pdf
from ..permissions import CharacterAccess, access_character
from .page import sheet_data


# --- The printable sheet ----------------------------------------------------------------------
def _pdf_response(access: CharacterAccess, *, api: bool = False) -> HttpResponse:
    data = sheet_data(access, page="print")
    try:
        body = pdf.sheet_pdf(data)
    except pdf.PdfUnavailable as exc:
        if api:  # the API's one error shape
            return JsonResponse({"errors": {"detail": [str(exc)]}}, status=503)
        return HttpResponse(str(exc), status=503, content_type="text/plain; charset=utf-8")
    response = HttpResponse(body, content_type="application/pdf")
    slug = "".join(ch if ch.isalnum() else "-" for ch in data["character"].name).strip("-") or "character"
    response["Content-Disposition"] = f'inline; filename="{slug}-sheet.pdf"'
    return response


@login_required
@require_GET
def character_pdf(request, character_id: int):
    return _pdf_response(access_character(user=request.user, character_id=character_id))


class PdfRenderer(BaseRenderer):
    """Let API clients ask for application/pdf; errors still go out as JSON."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data if isinstance(data, bytes) else JSONRenderer().render(data)


class PdfOnly(BaseContentNegotiation):
    """The sheet is a PDF whatever the Accept header says; ``?format=`` is checked by the view."""

    def select_parser(self, request, parsers):
        return parsers[0] if parsers else None

    def select_renderer(self, request, renderers, format_suffix=None):
        renderer = next(r for r in renderers if r.format == "pdf")
        return renderer, renderer.media_type


class CharacterSheetPdfApi(APIView):
    """GET /api/v1/characters/{id}/sheet.pdf: the printable sheet (token or session auth)."""

    renderer_classes = [JSONRenderer, PdfRenderer]
    content_negotiation_class = PdfOnly

    def finalize_response(self, request, response, *args, **kwargs):
        # An error is JSON whatever the client asked for: never a JSON body labelled PDF.
        if response.status_code >= 400 and getattr(request, "accepted_renderer", None) is not None:
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(operation_id="characters_sheet_pdf",
                   parameters=[OpenApiParameter("format", str, enum=["pdf"], required=False,
                                                description="Only `pdf` (the default); anything else is 400.")],
                   responses={(200, "application/pdf"): OpenApiTypes.BINARY,
                              503: OpenApiResponse(description="This server cannot lay out PDFs (no Pango).")})
    def get(self, request, character_id: int):
        if request.query_params.get("format", "pdf") != "pdf":
            raise exceptions.ValidationError({"format": [_("The sheet comes as pdf only: leave format out or send "
                                                           "format=pdf.")]})
        return _pdf_response(access_character(user=request.user, character_id=character_id), api=True)
