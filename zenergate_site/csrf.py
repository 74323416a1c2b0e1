"""CSRF tokens put into a page as it leaves, so a rendered page can be shared and cached.

A page's forms carry a token made from the visitor's CSRF secret, which changes at every log-in.
Rendered with the token inside, a cached page would have to be kept per secret (a log-in would
empty a player's cache) and a fragment pushed to a table would have to be rendered per browser.
So pages that are cached or shared are rendered with ``PLACEHOLDER`` where the token goes (the
``csrf`` context processor below, switched on by ``placeholder_tokens``), and each copy gets the
visitor's own token on its way out (``fill``): a string replacement, not a render.
"""

from __future__ import annotations

from contextlib import contextmanager

from django.middleware.csrf import get_token

#: Stands for the CSRF token in a shared render; never a valid token (tokens are alphanumeric).
PLACEHOLDER = "zg-csrf-token-here"


def csrf(request) -> dict:
    """Context processor: the placeholder instead of the token while a shared copy is rendered."""
    if getattr(request, "_zg_csrf_placeholder", False):
        return {"csrf_token": PLACEHOLDER}
    return {}


@contextmanager
def placeholder_tokens(request):
    """Render pages for ``request`` with the placeholder where the token goes."""
    request._zg_csrf_placeholder = True
    try:
        yield
    finally:
        request._zg_csrf_placeholder = False


def fill(content: bytes, request) -> bytes:
    """``content`` with this visitor's token where the placeholder is (one token made per call)."""
    placeholder = PLACEHOLDER.encode()
    if placeholder not in content:
        return content
    return content.replace(placeholder, get_token(request).encode())
