//! `recommend_skills` over MCP against the same call through the CLI process, at 25 and 1,000 candidates.
//!
//! The MCP side is one long-lived `skill-recommender mcp` (initialized once, a few warm-up calls) and a
//! `tools/call` round trip per iteration over its stdin/stdout: JSON-RPC encoding, the server's argument
//! parsing, one guest call on a pooled instance, the structured result and its text copy. The CLI side
//! is a fresh `skill-recommender recommend --json` process per iteration with a warm compile cache (what
//! an agent without MCP runs). Both use `dry_run`, so every iteration does the same work on the same
//! state. `python3 -c pass` is measured in the same run as a machine-independent yardstick.
//!
//!     cargo bench -p host-harness --bench mcp

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_skill-recommender");
const NOW: &str = "2026-11-29T02:00:00Z";

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Server {
    fn start(cache: &std::path::Path, state: &std::path::Path) -> Server {
        let mut child = Command::new(BIN)
            .env("SKILL_RECOMMENDER_CACHE_DIR", cache)
            .env("HOME", state)
            .args(["--state-dir", state.to_str().unwrap(), "--now", NOW, "mcp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Server {
            child,
            stdin,
            stdout,
            next_id: 0,
        };
        s.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "0"}}),
        );
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
        s
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(&body.to_string());
        self.read(id)
    }

    /// A pre-encoded `tools/call` (the client's encoding is not the server's cost).
    fn call_encoded(&mut self, id: u64, encoded: &str) -> Value {
        self.send(encoded);
        self.read(id)
    }

    fn read(&mut self, id: u64) -> Value {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server exited"
            );
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v;
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn mcp(c: &mut Criterion) {
    let cache = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let mut g = c.benchmark_group("mcp_vs_cli");
    g.sample_size(20);
    g.bench_function("python3 -c pass", |b| {
        b.iter(|| {
            assert!(
                Command::new("python3")
                    .args(["-c", "pass"])
                    .status()
                    .unwrap()
                    .success()
            )
        })
    });
    let mut server = Server::start(cache.path(), state.path());
    for n in [25usize, 1000] {
        let text = common::candidates(n);
        let file = state.path().join(format!("candidates-{n}.json"));
        std::fs::write(&file, &text).unwrap();
        let candidates: Value = serde_json::from_str(&text).unwrap();
        let args = json!({"mode": "manual", "task": "turn PDF tables into Excel", "dry_run": true,
                          "no_discover": true, "candidates": candidates});
        // Warm up, and check the answer is a real recommendation.
        for _ in 0..3 {
            server.next_id += 1;
            let id = server.next_id;
            let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                              "params": {"name": "recommend_skills", "arguments": args}});
            let v = server.call_encoded(id, &body.to_string());
            assert_eq!(v["result"]["isError"], false, "{v}");
        }
        g.bench_with_input(BenchmarkId::new("mcp recommend_skills", n), &n, |b, _| {
            b.iter_custom(|iters| {
                let mut total = std::time::Duration::ZERO;
                for _ in 0..iters {
                    server.next_id += 1;
                    let id = server.next_id;
                    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                                      "params": {"name": "recommend_skills", "arguments": args}})
                    .to_string();
                    let start = std::time::Instant::now();
                    let v = server.call_encoded(id, &body);
                    total += start.elapsed();
                    assert!(v["result"]["structuredContent"]["mode"] == "manual");
                }
                total
            })
        });
        let cli_args = [
            "--state-dir",
            state.path().to_str().unwrap(),
            "--now",
            NOW,
            "recommend",
            "--mode",
            "manual",
            "--task",
            "turn PDF tables into Excel",
            "--dry-run",
            "--no-discover",
            "--json",
            "--candidates",
            file.to_str().unwrap(),
        ];
        g.bench_with_input(BenchmarkId::new("cli recommend --json", n), &n, |b, _| {
            b.iter(|| {
                let out = Command::new(BIN)
                    .env("SKILL_RECOMMENDER_CACHE_DIR", cache.path())
                    .env("HOME", state.path())
                    .args(cli_args)
                    .stderr(Stdio::null())
                    .output()
                    .unwrap();
                assert!(out.status.success());
            })
        });
    }
    g.finish();
}

criterion_group!(benches, mcp);
criterion_main!(benches);
