"""Who may see a fact of the campaign, decided once where the fact is written.

Every event of the live stream, audit line, combat log entry and roll carries its audience
(DESIGN.md, "Audience at the source"): everyone in the campaign, the GM alone, or one
character's owner and the GM. Readers never decide secrecy themselves: they pass their rows
through ``visible`` (a query) or ``can_see`` (one object), so what the GM hides cannot leak
through a reader that forgot a filter.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy


class Audience(models.TextChoices):
    EVERYONE = "everyone", gettext_lazy("Everyone in the campaign")
    GM = "gm", gettext_lazy("The GM only")
    OWNER = "owner", gettext_lazy("The character's owner and the GM")


@dataclass(frozen=True)
class Seen:
    """An audience as a value: ``EVERYONE``, ``GM_ONLY`` or ``owner_and_gm(user)``."""

    audience: str = Audience.EVERYONE
    user_id: int | None = None

    @property
    def gm_only(self) -> bool:
        return self.audience == Audience.GM

    def columns(self) -> dict:
        """The row's audience columns (see ``Audienced``)."""
        return {"audience": self.audience, "audience_user_id": self.user_id}


EVERYONE = Seen()
GM_ONLY = Seen(Audience.GM)


def owner_and_gm(user_id: int | None) -> Seen:
    """A fact for one character's owner and the GM (a character without an owner: the GM)."""
    return GM_ONLY if user_id is None else Seen(Audience.OWNER, user_id)


def gm_only_if(hidden: bool) -> Seen:
    return GM_ONLY if hidden else EVERYONE


class Audienced(models.Model):
    """The two columns that say who may read a row; ``visible`` filters on them."""

    audience = models.CharField(max_length=8, choices=Audience.choices, default=Audience.EVERYONE)
    # The owner who may read an ``owner`` row besides the GM.
    audience_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="+")

    class Meta:
        abstract = True

    @property
    def seen(self) -> Seen:
        return Seen(self.audience, self.audience_user_id)

    @property
    def gm_only(self) -> bool:
        return self.audience == Audience.GM


def audience_constraint(name: str) -> models.CheckConstraint:
    """The audience is one of the three (an ``owner`` row whose user was deleted reads as GM-only)."""
    return models.CheckConstraint(condition=Q(audience__in=Audience.values), name=name)


def visible(rows: models.QuerySet, *, user, is_gm: bool) -> models.QuerySet:
    """The rows of ``rows`` (an ``Audienced`` model) that this member may read.

    ``user=None``: what every player may read (a render shared by the players, campaign.parts).
    """
    if is_gm:
        return rows
    if user is None:
        return rows.filter(audience=Audience.EVERYONE)
    return rows.filter(Q(audience=Audience.EVERYONE) | Q(audience=Audience.OWNER, audience_user_id=user.pk))


def can_see(seen: Seen, *, user, is_gm: bool) -> bool:
    """Whether this member may read a fact with this audience."""
    if is_gm or seen.audience == Audience.EVERYONE:
        return True
    return seen.audience == Audience.OWNER and seen.user_id == getattr(user, "pk", None)
