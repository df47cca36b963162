//! End-to-end tests: the real component through the harness, and the real CLI binary.

mod candidates;
mod cli;
mod commands;
mod common;
mod component;
mod hostile;
mod mcp;
mod pool;
mod preinit;
mod recommend;
mod sandbox;
mod security;
mod version;
