//! `serde-json-harness`: serde_json itself behind harness protocol v1, for `json.to_string`.
//!
//! Our code; the parser and the writer are serde_json's, compiled from the Debian crate package
//! `librust-serde-json-dev` (the version is printed by `build.py` and announced by `start`).
//!
//! Protocol (`/work/shared/protocol/harness-v1.md`): the loop every upstream harness shares,
//! `conformance/upstream/harness_loop.rs` (included by `#[path]`). `start` announces
//! `json.to_string` only; any other operation is `skipped`.
//!
//! Per case (spec/harness.md HARNESS-JSON-1): the input must be an object whose `text` is a
//! string (else `invalid_input`); `serde_json::from_str::<Value>(text)` parses it (a failure is
//! `invalid_json` carrying serde_json's own `Display` text) and `serde_json::to_string` writes
//! it back: `{"string": <that text>, "bytes": <its UTF-8 length>}`.

#[path = "../../harness_loop.rs"]
mod harness_loop;

use serde_json::{json, Value};

const TO_STRING: &str = "json.to_string";

/// The serde_json version this binary was built with (set by `build.py`).
const SERDE_JSON_VERSION: &str = match option_env!("SERDE_JSON_HARNESS_VERSION") {
    Some(version) => version,
    None => "unknown",
};

/// The output object of one `json.to_string` case.
fn to_string(input: &Value) -> Value {
    let Some(text) = input.get("text").and_then(Value::as_str) else {
        return json!({"error": {"kind": "invalid_input", "message": "input must be {\"text\": string}"}});
    };
    match serde_json::from_str::<Value>(text) {
        Ok(value) => match serde_json::to_string(&value) {
            Ok(out) => json!({"bytes": out.len(), "string": out}),
            Err(error) => json!({"error": {"kind": "invalid_json", "message": error.to_string()}}),
        },
        Err(error) => json!({"error": {"kind": "invalid_json", "message": error.to_string()}}),
    }
}

/// The output of one case, or `None` for an operation this harness does not run.
fn run(operation: &str, input: Value) -> Option<Value> {
    (operation == TO_STRING).then(|| to_string(&input))
}

fn start() -> Value {
    json!({
        "version": 1,
        "implementation": {
            "name": "serde_json (mcp-touchstone serde-json-harness)",
            "version": SERDE_JSON_VERSION,
            "language": "rust",
            "homepage": "https://github.com/serde-rs/json",
        },
        "operations": [TO_STRING],
    })
}

fn main() {
    harness_loop::main(&harness_loop::Harness {
        name: "serde-json-harness",
        start,
        answer: run,
    });
}
