//! `turbomcp-harness`: turbomcp's own visibility code behind harness protocol v1.
//!
//! Our code; what answers is turbomcp's, compiled from its source at Epistates/turbomcp
//! `519331ee` (4.0.0-alpha.1), extracted at build time by `build.py`, never committed here:
//! the crates `turbomcp-core` (`meta::extract_identity`, `Identity::granted_scopes`,
//! `Identity::has_scopes`, `RequestContext`) and `turbomcp-protocol`, and three files of
//! `turbomcp-server` included below by `#[path]` as modules of this crate, unchanged:
//! `visibility.rs` (`Visibility`, `VisibleComponent`, `VisibilityPolicy::is_visible`), `tags.rs`
//! (which `visibility.rs` reads tags with) and `macro_support.rs`, the `__macro_support` module
//! of its `lib.rs` copied byte for byte (`match_uri_template`). turbomcp-server's other modules
//! (its dispatcher among them) need tokio, tower and newer crates than Debian packages, so
//! `visibility.dispatch` is not announced (docs/upstream-matrix.md says why).
//!
//! Protocol (`/work/shared/protocol/harness-v1.md`): the loop every upstream harness shares,
//! `conformance/upstream/harness_loop.rs` (included by `#[path]`). `start` announces
//! `visibility.granted_scopes`, `visibility.is_visible` and `visibility.match_uri_template`.
//!
//! Per case (spec/visibility.md VIS-HARN-1..3): the input's shape is checked in our words
//! (`invalid_input`), then turbomcp answers. An `identity` value is put under turbomcp's own key
//! `meta::internal::IDENTITY` of a `_meta` map and read by `meta::extract_identity`, as the
//! dispatcher reads a request's. `is_visible` builds turbomcp's `Visibility` with
//! `hiding_tagged` and `requiring_declared_scopes`, and asks it about a `VisibleComponent`
//! whose request is `RequestContext::new(ProtocolVersion::LATEST).with_identity(..)` (a policy
//! reads only the identity). `match_uri_template` answers whether turbomcp's function returns
//! `Some`.

#[path = "../../harness_loop.rs"]
mod harness_loop;

// turbomcp-server's files (see above); the list filters and the macro helpers this harness
// does not call are dead code here.
#[allow(dead_code)]
#[path = "../build/turbomcp/macro_support.rs"]
mod server_lib;
#[allow(dead_code)]
#[path = "../build/turbomcp/crates/turbomcp-server/src/tags.rs"]
mod tags;
#[allow(dead_code)]
#[path = "../build/turbomcp/crates/turbomcp-server/src/visibility.rs"]
mod visibility;

use serde_json::{Map, Value, json};
use turbomcp_core::{Identity, ProtocolVersion, RequestContext, meta};
use visibility::{ComponentKind, Visibility, VisibilityPolicy, VisibleComponent};

const GRANTED_SCOPES: &str = "visibility.granted_scopes";
const IS_VISIBLE: &str = "visibility.is_visible";
const MATCH_URI_TEMPLATE: &str = "visibility.match_uri_template";

/// The turbomcp commit the code was built from (set by `build.py`).
const TURBOMCP_COMMIT: &str = match option_env!("TURBOMCP_HARNESS_COMMIT") {
    Some(commit) => commit,
    None => "unknown",
};

fn invalid(message: String) -> Value {
    json!({"error": {"kind": "invalid_input", "message": message}})
}

/// The input object, or the `invalid_input` answer.
fn object(input: &Value) -> Result<&Map<String, Value>, Value> {
    input
        .as_object()
        .ok_or_else(|| invalid("input must be an object".to_string()))
}

fn field<'a>(obj: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a Value, Value> {
    obj.get(key)
        .ok_or_else(|| invalid(format!("{at}: missing field `{key}`")))
}

/// The caller an `identity` value describes, read by turbomcp as the dispatcher reads the
/// request `_meta` entry.
fn identity(value: &Value) -> Identity {
    let mut request_meta = Map::new();
    request_meta.insert(meta::internal::IDENTITY.to_string(), value.clone());
    meta::extract_identity(&request_meta)
}

fn granted_scopes(input: &Value) -> Result<Value, Value> {
    let caller = identity(field(object(input)?, "identity", "input")?);
    Ok(json!({"scopes": caller.granted_scopes()}))
}

fn policy(value: &Value) -> Result<Visibility, Value> {
    let obj = value
        .as_object()
        .ok_or_else(|| invalid("input.policy must be an object".to_string()))?;
    let tags = field(obj, "hidden_tags", "input.policy")?
        .as_array()
        .filter(|tags| tags.iter().all(Value::is_string))
        .ok_or_else(|| invalid("input.policy.hidden_tags must be an array of strings".into()))?;
    let requiring = field(obj, "requiring_declared_scopes", "input.policy")?
        .as_bool()
        .ok_or_else(|| {
            invalid("input.policy.requiring_declared_scopes must be a boolean".into())
        })?;
    let built = Visibility::new().hiding_tagged(tags.iter().filter_map(Value::as_str));
    Ok(if requiring {
        built.requiring_declared_scopes()
    } else {
        built
    })
}

fn kind(value: Option<&Value>) -> Result<ComponentKind, Value> {
    match value.and_then(Value::as_str) {
        Some("tool") => Ok(ComponentKind::Tool),
        Some("resource") => Ok(ComponentKind::Resource),
        Some("resource_template") => Ok(ComponentKind::ResourceTemplate),
        Some("prompt") => Ok(ComponentKind::Prompt),
        _ => Err(invalid(
            "input.component.kind must be one of tool, resource, resource_template, prompt"
                .to_string(),
        )),
    }
}

fn is_visible(input: &Value) -> Result<Value, Value> {
    let obj = object(input)?;
    let policy = policy(field(obj, "policy", "input")?)?;
    let component = field(obj, "component", "input")?
        .as_object()
        .ok_or_else(|| invalid("input.component must be an object".to_string()))?;
    let kind = kind(component.get("kind"))?;
    let id = component
        .get("id")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("input.component.id must be a string".to_string()))?;
    let empty = Map::new();
    let component_meta = match component.get("meta") {
        None => &empty,
        Some(Value::Object(meta)) => meta,
        Some(_) => {
            return Err(invalid(
                "input.component.meta must be an object".to_string(),
            ));
        }
    };
    let caller = identity(field(obj, "identity", "input")?);
    let request = RequestContext::new(ProtocolVersion::LATEST).with_identity(caller);
    let visible = policy.is_visible(&VisibleComponent {
        kind,
        id,
        meta: component_meta,
        request: &request,
    });
    Ok(json!({ "visible": visible }))
}

fn match_uri_template(input: &Value) -> Result<Value, Value> {
    let obj = object(input)?;
    let text = |key: &str| {
        field(obj, key, "input")?
            .as_str()
            .ok_or_else(|| invalid(format!("input.{key} must be a string")))
    };
    let (template, uri) = (text("template")?, text("uri")?);
    let found = server_lib::__macro_support::match_uri_template(template, uri);
    Ok(json!({ "match": found.is_some() }))
}

/// The output of one case, or `None` for an operation this harness does not run.
fn run(operation: &str, input: Value) -> Option<Value> {
    let answer = match operation {
        GRANTED_SCOPES => granted_scopes(&input),
        IS_VISIBLE => is_visible(&input),
        MATCH_URI_TEMPLATE => match_uri_template(&input),
        _ => return None,
    };
    Some(answer.unwrap_or_else(|error| error))
}

fn start() -> Value {
    json!({
        "version": 1,
        "implementation": {
            "name": "turbomcp visibility, identity and URI templates (mcp-touchstone turbomcp-harness)",
            "version": TURBOMCP_COMMIT,
            "language": "rust",
            "homepage": "https://github.com/Epistates/turbomcp",
        },
        "operations": [GRANTED_SCOPES, IS_VISIBLE, MATCH_URI_TEMPLATE],
    })
}

fn main() {
    harness_loop::main(&harness_loop::Harness {
        name: "turbomcp-harness",
        start,
        answer: run,
    });
}
