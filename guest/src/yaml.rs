//! YAML (SKILL.md frontmatter) → JSON values, on the saphyr project's event parser, with budgets.
//!
//! Budgets bound what hostile YAML can cost: nesting depth, the number of nodes materialized
//! (counting every alias expansion, so "billion laughs" alias bombs stop early) and the number of
//! anchors. Anchors live in a `BTreeMap`: nothing here seeds a hash map, so the component needs no
//! randomness import.

use std::collections::BTreeMap;

use saphyr_parser::{Event, Parser, ScalarStyle};
use serde_json::{Map, Number, Value};

/// Deepest nesting of sequences and mappings.
pub const MAX_DEPTH: usize = 64;
/// Most nodes materialized, alias expansions included.
pub const MAX_NODES: usize = 100_000;
/// Most anchors defined.
pub const MAX_ANCHORS: usize = 1_000;

enum Frame {
    Seq(Vec<Value>, usize),
    Map(Map<String, Value>, Option<String>, usize),
}

fn node_count(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(node_count).sum::<usize>(),
        Value::Object(o) => 1 + o.values().map(node_count).sum::<usize>(),
        _ => 1,
    }
}

/// YAML 1.2 core schema for plain scalars.
fn plain(s: &str) -> Value {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    if let Ok(i) = s.parse::<i64>() {
        return Value::Number(i.into());
    }
    if s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.'))
        && let Ok(f) = s.parse::<f64>()
        && let Some(n) = Number::from_f64(f)
    {
        return Value::Number(n);
    }
    Value::String(s.to_owned())
}

fn key_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Parse the first YAML document of `text`. Errors are one line, with a position when the parser has one.
pub fn parse(text: &str) -> Result<Value, String> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: BTreeMap<usize, Value> = BTreeMap::new();
    let mut nodes = 0usize;
    let mut root: Option<Value> = None;
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| e.to_string())?;
        let value = match event {
            Event::StreamStart | Event::DocumentStart(_) | Event::Nothing => continue,
            Event::StreamEnd | Event::DocumentEnd => {
                if root.is_some() || matches!(event, Event::StreamEnd) {
                    break;
                }
                continue;
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(format!(
                        "nesting deeper than {MAX_DEPTH} levels (line {})",
                        span.start.line()
                    ));
                }
                stack.push(if matches!(event, Event::SequenceStart(..)) {
                    Frame::Seq(Vec::new(), anchor)
                } else {
                    Frame::Map(Map::new(), None, anchor)
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (value, anchor) = match stack.pop() {
                    Some(Frame::Seq(items, a)) => (Value::Array(items), a),
                    Some(Frame::Map(m, _, a)) => (Value::Object(m), a),
                    None => return Err("unbalanced YAML".into()),
                };
                if anchor > 0 {
                    if anchors.len() >= MAX_ANCHORS {
                        return Err(format!("more than {MAX_ANCHORS} anchors"));
                    }
                    anchors.insert(anchor, value.clone());
                }
                value
            }
            Event::Scalar(s, style, anchor, _) => {
                let v = if style == ScalarStyle::Plain {
                    plain(&s)
                } else {
                    Value::String(s.into_owned())
                };
                nodes += 1;
                if anchor > 0 {
                    anchors.insert(anchor, v.clone());
                }
                v
            }
            Event::Alias(id) => {
                let v = anchors
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| format!("unknown alias (line {})", span.start.line()))?;
                nodes += node_count(&v);
                v
            }
        };
        if nodes > MAX_NODES {
            return Err(format!(
                "more than {MAX_NODES} nodes once aliases are expanded (an alias bomb?)"
            ));
        }
        match stack.last_mut() {
            None => {
                root = Some(value);
            }
            Some(Frame::Seq(items, _)) => items.push(value),
            Some(Frame::Map(m, key, _)) => match key.take() {
                None => *key = Some(key_of(&value)),
                Some(k) => {
                    m.insert(k, value);
                }
            },
        }
    }
    Ok(root.unwrap_or(Value::Null))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn documents_parse_to_json() {
        let v = parse(
            "name: pdf\ncount: 3\nok: true\nnone: ~\nf: 1.5\nlist: [a, 'b']\nmeta:\n  k: v\n",
        )
        .unwrap();
        assert_eq!(
            v,
            json!({"name": "pdf", "count": 3, "ok": true, "none": null, "f": 1.5, "list": ["a", "b"], "meta": {"k": "v"}})
        );
        assert_eq!(
            parse("v: '3'\n").unwrap(),
            json!({"v": "3"}),
            "quoted stays a string"
        );
        assert_eq!(
            parse("a: &x [1, 2]\nb: *x\n").unwrap(),
            json!({"a": [1, 2], "b": [1, 2]})
        );
        assert_eq!(parse("").unwrap(), Value::Null);
    }

    #[test]
    fn budgets_stop_bombs_and_depth() {
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let refs = (0..10)
                .map(|_| format!("*a{}", i - 1))
                .collect::<Vec<_>>()
                .join(", ");
            bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        }
        assert!(parse(&bomb).unwrap_err().contains("alias"), "10^10 nodes");
        let deep = format!("x: {}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(&deep).unwrap_err().contains("nesting"));
        assert!(parse("a: [1, 2\n").is_err());
    }
}
