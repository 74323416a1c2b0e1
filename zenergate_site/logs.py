"""Logging filters."""

import logging


class RefusedRequestFilter(logging.Filter):
    """Turn Django's record of a refused request (a 4xx: not found, forbidden, too many, a bad
    request) into one line at INFO: it is the client's mistake or a probe, not ours, and a
    traceback per refusal buries the warnings that matter. 5xx records pass untouched."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and 400 <= status < 500 and record.levelno < logging.ERROR:
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.exc_info, record.exc_text, record.stack_info = None, None, None
            return logging.getLogger().isEnabledFor(logging.INFO)
        return True
