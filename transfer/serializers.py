"""Transfer API serializers: the import's answer. The document itself is described in docs/api.md."""

from rest_framework import serializers


class ImportOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="The new campaign's id.")
    skipped_members = serializers.ListField(
        child=serializers.CharField(), help_text="Members of the document with no account on this server.")
