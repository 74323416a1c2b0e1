from urllib.parse import urlsplit

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

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


@register.simple_tag
def live_part(name: str, key: int | None = None) -> str:
    """The attributes of a page part the stream pushes rendered (campaign.parts): what it is,
    the events it follows, and ``hx-trigger="zg-refresh"`` for when static/js/live.js fetches it
    instead (polling, or a slot of its own to fill)."""
    from campaign.parts import PARTS

    part = PARTS[name]
    keyed = f' data-live-key="{int(key)}"' if part.key is not None else ""
    return format_html('data-live-part="{}"{} data-live-on="{}" hx-trigger="zg-refresh"',
                       name, mark_safe(keyed), part.trigger(key))


@register.simple_tag
def live_on(kind: str, **ids) -> str:
    """The attributes of a page part fetched again whenever an event of ``kind`` (for these ids)
    arrives, e.g. ``{% live_on "wounds" characters=character.pk %}``: static/js/live.js asks
    for it, never twice at once, never dropping one."""
    from campaign.events import KINDS

    return format_html('data-live-on="{}" hx-trigger="zg-refresh"', KINDS[kind].trigger(**ids))
