"""schemathesis hooks for Vicinity's contract (loaded by scripts/schemathesis.sh).

`crs` applies only to `model=projected`: with another model (or none, which means geodesic) the
server answers 400, as the command line does. OpenAPI 3.0 cannot say that one parameter depends on
another, so valid-looking queries with that combination are not generated as valid ones.

`Vicinity-Min-Position: N` makes a read wait until the server has applied change-log position N,
then answer 503 if it has not: a valid N is sent as 0 (applied by every server), so that no read
waits for a write no one made; invalid text is sent as generated, and refused with 400.

`for_seconds` (ghost mode with a timer) goes only with `visibility: private`: with `public` the
server answers 422, which OpenAPI 3.0 cannot say either, so such bodies are not generated as
valid ones.
"""
import re

import schemathesis

# The contract's int64 maximum: larger numbers are invalid and keep their 400.
MAXIMUM_POSITION = 2**63 - 1


@schemathesis.hook
def filter_query(ctx, query):
    if query and "crs" in query and query.get("model") != "projected":
        return False
    return True


@schemathesis.hook
def filter_body(ctx, body):
    if isinstance(body, dict) and "for_seconds" in body and body.get("visibility") != "private":
        return False
    return True


@schemathesis.hook
def before_call(ctx, case, kwargs):
    headers = case.headers or {}
    for name in list(headers):
        if name.lower() != "vicinity-min-position":
            continue
        text = str(headers[name])
        if re.fullmatch(r"[0-9]+", text) and int(text) <= MAXIMUM_POSITION:
            headers[name] = "0"
