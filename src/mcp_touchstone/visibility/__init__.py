"""turbomcp visibility / progressive disclosure (``spec/visibility.md``).

Hidden means unreachable: a component a policy hides is absent from its list and refused
exactly as a nonexistent one.  The pure core:

* component metadata: :func:`tags_of`, :func:`declared_scopes_of`, :func:`has`,
  :func:`has_any`, :func:`has_all`;
* callers: :class:`Identity`, :data:`ANONYMOUS`, :func:`identity_from_meta`,
  :func:`granted_scopes`, :func:`has_scopes`, :func:`split_whitespace`;
* policies: :class:`VisibilityPolicy`, :class:`Visibility` (applied to one request, an
  :class:`Admission`), :class:`VisibleComponent`;
* :func:`match_uri_template`;
* the dispatcher layer: :func:`dispatch` over a :class:`Catalog`, in the ``turbomcp`` or
  ``strict`` :class:`Profile`.
"""

from mcp_touchstone._errors import RpcError
from mcp_touchstone._rust import RUST_WHITE_SPACE, split_whitespace
from mcp_touchstone.visibility._dispatch import (
    JSONRPC_VERSION,
    Catalog,
    Dispatched,
    Entry,
    Listed,
    Listing,
    Outcome,
    Page,
    Profile,
    Refused,
    Request,
    StateVerifier,
    dispatch,
    filter_entries,
    is_hidden,
    reject_every_state,
)
from mcp_touchstone.visibility._identity import (
    ANONYMOUS,
    IDENTITY_KEY,
    Identity,
    IdentityClaims,
    granted_scopes,
    has_scopes,
    identity_from_meta,
)
from mcp_touchstone.visibility._meta import (
    SCOPES_KEY,
    TAGS_KEY,
    declared_scopes_of,
    has,
    has_all,
    has_any,
    tags_of,
)
from mcp_touchstone.visibility._policy import (
    Admission,
    ComponentKind,
    ProtocolVersion,
    RequestContext,
    Visibility,
    VisibilityPolicy,
    VisibleComponent,
)
from mcp_touchstone.visibility._template import match_uri_template, uri_template_matches

__all__ = [
    "ANONYMOUS",
    "IDENTITY_KEY",
    "JSONRPC_VERSION",
    "RUST_WHITE_SPACE",
    "SCOPES_KEY",
    "TAGS_KEY",
    "Admission",
    "Catalog",
    "ComponentKind",
    "Dispatched",
    "Entry",
    "Identity",
    "IdentityClaims",
    "Listed",
    "Listing",
    "Outcome",
    "Page",
    "Profile",
    "ProtocolVersion",
    "Refused",
    "Request",
    "RequestContext",
    "RpcError",
    "StateVerifier",
    "Visibility",
    "VisibilityPolicy",
    "VisibleComponent",
    "declared_scopes_of",
    "dispatch",
    "filter_entries",
    "granted_scopes",
    "has",
    "has_all",
    "has_any",
    "has_scopes",
    "identity_from_meta",
    "is_hidden",
    "match_uri_template",
    "reject_every_state",
    "split_whitespace",
    "tags_of",
    "uri_template_matches",
]
