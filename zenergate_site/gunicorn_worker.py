"""gunicorn's threaded worker, answering the limits gunicorn enforces itself in the API's error
shape.

The app refuses an over-long address (414) or over-large headers (431) itself, as JSON under
/api/ (zenergate_site/request_limits.py), and gunicorn is set to let a little more through. What
is past even gunicorn's own maximum (a request line over 8,190 bytes, more than
``limit_request_fields`` headers) never reaches the app: gunicorn would answer it with an HTML
page of its own. This worker answers those two with the same JSON body instead; the request was
never read, so its path is unknown and every client gets JSON.
"""

from __future__ import annotations

import json

from gunicorn import util
from gunicorn.http.errors import LimitRequestHeaders, LimitRequestLine
from gunicorn.workers.gthread import ThreadWorker

REFUSALS = {
    LimitRequestLine: (414, "URI Too Long", "The address is too long for this server."),
    LimitRequestHeaders: (431, "Request Header Fields Too Large", "The request has too many or too large headers."),
}


def refusal(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"errors": {"detail": [message]}})
    return (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n{body}").encode("latin-1")


class JsonLimitsWorker(ThreadWorker):
    def handle_error(self, req, client, addr, exc):
        for kind, (status, reason, message) in REFUSALS.items():
            if isinstance(exc, kind):
                self.log.debug("Refused with %s: %s", status, exc)
                try:
                    util.write_nonblock(client, refusal(status, reason, message))
                except OSError:
                    pass  # the client went away: nothing to answer
                return
        super().handle_error(req, client, addr, exc)
