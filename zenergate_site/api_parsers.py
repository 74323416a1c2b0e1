"""The API reads JSON only, and a body it cannot read is always a 400."""

from rest_framework import exceptions
from rest_framework.parsers import JSONParser


class SafeJSONParser(JSONParser):
    """JSON, where a document nested too deeply for the parser is bad input, not a server error."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError("JSON parse error - the document is nested too deeply.") from None
