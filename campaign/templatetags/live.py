from urllib.parse import urlsplit

from django import template
from django.conf import settings
from django.urls import reverse

register = template.Library()


@register.simple_tag(takes_context=True)
def stream_url(context, campaign_id: int) -> str:
    """The campaign's pushed stream: on this site, on LIVE_STREAM_URL, or on LIVE_STREAM_PORT of
    the host the page was opened on."""
    path = reverse("campaign-stream", args=[campaign_id])
    if settings.LIVE_STREAM_URL:
        return settings.LIVE_STREAM_URL + path
    request = context.get("request")
    if settings.LIVE_STREAM_PORT and request is not None:
        host = urlsplit(f"//{request.get_host()}").hostname
        host = f"[{host}]" if ":" in host else host  # an IPv6 address keeps its brackets
        return f"{request.scheme}://{host}:{settings.LIVE_STREAM_PORT}{path}"
    return path
