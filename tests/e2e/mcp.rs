//! `skill-recommender mcp` at the protocol level: raw JSON-RPC lines on the server's stdin, every stdout
//! line a JSON-RPC message. Version negotiation, malformed input, and per-call deadlines with the hostile
//! fixture (a call that never ends fails alone; the others are answered meanwhile). The official Python
//! SDK drives the same server in tests/mcp.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{NOW, cache_dir};

/// Only a guard against a hung server: no test measures time.
const HANG_GUARD: Duration = Duration::from_secs(120);

struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Server {
    fn start(global: &[&str], mcp: &[&str]) -> Server {
        let home = tempfile::tempdir().unwrap().keep();
        let state = tempfile::tempdir().unwrap().keep();
        let mut child = Command::new(env!("CARGO_BIN_EXE_skill-recommender"))
            .env_clear()
            .env("HOME", &home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SKILL_RECOMMENDER_CACHE_DIR", cache_dir())
            .env("SKILL_RECOMMENDER_STATE_DIR", &state)
            .args(["--now", NOW])
            .args(global)
            .arg("mcp")
            .args(mcp)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting the MCP server");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            stdin,
            lines,
        }
    }

    fn send_raw(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, message: Value) {
        self.send_raw(&message.to_string());
    }

    /// The next message on stdout; every line must be a JSON-RPC 2.0 message.
    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(HANG_GUARD)
            .expect("the server answered");
        let v: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carries only JSON-RPC, got {line:?}: {e}"));
        assert_eq!(v["jsonrpc"], "2.0", "{v}");
        v
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let v = self.next();
        assert_eq!(v["id"], id, "{v}");
        v
    }

    /// `initialize` asking for `version`, then `notifications/initialized`; returns the result.
    fn initialize(&mut self, version: &str) -> Value {
        let v = self.request(
            0,
            "initialize",
            json!({"protocolVersion": version, "capabilities": {},
                   "clientInfo": {"name": "e2e", "version": "0"}}),
        );
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        v["result"].clone()
    }

    fn call(&mut self, id: u64, tool: &str, args: Value) -> Value {
        self.request(id, "tools/call", json!({"name": tool, "arguments": args}))["result"].clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `{"error": ...}` object of a tool error result.
fn tool_error(result: &Value) -> Value {
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().unwrap();
    serde_json::from_str::<Value>(text).unwrap()["error"].clone()
}

#[test]
fn the_protocol_version_is_negotiated_as_the_spec_says() {
    let mut s = Server::start(&[], &[]);
    let init = s.initialize("2025-06-18");
    assert_eq!(
        init["protocolVersion"], "2025-06-18",
        "a version the server supports is echoed"
    );
    assert_eq!(init["serverInfo"]["name"], "skill-recommender");
    assert!(init["capabilities"]["tools"].is_object());
    assert!(init["capabilities"]["resources"].is_object());
    assert!(init["capabilities"]["prompts"].is_object());
    let mut s = Server::start(&[], &[]);
    let init = s.initialize("2099-01-01");
    assert_eq!(
        init["protocolVersion"], "2025-11-25",
        "an unknown version gets the newest the server supports"
    );
}

#[test]
fn malformed_json_rpc_gets_a_clean_error_or_is_ignored_and_the_server_keeps_serving() {
    let mut s = Server::start(&[], &[]);
    s.initialize("2025-11-25");
    // Not JSON at all: no id to answer, ignored (as the official SDKs do).
    s.send_raw("{this is not json");
    s.send_raw("");
    // JSON that is not a JSON-RPC message: an Invalid Request error.
    s.send(json!({"hello": "world"}));
    let v = s.next();
    assert_eq!(v["error"]["code"], -32600, "{v}");
    // An unknown method: Method not found.
    let v = s.request(2, "no/such/method", json!({}));
    assert_eq!(v["error"]["code"], -32601, "{v}");
    // tools/call whose params are not an object: the message does not parse as a request, so it gets
    // an Invalid Request error (rmcp answers it without the id).
    s.send(
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": "recommend_skills"}),
    );
    let v = s.next();
    assert_eq!(v["error"]["code"], -32600, "{v}");
    // Wrong argument types and an unknown tool: tool errors with the CLI's error object.
    let e = tool_error(&s.call(4, "daily", json!({"action": 7})));
    assert_eq!(
        (e["code"].as_str(), e["field"].as_str()),
        (Some("invalid_input"), Some("action"))
    );
    let e = tool_error(&s.call(5, "nope", json!({})));
    assert_eq!(e["code"], "unknown_tool");
    // Still serving.
    let ok = s.call(6, "daily", json!({"action": "status"}));
    assert_eq!(ok["isError"], false, "{ok}");
    assert_eq!(ok["structuredContent"]["daily_rec_status"], "unset");
    let tools = s.request(7, "tools/list", json!({}));
    assert_eq!(tools["result"]["tools"].as_array().unwrap().len(), 10);
}

/// Send `first` (id 1) and then five `daily confirm` calls (ids 2-6); return the order of the answers
/// and the first call's result.
fn race(s: &mut Server, first: Value) -> (Vec<u64>, Value) {
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": first}));
    for id in 2..=6 {
        s.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                      "params": {"name": "daily", "arguments": {"action": "confirm"}}}));
    }
    let mut order = Vec::new();
    let mut slow = Value::Null;
    for _ in 1..=6 {
        let v = s.next();
        let id = v["id"].as_u64().unwrap();
        if id == 1 {
            slow = v["result"].clone();
        } else {
            assert_eq!(v["result"]["isError"], false, "{v}");
        }
        order.push(id);
    }
    (order, slow)
}

fn assert_deadline(result: &Value) {
    let e = tool_error(result);
    assert_eq!(
        (
            e["code"].as_str(),
            e["limit"].as_str(),
            e["exit_code"].as_i64()
        ),
        (Some("sandbox_limit"), Some("deadline"), Some(5)),
        "{e}"
    );
}

#[test]
fn a_call_past_its_deadline_fails_alone_while_the_others_are_answered() {
    // The hostile fixture: `validate` (no state) and `status` (holds the state lock) never end;
    // `confirm-daily-enabled` writes state and returns at once.
    let hostile = env!("SKILL_RECOMMENDER_HOSTILE_WASM");
    let mut s = Server::start(&["--component", hostile], &["--deadline-ms", "3000"]);
    s.initialize("2025-11-25");
    let bundle = tempfile::tempdir().unwrap();
    std::fs::write(bundle.path().join("SKILL.md"), "---\nname: x\n---\n").unwrap();
    // A slow call that holds no lock holds up nothing: every call sent after it is answered first.
    let (order, slow) = race(
        &mut s,
        json!({"name": "validate_skill", "arguments": {"path": bundle.path()}}),
    );
    assert_deadline(&slow);
    assert_eq!(order.last(), Some(&1), "answered meanwhile: {order:?}");
    // A slow call inside a state transaction: calls on the same state wait for its lock (writes are
    // serialized), then succeed; only the slow one fails.
    let (_, slow) = race(
        &mut s,
        json!({"name": "daily", "arguments": {"action": "status"}}),
    );
    assert_deadline(&slow);
    // And the server goes on serving after the limits.
    let ok = s.call(7, "daily", json!({"action": "confirm"}));
    assert_eq!(ok["isError"], false, "{ok}");
}

#[test]
fn an_oversize_line_is_dropped_unanswered_and_the_server_keeps_serving() {
    // With a 1 KiB input cap the longest line read is 2 KiB + 1 MiB (room for JSON escaping).
    let mut s = Server::start(&[], &["--max-input-bytes", "1024"]);
    s.initialize("2025-11-25");
    let huge = "x".repeat(1_200_000);
    s.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                  "params": {"name": "recommend_skills",
                             "arguments": {"mode": "manual", "candidates": huge}}}));
    // Its id was never read, so there is nothing to answer: the next message is the next call's.
    let ok = s.call(2, "daily", json!({"action": "status"}));
    assert_eq!(ok["isError"], false, "{ok}");
    // Within the line limit but over the input cap: a tool error naming the argument.
    let e = tool_error(&s.call(
        3,
        "recommend_skills",
        json!({"mode": "manual", "candidates": "x".repeat(4096)}),
    ));
    assert_eq!(
        (e["code"].as_str(), e["field"].as_str()),
        (Some("invalid_input"), Some("candidates")),
        "{e}"
    );
}
