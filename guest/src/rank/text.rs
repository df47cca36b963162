//! Text retrieval for task matching: an analyzer that works for English and Chinese, a concept map
//! (`guest/rules/lexicon.json`) and BM25F over a candidate's fields.
//!
//! Analyzer: the text is lower-cased and split into runs of letters/digits. An ASCII run is one word,
//! Snowball-stemmed (`tables` → `tabl`, `extracts` → `extract`). A Han/Kana/Hangul run has no spaces, so
//! it becomes overlapping character bigrams (`表格转成` → `表格 格转 转成`), the standard CJK indexing
//! of search engines (a lone character stays a unigram). Every lexicon term found in the text adds its
//! concept token (`@spreadsheet`), which is what lets `把 PDF 表格转成 Excel` meet a skill whose
//! categories say `table-extraction, spreadsheet`.
//!
//! BM25 is written out here rather than taken from a crate: the crates available key their term maps by
//! std's randomly seeded `HashMap`, which would add a `wasi:random` import to the component.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, MatchKind};

use crate::strmap::StrMap;
use serde::Deserialize;

/// BM25 parameters (the usual defaults).
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Field weights for BM25F: a term in the name counts three times one in the description.
pub const FIELD_WEIGHTS: [(Field, f64); 4] = [
    (Field::Name, 3.0),
    (Field::Categories, 2.0),
    (Field::Description, 1.0),
    (Field::AgentNotes, 0.5),
];

/// The fields of a candidate that task matching reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Name,
    Categories,
    Description,
    /// `pain_point` and `highlights`, when the agent wrote them.
    AgentNotes,
}

#[derive(Deserialize)]
struct LexiconFile {
    concepts: BTreeMap<String, ConceptEntry>,
    categories: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
struct ConceptEntry {
    terms: Vec<String>,
    families: Vec<String>,
}

/// The concept map, parsed once.
pub struct Lexicon {
    matcher: AhoCorasick,
    /// For each matcher pattern: (concept index, the term is ASCII and must match whole words).
    patterns: Vec<(usize, bool)>,
    /// Concept names, in the file's (sorted) order.
    pub concepts: Vec<String>,
    /// Families of each concept.
    families: Vec<Vec<String>>,
    /// Category name → families.
    category_families: BTreeMap<String, BTreeSet<String>>,
}

static LEXICON_JSON: &str = include_str!("../../rules/lexicon.json");

/// The built-in lexicon.
pub fn lexicon() -> &'static Lexicon {
    static L: OnceLock<Lexicon> = OnceLock::new();
    L.get_or_init(|| Lexicon::parse(LEXICON_JSON).expect("the built-in lexicon is valid"))
}

impl Lexicon {
    pub fn parse(json: &str) -> Result<Lexicon, String> {
        let file: LexiconFile = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let mut terms = Vec::new();
        let mut patterns = Vec::new();
        let mut concepts = Vec::new();
        let mut families = Vec::new();
        for (i, (name, entry)) in file.concepts.into_iter().enumerate() {
            for t in entry.terms {
                let t = t.to_lowercase();
                if t.is_empty() {
                    return Err(format!("concept {name:?} has an empty term"));
                }
                patterns.push((i, t.is_ascii()));
                terms.push(t);
            }
            concepts.push(name);
            families.push(entry.families);
        }
        let matcher = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .prefilter(false)
            .build(&terms)
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
        Ok(Lexicon {
            matcher,
            patterns,
            concepts,
            families,
            category_families,
        })
    }

    /// Concept indices named by lexicon terms in `lower` (already lower-cased).
    pub fn concepts_in(&self, lower: &str) -> BTreeSet<usize> {
        let bytes = lower.as_bytes();
        let mut found = BTreeSet::new();
        for m in self.matcher.find_iter(lower) {
            let (concept, ascii) = self.patterns[m.pattern().as_usize()];
            if ascii {
                let before_ok = m.start() == 0 || !is_word_byte(bytes[m.start() - 1]);
                let rest = &bytes[m.end()..];
                let after_ok = [0usize, 1, 2].iter().any(|&skip| {
                    let plural = match skip {
                        0 => true,
                        1 => rest.first() == Some(&b's'),
                        _ => rest.starts_with(b"es"),
                    };
                    plural && rest.get(skip).is_none_or(|&b| !is_word_byte(b))
                });
                if !(before_ok && after_ok) {
                    continue;
                }
            }
            found.insert(concept);
        }
        found
    }

    /// The first term of `concept` that occurs in `lower` (as the matcher finds it).
    pub fn surface_in(&self, concept: &str, lower: &str) -> Option<String> {
        let target = self.concepts.iter().position(|c| c == concept)?;
        let bytes = lower.as_bytes();
        self.matcher.find_iter(lower).find_map(|m| {
            let (c, ascii) = self.patterns[m.pattern().as_usize()];
            let bounded = !ascii
                || ((m.start() == 0 || !is_word_byte(bytes[m.start() - 1]))
                    && bytes
                        .get(m.end())
                        .is_none_or(|&b| !is_word_byte(b) || b == b's'));
            (c == target && bounded).then(|| lower[m.start()..m.end()].to_owned())
        })
    }

    /// Families a concept belongs to.
    pub fn families_of_concept(&self, concept: usize) -> &[String] {
        &self.families[concept]
    }

    /// Families a category belongs to (by the `categories` table of the lexicon).
    pub fn families_of_category(&self, category: &str) -> Option<&BTreeSet<String>> {
        self.category_families.get(&category.trim().to_lowercase())
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80
}

/// CJK scripts written without spaces.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // Extensions B–F, compatibility supplement
}

/// Build the lexicon and the stemmer now ([`crate::initialize`]).
pub(crate) fn initialize() {
    lexicon();
    stemmer();
}

fn stemmer() -> &'static rust_stemmers::Stemmer {
    static S: OnceLock<rust_stemmers::Stemmer> = OnceLock::new();
    S.get_or_init(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English))
}

/// Words that carry no meaning for matching.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "get", "help",
    "how", "i", "in", "into", "is", "it", "its", "like", "make", "me", "my", "need", "of", "on",
    "or", "skill", "skills", "some", "that", "the", "this", "to", "tool", "tools", "use", "want",
    "with", "you", "your", "把", "的", "了", "和", "我", "帮", "一个", "想要", "帮我", "能够",
    "可以",
];

/// One token as the tokenizer finds it, before stemming and interning.
enum Tok<'a> {
    /// A run of letters/digits without CJK (lower case): stemmed, then a token.
    Word(&'a str),
    /// A CJK character bigram (or a lone character): a token as it is.
    Cjk(&'a str),
    /// A lexicon concept, by index.
    Concept(usize),
}

/// Split lower-cased text into words, CJK bigrams and concepts (in that order per run; concepts last).
fn tokenize(lower: &str, mut emit: impl FnMut(Tok<'_>)) {
    let mut start = None::<usize>;
    let mut run_cjk = false;
    let flush = |from: usize, to: usize, cjk: bool, emit: &mut dyn FnMut(Tok<'_>)| {
        let run = &lower[from..to];
        if !cjk {
            emit(Tok::Word(run));
            return;
        }
        let idx: Vec<usize> = run
            .char_indices()
            .map(|(i, _)| i)
            .chain([run.len()])
            .collect();
        if idx.len() == 2 {
            emit(Tok::Cjk(run));
        } else {
            for w in idx.windows(3) {
                emit(Tok::Cjk(&run[w[0]..w[2]]));
            }
        }
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
        } else if let Some(s) = start.take() {
            flush(s, i, run_cjk, &mut emit);
        }
    }
    if let Some(s) = start {
        flush(s, lower.len(), run_cjk, &mut emit);
    }
    for c in lexicon().concepts_in(lower) {
        emit(Tok::Concept(c));
    }
}

/// The tokens of a text: stemmed words, CJK bigrams and `@concept` tokens. Order follows the text
/// (concepts last); repeated tokens repeat (term frequency matters).
pub fn analyze(text: &str) -> Vec<String> {
    let mut vocab = Vocab::default();
    let ids = vocab.analyze(text);
    ids.into_iter()
        .map(|id| vocab.text(id).to_owned())
        .collect()
}

/// Interned tokens: every distinct token is a number, and each distinct word is stemmed once, so
/// ranking 100,000 candidates allocates per distinct token, not per occurrence.
#[derive(Debug, Default)]
pub struct Vocab {
    ids: StrMap<u32>,
    texts: Vec<String>,
    /// Raw lower-case word → its stem's id (`None`: a stop word).
    words: StrMap<Option<u32>>,
}

impl Vocab {
    /// The id of `token`, interning it on first sight.
    pub fn intern(&mut self, token: &str) -> u32 {
        let next = self.texts.len() as u32;
        let id = *self.ids.get_or_insert_with(token, || next);
        if id == next {
            self.texts.push(token.to_owned());
        }
        id
    }

    /// The token text of an id.
    pub fn text(&self, id: u32) -> &str {
        &self.texts[id as usize]
    }

    /// Whether an id is a concept token.
    pub fn is_concept(&self, id: u32) -> bool {
        self.text(id).starts_with('@')
    }

    fn word(&mut self, raw: &str) -> Option<u32> {
        if let Some(&id) = self.words.get(raw) {
            return id;
        }
        let stem = stemmer().stem(raw);
        let id = (!STOP_WORDS.contains(&stem.as_ref())).then(|| self.intern(&stem));
        self.words.insert(raw, id);
        id
    }

    /// Analyze a text into token ids (see [`analyze`]).
    pub fn analyze(&mut self, text: &str) -> Vec<u32> {
        let lower = crate::lowercase(text);
        let mut out = Vec::new();
        let lex = lexicon();
        tokenize(&lower, |t| match t {
            Tok::Word(w) => out.extend(self.word(w)),
            Tok::Cjk(b) => {
                if !STOP_WORDS.contains(&b) {
                    out.push(self.intern(b));
                }
            }
            Tok::Concept(c) => {
                let name = format!("@{}", lex.concepts[c]);
                out.push(self.intern(&name));
            }
        });
        out
    }
}

/// The number of fields.
const FIELDS: usize = 4;

/// A document: the analyzed fields of one candidate, as token ids.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    fields: [Vec<u32>; FIELDS],
    /// Every distinct token, sorted.
    terms: Vec<u32>,
}

impl Doc {
    pub fn new(vocab: &mut Vocab, fields: &[(Field, &str)]) -> Doc {
        let mut doc = Doc::default();
        for (f, text) in fields {
            let ids = vocab.analyze(text);
            doc.fields[*f as usize].extend(ids);
        }
        let mut terms: Vec<u32> = doc.fields.iter().flatten().copied().collect();
        terms.sort_unstable();
        terms.dedup();
        doc.terms = terms;
        doc
    }

    /// Whether the document has a token anywhere.
    pub fn has(&self, id: u32) -> bool {
        self.terms.binary_search(&id).is_ok()
    }

    /// Every distinct token, sorted.
    pub fn terms(&self) -> &[u32] {
        &self.terms
    }
}

/// BM25F over a set of documents.
pub struct Index<'a> {
    docs: &'a [Doc],
    avg_len: [f64; FIELDS],
    /// Documents containing each token id.
    doc_freq: Vec<u32>,
}

impl<'a> Index<'a> {
    pub fn new(docs: &'a [Doc], vocab: &Vocab) -> Index<'a> {
        let mut total = [0usize; FIELDS];
        let mut doc_freq = vec![0u32; vocab.texts.len()];
        for d in docs {
            for (f, toks) in d.fields.iter().enumerate() {
                total[f] += toks.len();
            }
            for &t in &d.terms {
                doc_freq[t as usize] += 1;
            }
        }
        let n = docs.len().max(1) as f64;
        let avg_len = total.map(|len| (len as f64 / n).max(1.0));
        Index {
            docs,
            avg_len,
            doc_freq,
        }
    }

    /// Inverse document frequency (the BM25+ form, always positive).
    fn idf(&self, term: u32) -> f64 {
        let n = self.docs.len() as f64;
        let df = self.doc_freq.get(term as usize).copied().unwrap_or(0) as f64;
        libm::log(1.0 + (n - df + 0.5) / (df + 0.5))
    }

    /// The BM25F score of document `i` for the distinct query tokens, and the ones it matched.
    pub fn score(&self, i: usize, query: &[u32]) -> (f64, Vec<u32>) {
        let doc = &self.docs[i];
        let mut score = 0.0;
        let mut matched = Vec::new();
        for &term in query {
            if !doc.has(term) {
                continue;
            }
            // Field-weighted, length-normalized term frequency.
            let mut tf = 0.0;
            for (field, weight) in FIELD_WEIGHTS {
                let toks = &doc.fields[field as usize];
                let count = toks.iter().filter(|&&t| t == term).count() as f64;
                if count == 0.0 {
                    continue;
                }
                let norm = 1.0 - B + B * (toks.len() as f64 / self.avg_len[field as usize]);
                tf += weight * count / norm;
            }
            score += self.idf(term) * tf * (K1 + 1.0) / (tf + K1);
            matched.push(term);
        }
        (score, matched)
    }
}

/// Distinct query tokens in first-seen order.
pub fn distinct(ids: &[u32]) -> Vec<u32> {
    let mut seen = BTreeSet::new();
    ids.iter().copied().filter(|id| seen.insert(*id)).collect()
}

/// Weight of a concept token in [`coverage`], relative to a word or bigram: a concept is a broad
/// match (`@devops` for "kubernetes" and for a commit-message tool alike), so alone it is never
/// enough.
pub const CONCEPT_COVERAGE_WEIGHT: f64 = 0.5;

/// The share of the distinct `query` tokens that `doc` contains, in [0, 1]: words and
/// bigrams weigh 1, concepts [`CONCEPT_COVERAGE_WEIGHT`]. Independent of the other candidates, so a
/// threshold on it means the same for 20 candidates or 100,000.
pub fn coverage(vocab: &Vocab, doc: &Doc, query: &[u32]) -> f64 {
    let (mut have, mut all) = (0.0, 0.0);
    for &t in query {
        let w = if vocab.is_concept(t) {
            CONCEPT_COVERAGE_WEIGHT
        } else {
            1.0
        };
        all += w;
        if doc.has(t) {
            have += w;
        }
    }
    if all > 0.0 { have / all } else { 0.0 }
}

/// The matched tokens as the user wrote them: for a concept, the term of it that appears in the
/// query; for a word or bigram, itself when it appears verbatim. In query order, at most six.
pub fn display_terms(query_text: &str, matched: &[String]) -> Vec<String> {
    let lower = query_text.to_lowercase();
    let lex = lexicon();
    let mut found: Vec<(usize, String)> = Vec::new();
    let mut add = |surface: &str| {
        if let Some(pos) = lower.find(surface)
            && !found
                .iter()
                .any(|(_, s)| s == surface || s.contains(surface))
        {
            found.retain(|(_, s)| !surface.contains(s.as_str()));
            found.push((pos, surface.to_owned()));
        }
    };
    for t in matched {
        match t.strip_prefix('@') {
            Some(concept) => {
                if let Some(term) = lex.surface_in(concept, &lower) {
                    add(&term);
                }
            }
            None => add(t),
        }
    }
    found.sort();
    found.into_iter().take(6).map(|(_, s)| s).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_runs_become_bigrams_and_concepts() {
        let toks = analyze("把 PDF 表格转成 Excel");
        for t in [
            "pdf",
            "表格",
            "格转",
            "转成",
            "excel",
            "@pdf",
            "@table",
            "@convert",
            "@spreadsheet",
        ] {
            assert!(toks.iter().any(|x| x == t), "{t} missing from {toks:?}");
        }
        assert!(!toks.iter().any(|x| x == "把"), "stop word kept: {toks:?}");
    }

    #[test]
    fn english_words_are_stemmed_and_plurals_meet_concepts() {
        let toks = analyze("Extracts tables from PDFs");
        assert!(toks.contains(&"extract".to_owned()), "{toks:?}");
        assert!(toks.contains(&"@table".to_owned()), "{toks:?}");
        assert!(toks.contains(&"@pdf".to_owned()), "{toks:?}");
        assert!(toks.contains(&"@extract".to_owned()), "{toks:?}");
    }

    #[test]
    fn ascii_terms_match_whole_words_only() {
        // `ci` is a devops term; it must not fire inside `social` or `recipe`.
        let toks = analyze("social recipes");
        assert!(!toks.contains(&"@devops".to_owned()), "{toks:?}");
        assert!(toks.contains(&"@cooking".to_owned()), "{toks:?}");
    }

    #[test]
    fn mixed_script_runs_split_at_the_script_change() {
        let toks = analyze("导出为Excel文件");
        assert!(toks.contains(&"excel".to_owned()), "{toks:?}");
        assert!(toks.contains(&"导出".to_owned()), "{toks:?}");
        assert!(toks.contains(&"文件".to_owned()), "{toks:?}");
    }

    #[test]
    fn bm25_prefers_the_field_weighted_match_and_the_rarer_term() {
        let mut v = Vocab::default();
        let docs = vec![
            Doc::new(
                &mut v,
                &[
                    (Field::Name, "pdf-merge"),
                    (Field::Description, "merge files"),
                ],
            ),
            Doc::new(
                &mut v,
                &[
                    (Field::Name, "notes"),
                    (Field::Description, "keeps pdf notes"),
                ],
            ),
            Doc::new(
                &mut v,
                &[
                    (Field::Name, "calendar"),
                    (Field::Description, "family calendar"),
                ],
            ),
        ];
        let q = distinct(&v.analyze("pdf"));
        let both = distinct(&v.analyze("merge pdf"));
        let ix = Index::new(&docs, &v);
        let (a, _) = ix.score(0, &q);
        let (b, _) = ix.score(1, &q);
        let (c, m) = ix.score(2, &q);
        assert!(a > b && b > 0.0, "name beats description: {a} {b}");
        assert_eq!((c, m.len()), (0.0, 0));
        assert!(coverage(&v, &docs[0], &both) > coverage(&v, &docs[1], &both));
    }

    #[test]
    fn interning_stems_each_word_once_and_keeps_stop_words_out() {
        let mut v = Vocab::default();
        let a = v.analyze("Tables and tables, the TABLE");
        assert_eq!(a.len(), 4, "{a:?}"); // tabl ×3 + @table
        assert!(a[..3].iter().all(|&id| v.text(id) == "tabl"));
        assert_eq!(v.text(a[3]), "@table");
        assert!(v.is_concept(a[3]));
    }

    #[test]
    fn every_lexicon_term_finds_its_concept() {
        let lex = lexicon();
        let file: LexiconFile = serde_json::from_str(LEXICON_JSON).unwrap();
        for (name, entry) in file.concepts {
            for t in entry.terms {
                let found = analyze(&t);
                assert!(
                    found.contains(&format!("@{name}")),
                    "{t:?} does not find @{name}: {found:?}"
                );
            }
            for fam in entry.families {
                assert!(
                    ["work", "life", "fun", "practical"].contains(&fam.as_str()),
                    "{name}: {fam}"
                );
            }
        }
        assert!(lex.families_of_category("Cooking").unwrap().contains("fun"));
    }
}
