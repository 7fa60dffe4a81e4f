"""The template matcher written as a position-list sweep (O(len(template) x
len(uri))), kept as the naive model the bit-set matcher is checked against."""

from __future__ import annotations

from mcp_touchstone.visibility._template import _LITERAL, _SEGMENT, _tokens


def _run_ends(uri: str, stop: str) -> list[int]:
    """For each position ``p``, the end of the longest run from ``p`` free of ``stop``."""
    ends = [0] * (len(uri) + 1)
    ends[len(uri)] = len(uri)
    for p in range(len(uri) - 1, -1, -1):
        ends[p] = p if uri[p] == stop else ends[p + 1]
    return ends


def naive_uri_template_matches(template: str, uri: str) -> bool:
    """Whether ``uri`` matches ``template``, by sweeping the set of reachable positions."""
    tokens = _tokens(template)
    if tokens is None:
        return False
    reachable = [0]
    seg_ends: list[int] | None = None
    res_ends: list[int] | None = None
    for kind, text in tokens:
        if kind == _LITERAL:
            reachable = [p + len(text) for p in reachable if uri.startswith(text, p)]
        else:
            if kind == _SEGMENT:
                seg_ends = seg_ends or _run_ends(uri, "/")
                ends = seg_ends
            else:
                res_ends = res_ends or _run_ends(uri, "\n")
                ends = res_ends
            merged: list[int] = []
            high = -1
            for p in reachable:
                low = max(p + 1, high + 1)
                top = ends[p]
                if top >= low:
                    merged.extend(range(low, top + 1))
                    high = top
            reachable = merged
        if not reachable:
            return False
    return len(uri) in reachable
