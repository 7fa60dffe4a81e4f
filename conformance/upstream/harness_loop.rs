//! The harness protocol v1 loop every upstream harness shares (`/work/shared/protocol/harness-v1.md`).
//!
//! Included by each harness's `main.rs` with `#[path]` (one file, no crate: the harnesses build
//! offline against Debian's crate packages and share only serde_json). One JSON object per line
//! in, one per line out, each response written and flushed on its own, as `touchstone harness`
//! does. `start` answers the harness's own start response; `run` asks the harness's `answer`
//! for the case's output, and an operation it does not run (`None`) is `skipped`; `stop` or the
//! end of input ends the process with status 0. A malformed request is an `errored` line.

use std::io::{self, BufRead, Write};

use serde_json::json;
use serde_json::{Map, Value};

/// What a harness supplies: its name (for the one line a failed write prints), its `start`
/// response, and the output of one case (`None` when it does not run the operation).
pub struct Harness {
    pub name: &'static str,
    pub start: fn() -> Value,
    pub answer: fn(&str, Value) -> Option<Value>,
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
fn respond(harness: &Harness, line: &[u8]) -> Option<Value> {
    let request: Value = match serde_json::from_slice(line) {
        Ok(request) => request,
        Err(error) => return Some(errored(format!("request line is not JSON: {error}"), None)),
    };
    let Value::Object(mut request) = request else {
        return Some(errored(
            "request line is not a JSON object".to_string(),
            None,
        ));
    };
    match request.get("cmd").and_then(Value::as_str) {
        Some("run") => {
            let Some(seq) = integer(request.get("seq")) else {
                return Some(errored("run needs an integer seq".to_string(), None));
            };
            let Some(Value::Object(mut case)) = request.remove("case") else {
                return Some(errored("run needs a case object".to_string(), Some(seq)));
            };
            let Some(operation) = case.get("operation").and_then(Value::as_str) else {
                let message = "case needs an operation name".to_string();
                return Some(errored(message, Some(seq)));
            };
            let operation = operation.to_owned();
            let input = case.remove("input").unwrap_or(Value::Null);
            Some(match (harness.answer)(&operation, input) {
                Some(output) => json!({"seq": seq, "output": output}),
                None => json!({
                    "seq": seq,
                    "skipped": true,
                    "message": format!("operation {operation} is not supported"),
                }),
            })
        }
        Some("stop") => None,
        Some("start") => Some((harness.start)()),
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

fn serve(harness: &Harness) -> io::Result<()> {
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
        let Some(response) = respond(harness, &line) else {
            return Ok(());
        };
        text.clear();
        serde_json::to_writer(&mut text, &response).map_err(io::Error::from)?;
        text.push(b'\n');
        out.write_all(&text)?;
        out.flush()?; // one flushed line per response, as the Python harness does
    }
}

/// Serve the protocol on stdin/stdout until `stop` or the end of input; a failed read or
/// write other than a closed pipe is one line on stderr and exit status 2.
pub fn main(harness: &Harness) {
    match serve(harness) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        Err(error) => {
            eprintln!("{}: {error}", harness.name);
            std::process::exit(2);
        }
    }
}
