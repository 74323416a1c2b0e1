"""Transfer API serializers: the import's answer. The document itself is described in docs/api.md."""

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from zenergate_site.api_fields import StrictInput


class PersonOut(serializers.Serializer):
    username = serializers.CharField()
    on_server = serializers.BooleanField(help_text=gettext_lazy("An account of that name (any case) exists here."))
    outcome = serializers.CharField(help_text=gettext_lazy("joined, invited as player, on this server, not invited, or "
                                                           "not on this server."))


class HeldOut(serializers.Serializer):
    name = serializers.CharField(help_text=gettext_lazy("The character's name."))
    owner = serializers.CharField(help_text=gettext_lazy("Its owner in the document."))
    held_for = serializers.CharField(help_text=gettext_lazy("Whom the importer holds it for until they join; empty once "
                                                            "they have."))


class ImportReportOut(serializers.Serializer):
    people = PersonOut(many=True, help_text=gettext_lazy("Everyone the document names besides the importer."))
    characters = HeldOut(many=True)


class ImportOut(ImportReportOut):
    id = serializers.IntegerField(help_text=gettext_lazy("The new campaign's id."))
    skipped_members = serializers.ListField(
        child=serializers.CharField(), help_text=gettext_lazy("Everyone the document names besides you: none was "
                                                              "added or invited (see people, and import-invitations/)."))


class ImportInviteIn(StrictInput):
    usernames = serializers.ListField(child=serializers.CharField(max_length=150), max_length=500,
                                      help_text=gettext_lazy("People the document named and this server knows, to "
                                                             "invite as players."))
