"""The RFC 6570 subset turbomcp matches resource URIs against (VIS-TPL-*)."""

from __future__ import annotations

import functools
import re

_VAR_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


@functools.lru_cache(maxsize=4096)
def compile_uri_template(template: str) -> tuple[re.Pattern[str], tuple[str, ...]] | None:
    """Compile ``template`` to a fully anchored pattern and its variable names, or ``None``
    when it is malformed (VIS-TPL-4).

    Literal spans match themselves; ``{var}`` matches one or more characters other than
    ``/`` (VIS-TPL-1); ``{+var}`` matches one or more characters other than a newline
    (VIS-TPL-2).  A variable name is one or more ASCII letters, digits or ``_``; any other
    expression (``{?q}``, ``{/p}``, ``{#f}``, ``{a,b}``, ``{x*}``, ``{}``) and a ``{`` without
    a later ``}`` make the template malformed.  A ``}`` outside an expression is a literal
    (VIS-TPL-5).
    """
    parts: list[str] = []
    names: list[str] = []
    rest = template
    while (open_at := rest.find("{")) != -1:
        parts.append(re.escape(rest[:open_at]))
        close_at = rest.find("}", open_at)
        if close_at == -1:
            return None
        var = rest[open_at + 1 : close_at]
        reserved = var.startswith("+")
        if reserved:
            var = var[1:]
        if not var or any(ch not in _VAR_CHARS for ch in var):
            return None
        names.append(var)
        parts.append("(.+)" if reserved else "([^/]+)")
        rest = rest[close_at + 1 :]
    parts.append(re.escape(rest))
    return re.compile("".join(parts)), tuple(names)


def match_uri_template(template: str, uri: str) -> tuple[tuple[str, str], ...] | None:
    """The variables ``uri`` binds in ``template`` (in template order), or ``None`` when the
    template is malformed or does not match the whole of ``uri`` (VIS-TPL-3)."""
    compiled = compile_uri_template(template)
    if compiled is None:
        return None
    pattern, names = compiled
    # fullmatch, not `$`: the upstream regex has no trailing-newline leniency.
    found = pattern.fullmatch(uri)
    if found is None:
        return None
    return tuple(zip(names, found.groups(), strict=True))


def uri_template_matches(template: str, uri: str) -> bool:
    """Whether ``uri`` matches ``template`` (see :func:`match_uri_template`)."""
    return match_uri_template(template, uri) is not None
