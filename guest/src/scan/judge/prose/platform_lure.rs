//! Round 35t: what the install-lure signals read beyond one physical English line.
//!
//! - A download named by what it is, in Chinese, Spanish or French ("下载该程序", "descarga el
//!   instalador", "téléchargez l'exécutable"), like the English "download the … binary".
//! - A soft-wrapped sentence: "Download the prerequisite binary from" on one line and the link on
//!   the next is one sentence; the link's line alone names no program.
//! - A deployment platform's subdomain (`<anyone>.netlify.app`, `<anyone>.onrender.com`): the
//!   platform serves whatever any account deploys, so its name says nothing about who made the
//!   program; a program told to be downloaded from there and run is the prerequisite-binary lure.

use crate::scan::judge::File;

/// Whether a prose line (lowered) downloads a program named by what it is, in Chinese, Spanish or
/// French.
pub(super) fn names_program_abroad(lowered: &str) -> bool {
    let has = |ws: &[&str]| ws.iter().any(|w| lowered.contains(w));
    has(&["下载"]) && has(&["程序", "安装包", "可执行文件", "客户端", "二进制", "安装器"])
        || has(&["descarga", "descargue", "descargar", "bajar", "baja el"])
            && has(&[
                "programa",
                "ejecutable",
                "instalador",
                "binario",
                "aplicación",
            ])
        || has(&["télécharge", "telecharge"])
            && has(&[
                "programme",
                "exécutable",
                "executable",
                "installateur",
                "binaire",
            ])
        // Round 36t: Japanese, German, Portuguese, Russian and Korean.
        || has(&["ダウンロード"])
            && has(&["プログラム", "インストーラ", "実行ファイル", "バイナリ", "アプリ"])
        || has(&["herunterlad", "herunter"])
            && has(&["programm", "installer", "binärdatei", "hilfspaket", "setup"])
        || has(&["baixe", "baixar", "faça o download"])
            && has(&["programa", "instalador", "executável", "binário"])
        || has(&["скача", "загрузите"])
            && has(&["программ", "установщик", "исполняемый", "installer"])
        || has(&["다운로드"]) && has(&["프로그램", "설치 파일", "실행 파일", "설치기"])
}

/// The physical line before `line` (1-based) joined with it, when that line is prose the link's line
/// continues (a soft-wrapped paragraph or list item: not blank, not a heading, fence or table row,
/// and the link's line does not start a new list item); otherwise the line alone.
pub(super) fn with_wrapped_previous(file: &File<'_>, line: u32, text: &str) -> String {
    let lines = &file.lowered().lines;
    let i = line as usize;
    if i < 2 || i > lines.len() {
        return text.to_owned();
    }
    let prev = lines[i - 2].trim();
    let cur = lines[i - 1].trim_start();
    let starts_item = cur.starts_with(['-', '*', '+', '#', '|', '>'])
        || cur
            .split_once(['.', ')'])
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()));
    if prev.is_empty()
        || prev.starts_with(['#', '|', '<'])
        || prev.starts_with("```")
        || prev.starts_with("~~~")
        || starts_item
    {
        return text.to_owned();
    }
    format!("{prev} {text}")
}

/// Deployment and hosting platforms that serve any account's site under a subdomain, beyond the
/// `user_content` list of `hosts.json` (which the check reads too).
const PLATFORMS: &[&str] = &[
    ".onrender.com",
    ".fly.dev",
    ".glitch.me",
    ".replit.app",
    ".repl.co",
    ".deno.dev",
    ".surge.sh",
    ".up.railway.app",
    ".azurewebsites.net",
    ".appspot.com",
    ".r2.dev",
    ".pythonanywhere.com",
    ".ngrok.app",
];

/// Whether `host` is an account's subdomain of a platform that serves anyone's content: a
/// `user_content` entry of `hosts.json` that covers subdomains (`.vercel.app`), or one of
/// [`PLATFORMS`].
pub(super) fn anyones_platform_subdomain(host: &str) -> bool {
    let h = host.to_ascii_lowercase();
    let Some((_, parent)) = h.split_once('.') else {
        return false;
    };
    // `x.netlify.app` and its parent `netlify.app` both serve anyone's files; `github.com`'s
    // parent `com` does not (the code hosts' own pages are judged as releases elsewhere).
    parent.contains('.')
        && crate::scan::hosts::serves_anyones_files(&h, "/")
        && crate::scan::hosts::serves_anyones_files(parent, "/")
        || PLATFORMS
            .iter()
            .any(|p| h.ends_with(p) && h.len() > p.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn platform_subdomains_and_foreign_words() {
        assert!(anyones_platform_subdomain("tool-dl.netlify.app"));
        assert!(anyones_platform_subdomain("x.onrender.com"));
        assert!(!anyones_platform_subdomain("github.com"));
        assert!(!anyones_platform_subdomain("raw.githubusercontent.com"));
        assert!(!anyones_platform_subdomain("downloads.example.com"));
        assert!(names_program_abroad("从 https://x 下载该程序，然后运行它"));
        assert!(names_program_abroad(
            "descarga el instalador desde https://x"
        ));
        assert!(!names_program_abroad("descarga el informe en pdf"));
        assert!(!names_program_abroad("下载报告"));
    }
}
