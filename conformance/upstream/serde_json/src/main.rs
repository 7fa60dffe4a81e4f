//! `serde-json-harness`: serde_json itself behind harness protocol v1, for `json.to_string`.
//!
//! Our code; the parser and the writer are serde_json's, compiled from the Debian crate package
//! `librust-serde-json-dev` (the version is printed by `build.py` and announced by `start`).
//!
//! Protocol (`/work/shared/protocol/harness-v1.md`): one JSON object per line in, one per line
//! out, each flushed on its own. `start` announces `json.to_string` only; any other operation is
//! `skipped`; `stop` or the end of input ends the process with status 0.
//!
//! Per case (spec/harness.md HARNESS-JSON-1): the input must be an object whose `text` is a
//! string (else `invalid_input`); `serde_json::from_str::<Value>(text)` parses it (a failure is
//! `invalid_json` carrying serde_json's own `Display` text) and `serde_json::to_string` writes
//! it back: `{"string": <that text>, "bytes": <its UTF-8 length>}`.

use std::io::{self, BufRead, Write};

use serde_json::{json, Map, Value};

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
    let Value::Object(request) = request else {
        return Some(errored("request line is not a JSON object".to_string(), None));
    };
    match request.get("cmd").and_then(Value::as_str) {
        Some("run") => {
            let Some(seq) = integer(request.get("seq")) else {
                return Some(errored("run needs an integer seq".to_string(), None));
            };
            let Some(Value::Object(case)) = request.get("case") else {
                return Some(errored("run needs a case object".to_string(), Some(seq)));
            };
            let Some(operation) = case.get("operation").and_then(Value::as_str) else {
                return Some(errored("case needs an operation name".to_string(), Some(seq)));
            };
            if operation != TO_STRING {
                return Some(json!({
                    "seq": seq,
                    "skipped": true,
                    "message": format!("operation {operation} is not supported"),
                }));
            }
            let output = to_string(case.get("input").unwrap_or(&Value::Null));
            Some(json!({"seq": seq, "output": output}))
        }
        Some("stop") => None,
        Some("start") => Some(json!({
            "version": 1,
            "implementation": {
                "name": "serde_json (mcp-touchstone serde-json-harness)",
                "version": SERDE_JSON_VERSION,
                "language": "rust",
                "homepage": "https://github.com/serde-rs/json",
            },
            "operations": [TO_STRING],
        })),
        Some(cmd) => Some(errored(format!("unknown cmd {cmd:?}"), integer(request.get("seq")))),
        None => Some(errored("request has no cmd".to_string(), integer(request.get("seq")))),
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
        out.flush()?;
    }
}

fn main() {
    match serve() {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        Err(error) => {
            eprintln!("serde-json-harness: {error}");
            std::process::exit(2);
        }
    }
}
