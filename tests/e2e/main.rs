//! End-to-end tests: the real component through the harness, and the real CLI binary.

mod agent_path;
mod candidates;
mod catalog;
mod cli;
mod commands;
mod common;
mod component;
mod handover;
mod hostile;
mod mcp;
mod ondisk;
mod pool;
mod precompiled;
mod preinit;
mod readme;
mod recommend;
mod sandbox;
mod scale;
mod security;
mod version;
