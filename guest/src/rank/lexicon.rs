//! The concept map (`guest/rules/lexicon.json`): concepts typed as objects, actions or topics, with
//! their English and Chinese terms; extra words for Chinese segmentation; stop words; the words that
//! start the side part of a two-part request; category families.
//!
//! Matching works on a *normalized* text in which every ASCII word is replaced by its Snowball stem
//! (so `merged`, `merging` and `merges` all meet the term `merge`) and each token stands between
//! spaces; clause punctuation becomes `|`, which no term contains, so no match crosses a clause. The
//! terms are normalized the same way when the lexicon is built. One leftmost-longest automaton pass
//! then finds the concepts and, inside Chinese runs, the dictionary words (forward maximum matching).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};
use serde::Deserialize;

/// What a concept stands for in a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// What the request is about: PDF, contract, video, spreadsheet …
    Object,
    /// What to do with it: merge, extract, review, translate …
    Action,
    /// A domain that is neither (legal, travel, health …): weighs less.
    Topic,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LexiconFile {
    #[serde(rename = "_description")]
    _description: Option<String>,
    concepts: BTreeMap<String, ConceptEntry>,
    #[serde(default)]
    words: Vec<String>,
    #[serde(default)]
    stop_words: Vec<String>,
    #[serde(default)]
    side_markers: Vec<String>,
    #[serde(default)]
    catch_all_markers: Vec<String>,
    #[serde(default)]
    direction_markers: Vec<String>,
    #[serde(default)]
    source_markers: Vec<String>,
    /// Separable words (离合词): `[head, tail, term]` ([`super::phrasing::separable`]).
    #[serde(default)]
    separable: Vec<[String; 3]>,
    /// What may stand between a separable word's parts (一下, 个, 好, 跟我).
    #[serde(default)]
    separable_infixes: Vec<String>,
    categories: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConceptEntry {
    kind: String,
    terms: Vec<String>,
    #[serde(default)]
    families: Vec<String>,
    /// Concepts this one is a kind of (an NDA is a contract): they meet at [`super::relevance`]'s
    /// related-concept credit.
    #[serde(default)]
    broader: Vec<String>,
    /// A generic object (file, page, text): it weighs less, and a request's object is the specific
    /// one when it names one. A generic action (make, ask) is a verb nearly every request has: a
    /// match on such actions alone is no evidence (`relevance::Match::single`).
    #[serde(default)]
    generic: bool,
    /// An action that is a means rather than the goal (download, send, import).
    #[serde(default)]
    minor: bool,
}

/// One concept.
#[derive(Debug, Clone)]
pub struct Concept {
    pub name: String,
    pub kind: Kind,
    pub families: Vec<String>,
    /// Indices of broader concepts.
    pub broader: Vec<usize>,
    /// A generic object (see the lexicon file).
    pub generic: bool,
    /// A minor action (see the lexicon file).
    pub minor: bool,
}

/// What a matched pattern means.
#[derive(Debug, Clone, Default)]
struct Pattern {
    concepts: Vec<usize>,
    /// A stop word (matched so that segmentation keeps it whole, then dropped).
    stop: bool,
    /// It marks the start of a request's side part.
    side: bool,
    /// A listing that says it does everything.
    catch_all: bool,
    /// It separates a conversion's source (before) from its target (after).
    direction: bool,
    /// It separates a conversion's target (before) from its source (after): "builds X from Y".
    source: bool,
}

/// The concept map, parsed once.
pub struct Lexicon {
    matcher: AhoCorasick,
    patterns: Vec<Pattern>,
    pub concepts: Vec<Concept>,
    /// Stems of ASCII stop words.
    stop_stems: BTreeSet<String>,
    /// Single ASCII words of concept terms (raw, lower case) → their stem: typo correction targets.
    pub(crate) vocabulary: Vec<(String, String)>,
    category_families: BTreeMap<String, BTreeSet<String>>,
    /// Separable words: (head, tail, the term they form).
    pub separable: Vec<(String, String, String)>,
    /// Infixes allowed between a separable word's parts.
    pub separable_infixes: Vec<String>,
}

static LEXICON_JSON: &str = include_str!("../../rules/lexicon.json");

/// The built-in lexicon.
pub fn lexicon() -> &'static Lexicon {
    static L: OnceLock<Lexicon> = OnceLock::new();
    L.get_or_init(|| Lexicon::parse(LEXICON_JSON).expect("the built-in lexicon is valid"))
}

/// The stem of a word, for the lexicon's terms and every analyzed text alike (`rank26`): the
/// Snowball stem, except that a word whose stem drops the suffix *-ant* (*important* → import,
/// *assistant* → assist, *relevant* → relev) is its own stem, without a plural *s*: it names a
/// quality or an agent, not the action of its stem (an important clause asks for no import, an
/// assistant for no assisting). Terms and texts are stemmed alike, so a term that holds such a
/// word (*super assistant*) still meets it.
pub(crate) fn word_stem(raw: &str) -> std::borrow::Cow<'_, str> {
    quality_stem(raw, stemmer().stem(raw))
}

/// [`word_stem`] given the Snowball stem of `raw`.
pub(crate) fn quality_stem<'a>(
    raw: &'a str,
    stem: std::borrow::Cow<'a, str>,
) -> std::borrow::Cow<'a, str> {
    let bare = raw.strip_suffix('s').unwrap_or(raw);
    if bare.len() > 5 && bare.ends_with("ant") && !stem.ends_with("ant") {
        return std::borrow::Cow::Borrowed(bare);
    }
    stem
}

pub(crate) fn stemmer() -> &'static rust_stemmers::Stemmer {
    static S: OnceLock<rust_stemmers::Stemmer> = OnceLock::new();
    S.get_or_init(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English))
}

/// Chinese characters (CJK ideographs: the unified block, its extensions and compatibility forms);
/// not kana or hangul, so a Japanese or Korean text with no kanji/hanja is not read as Chinese.
pub fn is_han(c: char) -> bool {
    matches!(c as u32,
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// CJK scripts written without spaces: Chinese characters ([`is_han`]), kana and hangul.
pub fn is_cjk(c: char) -> bool {
    is_han(c)
        || matches!(c as u32,
            0x3040..=0x30FF      // Hiragana, Katakana
            | 0xAC00..=0xD7AF) // Hangul syllables
}

/// Punctuation that ends a clause: a term never spans it, and an action binds to an object only
/// inside one clause. Brackets do not: "Translate documents (DOCX, PDF)" translates DOCX.
pub fn is_clause_break(c: char) -> bool {
    matches!(
        c,
        '.' | ','
            | ';'
            | ':'
            | '!'
            | '?'
            | '\n'
            | '|'
            | '。'
            | '，'
            | '；'
            | '：'
            | '！'
            | '？'
            | '、'
            | '…'
            | '•'
    )
}

/// A token of a normalized text, in the order of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    /// An ASCII (non-CJK) word as written (lower case).
    Word(&'a str),
    /// A run of CJK characters.
    Cjk(&'a str),
    /// A clause break; `true` when it also ends a sentence.
    Break(bool),
}

/// Split lower-cased text into words, CJK runs and clause breaks.
pub fn pieces(lower: &str, emit: impl FnMut(Piece<'_>)) {
    if crate::is_ascii(lower) {
        pieces_ascii(lower, emit)
    } else {
        pieces_chars(lower, emit)
    }
}

/// [`pieces`] of an ASCII text (most listings): byte by byte, with the same tests on bytes (no CJK
/// run; `char::is_whitespace` on an ASCII byte is `u8::is_ascii_whitespace` or the vertical tab).
fn pieces_ascii(lower: &str, mut emit: impl FnMut(Piece<'_>)) {
    let b = lower.as_bytes();
    let mut start = None::<usize>;
    for (i, &c) in b.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            if start.is_none() {
                start = Some(i);
            }
            continue;
        }
        if let Some(s) = start.take() {
            emit(Piece::Word(&lower[s..i]));
        }
        if matches!(c, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\n' | b'|') {
            let next = b.get(i + 1);
            if c != b'.' || next.is_none_or(|&n| n.is_ascii_whitespace() || n == 0x0b) {
                emit(Piece::Break(matches!(c, b'.' | b'!' | b'?' | b';' | b'\n')));
            }
        }
    }
    if let Some(s) = start {
        emit(Piece::Word(&lower[s..]));
    }
}

/// [`pieces`] of any text, character by character.
fn pieces_chars(lower: &str, mut emit: impl FnMut(Piece<'_>)) {
    let mut start = None::<usize>;
    let mut run_cjk = false;
    let flush = |from: usize, to: usize, cjk: bool, emit: &mut dyn FnMut(Piece<'_>)| {
        let run = &lower[from..to];
        emit(if cjk {
            Piece::Cjk(run)
        } else {
            Piece::Word(run)
        });
    };
    for (i, c) in lower.char_indices() {
        if c.is_alphanumeric() {
            let cjk = is_cjk(c);
            match start {
                Some(s) if cjk != run_cjk => {
                    flush(s, i, run_cjk, &mut emit);
                    start = Some(i);
                }
                Some(_) => {}
                None => start = Some(i),
            }
            run_cjk = cjk;
        } else {
            if let Some(s) = start.take() {
                flush(s, i, run_cjk, &mut emit);
            }
            // A full stop inside a number or a file name (`2.3`, `.xlsx`) is no clause break: the
            // tokens beside it are split anyway.
            if is_clause_break(c) {
                let next = lower[i + c.len_utf8()..].chars().next();
                if c != '.' || next.is_none_or(|n| n.is_whitespace()) {
                    let strong =
                        matches!(c, '.' | '!' | '?' | ';' | '\n' | '。' | '！' | '？' | '；');
                    emit(Piece::Break(strong));
                }
            }
        }
    }
    if let Some(s) = start {
        flush(s, lower.len(), run_cjk, &mut emit);
    }
}

/// Whether a normalized text is one of the lexicon's entries.
fn by_text_has(texts: &[String], norm: &str) -> bool {
    texts.iter().any(|t| t == norm)
}

/// Normalize a term the way texts are normalized, with `stem` for ASCII words; Chinese ends are left
/// open so that a Chinese term matches anywhere inside a run.
fn normalize_term(term: &str, stem: &dyn Fn(&str) -> String) -> String {
    let lower = crate::lowercase(term);
    let mut out = String::new();
    pieces(&lower, |p| match p {
        Piece::Word(w) => {
            out.push(' ');
            out.push_str(&stem(w));
            out.push(' ');
        }
        Piece::Cjk(r) => {
            out.push(' ');
            out.push_str(r);
            out.push(' ');
        }
        Piece::Break(_) => {}
    });
    let mut s = out.as_str();
    if s.chars().nth(1).is_some_and(is_cjk) {
        s = &s[1..];
    }
    if s.chars().rev().nth(1).is_some_and(is_cjk) {
        s = &s[..s.len() - 1];
    }
    s.to_owned()
}

/// One lexicon hit in a normalized text.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    pattern: usize,
}

impl Lexicon {
    /// The broadest kind of a concept among concepts of its own kind that are not generic: a CSV
    /// and an Excel workbook are both spreadsheets, an NDA is a contract, extracting is a kind of
    /// converting. A listing's breadth counts such kin once (`text::Doc::breadth`): a bank-statement
    /// parser that names PDF, Excel and CSV claims two kinds of file, not three jobs.
    pub fn kin_root(&self, concept: usize) -> usize {
        let mut c = concept;
        // The broader links form no cycle in a valid lexicon; the bound keeps a bad file harmless.
        for _ in 0..8 {
            let kind = self.concepts[c].kind;
            match self.concepts[c]
                .broader
                .iter()
                .copied()
                .find(|&b| self.concepts[b].kind == kind && !self.concepts[b].generic)
            {
                Some(b) => c = b,
                None => break,
            }
        }
        c
    }

    pub fn parse(json: &str) -> Result<Lexicon, String> {
        let file: LexiconFile = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let stem = |w: &str| word_stem(w).into_owned();
        let names: Vec<String> = file.concepts.keys().cloned().collect();
        let index_of = |n: &str| names.iter().position(|x| x == n);
        let mut by_text: BTreeMap<String, Pattern> = BTreeMap::new();
        let mut concepts = Vec::new();
        let mut vocabulary = BTreeMap::new();
        for (i, (name, entry)) in file.concepts.iter().enumerate() {
            let kind = match entry.kind.as_str() {
                "object" => Kind::Object,
                "action" => Kind::Action,
                "topic" => Kind::Topic,
                other => return Err(format!("concept {name:?}: unknown kind {other:?}")),
            };
            for fam in &entry.families {
                if !["work", "life", "fun", "practical"].contains(&fam.as_str()) {
                    return Err(format!("concept {name:?}: unknown family {fam:?}"));
                }
            }
            let broader = entry
                .broader
                .iter()
                .map(|b| {
                    index_of(b)
                        .ok_or_else(|| format!("concept {name:?}: unknown broader concept {b:?}"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if entry.terms.is_empty() {
                return Err(format!("concept {name:?} has no term"));
            }
            for t in &entry.terms {
                let norm = normalize_term(t, &stem);
                if norm.trim().is_empty() {
                    return Err(format!("concept {name:?} has an empty term {t:?}"));
                }
                let p = by_text.entry(norm).or_default();
                if !p.concepts.contains(&i) {
                    p.concepts.push(i);
                }
                let raw = crate::lowercase(t.trim());
                if raw.len() >= 4 && raw.bytes().all(|b| b.is_ascii_lowercase()) {
                    vocabulary.insert(raw.clone(), stem(&raw));
                }
            }
            concepts.push(Concept {
                name: name.clone(),
                kind,
                families: entry.families.clone(),
                broader,
                generic: entry.generic,
                minor: entry.minor,
            });
        }
        for w in &file.words {
            let norm = normalize_term(w, &stem);
            if norm.trim().is_empty() {
                return Err(format!("empty word {w:?}"));
            }
            by_text.entry(norm).or_default();
        }
        let mut stop_stems = BTreeSet::new();
        for w in &file.stop_words {
            let lower = crate::lowercase(w);
            if lower.chars().any(is_cjk) {
                by_text.entry(normalize_term(w, &stem)).or_default().stop = true;
            } else {
                stop_stems.insert(stem(&lower));
            }
        }
        for w in &file.side_markers {
            by_text.entry(normalize_term(w, &stem)).or_default().side = true;
        }
        for w in &file.catch_all_markers {
            by_text
                .entry(normalize_term(w, &stem))
                .or_default()
                .catch_all = true;
        }
        for w in &file.direction_markers {
            by_text
                .entry(normalize_term(w, &stem))
                .or_default()
                .direction = true;
        }
        for w in &file.source_markers {
            by_text.entry(normalize_term(w, &stem)).or_default().source = true;
        }
        // A Chinese word or marker that contains a concept term of two or more characters names
        // that concept too (合作协议 is a contract; 导出为 still exports), so that segmenting a run
        // by the longest word never hides a concept. A stop word does not: it is listed to say the
        // phrase carries no content (比较好 is 'rather good', not a comparison).
        let cjk_terms: Vec<(String, Vec<usize>)> = by_text
            .iter()
            .filter(|(t, p)| {
                !p.concepts.is_empty() && t.trim().chars().filter(|&c| is_cjk(c)).count() >= 2
            })
            .map(|(t, p)| (t.trim().to_owned(), p.concepts.clone()))
            .collect();
        for (text, p) in by_text.iter_mut() {
            if !p.concepts.is_empty() || p.stop || !text.chars().any(is_cjk) {
                continue;
            }
            for (term, concepts) in &cjk_terms {
                if text.contains(term.as_str()) {
                    for &c in concepts {
                        if !p.concepts.contains(&c) {
                            p.concepts.push(c);
                        }
                    }
                }
            }
        }
        let (texts, patterns): (Vec<String>, Vec<Pattern>) = by_text.into_iter().unzip();
        // A contiguous NFA, not a DFA: the DFA's table was 13.4 MB of every call's memory
        // (`the_term_matcher_stays_small`).
        let matcher = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
            .prefilter(false)
            .build(&texts)
            .map_err(|e| e.to_string())?;
        let mut category_families: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (family, cats) in file.categories {
            for c in cats {
                category_families
                    .entry(c.to_lowercase())
                    .or_default()
                    .insert(family.clone());
            }
        }
        for [head, tail, term] in &file.separable {
            if head.is_empty()
                || tail.is_empty()
                || !by_text_has(&texts, &normalize_term(term, &stem))
            {
                return Err(format!(
                    "separable word {head}…{tail}: {term:?} is no term of the lexicon"
                ));
            }
        }
        Ok(Lexicon {
            matcher,
            patterns,
            concepts,
            stop_stems,
            vocabulary: vocabulary.into_iter().collect(),
            category_families,
            separable: file
                .separable
                .into_iter()
                .map(|[h, t, term]| (h, t, term))
                .collect(),
            separable_infixes: file.separable_infixes,
        })
    }

    /// Every lexicon hit in a normalized text, leftmost-longest, not overlapping.
    pub fn hits<'a>(&'a self, normalized: &'a str) -> impl Iterator<Item = Hit> + 'a {
        self.matcher.find_iter(normalized).map(|m| Hit {
            start: m.start(),
            end: m.end(),
            pattern: m.pattern().as_usize(),
        })
    }

    /// The concepts a hit names (empty for a plain dictionary word).
    pub fn hit_concepts(&self, hit: &Hit) -> &[usize] {
        &self.patterns[hit.pattern].concepts
    }

    /// Whether a hit is a stop word.
    pub fn hit_is_stop(&self, hit: &Hit) -> bool {
        self.patterns[hit.pattern].stop
    }

    /// Whether a hit starts a side part.
    pub fn hit_is_side(&self, hit: &Hit) -> bool {
        self.patterns[hit.pattern].side
    }

    /// Whether a hit is a catch-all claim.
    pub fn hit_is_catch_all(&self, hit: &Hit) -> bool {
        self.patterns[hit.pattern].catch_all
    }

    /// Whether a hit separates a conversion's source from its target.
    pub fn hit_is_direction(&self, hit: &Hit) -> bool {
        self.patterns[hit.pattern].direction
    }

    /// Whether a hit is a source marker ("from": the target comes before it, the source after).
    pub fn hit_is_source(&self, hit: &Hit) -> bool {
        self.patterns[hit.pattern].source
    }

    /// Whether a stem is an ASCII stop word.
    pub fn is_stop_stem(&self, stem: &str) -> bool {
        self.stop_stems.contains(stem)
    }

    /// The index of a concept by name.
    pub fn concept(&self, name: &str) -> Option<usize> {
        self.concepts.iter().position(|c| c.name == name)
    }

    /// Concept indices named in a text (any script).
    pub fn concepts_in(&self, text: &str) -> BTreeSet<usize> {
        let norm = super::text::normalize_plain(text);
        self.hits(&norm)
            .flat_map(|h| self.hit_concepts(&h).to_vec())
            .collect()
    }

    /// Families a concept belongs to.
    pub fn families_of_concept(&self, concept: usize) -> &[String] {
        &self.concepts[concept].families
    }

    /// Families a category belongs to (by the `categories` table of the lexicon).
    pub fn families_of_category(&self, category: &str) -> Option<&BTreeSet<String>> {
        self.category_families.get(&category.trim().to_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of the two splitters.
    type Split = fn(&str, &mut dyn FnMut(Piece<'_>));

    fn split(f: Split, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        f(text, &mut |p| out.push(format!("{p:?}")));
        out
    }

    fn by_bytes(t: &str, emit: &mut dyn FnMut(Piece<'_>)) {
        pieces_ascii(t, emit)
    }

    fn by_chars(t: &str, emit: &mut dyn FnMut(Piece<'_>)) {
        pieces_chars(t, emit)
    }

    #[test]
    fn ascii_pieces_are_the_char_pieces() {
        for t in [
            "",
            "merge pdf files. then zip them",
            "v2.3 of report.xlsx: fast, small; done!",
            "ends with a stop.",
            "a.\tb.\x0bc.\x0cd.\re.\nf..g",
            "tables|csv? yes",
            "  --flag=1 (docx, pdf)\n\n",
        ] {
            assert_eq!(split(by_bytes, t), split(by_chars, t), "{t:?}");
        }
        // The split itself: a full stop inside a name is no break, before a blank it is a strong one.
        assert_eq!(
            split(by_bytes, "report.xlsx. ok, go"),
            [
                "Word(\"report\")",
                "Word(\"xlsx\")",
                "Break(true)",
                "Word(\"ok\")",
                "Break(false)",
                "Word(\"go\")"
            ]
        );
    }

    proptest::proptest! {
        #[test]
        fn ascii_pieces_match_on_any_ascii(t in "[ -~\t\n\x0b\x0c\r]{0,40}") {
            proptest::prop_assert_eq!(split(by_bytes, &t), split(by_chars, &t));
        }
    }

    #[test]
    fn every_term_finds_its_concept_on_its_own() {
        let lex = lexicon();
        let file: LexiconFile = serde_json::from_str(LEXICON_JSON).unwrap();
        for (name, entry) in &file.concepts {
            let c = lex.concept(name).unwrap();
            for t in &entry.terms {
                assert!(
                    lex.concepts_in(t).contains(&c),
                    "{t:?} does not find {name}"
                );
            }
        }
        assert!(lex.families_of_category("Cooking").unwrap().contains("fun"));
    }

    #[test]
    fn words_and_markers_never_hide_a_concept() {
        let lex = lexicon();
        // 合作协议 is a segmentation word; it still names the contract.
        let contract = lex.concept("contract").unwrap();
        assert!(lex.concepts_in("合作协议").contains(&contract));
        let convert = lex.concept("convert").unwrap();
        assert!(lex.concepts_in("导出为 Excel").contains(&convert));
        // A protection word shadows a one-character term inside it: 背景 is no studying (背).
        let learn = lex.concept("learn").unwrap();
        assert!(!lex.concepts_in("去掉背景").contains(&learn));
        // A stop word is no concept even when it contains a term: 比较好 is 'rather good'.
        let compare = lex.concept("compare").unwrap();
        assert!(!lex.concepts_in("用什么比较好").contains(&compare));
        assert!(lex.concepts_in("比较一下两个版本").contains(&compare));
    }

    /// The phrasing corpus (`guest/rules/lexicon-examples.json`): how people say things, each
    /// phrasing with the concepts it must find and those it must not.
    /// The term matcher is a contiguous NFA, not a DFA: with 4,500 terms (CJK among them, so many
    /// byte classes) a DFA's table took 13.4 MB, built at start-up into every call's memory (the
    /// snapshot's linear memory), for 0.8% less matching time; the NFA takes under 0.5 MB.
    #[test]
    fn the_term_matcher_stays_small() {
        let m = &lexicon().matcher;
        assert!(
            m.memory_usage() < 2 << 20,
            "{:?} term matcher takes {} bytes",
            m.kind(),
            m.memory_usage()
        );
    }

    #[test]
    fn the_phrasing_corpus_finds_its_concepts() {
        let lex = lexicon();
        // The everyday phrasings, and the goal phrasings (a goal in the user's own words).
        let files: [serde_json::Value; 2] = [
            serde_json::from_str(include_str!("../../rules/lexicon-examples.json")).unwrap(),
            serde_json::from_str(include_str!("../../rules/goal-phrasings.json")).unwrap(),
        ];
        let mut failures = Vec::new();
        for ex in files.iter().flat_map(|f| f["examples"].as_array().unwrap()) {
            let text = ex["text"].as_str().unwrap();
            let found = lex.concepts_in(text);
            let names = |key: &str| -> Vec<String> {
                ex[key]
                    .as_array()
                    .map(|a| a.iter().map(|v| v.as_str().unwrap().to_owned()).collect())
                    .unwrap_or_default()
            };
            for name in names("concepts") {
                let c = lex
                    .concept(&name)
                    .unwrap_or_else(|| panic!("unknown {name}"));
                if !found.contains(&c) {
                    failures.push(format!("{text:?} does not find {name}"));
                }
            }
            for name in names("not") {
                let c = lex
                    .concept(&name)
                    .unwrap_or_else(|| panic!("unknown {name}"));
                if found.contains(&c) {
                    failures.push(format!("{text:?} finds {name}"));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn bad_lexicons_are_refused_with_the_concept_named() {
        let bad = r#"{"concepts": {"x": {"kind": "thing", "terms": ["a"]}}, "categories": {}}"#;
        assert!(Lexicon::parse(bad).err().unwrap().contains("\"x\""));
        let bad = r#"{"concepts": {"x": {"kind": "object", "terms": ["a"], "broader": ["y"]}}, "categories": {}}"#;
        assert!(
            Lexicon::parse(bad)
                .err()
                .unwrap()
                .contains("unknown broader")
        );
        let bad = r#"{"concepts": {"x": {"kind": "object", "terms": ["!!"]}}, "categories": {}}"#;
        assert!(Lexicon::parse(bad).err().unwrap().contains("empty term"));
    }

    #[test]
    fn clause_and_sentence_breaks() {
        let mut seen = Vec::new();
        pieces("merge pdfs, then 2.3 (docx). 合并。", |p| {
            seen.push(match p {
                Piece::Word(w) | Piece::Cjk(w) => w.to_owned(),
                Piece::Break(true) => "|.".into(),
                Piece::Break(false) => "|".into(),
            })
        });
        assert_eq!(
            seen,
            [
                "merge", "pdfs", "|", "then", "2", "3", "docx", "|.", "合并", "|."
            ]
        );
    }
}
