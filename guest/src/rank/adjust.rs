//! The two adjustments after the protocol's factors: `fit` (can this agent run it?) and `quality` (is
//! it a skill or a bare prompt?).
//!
//! The protocol's factors keep their weights (manual and daily tables, each summing to 100). An
//! adjustment is shown in the breakdown like a factor, with a weight, a value in [0, 1] and a detail,
//! but its points are `weight × (value − neutral)`: a candidate about which nothing is known gets the
//! neutral value and exactly the score it had without adjustments, so unknown is never a penalty and
//! the protocol's weights stay what SKILL.md documents.
//!
//! | adjustment | weight | value | neutral | points |
//! |---|---|---|---|---|
//! | `fit` | [`FIT_WEIGHT`] (12) | [`Fit::value`]: 1 − 0.5 per missing capability − 0.25 per missing command, 0 on another platform | 1 | −12 … 0 |
//! | `quality` | [`QUALITY_WEIGHT`] (16) | 1 strong, 0.5 basic, 0 prompt-only ([`crate::quality`]) | 0.5 (no content) | −8 … +8 |
//!
//! Why modifiers rather than a re-weighting: re-weighting would change every score and the protocol's
//! documented table for candidates that carry neither signal (most of them), and a factor that is 1
//! for "unknown" would still shift every score; centring on the neutral value leaves them untouched.

use serde_json::{Value, json};

use super::{Factor, FactorKey};
use crate::Lang;
use crate::fit::{Agent, FIT_WEIGHT, Fit};
use crate::model::Candidate;
use crate::quality::{Assessment, Level, QUALITY_NEUTRAL, QUALITY_WEIGHT};

/// What the adjustments know about one candidate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Assessed {
    pub fit: Fit,
    /// `None` without content (`raw_content`).
    pub quality: Option<Assessment>,
}

impl Assessed {
    pub fn of(c: &Candidate, agent: &Agent) -> Assessed {
        Assessed {
            fit: crate::fit::assess(c, agent),
            quality: crate::quality::assess_candidate(c),
        }
    }

    /// The compact quality a pick carries: `{level, score, summary}`, or null without content.
    pub fn quality_json(&self) -> Value {
        self.quality.as_ref().map_or(
            Value::Null,
            |q| json!({"level": q.level.as_str(), "score": q.score, "summary": q.summary()}),
        )
    }
}

/// Short names of the signals, for reasons.
fn label(id: &str, lang: Lang) -> &'static str {
    match (id, lang) {
        ("when_to_use", Lang::En) => "when to use it",
        ("when_to_use", Lang::Zh) => "使用时机",
        ("procedure", Lang::En) => "steps",
        ("procedure", Lang::Zh) => "操作步骤",
        ("pitfalls", Lang::En) => "pitfalls",
        ("pitfalls", Lang::Zh) => "注意事项",
        ("verification", Lang::En) => "a verification step",
        ("verification", Lang::Zh) => "验证步骤",
        ("references", Lang::En) => "reference files",
        ("references", Lang::Zh) => "参考资料",
        ("scripts", Lang::En) => "scripts",
        ("scripts", Lang::Zh) => "脚本",
        ("templates", Lang::En) => "templates",
        ("templates", Lang::Zh) => "模板",
        ("examples", Lang::En) => "examples",
        ("examples", Lang::Zh) => "示例",
        _ => "",
    }
}

fn listed(q: &Assessment, found: bool, lang: Lang) -> String {
    let items: Vec<&str> = q
        .signals
        .iter()
        .filter(|s| s.found == found)
        .map(|s| label(&s.id, lang))
        .filter(|l| !l.is_empty())
        .collect();
    match lang {
        Lang::Zh => items.join("、"),
        Lang::En => match items.as_slice() {
            [] => String::new(),
            [one] => (*one).to_owned(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
        },
    }
}

fn quality_detail(q: &Assessment, lang: Lang) -> String {
    match (q.level, lang) {
        (Level::Strong, Lang::En) => format!(
            "a complete skill, not just a prompt: {}",
            listed(q, true, lang)
        ),
        (Level::Strong, Lang::Zh) => format!("完整的技能，不只是提示词：{}", listed(q, true, lang)),
        (Level::Basic, Lang::En) => format!("a basic skill ({}/100)", q.score),
        (Level::Basic, Lang::Zh) => format!("基础技能（{}/100）", q.score),
        (Level::PromptOnly, Lang::En) => format!(
            "closer to a bare prompt than a skill: no {}",
            listed(q, false, lang).replacen(" and ", " or ", 1)
        ),
        (Level::PromptOnly, Lang::Zh) => {
            format!(
                "更像一段提示词而不是完整技能：缺少{}",
                listed(q, false, lang)
            )
        }
    }
}

/// The two adjustment factors of one candidate.
pub fn factors(a: &Assessed, lang: Lang) -> [Factor; 2] {
    let (quality, quality_detail) = match &a.quality {
        Some(q) => (q.level.value(), quality_detail(q, lang)),
        None => (QUALITY_NEUTRAL, String::new()),
    };
    [
        Factor {
            key: FactorKey::Fit,
            weight: FIT_WEIGHT,
            value: a.fit.value.clamp(0.0, 1.0),
            neutral: 1.0,
            detail: a.fit.detail(lang),
        },
        Factor {
            key: FactorKey::Quality,
            weight: QUALITY_WEIGHT,
            value: quality,
            neutral: QUALITY_NEUTRAL,
            detail: quality_detail,
        },
    ]
}

/// The adjustments' weights and neutral values, for the ranking's JSON (`adjustments`).
pub fn table() -> Value {
    json!({
        "fit": {"weight": FIT_WEIGHT, "neutral": 1.0},
        "quality": {"weight": QUALITY_WEIGHT, "neutral": QUALITY_NEUTRAL},
    })
}

#[cfg(test)]
mod tests;
