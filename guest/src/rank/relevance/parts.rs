//! The parts of a request that are not the job: detail after a colon and constraints after a
//! negation ([`super::Query::new`]).

use super::{SIDE_WEIGHT, Unit, UnitKind};
use crate::rank::lexicon::{Kind, lexicon};

/// "Write my weekly report: reviewed the spec, fixed three bugs, shipped payments": when the part
/// before the first colon names both what to do and what to do it with (a specific object and a
/// main action), what follows the colon is detail (the report's content, the steps of a clean-up),
/// not the request's subject. Its units weigh as a side part, so its objects do not become the
/// request's objects. A colon between digits (`10:30`) is no such break.
pub(super) fn detail_after_colon(units: &mut [Unit], lower: &str) {
    let lex = lexicon();
    let Some(colon) = lower.char_indices().find_map(|(i, c)| {
        let next = lower[i + c.len_utf8()..].chars().next();
        (matches!(c, ':' | '：') && !next.is_some_and(|n| n.is_ascii_digit())).then_some(i as u32)
    }) else {
        return;
    };
    let head = |pred: &dyn Fn(&crate::rank::lexicon::Concept) -> bool| {
        units.iter().any(|u| {
            u.at < colon
                && !u.side
                && matches!(u.kind, UnitKind::Concept { concept, .. } if pred(&lex.concepts[concept]))
        })
    };
    let has_object = head(&|c| c.kind == Kind::Object && !c.generic);
    let has_action = head(&|c| c.kind == Kind::Action && !c.minor);
    if !(has_object && has_action) {
        return;
    }
    for u in units.iter_mut().filter(|u| u.at > colon && !u.side) {
        u.side = true;
        u.weight *= SIDE_WEIGHT;
    }
}

/// Negation markers: what follows one in its clause is a constraint on the job, not the job
/// ("undo it without losing my changes", "fix the layout, don't touch the text", 内容别动).
pub const NEGATIONS: [&str; 17] = [
    "without",
    "don't",
    "dont",
    "do not",
    "never",
    "别",
    "不要",
    "不用",
    "无需",
    "不能",
    "不想",
    "不是要",
    "不是让",
    "no need to",
    "not looking to",
    "instead of",
    "rather than",
];

/// A yes-no question of the form A-不-A (要不要, 是不是要, 能不能, 用不用) asks, it does not negate:
/// the character before 不 is the one after it.
pub fn a_not_a(lower: &str, at: usize, marker: &str) -> bool {
    let Some(rest) = marker.strip_prefix('不') else {
        return false;
    };
    let before = lower[..at].chars().next_back();
    before.is_some() && before == rest.chars().next()
}

/// Units after a negation marker in the same clause weigh as a side part: the request does not ask
/// for them (losing changes, changing the text); they must not decide which skill matches.
pub(super) fn constraints_after_negation(units: &mut [Unit], lower: &str) {
    let is_break = |c: char| ",;:.!?，；：。！？、\n".contains(c);
    let ascii_word = |at: usize, len: usize| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + len..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    };
    for marker in NEGATIONS {
        for (at, _) in lower.match_indices(marker) {
            if marker.is_ascii() && !ascii_word(at, marker.len()) {
                continue;
            }
            if a_not_a(lower, at, marker) {
                continue;
            }
            let from = at + marker.len();
            let to = lower[from..]
                .char_indices()
                .find(|&(_, c)| is_break(c))
                .map_or(lower.len(), |(i, _)| from + i);
            for u in units
                .iter_mut()
                .filter(|u| (from..to).contains(&(u.at as usize)) && !u.side)
            {
                u.side = true;
                u.weight *= SIDE_WEIGHT;
            }
        }
    }
}

/// Aspect markers of a finished action right after a Chinese verb: 写了篇, 做完了, 写好了, 剪好的.
pub const COMPLETED: [&str; 5] = ["完了", "好了", "完的", "好的", "了"];

/// Numerals and measure words: 了 before one of them is the verbal 了 of a finished action with
/// its object (写了*篇*作文, 拍了*几*张).
const QUANTITY: &str = "一二两三四五六七八九十几半个篇张份段首套页封条本件次遍";

/// A Chinese action verb followed by a completion marker tells what was already done to the
/// object, not what the user asks now: 闺女写了篇作文 (someone wrote it; the ask is to grade it),
/// 页面都做完了 (the slides exist; the ask is to restyle them), 录好的音 (a recording to work on).
/// Such an action weighs as a side part, so it is not one of the request's goal actions while
/// another action is asked. Not read: a sentence-final 了 (照片发黄了: a state, and 发黄 names the
/// restoring it needs), a question (写完了吗), an English verb (a past tense is no marker of this kind).
/// Returns each such action with its words (the verb and the marker: 写了, 剪好了).
pub(super) fn completed_actions(units: &mut [Unit], lower: &str) -> Vec<(usize, String)> {
    let lex = lexicon();
    let mut done = Vec::new();
    for u in units.iter_mut().filter(|u| !u.side) {
        let UnitKind::Concept {
            concept,
            kind: Kind::Action,
        } = u.kind
        else {
            continue;
        };
        if lex.concepts[concept].minor {
            continue;
        }
        let end = u.at as usize + u.surface.len();
        if !u.surface.chars().next_back().is_some_and(is_cjk) || end > lower.len() {
            continue;
        }
        let rest = &lower[end..];
        let Some(marker) = COMPLETED.iter().find(|m| rest.starts_with(**m)) else {
            continue;
        };
        let after = rest[marker.len()..].chars().next();
        if after == Some('吗') {
            continue;
        }
        // A bare 了 marks a finished action only before what it made (写了篇, 拍了几张, 录了一段):
        // at the end of a clause it says a state has come about (照片发黄了, 网站挂了).
        if *marker == "了" && !after.is_some_and(|c| QUANTITY.contains(c)) {
            continue;
        }
        u.side = true;
        u.weight *= SIDE_WEIGHT;
        done.push((concept, format!("{}{marker}", u.surface)));
    }
    done
}

/// Words right before a verb that make a relative clause ask for the job (要翻译的文件: a file to
/// translate; 能合并的工具: a tool that can merge; 帮我写的: what I ask to be written).
const ASKING_BEFORE: [&str; 14] = [
    "要", "需要", "待", "想", "能", "可以", "会", "该", "得", "需", "帮我", "给我", "请", "用来",
];

/// Nouns after 的 that make no relative clause: 翻译的时候 ("when translating"), 合并的话 ("if
/// merged").
const NOT_A_NOUN: [&str; 4] = ["时候", "话", "时", "方法"];

/// A Chinese action verb right before 的 and a noun describes the noun, it does not ask for the job:
/// 房东写的那些规定 (the rules the landlord wrote: the ask is to check them), 老板发的那份规定 (the
/// rules the boss sent), 刚剪的视频 (a video already cut), 拍的照片 (photos taken). Such an action
/// weighs as a side part, like a finished one. Not read: a verb after a modal or a request word
/// (要翻译的文件, 能合并的工具, 帮我写的), 的时候 / 的话 (when, if), an action the request also names
/// elsewhere, a minor action, a clause after 一 and a measure word (一封带自己名字的信: the letter
/// to write). Returns each such action with its words (the verb and 的).
pub(super) fn relative_clause_actions(units: &mut [Unit], lower: &str) -> Vec<(usize, String)> {
    let lex = lexicon();
    let mut done = Vec::new();
    for u in units.iter_mut().filter(|u| !u.side && u.also_at.is_empty()) {
        let UnitKind::Concept {
            concept,
            kind: Kind::Action,
        } = u.kind
        else {
            continue;
        };
        if lex.concepts[concept].minor {
            continue;
        }
        let (at, end) = (u.at as usize, u.at as usize + u.surface.len());
        if !u.surface.chars().next_back().is_some_and(is_cjk) || end > lower.len() {
            continue;
        }
        let Some(rest) = lower[end..].strip_prefix('的') else {
            continue;
        };
        if !rest.chars().next().is_some_and(is_cjk)
            || NOT_A_NOUN.iter().any(|n| rest.starts_with(n))
        {
            continue;
        }
        if ASKING_BEFORE.iter().any(|w| lower[..at].ends_with(w)) {
            continue;
        }
        // 一封带自己名字的信, 一份按部门分好的表: after "one" and a measure word the clause
        // describes the thing to make, not one already made.
        let mut before = lower[..at].chars().rev();
        if before.next().is_some_and(|m| QUANTITY.contains(m)) && before.next() == Some('一') {
            continue;
        }
        u.side = true;
        u.weight *= SIDE_WEIGHT;
        done.push((concept, format!("{}的", u.surface)));
    }
    done
}

fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// Whether a unit is a concept of this kind.
fn is_kind(u: &Unit, want: Kind) -> bool {
    matches!(u.kind, UnitKind::Concept { kind, .. } if kind == want)
}

/// A word that names a thing and a job at once (*recordings*: audio and recording; 录屏: a screen
/// and recording; 会议纪要: minutes and summarizing) names the thing when the request asks another
/// job in its main part: "turn the recording into notes" asks for no recording, 会议纪要做成脑图 for
/// no minutes, 录屏的视频…剪掉 for no screen recording. Its action reading is dropped then, and the
/// object reading stays. A word read only as an action (*translation*, *summary*) is not such a
/// word, nor one the request also names elsewhere ("record the call … the recording"), and the other
/// job must be a main, specific action of its own words (not a means such as *send*, not a generic
/// one such as *make*, not a lone Chinese character). Returns the dropped readings' surfaces.
pub(super) fn dual_readings(units: &mut Vec<Unit>) -> Vec<String> {
    let lex = lexicon();
    let dual = |u: &Unit, units: &[Unit]| {
        is_kind(u, Kind::Action)
            && u.also_at.is_empty()
            && units
                .iter()
                .any(|o| is_kind(o, Kind::Object) && o.at == u.at && o.surface == u.surface)
    };
    let other_job = units.iter().any(|u| {
        let UnitKind::Concept { concept, kind } = u.kind else {
            return false;
        };
        let c = &lex.concepts[concept];
        kind == Kind::Action && !u.side && !u.lone && !c.minor && !c.generic && !dual(u, units)
    });
    if !other_job {
        return Vec::new();
    }
    let drop: Vec<bool> = units.iter().map(|u| dual(u, units)).collect();
    let mut dropped = Vec::new();
    let mut i = 0;
    units.retain(|u| {
        let d = drop[i];
        i += 1;
        if d {
            dropped.push(u.surface.clone());
        }
        !d
    });
    dropped
}

#[cfg(test)]
mod tests;
