//! How people phrase a request, beyond the lexicon's contiguous terms (issue 20, `rank17`).
//!
//! The lexicon finds a term only where its characters or words stand together. Requests often
//! say the same thing in forms a term list cannot hold:
//!
//! - **separable words** (离合词): a verb–object compound split by an infix (备一下课, 备个课,
//!   不跟我续签) or fronted by 把 (把这节课备好). [`separable`] reads them as the joined term;
//! - **routes**: two places joined by a route marker (从深圳去西安, 合肥→武汉, 成都-重庆,
//!   广州 to 厦门, "from Boston to Montreal") are a journey, with no travel word. [`routes`]
//!   reads them as the `travel` topic;
//! - **implied conversions**: two file formats, one of them marked as what the user wants
//!   (对方要 pdf 版本, "needs to be a pdf", "an epub version of this pdf"), ask for a conversion
//!   with no conversion verb and no direction word. [`implied_conversion`] reads the direction
//!   and the `convert` action.
//!
//! These rules run on the request only (listings are written in the contiguous forms), after the
//! lexicon's pass, and each adds what it read to [`Analysis::readings`], which the `task` factor's
//! detail shows ("read 备…课 as 备课").

use super::lexicon::{Kind, is_cjk, is_clause_break, lexicon};
use super::text::{Analysis, ConceptHit, Reading, TokKind, normalize_plain};

/// Longest infix, in characters, between the two parts of a separable word.
pub const MAX_INFIX: usize = 4;

/// Longest place name, in CJK characters, on either side of a route marker.
const MAX_PLACE: usize = 3;

/// File-format words: the ways people name a file by its format. A request naming two of them
/// (of different kinds), one marked as wanted, asks for a conversion.
pub const FORMAT_WORDS: [&str; 30] = [
    "pdf", "doc", "docx", "word", "xls", "xlsx", "excel", "csv", "ppt", "pptx", "keynote", "md",
    "markdown", "html", "txt", "epub", "mobi", "azw3", "jpg", "jpeg", "png", "heic", "webp", "mp3",
    "wav", "flac", "m4a", "ogg", "mp4", "mov",
];

/// What marks a format as the wanted one when it comes right after it (pdf 版本, "epub version").
const TARGET_AFTER: [&str; 7] = ["版本", "版", "格式", "的版本", "version", "format", "copy"];

/// What marks a format as the wanted one when it comes right before it (要 pdf, "to be a pdf",
/// "as a pdf", 换成 pdf).
const TARGET_BEFORE: [&str; 9] = [
    "要", "成", "为", "to be a", "to be an", "be a", "as a", "as an", "into",
];

/// Apply every phrasing rule to a request's analysis.
pub fn apply(a: &mut Analysis) {
    super::senses::apply(a);
    separable(a);
    routes(a);
    implied_conversion(a);
}

/// The clause and sentence of a byte position of the lower-cased text, counted as the analyzer
/// counts them.
fn clause_at(lower: &str, pos: usize) -> (u16, u16) {
    let base = lower.as_ptr() as usize;
    let (mut clause, mut sentence) = (0u16, 0u16);
    let mut found = None;
    super::lexicon::pieces(lower, |p| {
        if found.is_some() {
            return;
        }
        match p {
            super::lexicon::Piece::Word(w) | super::lexicon::Piece::Cjk(w) => {
                let s = w.as_ptr() as usize - base;
                if pos < s + w.len() {
                    found = Some((clause, sentence));
                }
            }
            super::lexicon::Piece::Break(strong) => {
                clause = clause.saturating_add(1);
                if strong {
                    sentence = sentence.saturating_add(1);
                }
            }
        }
    });
    found.unwrap_or((clause, sentence))
}

/// Whether the byte position lies in the request's side part (after a side marker).
fn side_at(a: &Analysis, pos: usize) -> bool {
    a.tokens
        .iter()
        .find(|t| t.at.1 as usize > pos)
        .or(a.tokens.last())
        .is_some_and(|t| t.side)
}

/// The concepts a lexicon term names (its contiguous reading).
fn term_concepts(term: &str) -> Vec<usize> {
    let lex = lexicon();
    let norm = normalize_plain(term);
    lex.hits(&norm)
        .flat_map(|h| lex.hit_concepts(&h).to_vec())
        .collect()
}

fn push_hit(a: &mut Analysis, concept: usize, at: (usize, usize)) {
    if a.concepts
        .iter()
        .any(|c| c.concept == concept && c.at.0 as usize <= at.0 && at.1 <= c.at.1 as usize)
    {
        return;
    }
    let (clause, sentence) = clause_at(&a.lower, at.0);
    let side = side_at(a, at.0);
    a.concepts.push(ConceptHit {
        concept,
        clause,
        sentence,
        side,
        at: (at.0 as u32, at.1 as u32),
    });
}

/// Whether `gap` is made of infixes only (greedy, longest first).
fn is_infix(gap: &str, infixes: &[String]) -> bool {
    let mut rest = gap;
    while !rest.is_empty() {
        let Some(i) = infixes
            .iter()
            .filter(|i| rest.starts_with(i.as_str()))
            .max_by_key(|i| i.len())
        else {
            return false;
        };
        rest = &rest[i.len()..];
    }
    true
}

/// Whether a lexicon entry that starts at byte `at` of `text` runs past `at + len`.
fn longer_hit(text: &str, at: usize, len: usize) -> bool {
    let lex = lexicon();
    let norm = normalize_plain(text);
    // `normalize_plain` puts a space before a CJK run.
    let off = norm.find(|c: char| !c.is_whitespace()).unwrap_or(0);
    lex.hits(&norm)
        .any(|h| h.start == off + at && h.end > off + at + len)
}

/// Whether a lexicon entry that ends at the end of `text` starts before its last `len` bytes.
fn longer_hit_ending(text: &str, len: usize) -> bool {
    let lex = lexicon();
    let norm = normalize_plain(text);
    let off = norm.find(|c: char| !c.is_whitespace()).unwrap_or(0);
    let end = off + text.len();
    lex.hits(&norm).any(|h| h.end == end && h.start < end - len)
}

/// A separable word found: (the term, its byte range, its concepts, the parts as written).
type Found = (String, (usize, usize), Vec<usize>, String);

/// Separable words: the lexicon's `separable` entries `[head, tail, term]` read as `term` when the
/// request writes `head` + infix + `tail` (备一下课, 不跟我续签) or 把 … `tail` + infix + `head`
/// (把这节课备好), the infix being at most [`MAX_INFIX`] characters of the lexicon's
/// `separable_infixes` (aspect markers, complements, measure words, a co-verb and its pronoun:
/// 一下, 个, 好, 跟我), in one clause. A contiguous `head` + `tail` is the lexicon's own term.
/// "备用的课件" is no lesson (用 is no infix); "课备好了吗" without 把 is not read.
pub fn separable(a: &mut Analysis) {
    let lex = lexicon();
    if lex.separable.is_empty() || !a.lower.chars().any(is_cjk) {
        return;
    }
    let lower = a.lower.clone();
    let mut found: Vec<Found> = Vec::new();
    // A part that is the end or the start of a longer lexicon word is that word (准备课件: 准备 and
    // 课件; 开个会员: 会员).
    let starts_word = |at: usize, part: &str| {
        let ext: String = lower[at..].chars().take(part.chars().count() + 3).collect();
        longer_hit(&ext, 0, part.len())
    };
    let ends_word = |end: usize, part: &str| {
        let ext: String = lower[..end]
            .chars()
            .rev()
            .take(part.chars().count() + 3)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        longer_hit_ending(&ext, part.len())
    };
    for (head, tail, term) in &lex.separable {
        for (h, _) in lower.match_indices(head.as_str()) {
            let from = h + head.len();
            // head … tail
            let window: String = lower[from..]
                .chars()
                .take(MAX_INFIX + tail.chars().count())
                .collect();
            if let Some(t) = window.find(tail.as_str()) {
                let gap = &window[..t];
                if !gap.is_empty()
                    && !ends_word(from, head)
                    && !starts_word(from + t, tail)
                    && !gap.chars().any(is_clause_break)
                    && gap.chars().count() <= MAX_INFIX
                    && is_infix(gap, &lex.separable_infixes)
                {
                    let end = from + t + tail.len();
                    found.push((
                        term.clone(),
                        (h, end),
                        term_concepts(term),
                        format!("{head}…{tail}"),
                    ));
                    continue;
                }
            }
            // 把 … tail + infix + head
            let before: Vec<(usize, char)> = lower[..h]
                .char_indices()
                .rev()
                .take(MAX_INFIX + 4)
                .collect();
            let Some(&(t_at, _)) = before
                .iter()
                .take(MAX_INFIX + 1)
                .find(|&&(i, _)| lower[i..h].starts_with(tail.as_str()))
            else {
                continue;
            };
            let gap = &lower[t_at + tail.len()..h];
            if gap.chars().count() > MAX_INFIX
                || ends_word(h + head.len(), head)
                || starts_word(t_at, tail)
                || gap.chars().any(is_clause_break)
                || !(gap.is_empty() || is_infix(gap, &lex.separable_infixes))
            {
                continue;
            }
            let lead: String = lower[..t_at].chars().rev().take(MAX_INFIX + 1).collect();
            let ba = lead
                .chars()
                .take_while(|&c| !is_clause_break(c))
                .any(|c| c == '把');
            if ba {
                found.push((
                    term.clone(),
                    (t_at, h + head.len()),
                    term_concepts(term),
                    format!("{tail}…{head}"),
                ));
            }
        }
    }
    for (term, at, concepts, surface) in found {
        if concepts.is_empty() {
            continue;
        }
        for c in &concepts {
            push_hit(a, *c, at);
        }
        // The parts are the term now, not free bigrams.
        for t in a.tokens.iter_mut() {
            if t.kind == TokKind::CjkGram && (t.at.0 as usize) < at.1 && (t.at.1 as usize) > at.0 {
                let s = &lower[t.at.0 as usize..t.at.1 as usize];
                if s.chars().all(|c| term.contains(c)) {
                    t.free = false;
                }
            }
        }
        a.readings.push(Reading {
            surface,
            read_as: term,
            concepts,
        });
    }
}

/// Route markers between two places: an arrow or dash, 到, 去, 至, "to".
const ROUTE_MARKERS: [&str; 9] = ["→", "->", "—", "-", "到", "去", "至", "飞", " to "];

/// Characters that make a run a time, a pronoun or a question, not a place (从周一到周五, 我想去看看).
const NOT_IN_PLACE: &str = "周月号点年天早晚时分秒第我你他她它们咱这那哪谁啥么怎头尾";

/// Whether a run of CJK characters could be a place name: 2–[`MAX_PLACE`] characters naming no
/// concept and no word of the lexicon.
fn place_like(s: &str) -> bool {
    let n = s.chars().count();
    (2..=MAX_PLACE).contains(&n) && s.chars().all(|c| is_cjk(c) && !NOT_IN_PLACE.contains(c)) && {
        // A one-character marker or word inside a name (成 of 成都) does not make it a word.
        let lex = lexicon();
        let norm = normalize_plain(s);
        !lex.hits(&norm)
            .any(|h| norm[h.start..h.end].chars().count() >= 2)
    }
}

/// Whether an English word as written could be a place name: capitalized, not a stop word.
fn place_like_en(w: &str) -> bool {
    w.len() >= 3
        && w.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && w.chars().all(|c| c.is_ascii_alphabetic())
        && !lexicon().is_stop_stem(&crate::lowercase(w))
        && lexicon().hits(&normalize_plain(w)).next().is_none()
}

/// Routes: two places joined by a route marker are a journey. Chinese: 从 X 到/去 Y, or X→Y, X-Y,
/// X 到 Y, X to Y with place-like X and Y (two or three characters naming no lexicon entry). English:
/// "from X to Y" with capitalized X and Y, or X → Y. Read as the `travel` topic ("从早到晚", "从头到尾"
/// name a lexicon word or a single character and are not read; "from PDF to Word" names concepts).
pub fn routes(a: &mut Analysis) {
    let lex = lexicon();
    let Some(travel) = lex.concepts.iter().position(|c| c.name == "travel") else {
        return;
    };
    let lower = a.lower.clone();
    // The original capitalization is lost in `lower`; English routes are read from the raw text.
    let raw = a.raw.clone();
    let mut found: Vec<(usize, usize, String)> = Vec::new();
    for marker in ROUTE_MARKERS {
        for (m, _) in lower.match_indices(marker) {
            let left = lower[..m].trim_end();
            let right = lower[m + marker.len()..].trim_start();
            let r_off = lower.len() - right.len();
            // The place before: the CJK characters right before the marker, after 从 if any.
            let run_left: String = left
                .chars()
                .rev()
                .take_while(|&c| is_cjk(c))
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let run_right: String = right.chars().take_while(|&c| is_cjk(c)).collect();
            let has_from = run_left.contains('从');
            let x: String = match run_left.rfind('从') {
                Some(i) => run_left[i + '从'.len_utf8()..].to_owned(),
                None => run_left
                    .chars()
                    .rev()
                    .take(MAX_PLACE)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect(),
            };
            // The place after: its first 2–3 characters that name no lexicon entry.
            let y: Option<String> = (2..=MAX_PLACE)
                .map(|n| run_right.chars().take(n).collect::<String>())
                .find(|y| place_like(y));
            let Some(y) = y else { continue };
            let strong = matches!(marker, "→" | "->" | "—" | " to ");
            let dash = marker == "-";
            // 到/去/至/飞 need 从 (从深圳去西安) unless the left place is the whole run (杭州到上海);
            // a dash or an arrow joins two names directly.
            let x_ok = if has_from || strong || dash {
                place_like(&x)
            } else {
                run_left.chars().count() <= MAX_PLACE && place_like(&run_left)
            };
            if !x_ok || x == y {
                continue;
            }
            let start = m - run_left.len() + (run_left.len() - x.len());
            let start = start.min(m);
            found.push((start, r_off + y.len(), format!("{x}→{y}")));
        }
    }
    // English: "from X to Y" (capitalized) or X → Y.
    let words: Vec<(usize, &str)> = raw
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '→')
        .scan(0usize, |pos, w| {
            let at = raw[*pos..].find(w).map_or(*pos, |i| *pos + i);
            *pos = at + w.len();
            Some((at, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    for i in 0..words.len().saturating_sub(3) {
        let (at, w) = words[i];
        if crate::lowercase(w) == "from"
            && place_like_en(words[i + 1].1)
            && crate::lowercase(words[i + 2].1) == "to"
            && place_like_en(words[i + 3].1)
        {
            let end = words[i + 3].0 + words[i + 3].1.len();
            if raw.len() == lower.len() {
                found.push((at, end, format!("{}→{}", words[i + 1].1, words[i + 3].1)));
            }
        }
    }
    for (s, e, surface) in found {
        push_hit(a, travel, (s, e));
        if !a.readings.iter().any(|r| r.surface == surface) {
            a.readings.push(Reading {
                surface,
                read_as: "travel".to_owned(),
                concepts: vec![travel],
            });
        }
    }
}

/// Implied conversions: a request that names two file formats of different kinds and marks one as
/// wanted ([`TARGET_AFTER`], [`TARGET_BEFORE`]: 对方要 pdf 版本, "this .docx needs to be a pdf",
/// "an epub version of this pdf") asks to convert the other one into it, though it has no
/// conversion verb and no direction word. Read only when the lexicon read no direction and the
/// request asks no other main action than a making one (搞个 pdf 版本 makes a version; "merge the
/// pdf and the docx" is a merge). Adds the direction
/// and the `convert` action.
pub fn implied_conversion(a: &mut Analysis) {
    let lex = lexicon();
    if !a.directions.is_empty() {
        return;
    }
    let Some(convert) = lex.concepts.iter().position(|c| c.name == "convert") else {
        return;
    };
    let other_action = a.concepts.iter().any(|c| {
        let k = &lex.concepts[c.concept];
        k.kind == Kind::Action
            && !k.minor
            && c.concept != convert
            && k.name != super::relevance::GENERIC_MAKING
            && !c.side
    });
    if other_action {
        return;
    }
    let lower = a.lower.clone();
    // The request's format objects in order: (start, end, concept).
    let mut formats: Vec<(usize, usize, usize)> = Vec::new();
    for c in &a.concepts {
        let (s, e) = (c.at.0 as usize, c.at.1 as usize);
        let surface = lower[s..e].trim_start_matches('.');
        if lex.concepts[c.concept].kind == Kind::Object
            && FORMAT_WORDS.contains(&surface)
            && !formats
                .iter()
                .any(|f| lower[f.0..f.1].trim_start_matches('.') == surface)
        {
            formats.push((s, e, c.concept));
        }
    }
    if formats.len() < 2 {
        return;
    }
    let wanted = |&(s, e, _): &(usize, usize, usize)| {
        let after = lower[e..].trim_start();
        let before = lower[..s].trim_end();
        TARGET_AFTER.iter().any(|m| {
            after.starts_with(m)
                && !after[m.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
        }) || TARGET_BEFORE.iter().any(|m| {
            before.ends_with(m)
                && !before[..before.len() - m.len()]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_ascii_alphabetic())
        })
    };
    let targets: Vec<&(usize, usize, usize)> = formats.iter().filter(|f| wanted(f)).collect();
    let [target] = targets.as_slice() else {
        return;
    };
    let target = **target;
    for src in formats
        .iter()
        .filter(|f| (f.0, f.1) != (target.0, target.1))
    {
        // wav → mp3 are both audio: a conversion, with no direction between concepts.
        if src.2 != target.2 {
            a.directions.push((src.2, target.2));
        }
        a.readings.push(Reading {
            surface: format!("{} → {}", &lower[src.0..src.1], &lower[target.0..target.1]),
            read_as: "convert".to_owned(),
            concepts: vec![convert],
        });
    }
    if !a.concepts.iter().any(|c| c.concept == convert) {
        push_hit(a, convert, (target.0, target.1));
    }
}

#[cfg(test)]
mod tests;
