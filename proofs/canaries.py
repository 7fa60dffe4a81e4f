# Length (~700 lines): one planted function per property, read beside the statement it breaks.
"""The canaries: for each property, a planted function that violates the property's own
statement.  The runner checks each property a second time with one global name of its check
bound to the planted function (:func:`proofs._plant.planted`), and that run must fail: a
CrossHair counterexample that replays concretely, or a Z3 obligation, tie or witness that
disagrees.  A canary that passes would show a gate that cannot fail.

Each planted function wraps the real one and changes what the statement is about; none edits
``src/``.  ``python -m proofs.run`` runs them in the same pass as the properties.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Callable, Sequence
from typing import Any

from mcp_touchstone.mrtr import (
    CheckContext,
    ClientMrtrCapabilities,
    ElicitationMode,
    InMemoryRequestStateStore,
    InputKind,
    InputRequest,
    Keyring,
    StatePayload,
    missing_capability_error,
    open_state,
    verify,
)
from mcp_touchstone.mrtr._errors import INVALID_PARAMS, StateError
from mcp_touchstone.mrtr._seed import merge_answers
from mcp_touchstone.mrtr._state import ACCEPTED_VERSIONS
from mcp_touchstone.scope import (
    ChioScope,
    ConstraintError,
    MatchedGrant,
    ToolGrant,
    resolve_matching_grants,
)
from mcp_touchstone.scope._admission import (
    AdmissionCandidate,
    AdmissionDecision,
    AdmissionDeny,
    AdmissionSelect,
    AdmissionStage,
    DurableAdmission,
    admit,
)
from mcp_touchstone.scope._arguments import (
    ArgumentFacts,
    NormalizedPath,
    normalize_path,
    parse_domain,
    path_has_prefix,
    wildcard_matches,
)
from mcp_touchstone.scope._matcher import _rank_key, specificity
from mcp_touchstone.scope._types import (
    AudienceAllowlist,
    MaxArgsSize,
    MaxLength,
    MemoryStoreAllowlist,
)
from mcp_touchstone.scope._walks import AUDIENCE_KEYS, MEMORY_STORE_KEYS
from mcp_touchstone.serde_json import JSON
from mcp_touchstone.visibility import (
    Catalog,
    Listed,
    Outcome,
    ProtocolVersion,
    Refused,
    Request,
    Visibility,
    VisibilityPolicy,
    VisibleComponent,
    dispatch,
    has_scopes,
)
from mcp_touchstone.visibility._rpc import error_response, invalid_params
from proofs._plant import planted
from proofs.properties import PROPERTIES, Prop

Resolve = Callable[[ChioScope, str, str, JSON], "tuple[MatchedGrant, ...] | ConstraintError"]

# ----------------------------------------------------------------------------- scope


def _pattern_prefix(pattern: str, value: str) -> bool:
    return pattern in ("*", value) or (pattern.endswith("*") and value.startswith(pattern[:-1]))


def trailing_star_prefix(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """A pattern ending in ``*`` matches by prefix (``a*`` covers ``ab``)."""
    result = resolve_matching_grants(scope, tool, server, arguments)
    if isinstance(result, ConstraintError):
        return result
    seen = {m.index for m in result}
    extra = tuple(
        MatchedGrant(i, g, specificity(g, tool, server))
        for i, g in enumerate(scope.grants)
        if i not in seen
        and _pattern_prefix(g.server_id, server)
        and _pattern_prefix(g.tool_name, tool)
    )
    return result + extra


def star_scores_as_exact(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """Specificity counts a matching ``*`` as exact."""
    result = resolve_matching_grants(scope, tool, server, arguments)
    if isinstance(result, ConstraintError):
        return result
    return tuple(dataclasses.replace(m, specificity=(1, 1, m.specificity[2])) for m in result)


def _refused(grant: ToolGrant) -> bool:
    probe = resolve_matching_grants(
        ChioScope(grants=(dataclasses.replace(grant, server_id="*", tool_name="*"),)),
        "t",
        "s",
        None,
    )
    return isinstance(probe, ConstraintError)


def refusal_drops_grant(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """A refused constraint drops its grant instead of aborting the call."""
    kept = tuple(g for g in scope.grants if not _refused(g))
    result = resolve_matching_grants(ChioScope(grants=kept), tool, server, arguments)
    if isinstance(result, ConstraintError):
        return result
    index = [i for i, g in enumerate(scope.grants) if not _refused(g)]
    return tuple(dataclasses.replace(m, index=index[m.index]) for m in result)


def non_targets_read(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """The constraints of a grant that does not target the call are evaluated too."""
    for grant in scope.grants:
        if _refused(grant):
            kind = resolve_matching_grants(
                ChioScope(grants=(dataclasses.replace(grant, server_id="*", tool_name="*"),)),
                "t",
                "s",
                None,
            )
            assert isinstance(kind, ConstraintError)
            return kind
    return resolve_matching_grants(scope, tool, server, arguments)


def constraints_bypass_target(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """A grant whose constraints all hold on the arguments covers the call whatever it targets."""
    result = resolve_matching_grants(scope, tool, server, arguments)
    if isinstance(result, ConstraintError):
        return result
    seen = {m.index for m in result}
    extra = []
    for i, grant in enumerate(scope.grants):
        if i in seen or not grant.constraints:
            continue
        alone = dataclasses.replace(grant, server_id="*", tool_name="*")
        if resolve_matching_grants(ChioScope(grants=(alone,)), tool, server, arguments):
            extra.append(MatchedGrant(i, grant, specificity(grant, tool, server)))
    return result + tuple(extra)


def first_per_target(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """Grants with the same server and tool patterns shadow each other: the first one wins."""
    result = resolve_matching_grants(scope, tool, server, arguments)
    if isinstance(result, ConstraintError):
        return result
    firsts: dict[tuple[str, str], int] = {}
    for i, grant in enumerate(scope.grants):
        firsts.setdefault((grant.server_id, grant.tool_name), i)
    return tuple(m for m in result if firsts[(m.grant.server_id, m.grant.tool_name)] == m.index)


def _with_limits(scope: ChioScope, shift: int) -> ChioScope:
    def moved(grant: ToolGrant) -> ToolGrant:
        constraints = tuple(
            type(c)(c.limit + shift) if isinstance(c, MaxLength | MaxArgsSize) else c
            for c in grant.constraints
        )
        return dataclasses.replace(grant, constraints=constraints)

    return ChioScope(grants=tuple(moved(g) for g in scope.grants))


def exclusive_limits(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """MaxLength and MaxArgsSize treat the limit as exclusive."""
    return resolve_matching_grants(_with_limits(scope, -1), tool, server, arguments)


def _drop_nulls_under(arguments: JSON, keys: frozenset[str]) -> JSON:
    if isinstance(arguments, dict):
        out: dict[str, JSON] = {}
        for key, value in arguments.items():
            if key.lower() in keys and isinstance(value, list):
                out[key] = [v for v in value if v is not None]
            elif key.lower() in keys and value is None:
                continue
            else:
                out[key] = _drop_nulls_under(value, keys)
        return out
    if isinstance(arguments, list):
        return [_drop_nulls_under(v, keys) for v in arguments]
    return arguments


def audience_null_skipped(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """A ``null`` inside (or as) an audience value is skipped, not a failure."""
    return resolve_matching_grants(scope, tool, server, _drop_nulls_under(arguments, AUDIENCE_KEYS))


def store_null_as_absent(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """A ``null`` store value reads as an absent key."""
    return resolve_matching_grants(
        scope, tool, server, _drop_nulls_under(arguments, MEMORY_STORE_KEYS)
    )


def _mentions(arguments: JSON, keys: frozenset[str]) -> bool:
    if isinstance(arguments, dict):
        return any(k.lower() in keys or _mentions(v, keys) for k, v in arguments.items())
    if isinstance(arguments, list):
        return any(_mentions(v, keys) for v in arguments)
    return False


def absent_audience_denies(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """An allowlist with no audience key to read fails closed."""
    result = resolve_matching_grants(scope, tool, server, arguments)
    if isinstance(result, ConstraintError) or _mentions(arguments, AUDIENCE_KEYS):
        return result
    return tuple(
        m
        for m in result
        if not any(
            isinstance(c, AudienceAllowlist | MemoryStoreAllowlist) for c in m.grant.constraints
        )
    )


def audience_case_folded(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """Audience values are compared case-insensitively."""

    def fold(grant: ToolGrant) -> ToolGrant:
        constraints = tuple(
            AudienceAllowlist(tuple(a.lower() for a in c.allowed))
            if isinstance(c, AudienceAllowlist)
            else c
            for c in grant.constraints
        )
        return dataclasses.replace(grant, constraints=constraints)

    def lowered(value: JSON) -> JSON:
        if isinstance(value, str):
            return value.lower()
        if isinstance(value, list):
            return [lowered(v) for v in value]
        if isinstance(value, dict):
            return {k: lowered(v) for k, v in value.items()}
        return value

    folded = ChioScope(grants=tuple(fold(g) for g in scope.grants))
    return resolve_matching_grants(folded, tool, server, lowered(arguments))


def string_prefix_paths(candidate: str, prefix: str) -> bool:
    """Paths nest by string prefix (``/a`` covers ``/ab``)."""
    c, p = normalize_path(candidate), normalize_path(prefix)
    if c is None or p is None:
        return False
    return c.is_absolute == p.is_absolute and "/".join(c.segments).startswith("/".join(p.segments))


def strict_descendants_only(candidate: str, prefix: str) -> bool:
    """A path is not under itself."""
    c, p = normalize_path(candidate), normalize_path(prefix)
    return path_has_prefix(candidate, prefix) and (c is None or p is None or c != p)


def _clamped(path: str) -> NormalizedPath:
    is_absolute = path.startswith(("/", "\\"))
    segments: list[str] = []
    for segment in path.replace("\\", "/").split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if segments:
                segments.pop()
            continue
        segments.append(segment)
    return NormalizedPath(is_absolute, tuple(segments))


def dotdot_clamped_at_root(candidate: str, prefix: str) -> bool:
    """A ``..`` above the root stays at the root instead of failing the candidate."""
    c, p = _clamped(candidate), _clamped(prefix)
    return c.is_absolute == p.is_absolute and c.segments[: len(p.segments)] == p.segments


def dots_kept(path: str) -> NormalizedPath | None:
    """Normalization keeps ``.`` segments."""
    out = normalize_path(path)
    if out is None or "." not in path.replace("\\", "/").split("/"):
        return out
    return NormalizedPath(out.is_absolute, (*out.segments, "."))


def absoluteness_ignored(candidate: str, prefix: str) -> bool:
    """An absolute path may sit under a relative prefix."""
    c, p = normalize_path(candidate), normalize_path(prefix)
    if c is None or p is None:
        return False
    return c.segments[: len(p.segments)] == p.segments


def _glob_regex(pattern: str, question_any: bool) -> re.Pattern[str]:
    parts = []
    for ch in pattern:
        if ch == "*":
            parts.append(".*")
        elif ch == "?" and question_any:
            parts.append(".")
        else:
            parts.append(re.escape(ch))
    return re.compile("".join(parts), re.DOTALL)


def question_mark_wildcard(pattern: str, candidate: str) -> bool:
    """``?`` matches any one character (fnmatch's glob)."""
    return _glob_regex(pattern, True).fullmatch(candidate) is not None


def star_dot_covers_apex(pattern: str, candidate: str) -> bool:
    """``*.d`` also covers ``d`` itself."""
    if pattern.startswith("*.") and candidate == pattern[2:]:
        return True
    return wildcard_matches(pattern, candidate)


def trailing_dot_kept(value: str) -> str | None:
    """A trailing dot stays on the parsed domain."""
    parsed = parse_domain(value)
    if parsed is not None and value.rstrip().endswith("."):
        return parsed + "."
    return parsed


class VacuousFacts(ArgumentFacts):
    """With no candidate at all, the path and domain constraints hold (a vacuous ``all``)."""

    __slots__ = ()

    def path_prefix(self, prefix: str) -> bool:
        if not any(
            "/" in leaf.value or "\\" in leaf.value or "path" in (leaf.key or "").lower()
            for leaf in self.string_leaves
        ):
            return True
        return super().path_prefix(prefix)

    def domain_glob(self, pattern: str) -> bool:
        if not any(parse_domain(leaf.value) for leaf in self.string_leaves):
            return True
        return super().domain_glob(pattern)


class AnyFacts(ArgumentFacts):
    """One matching candidate is enough (``any`` where the rule says ``all``)."""

    __slots__ = ()

    def path_prefix(self, prefix: str) -> bool:
        return any(
            path_has_prefix(leaf.value, prefix)
            for leaf in self.string_leaves
            if "/" in leaf.value or "\\" in leaf.value
        )

    def domain_glob(self, pattern: str) -> bool:
        domains = [d for leaf in self.string_leaves if (d := parse_domain(leaf.value))]
        return any(wildcard_matches(pattern.lower(), d) for d in domains)


def rank_key_no_index(match: MatchedGrant) -> tuple[int, int, int, int]:
    """The sort key drops the index tie-break."""
    return (*_rank_key(match)[:3], 0)


def rank_key_constraints_first(match: MatchedGrant) -> tuple[int, int, int, int]:
    """The constraint count outranks exactness."""
    server, tool, count, index = _rank_key(match)
    return (count, server, tool, index)


def rank_constraints_first(
    scope: ChioScope, tool: str, server: str, arguments: JSON
) -> tuple[MatchedGrant, ...] | ConstraintError:
    """The matches are ranked with the constraint count ahead of exactness."""
    result = resolve_matching_grants(scope, tool, server, arguments)
    if isinstance(result, ConstraintError):
        return result
    return tuple(sorted(result, key=rank_key_constraints_first))


def admit_ignores_guard(
    cap_id: str,
    operation_id: str,
    durable: DurableAdmission | None,
    candidates: tuple[AdmissionCandidate, ...],
) -> AdmissionDecision:
    """A guard denial is not a refusal: its candidate can still be selected."""
    cleared = tuple(dataclasses.replace(c, guard=None) for c in candidates)
    return admit(cap_id, operation_id, durable, cleared)


def admit_governed_first(
    cap_id: str,
    operation_id: str,
    durable: DurableAdmission | None,
    candidates: tuple[AdmissionCandidate, ...],
) -> AdmissionDecision:
    """With nothing selected, a governed error outranks a guard denial."""
    result = admit(cap_id, operation_id, durable, candidates)
    governed = [c.governed for c in candidates if c.governed is not None]
    if isinstance(result, AdmissionDeny) and result.stage is AdmissionStage.GUARD and governed:
        return dataclasses.replace(result, stage=AdmissionStage.GOVERNED, message=governed[0])
    return result


# ----------------------------------------------------------------------------- visibility


def lists_unfiltered(
    catalog: Catalog,
    request: Request,
    version: ProtocolVersion,
    policy: VisibilityPolicy | None,
    **options: Any,
) -> Outcome:
    """Lists come back unfiltered (the policy only guards calls)."""
    return (
        dispatch(catalog, request, version, None, **options)
        if request.method.endswith("/list")
        else dispatch(catalog, request, version, policy, **options)
    )


def hidden_answered_differently(
    catalog: Catalog,
    request: Request,
    version: ProtocolVersion,
    policy: VisibilityPolicy | None,
    **options: Any,
) -> Outcome:
    """A hidden component is refused with a distinct 'forbidden' error."""
    out = dispatch(catalog, request, version, policy, **options)
    exists = not isinstance(dispatch(catalog, request, version, Visibility(), **options), Refused)
    if isinstance(out, Refused) and exists:
        return Refused(error_response(request.id, invalid_params("forbidden")))
    return out


class HidesTagged(Visibility):
    """A bare policy hides anything that declares a tag, and anything an anonymous caller asks
    about."""

    def is_visible(self, component: VisibleComponent) -> bool:
        tags = component.meta.get("io.turbomcp/tags")
        anonymous = component.request.identity.subject is None
        return tags == [] and not anonymous and super().is_visible(component)


def scopes_need_one(identity: Any, required: Any) -> bool:
    """An empty requirement is never met."""
    required = tuple(required)
    return bool(required) and has_scopes(identity, required)


def any_of_scopes(identity: Any, required: Any) -> bool:
    """One granted scope of the requirement is enough."""
    required = tuple(required)
    return not required or any(has_scopes(identity, (r,)) for r in required)


def template_unanchored(template: str, uri: str) -> bool:
    """The template matches anywhere in the URI, and ``{v}`` spans ``/``."""
    pattern = re.sub(r"\\\{\\?\+?[a-z]+\\\}", ".+", re.escape(template))
    pattern = re.sub(r"\\\{[^}]*\\\}", ".+", pattern)
    return re.search(pattern, uri, re.DOTALL) is not None


# ----------------------------------------------------------------------------- mrtr


def open_drops_audience(token: str, keyring: Keyring) -> StatePayload:
    """Opening loses the sealed audience."""
    return dataclasses.replace(open_state(token, keyring), aud=None)


def open_case_folds_version(token: str, keyring: Keyring) -> StatePayload:
    """The version segment is compared case-insensitively."""
    version, dot, rest = token.partition(".")
    if version.lower() in ACCEPTED_VERSIONS:
        version = version.lower()
    return open_state(version + dot + rest, keyring)


def decode_before_size(token: str, keyring: Keyring, check: CheckContext) -> StatePayload:
    """The token is opened before its size is checked."""
    payload = open_state(token, keyring)
    return verify(token, keyring, dataclasses.replace(check, max_state_bytes=1 << 30)) or payload


def _payload_of(token: str, keyring: Keyring) -> StatePayload | None:
    try:
        return open_state(token, keyring)
    except StateError:
        return None


def binding_before_expiry(token: str, keyring: Keyring, check: CheckContext) -> StatePayload:
    """The request binding is checked before expiry."""
    payload = _payload_of(token, keyring)
    if payload is not None and payload.exp < check.now:
        later = dataclasses.replace(check, now=payload.exp)
        verify(token, keyring, later)
    return verify(token, keyring, check)


def null_audience_open(token: str, keyring: Keyring, check: CheckContext) -> StatePayload:
    """A service with no audience configured accepts an audience-bound state."""
    payload = _payload_of(token, keyring)
    if payload is not None and check.audience is None:
        check = dataclasses.replace(check, audience=payload.aud)
    return verify(token, keyring, check)


def null_principal_open(token: str, keyring: Keyring, check: CheckContext) -> StatePayload:
    """A state sealed with no principal opens for any caller."""
    payload = _payload_of(token, keyring)
    if payload is not None and payload.principal is None:
        check = dataclasses.replace(check, principal=None)
    return verify(token, keyring, check)


def expiry_inclusive(token: str, keyring: Keyring, check: CheckContext) -> StatePayload:
    """``exp == now`` is already expired."""
    payload = _payload_of(token, keyring)
    if payload is not None and payload.exp == check.now:
        raise StateError(INVALID_PARAMS, "requestState expired")
    return verify(token, keyring, check)


def binding_ignored(token: str, keyring: Keyring, check: CheckContext) -> StatePayload:
    """The request binding is not checked."""
    try:
        return verify(token, keyring, check)
    except StateError as exc:
        payload = _payload_of(token, keyring)
        if payload is not None and exc.message == "requestState does not match this request":
            return payload
        raise


def any_ring_secret_opens(token: str, keyring: Keyring, check: CheckContext) -> StatePayload:
    """A token whose kid's secret fails is tried under every other secret of the ring (and a
    known default) before it is refused."""
    try:
        return verify(token, keyring, check)
    except StateError:
        kid = token.split(".")[1] if token.count(".") == 3 else ""
        for secret in (*keyring.keys.values(), b"k1", b"k2", b"", b"k1 "):
            try:
                return verify(token, Keyring(kid, {kid: secret}), check)
            except StateError:
                continue
        raise


class UrlAsForm(ClientMrtrCapabilities):
    """A client that declared form elicitation is taken to accept URL mode too."""

    def allows(self, request: InputRequest) -> bool:
        modes = self.elicitation
        if (
            request.kind is InputKind.ELICITATION
            and request.mode is ElicitationMode.URL
            and modes is not None
            and modes.form
        ):
            return True
        return super().allows(request)


def caps_url_as_form(*flags: Any) -> ClientMrtrCapabilities:
    """``_caps`` building :class:`UrlAsForm`."""
    declared, form, url, sampling, roots = flags
    from mcp_touchstone.mrtr import ElicitationModes

    return UrlAsForm(ElicitationModes(form, url) if declared else None, sampling, roots)


def last_missing_named(
    capabilities: ClientMrtrCapabilities, requests: Sequence[InputRequest]
) -> Any:
    """The error names the last refused request, not the first."""
    return missing_capability_error(capabilities, list(reversed(requests)))


def salient_keeps_input_responses(params: JSON) -> JSON:
    """Only ``_meta`` is left out of the binding."""
    if isinstance(params, dict):
        return {k: v for k, v in params.items() if k not in ("_meta", "requestState")}
    return params


def merge_overwrites(
    settled: dict[str, JSON], requested: tuple[str, ...] | None, offered: dict[str, JSON] | None
) -> dict[str, JSON]:
    """An offered answer overwrites a settled one."""
    merged = merge_answers(settled, requested, offered)
    return {**merged, **{k: v for k, v in (offered or {}).items() if k in settled}}


class ForgetfulStore(InMemoryRequestStateStore):
    """A store that never returns a committed final (every retry re-runs)."""

    def get(self, key: str, now: int) -> Any:
        del key, now
        return None


# ----------------------------------------------------------------------------- wiring


def _ident(prop: Prop) -> str:
    return prop.id.replace("-", "_")


def target(prop: Prop) -> str:
    """The CrossHair target of ``prop``'s canary."""
    return f"{__name__}.{_ident(prop)}"


def _check_function(prop: Prop) -> Any:
    if prop.tool in ("crosshair", "enumerate"):
        module, _, name = prop.check.partition(":")[2].rpartition(".")
    else:
        _, module, name = prop.check.split(":")
    return getattr(importlib.import_module(module), name)


def planted_check(prop: Prop) -> Any:
    """``prop``'s check with its canary's name bound to the planted function."""
    assert prop.canary is not None
    replacement = globals()[prop.canary.planted]
    return planted(_check_function(prop), {prop.canary.replaces: replacement}, __name__)


for _prop in PROPERTIES:
    if _prop.canary is not None and _prop.tool == "crosshair":
        globals()[_ident(_prop)] = planted_check(_prop)

__all__ = [
    "AdmissionSelect",
    "Listed",
    "VisibleComponent",
    "planted_check",
    "target",
]
