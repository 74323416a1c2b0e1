"""Django's makemessages, also finding the messages of text told once and read by many.

``rulebook.words.said`` and ``said_plural`` mark a log line's or an event's message as they make
it (the message is translated when each reader reads it): the extraction takes them as
keywords, as it takes ``gettext_noop``.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=said", "--keyword=said_plural:1,2"]
