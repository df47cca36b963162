//! The Chinese wording of a candidate's risk findings, for Chinese cards and explanations.
//!
//! A finding's `description` is English (the rule files are); a Chinese card must not quote it.
//! The candidate's own rules each have a sentence here; a content finding in the name, the
//! description or the skill's text is worded from its category, its place and its rule id, so a
//! new rule is never left without Chinese words.

use super::RiskFinding;

/// One finding as a Chinese sentence (ending in `。`).
pub fn description(f: &RiskFinding) -> String {
    let own = match f.rule_id.as_str() {
        "candidate.untrusted-source" => {
            Some("技能来自未知来源或社交媒体帖子（如 X），没有注册表审核，请按未经审查的技能对待。")
        }
        "candidate.github-unvetted" => {
            Some("这个 GitHub 仓库缺少安装说明或安全说明，没有经过审核；安装前请先读它的脚本。")
        }
        "candidate.registry-malicious" => Some("注册表已把这个技能标为恶意或已封禁，切勿安装。"),
        "candidate.registry-suspicious" => {
            Some("注册表的扫描把这个技能标为可疑，或扫描尚未完成；安装前请检查被标记的代码。")
        }
        "candidate.audit-warning" => {
            Some("注册表列出的第三方安全审计对这个技能给出了警告或未通过。")
        }
        "candidate.scan-failed" => Some("注册表的安全扫描没有通过。"),
        "candidate.not-reviewed" => Some("注册表还没有批准这个技能。"),
        "candidate.thin-metadata" => {
            Some("源代码、安装说明、安全说明三项中已知的不到两项，信息太少，无法判断这个技能。")
        }
        _ => None,
    };
    if let Some(s) = own {
        return s.to_owned();
    }
    format!(
        "{}里有{}的迹象（规则 {}）。",
        place(&f.field),
        category(&f.category),
        f.rule_id
    )
}

/// Where a content finding is: the name, the description, or a line of the skill's text.
fn place(field: &str) -> String {
    match field {
        "name" => "名称".to_owned(),
        "description" => "描述".to_owned(),
        _ => match field.strip_prefix("raw_content:") {
            Some(line) => format!("SKILL.md 第 {line} 行"),
            None => "技能内容".to_owned(),
        },
    }
}

/// A rule category in Chinese.
fn category(c: &str) -> &'static str {
    match c {
        "prompt_injection" => "提示词注入",
        "exfiltration" => "把数据发往外部",
        "supply_chain" => "下载或运行外部代码",
        "persistence" => "开机自启或定时任务等持久化",
        "destructive" => "破坏性命令",
        "execution" => "执行任意命令",
        "network" => "可疑的网络连接",
        "privilege" => "提权或改动权限",
        "obfuscation" => "混淆或隐藏内容",
        "credential_exposure" => "暴露密钥或凭据",
        "mining" => "挖矿",
        _ => "安全风险",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::candidate::Risk;

    fn finding(rule_id: &str, category: &str, field: &str) -> RiskFinding {
        RiskFinding {
            rule_id: rule_id.into(),
            category: category.into(),
            raises_to: Risk::Medium,
            field: field.into(),
            evidence: String::new(),
            description: "English text a Chinese card must not show.".into(),
        }
    }

    #[test]
    fn candidate_rules_have_their_own_sentence() {
        let s = description(&finding("candidate.thin-metadata", "metadata", "metadata"));
        assert!(s.contains("信息太少"), "{s}");
        assert!(!s.contains("English"), "{s}");
    }

    #[test]
    fn content_findings_are_worded_from_category_and_place() {
        let s = description(&finding(
            "exfiltration.env-to-network",
            "exfiltration",
            "raw_content:12",
        ));
        assert_eq!(
            s,
            "SKILL.md 第 12 行里有把数据发往外部的迹象（规则 exfiltration.env-to-network）。"
        );
        let s = description(&finding("injection.x", "prompt_injection", "description"));
        assert!(s.starts_with("描述里有提示词注入"), "{s}");
        // An unknown category still gets Chinese words, never the English description.
        let s = description(&finding("new.rule", "something-new", "name"));
        assert_eq!(s, "名称里有安全风险的迹象（规则 new.rule）。");
    }

    /// Every candidate rule `assess` can raise has a sentence here: a rule id starting with
    /// `candidate.` that fell through to the category wording would read "…里有安全风险的迹象".
    #[test]
    fn every_candidate_rule_is_worded() {
        let src = include_str!("../candidate.rs");
        let ids: Vec<&str> = src
            .split('"')
            .filter(|s| s.starts_with("candidate.") && !s.contains(' '))
            .collect();
        assert!(ids.len() >= 8, "{ids:?}");
        for id in ids {
            let s = description(&finding(id, "registry", "registry"));
            assert!(!s.contains("迹象"), "{id} has no sentence of its own: {s}");
        }
    }
}
