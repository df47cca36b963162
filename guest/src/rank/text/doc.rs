//! A candidate's analyzed fields as a document: its tokens, concept occurrences and claims.

use super::*;

/// A concept occurrence in a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Occurrence {
    pub concept: u16,
    pub field: u8,
    pub clause: u16,
    pub sentence: u16,
    /// Named only inside parentheses of the description (合同（Word、PDF、扫描件）, "audio files (mp3,
    /// wav)"): a kind of what it reads or writes, not what the listing is about
    /// (`relevance::PAREN_DETAIL`).
    pub detail: bool,
}

/// A document: the analyzed fields of one candidate, as token ids, and its concepts.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    pub(super) fields: [Vec<u32>; FIELDS],
    /// Every distinct token, sorted.
    pub(super) terms: Vec<u32>,
    /// Concept occurrences, sorted by concept.
    pub occurrences: Vec<Occurrence>,
    /// Distinct specific objects and actions claimed (see `relevance::breadth_weight`).
    pub breadth: u16,
    /// The listing calls itself all-in-one.
    pub catch_all: bool,
    /// The listing is a library of ready-made templates or examples (`Letter Templates 10,000+`,
    /// `WPS模板大全`): see [`is_library`].
    pub library: bool,
    /// Conversions it describes: (source, target) concept pairs.
    pub directions: Vec<(u16, u16)>,
    /// Actions its name states (`pptx-translator`, `youtube-downloader`).
    pub name_actions: Vec<u16>,
    /// It names at least one specific object (not only files, text or data).
    pub has_object: bool,
    /// The script its description is written in (English only, Chinese, or both).
    pub script: Option<super::super::relevance::Script>,
}

/// Whether byte `at` of `text` is inside a parenthesis (ASCII or full-width) opened before it and
/// not yet closed.
pub fn in_parentheses(text: &str, at: usize) -> bool {
    let Some(before) = text.get(..at) else {
        return false;
    };
    match (before.rfind(['(', '（']), before.rfind([')', '）'])) {
        (Some(open), Some(close)) => open > close,
        (Some(_), None) => true,
        _ => false,
    }
}

/// Words of a listing's name that say it holds ready-made pieces to copy, not a maker.
const LIBRARY_WORDS: &[&str] = &[
    "template", "example", "sample", "模板", "模版", "范文", "范例", "大全",
];

/// Whether a listing is a library of ready-made templates or examples: its name says templates,
/// examples or samples (or 大全, "the complete collection") and the name or the first sentence
/// counts them (`10,000+`, `20K+`, `10 万+`), or the name says 大全. Such a listing offers pieces to
/// copy; it does not write, fill or build one for the user (`relevance::LIBRARY`).
pub fn is_library(name: &str, lead: &str) -> bool {
    let name = crate::lowercase(name);
    if name.contains("大全") {
        return true;
    }
    if !LIBRARY_WORDS.iter().any(|w| name.contains(w)) {
        return false;
    }
    let counted = |text: &str| {
        let b = text.as_bytes();
        text.char_indices().any(|(i, c)| {
            c == '+'
                && i > 0
                && (b[i - 1].is_ascii_digit()
                    || (matches!(b[i - 1], b'k' | b'K') && i > 1 && b[i - 2].is_ascii_digit())
                    || text[..i].ends_with('万'))
        })
    };
    counted(&name) || counted(lead)
}

impl Doc {
    pub fn new(vocab: &mut Vocab, fields: &[(Field, &str)]) -> Doc {
        let analyses = Doc::analyze(vocab, fields);
        Doc::assemble(vocab, fields, analyses)
    }

    /// The analyses of `fields`' texts, in order: what [`Doc::new`] builds a document from.
    pub fn analyze(vocab: &mut Vocab, fields: &[(Field, &str)]) -> Vec<Analysis> {
        fields
            .iter()
            .map(|(_, text)| vocab.analyze_text(text))
            .collect()
    }

    /// The document of `fields`, from their analyses ([`Doc::analyze`]).
    pub fn assemble(vocab: &mut Vocab, fields: &[(Field, &str)], analyses: Vec<Analysis>) -> Doc {
        let mut doc = Doc::default();
        let lex = lexicon();
        // Clause numbers run on across the texts of a field, so that two texts never share one.
        let mut clause_base = [0u16; FIELDS];
        let mut sentence_base = [0u16; FIELDS];
        let mut description = String::new();
        let mut enumerated = 0u16;
        for ((f, text), a) in fields.iter().zip(analyses) {
            let fi = *f as usize;
            if matches!(f, Field::Lead | Field::Body) {
                description.push_str(text);
                description.push(' ');
            }
            if *f == Field::Lead {
                enumerated = enumerated_claims(text);
            }
            doc.catch_all |= a.catch_all;
            for &(x, y) in &a.directions {
                let pair = (x as u16, y as u16);
                if !doc.directions.contains(&pair) {
                    doc.directions.push(pair);
                }
            }
            let base = clause_base[fi];
            let sbase = sentence_base[fi];
            let mut max_clause = 0;
            let mut max_sentence = 0;
            doc.fields[fi].extend(a.tokens.iter().map(|t| t.id));
            for c in &a.concepts {
                let name = &lex.concepts[c.concept].name;
                let id = vocab.concept_id(c.concept, name);
                doc.fields[fi].push(id);
                doc.occurrences.push(Occurrence {
                    concept: c.concept as u16,
                    field: fi as u8,
                    clause: base + c.clause,
                    sentence: sbase + c.sentence,
                    detail: matches!(f, Field::Lead | Field::Body)
                        && in_parentheses(&a.lower, c.at.0 as usize),
                });
                max_clause = max_clause.max(c.clause);
                max_sentence = max_sentence.max(c.sentence);
            }
            clause_base[fi] = base + max_clause + 1;
            sentence_base[fi] = sbase + max_sentence + 1;
            if fi == Field::Name as usize {
                for c in &a.concepts {
                    if lex.concepts[c.concept].kind == Kind::Action
                        && !doc.name_actions.contains(&(c.concept as u16))
                    {
                        doc.name_actions.push(c.concept as u16);
                    }
                }
            }
        }
        let text_of = |field: Field| {
            fields
                .iter()
                .filter(|(f, _)| *f == field)
                .map(|(_, t)| *t)
                .collect::<Vec<_>>()
                .join(" ")
        };
        doc.library = is_library(&text_of(Field::Name), &text_of(Field::Lead));
        if !description.trim().is_empty() {
            doc.script = Some(super::super::relevance::script_of(&description));
        }
        let mut terms: Vec<u32> = doc.fields.iter().flatten().copied().collect();
        terms.sort_unstable();
        terms.dedup();
        doc.terms = terms;
        doc.occurrences.sort_unstable();
        doc.occurrences.dedup();
        let mut claimed: Vec<u16> = doc
            .occurrences
            .iter()
            // The registry's tags restate the job the text claims in other words (`finance`,
            // `pdf`, `table-extraction` for a bank-statement parser): they are no claims of their
            // own, so they do not count towards the breadth. A catch-all claims in its text.
            .filter(|o| o.field != Field::AgentNotes as u8 && o.field != Field::Categories as u8)
            .filter(|o| {
                let c = &lex.concepts[o.concept as usize];
                c.kind == Kind::Action || (c.kind == Kind::Object && !c.generic)
            })
            .map(|o| lex.kin_root(o.concept as usize) as u16)
            .collect();
        claimed.sort_unstable();
        claimed.dedup();
        doc.breadth = (claimed.len() as u16).max(enumerated);
        doc.has_object = doc.occurrences.iter().any(|o| {
            let c = &lex.concepts[o.concept as usize];
            c.kind == Kind::Object && !c.generic && o.field != Field::AgentNotes as u8
        });
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

    /// The fields (by [`Field`] index) holding a token.
    pub fn fields_with(&self, id: u32) -> impl Iterator<Item = usize> + '_ {
        (0..FIELDS).filter(move |&f| self.fields[f].contains(&id))
    }

    /// The occurrences of a concept.
    /// Every concept occurrence, sorted by concept.
    pub fn occurrences(&self) -> &[Occurrence] {
        &self.occurrences
    }

    pub fn occurrences_of(&self, concept: usize) -> &[Occurrence] {
        let c = concept as u16;
        let from = self.occurrences.partition_point(|o| o.concept < c);
        let to = self.occurrences.partition_point(|o| o.concept <= c);
        &self.occurrences[from..to]
    }
}

impl Vocab {
    /// The token id of a concept (`@name`), cached by concept index.
    pub(super) fn concept_id(&mut self, concept: usize, name: &str) -> u32 {
        if let Some(Some(id)) = self.concept_ids.get(concept) {
            return *id;
        }
        let mut key = String::with_capacity(name.len() + 1);
        key.push('@');
        key.push_str(name);
        let id = self.intern(&key);
        if self.concept_ids.len() <= concept {
            self.concept_ids.resize(concept + 1, None);
        }
        self.concept_ids[concept] = Some(id);
        id
    }
}
