"""The page's side of the live stream: the stream's address, and the parts that say what they show.

Every element of a page that shows campaign data sits in a live part that names the data keys
it shows (campaign.keys)::

    <section class="card" {% live "karma" character|key:"karma" %}>…</section>

When a write changes one of those keys, static/js/live.js brings the part to what a reload
would show: parts rendered once per audience arrive pushed by the stream (``{% live_part %}``,
campaign.parts); every other part is fetched again with its page and swapped in, keeping what
the user was typing. A part must name at least one key: one that names none is an error.
"""

from urllib.parse import urlsplit

from django import template
from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.html import format_html

from campaign import keys as data_keys

register = template.Library()

#: The key of a whole object, by model: what ``obj|key`` names.
OWN_KEYS = {"campaign.Campaign": "campaign", "characters.Character": "character",
            "characters.SystemSheet": "sheet", "combat.Encounter": "encounter", "combat.SystemFight": "fight",
            "campaign.Job": "job", "campaign.GameSession": "session", "downtime.TransitionBatch": "transition"}


@register.filter
def key(obj, part: str = "") -> str:
    """The data key of an object, or of one part of it: ``character|key`` is ``character:12``,
    ``campaign|key:"pools"`` is ``campaign:3/pools``."""
    if not isinstance(obj, models.Model) or obj._meta.label not in OWN_KEYS:
        raise template.TemplateSyntaxError(f"{obj!r} has no data key")
    name = f"{OWN_KEYS[obj._meta.label]}:{int(obj.pk)}"
    return f"{name}/{part}" if part else name


def campaign_id_of(context) -> int | None:
    """The campaign a page shows: ``live_campaign``, else its ``campaign``."""
    if context.get("live_campaign"):
        return int(context["live_campaign"])
    campaign = context.get("campaign")
    if campaign is not None:
        return getattr(campaign, "pk", None)
    for name in ("character", "encounter", "sheet", "fight", "job", "session"):
        found = getattr(context.get(name), "campaign_id", None)
        if found is not None:
            return found
    return None


@register.simple_tag(takes_context=True)
def live_stream(context) -> str:
    """Open the campaign's stream on every page of a campaign (in base.html's head): the meta
    static/js/live.js reads, with the last event id the page was rendered after."""
    campaign_id = campaign_id_of(context)
    if campaign_id is None or context.get("no_live_stream"):
        return ""
    from campaign.events import last_event_id_of

    after = context.get("live_after")
    if after is None:
        after = last_event_id_of(campaign_id)
    from django.templatetags.static import static

    return format_html('<meta name="zg-live" data-url="{}" data-stream="{}" data-after="{}">'
                       '<script src="{}" defer></script>',
                       reverse("api-campaign-events", args=[campaign_id]), stream_url(context, campaign_id),
                       int(after), static("js/live.js"))


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


def _keys(values) -> list[str]:
    found: list[str] = []
    for value in values:
        if isinstance(value, list | tuple | set):
            found += _keys(value)
        elif isinstance(value, models.Model):
            found.append(key(value))
        elif isinstance(value, str) and data_keys.well_formed(value):
            found.append(value)
        else:
            raise template.TemplateSyntaxError(f"{value!r} is not a data key")
    return list(dict.fromkeys(found))


@register.simple_tag
def live(name, *shown) -> str:
    """The attributes of a page part: its name on the page and the data keys it shows.

    A whole number right after the name is part of it, for parts repeated in a loop:
    ``{% live "give" pool.pk campaign|key:"characters" %}`` is the part ``give:7``.
    """
    if shown and isinstance(shown[0], int):
        name, shown = f"{name}:{shown[0]}", shown[1:]
    found = _keys(shown)
    if not found or not name:
        raise template.TemplateSyntaxError(f"the live part {name!r} names no data key")
    return format_html('data-live="{}" data-live-keys="{}"', name, " ".join(found))


@register.simple_tag(takes_context=True)
def live_part(context, name: str, key: int | None = None) -> str:
    """The attributes of a part the stream pushes rendered once per audience (campaign.parts):
    what it is, the keys it shows, and ``hx-trigger="zg-refresh"`` for when static/js/live.js
    fetches it instead (polling, or a slot of its own to fill)."""
    from campaign.parts import PARTS

    part = PARTS[name]
    shown = part.shows(campaign_id_of(context), key)
    keyed = format_html(' data-live-key="{}"', int(key)) if part.per_object else ""
    return format_html('data-live="{}{}" data-live-part="{}"{} data-live-keys="{}" hx-trigger="zg-refresh"',
                       name, f":{int(key)}" if part.per_object else "", name, keyed, " ".join(shown))
