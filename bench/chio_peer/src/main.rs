//! `chio-peer`: Chio's own portable scope matcher behind harness protocol v1.
//!
//! mcp-touchstone's in-run peer for the scope batch (`bench/bench_scope_batch.py`) and a
//! differential check of our reference (`bench/chio_peer/check.py`). Our code; the matcher and
//! its types are Chio's, compiled from Chio's source (`chio-kernel-core` and `chio-core-types`
//! at bb-connor/arc `d2816aa0`, extracted at build time by `build.py`, never committed here).
//!
//! Protocol (`/work/shared/protocol/harness-v1.md`): one JSON object per line in, one per line
//! out, each response written and flushed on its own, as `touchstone harness` does, so both
//! sides of the benchmark pay the same protocol. `start` announces exactly
//! `scope.resolve_matching_grants` and `scope.resolve_capability_grants`; any other operation is
//! `skipped`; `stop` or the end of input ends the process with status 0.
//!
//! Per case: the input object's `scope` is decoded with `serde_json::from_value::<ChioScope>`
//! (a failure is `invalid_input` carrying serde's own `Display` text), `tool_name` and
//! `server_id` must be strings and `arguments` present (else `invalid_input` in our words), then
//! Chio's `resolve_matching_grants` answers. `resolve_capability_grants` upstream takes a whole
//! signed `CapabilityToken` (whose keys this build cannot construct: ed25519 is a stub), so the
//! capability operation applies that function's documented body over `resolve_matching_grants`
//! instead: `Err` unchanged, `Ok([])` becomes `out_of_scope`.

use std::io::{self, BufRead, Write};

use chio_core_types::capability::ChioScope;
use chio_kernel_core::scope::{resolve_matching_grants, ScopeMatchError};
use serde_json::{json, Map, Value};

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

fn errored(message: String, seq: Option<Value>) -> Value {
    let mut out = Map::new();
    if let Some(seq) = seq {
        out.insert("seq".to_string(), seq);
    }
    out.insert("errored".to_string(), Value::Bool(true));
    out.insert("message".to_string(), Value::String(message));
    Value::Object(out)
}

fn integer(value: Option<&Value>) -> Option<Value> {
    value.filter(|v| v.is_i64() || v.is_u64()).cloned()
}

/// The response to one request line, or `None` for `stop`.
fn respond(line: &[u8]) -> Option<Value> {
    let request: Value = match serde_json::from_slice(line) {
        Ok(request) => request,
        Err(error) => return Some(errored(format!("request line is not JSON: {error}"), None)),
    };
    let Value::Object(mut request) = request else {
        return Some(errored("request line is not a JSON object".to_string(), None));
    };
    match request.get("cmd").and_then(Value::as_str) {
        Some("run") => {
            let Some(seq) = integer(request.get("seq")) else {
                return Some(errored("run needs an integer seq".to_string(), None));
            };
            let Some(Value::Object(mut case)) = request.remove("case") else {
                return Some(errored("run needs a case object".to_string(), Some(seq)));
            };
            let operation = match case.get("operation").and_then(Value::as_str) {
                Some(operation) => operation.to_owned(),
                None => {
                    return Some(errored("case needs an operation name".to_string(), Some(seq)))
                }
            };
            let input = case.remove("input").unwrap_or(Value::Null);
            let output = match operation.as_str() {
                MATCHING => answer(input, false),
                CAPABILITY => answer(input, true),
                _ => {
                    return Some(json!({
                        "seq": seq,
                        "skipped": true,
                        "message": format!("operation {operation} is not supported"),
                    }))
                }
            };
            Some(json!({"seq": seq, "output": output}))
        }
        Some("stop") => None,
        Some("start") => Some(json!({
            "version": 1,
            "implementation": {
                "name": "chio-kernel-core portable matcher (mcp-touchstone chio-peer)",
                "version": CHIO_COMMIT,
                "language": "rust",
                "homepage": "https://github.com/bb-connor/arc",
            },
            "operations": [MATCHING, CAPABILITY],
        })),
        Some(cmd) => Some(errored(
            format!("unknown cmd {cmd:?}"),
            integer(request.get("seq")),
        )),
        None => Some(errored(
            "request has no cmd".to_string(),
            integer(request.get("seq")),
        )),
    }
}

fn serve() -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut line = Vec::new();
    let mut text = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        let Some(response) = respond(&line) else {
            return Ok(());
        };
        text.clear();
        serde_json::to_writer(&mut text, &response).map_err(io::Error::from)?;
        text.push(b'\n');
        out.write_all(&text)?;
        out.flush()?; // one flushed line per response, as the Python harness does
    }
}

fn main() {
    match serve() {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        Err(error) => {
            eprintln!("chio-peer: {error}");
            std::process::exit(2);
        }
    }
}
