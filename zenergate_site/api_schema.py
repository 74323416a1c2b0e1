"""The OpenAPI schema tells every status an operation can answer, each error with its body.

Every error under /api/ has one shape (``zenergate_site/api_errors.py``): ``{"errors": {field:
[messages]}}``. Views declare their success answers and the errors particular to them (a 429
on the token endpoint, a 503 where the job queue is needed); this hook adds, to every operation,
the errors any request can meet on the way (a bad query, an unknown id, a body too large, an
address too long), so that a client generated from the schema expects what the server sends.
"""

ERRORS = {
    "type": "object",
    "required": ["errors"],
    "properties": {"errors": {
        "type": "object",
        "description": "Messages by field; `detail` for those of no field. A message is text, or an "
                       "object of the same shape for a field of a nested object or list.",
        "additionalProperties": {"type": "array", "items": {"oneOf": [{"type": "string"}, {"type": "object"}]}},
    }},
}

#: Status → when any operation answers it.
EVERY_OPERATION = {
    "400": "Bad input: each offending field (or `detail`) with a message; nothing changed.",
    "404": "No such thing, or it belongs to a campaign you are not in.",
    "414": "The address (path and query) is too long.",
    "431": "The request headers are too large.",
}
SIGNED_IN = {
    "401": "No credentials, or a token that is unknown or expired.",
    "403": "Signed in, but this is not yours to read or change (a viewer writing, a player's GM-only request).",
}
WRITES = {
    "409": "Well formed, but the current state forbids it, or another write held what it needed for "
           "longer than the lock timeout; nothing changed.",
    "413": "The body is larger than the server takes; it was not read.",
    "415": "The body is not JSON (`Content-Type: application/json`).",
}
OPEN_OPERATIONS = {("/api/v1/auth/token/", "post")}
WRITE_METHODS = {"post", "put", "patch", "delete"}


def add_error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: the shared error body and the statuses every operation meets."""
    result.setdefault("components", {}).setdefault("schemas", {})["Errors"] = ERRORS
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}}
    for path, methods in result.get("paths", {}).items():
        for method, operation in methods.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            statuses = dict(EVERY_OPERATION)
            if (path, method) not in OPEN_OPERATIONS:
                statuses.update(SIGNED_IN)
            if method in WRITE_METHODS:
                statuses.update(WRITES)
            responses = operation.setdefault("responses", {})
            for status, description in statuses.items():
                responses.setdefault(status, {"description": description, "content": error})
            for status, response in responses.items():
                if status.startswith(("4", "5")):
                    response["content"] = error  # one shape, whatever a view's own declaration said
    return result
