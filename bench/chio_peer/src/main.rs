//! `chio-peer`: Chio's own portable scope matcher behind harness protocol v1.
//!
//! mcp-touchstone's in-run peer for the scope batch (`bench/bench_scope_batch.py`) and a
//! differential check of our reference (`bench/chio_peer/check.py`). Our code; the matcher and
//! its types are Chio's, compiled from Chio's source (`chio-kernel-core` and `chio-core-types`
//! at bb-connor/arc `d2816aa0`, extracted at build time by `build.py`, never committed here).
//!
//! Protocol (`/work/shared/protocol/harness-v1.md`): the loop every upstream harness shares,
//! `conformance/upstream/harness_loop.rs` (included by `#[path]`), one flushed line per response
//! as `touchstone harness` does, so both sides of the benchmark pay the same protocol. `start`
//! announces exactly `scope.resolve_matching_grants` and `scope.resolve_capability_grants`; any
//! other operation is `skipped`.
//!
//! Per case: the input object's `scope` is decoded with `serde_json::from_value::<ChioScope>`
//! (a failure is `invalid_input` carrying serde's own `Display` text), `tool_name` and
//! `server_id` must be strings and `arguments` present (else `invalid_input` in our words), then
//! Chio's `resolve_matching_grants` answers. `resolve_capability_grants` upstream takes a whole
//! signed `CapabilityToken` (whose keys this build cannot construct: ed25519 is a stub), so the
//! capability operation applies that function's documented body over `resolve_matching_grants`
//! instead: `Err` unchanged, `Ok([])` becomes `out_of_scope`.

#[path = "../../../conformance/upstream/harness_loop.rs"]
mod harness_loop;

use chio_core_types::capability::ChioScope;
use chio_kernel_core::scope::{resolve_matching_grants, ScopeMatchError};
use serde_json::{json, Value};

const MATCHING: &str = "scope.resolve_matching_grants";
const CAPABILITY: &str = "scope.resolve_capability_grants";

/// The Chio commit the matcher was built from (set by `build.py`).
const CHIO_COMMIT: &str = match option_env!("CHIO_PEER_CHIO_COMMIT") {
    Some(commit) => commit,
    None => "unknown",
};

fn invalid(message: String) -> Value {
    json!({"error": {"kind": "invalid_input", "message": message}})
}

/// The output object of one case of either operation.
fn answer(input: Value, capability: bool) -> Value {
    let Value::Object(mut input) = input else {
        return invalid(
            "input: expected an object with scope, tool_name, server_id, arguments".to_string(),
        );
    };
    for key in ["scope", "tool_name", "server_id", "arguments"] {
        if !input.contains_key(key) {
            return invalid(format!("input: missing field `{key}`"));
        }
    }
    let Some(tool_name) = input.get("tool_name").and_then(Value::as_str) else {
        return invalid("input.tool_name: expected a string".to_string());
    };
    let tool_name = tool_name.to_owned();
    let Some(server_id) = input.get("server_id").and_then(Value::as_str) else {
        return invalid("input.server_id: expected a string".to_string());
    };
    let server_id = server_id.to_owned();
    let raw_scope = input.remove("scope").unwrap_or(Value::Null);
    let scope: ChioScope = match serde_json::from_value(raw_scope) {
        Ok(scope) => scope,
        Err(error) => return invalid(error.to_string()),
    };
    let arguments = input.remove("arguments").unwrap_or(Value::Null);
    match resolve_matching_grants(&scope, &tool_name, &server_id, &arguments) {
        Ok(found) if found.is_empty() && capability => json!({"error": {"kind": "out_of_scope"}}),
        Ok(found) => {
            let matches: Vec<Value> = found
                .iter()
                .map(|m| {
                    let (server_exact, tool_exact, count) = m.specificity;
                    json!({"index": m.index, "specificity": [server_exact, tool_exact, count]})
                })
                .collect();
            json!({ "matches": matches })
        }
        Err(ScopeMatchError::ConstraintError(message)) => {
            json!({"error": {"kind": "constraint_error", "message": message}})
        }
        Err(ScopeMatchError::OutOfScope) => json!({"error": {"kind": "out_of_scope"}}),
    }
}

/// The output of one case, or `None` for an operation this harness does not run.
fn run(operation: &str, input: Value) -> Option<Value> {
    match operation {
        MATCHING => Some(answer(input, false)),
        CAPABILITY => Some(answer(input, true)),
        _ => None,
    }
}

fn start() -> Value {
    json!({
        "version": 1,
        "implementation": {
            "name": "chio-kernel-core portable matcher (mcp-touchstone chio-peer)",
            "version": CHIO_COMMIT,
            "language": "rust",
            "homepage": "https://github.com/bb-connor/arc",
        },
        "operations": [MATCHING, CAPABILITY],
    })
}

fn main() {
    harness_loop::main(&harness_loop::Harness {
        name: "chio-peer",
        start,
        answer: run,
    });
}
