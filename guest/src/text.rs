//! User-facing text in both languages. Keys in JSON output never change with the language; only these do.
//! The Chinese phrases are the protocol's own (SKILL.md); do not paraphrase them.

use crate::Lang;

/// The automation's name, fixed by the protocol.
pub const CRON_JOB_NAME: &str = "skill-recommender-daily";

/// The automation prompt, fixed by the protocol (the full daily rules live in SKILL.md, not here).
pub const CRON_PROMPT: &str = "Load the skill-recommender skill and run the Daily 推荐流程 defined in SKILL.md. Use persistent state outside the skill install directory.";

/// The protocol's update question.
pub fn update_question(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => {
            "另外，Skill Recommender 有新版可用。要不要更新到最新版本？\n回复「更新」我就帮你处理，回复「暂不更新」这次先不管。"
        }
        Lang::En => {
            "Also, a new version of Skill Recommender is available. Update to the latest version?\nReply \"update\" and I'll take care of it, or \"not now\" to skip it this time."
        }
    }
}

/// The daily failure notice: sent once when daily is on but no search/browse capability is available.
pub fn failure_notice(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => {
            "每日推荐已开启，但当前运行环境没有可免审批使用的搜索或浏览能力，今天的推荐没能完成。\n建议：在当前 Agent 中开启原生 web_search 或 browser 工具（不需要额外申请 API key）；恢复后每日推荐会自动继续。\n如果不想再收到这条提醒，回复「不再提醒」即可。"
        }
        Lang::En => {
            "Daily recommendations are on, but this environment has no search or browse capability that runs without approval, so today's recommendation could not be made.\nTip: enable the agent's native web_search or browser tool (no API key needed); the daily recommendation resumes by itself once it is back.\nReply \"stop reminding me\" if you don't want this notice again."
        }
    }
}

pub fn cron_time_note(lang: Lang, zone: &str) -> String {
    match lang {
        Lang::Zh => format!(
            "cron 表达式按调度器所在环境的本地时区解释；用户时区为 {zone}。如果调度器使用其他时区（例如 UTC），请换算 push_time_local 后再创建。"
        ),
        Lang::En => format!(
            "The cron expression is read in the scheduler's local time zone; the user's zone is {zone}. If the scheduler runs in another zone (e.g. UTC), convert push_time_local before creating the automation."
        ),
    }
}

pub fn enable_next_step(lang: Lang) -> String {
    match lang {
        Lang::Zh => format!(
            "创建名为 {CRON_JOB_NAME} 的定时任务（使用 cron_schedule 和 cron_prompt）。创建成功后运行 `skill-recommender confirm-daily-enabled`；失败则运行 `skill-recommender fail-daily-schedule --reason schedule_create_failed` 并告诉用户。"
        ),
        Lang::En => format!(
            "Create an automation named {CRON_JOB_NAME} with cron_schedule and cron_prompt. When it was created, run `skill-recommender confirm-daily-enabled`; if it failed, run `skill-recommender fail-daily-schedule --reason schedule_create_failed` and tell the user."
        ),
    }
}

pub fn enabled_already(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "每日推荐已开启；如果定时任务丢失，可用下面的配置重新创建（无需再次确认）。",
        Lang::En => {
            "Daily recommendations are already on; if the automation was lost, re-create it with the schedule below (no new confirmation needed)."
        }
    }
}

/// A one-line description of a transition's outcome.
pub fn transition_message(lang: Lang, command: &str, changed: bool, status: &str) -> String {
    match (lang, changed) {
        (Lang::Zh, true) => format!("{command}: 状态已更新为 {status}"),
        (Lang::Zh, false) => format!("{command}: 状态保持 {status}，未做修改"),
        (Lang::En, true) => format!("{command}: status is now {status}"),
        (Lang::En, false) => format!("{command}: status stays {status}; nothing changed"),
    }
}

pub fn push_time_warning(lang: Lang, given: &str) -> String {
    match lang {
        Lang::Zh => format!("push_time_local {given:?} 不是 HH:MM 格式，已使用默认 10:00"),
        Lang::En => format!("push_time_local {given:?} is not HH:MM; using the default 10:00"),
    }
}

/// What a drop or block reason code means, for the line that counts it.
pub fn reason_gloss(lang: Lang, code: &str) -> &'static str {
    let zh = lang == Lang::Zh;
    match code {
        "daily_quota_exhausted" if zh => "今天已经推送过每日推荐",
        "daily_quota_exhausted" => "a daily recommendation was already pushed today",
        "invalid_candidate" if zh => "不是可用的候选对象",
        "invalid_candidate" => "not a usable candidate object",
        "duplicate" if zh => "与另一条目是同一个 skill",
        "duplicate" => "the same skill as another listing",
        "missing_required_fields" if zh => "缺少 skill_id、name、url 或 description",
        "missing_required_fields" => "missing skill_id, name, url or description",
        "invalid_url" if zh => "url 不是 http(s) 链接",
        "invalid_url" => "url is not an http(s) link",
        "already_installed" if zh => "已经安装",
        "already_installed" => "already installed",
        "recommended_recently" if zh => "30 天内推荐过或回应过",
        "recommended_recently" => "shown or answered in the last 30 days",
        "rejected_recently" if zh => "14 天内被拒绝过",
        "rejected_recently" => "rejected in the last 14 days",
        "blacklist_category" if zh => "属于从不推荐的类别",
        "blacklist_category" => "in a category that is never recommended",
        "description_too_short" if zh => "描述不足 20 个字符",
        "description_too_short" => "description under 20 characters",
        "stale_and_low_popularity" if zh => "超过 180 天没有更新，且几乎没人用",
        "stale_and_low_popularity" => "not updated for over 180 days and hardly used",
        "high_risk" if zh => "安全风险高，从不推荐",
        "high_risk" => "high security risk, never recommended",
        "medium_risk_in_daily" if zh => "中等风险，每日推荐不展示",
        "medium_risk_in_daily" => "medium risk, not shown in a daily recommendation",
        _ if zh => "其他原因",
        _ => "another reason",
    }
}

/// `recommend`'s message when nothing is left: one line per reason with its count (`by_reason`), or
/// that no candidate was given at all.
pub fn nothing_left(
    lang: Lang,
    input: usize,
    by_reason: &std::collections::BTreeMap<String, usize>,
) -> String {
    if input == 0 {
        return match lang {
            Lang::Zh => "没有收到任何候选：请把搜索到的 skill 作为候选传入。".to_owned(),
            Lang::En => {
                "No candidates were given: pass the skills your search found as candidates."
                    .to_owned()
            }
        };
    }
    let mut out = match lang {
        Lang::Zh => format!("没有可以推荐的候选：{input} 个候选全部被过滤或拦截。"),
        Lang::En => {
            format!("No candidate is left to recommend: all {input} were dropped or blocked.")
        }
    };
    for (code, n) in by_reason {
        out += &match lang {
            Lang::Zh => format!("\n- {code}：{n} 个（{}）", reason_gloss(lang, code)),
            Lang::En => format!("\n- {code}: {n} ({})", reason_gloss(lang, code)),
        };
    }
    out
}
