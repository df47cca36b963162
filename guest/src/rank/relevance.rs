//! Task relevance: how well a candidate covers a request, from the request's concepts (objects,
//! actions, topics) and its remaining content words, with the action bound to the request's object,
//! a penalty for catch-all listings and the request's side part weighing less.
//!
//! 1. The request is analyzed ([`super::text`]) into **units**: each concept it names (an object such
//!    as `@pdf`, an action such as `@merge`, a topic such as `@legal`) and each content word no concept
//!    term covers (a stem, a Chinese word, or the bigrams of one uncovered Chinese stretch together).
//!    Words after a side marker ("then", "and also", 然后, 再, 顺便 …) form the *side part*.
//! 2. A candidate **matches a unit** with the weight of the best field it appears in (name 1,
//!    first sentence 0.9, categories 0.85, rest of the description 0.65, agent notes 0.5); a
//!    related concept (`broader` in the lexicon: an NDA is a contract) earns [`RELATED`] of that.
//!    An **action counts only on the request's object**: fully when the candidate names it in the
//!    same clause as one of the request's objects, or when that object is in its name or categories;
//!    [`UNBOUND_ACTION`] of it otherwise; a candidate that names no specific object at all does
//!    its action on anything ([`OBJECTLESS_ACTION`]). A request with no known object but other
//!    content words keeps [`UNKNOWN_OBJECT_ACTION`] of each action. Detail after a colon and
//!    constraints after a negation weigh as a side part.
//! 3. **Coverage** = Σ unit weight × match / Σ unit weight, with objects and actions weighing
//!    [`OBJECT_WEIGHT`] and [`ACTION_WEIGHT`], topics [`TOPIC_WEIGHT`], free words [`WORD_WEIGHT`]
//!    each but together at most [`FREE_WORDS_CAP`]; side-part units count [`SIDE_WEIGHT`].
//! 4. A candidate that matches **none of the request's objects** but names objects of its own is a
//!    miss: its coverage is multiplied by [`OBJECT_MISS`] (the right action on the wrong object is
//!    not half a hit). So is one that converts the other way round or to another target.
//! 5. **Breadth**: a listing that claims many distinct objects and actions is evidence of little; its
//!    claims count `min(1, ((1 + BREADTH_FREE) / (1 + breadth))^BREADTH_POWER)`.
//!
//! The match strength (coverage × object rule × breadth) is absolute: the pick's cut-off reads it.
//! Relevance, the `task` factor's value, adds BM25F relative to the best candidate as a small
//! lexical tie-breaker: `strength × (1 − LEXICAL_SHARE + LEXICAL_SHARE × BM25F / best)`.

use super::lexicon::{Kind, lexicon};
use super::text::{Analysis, Doc, FIELDS, Field, Index, TokKind, Vocab};

/// Unit weights.
pub const OBJECT_WEIGHT: f64 = 1.0;
pub const ACTION_WEIGHT: f64 = 1.0;
pub const TOPIC_WEIGHT: f64 = 0.6;
/// A generic object (file, page, text, data).
pub const GENERIC_WEIGHT: f64 = 0.5;
pub const WORD_WEIGHT: f64 = 0.4;
/// Free words when the request names no known object: they are likely what it is about.
pub const OBJECTLESS_WORD_WEIGHT: f64 = 0.8;
/// The free words of a request weigh together at most this (a long story around a short request
/// does not drown its concepts).
pub const FREE_WORDS_CAP: f64 = 1.5;
/// Units of the side part of a two-part request.
pub const SIDE_WEIGHT: f64 = 0.5;
/// Match weight by field ([`Field`] order).
pub const FIELD_MATCH: [f64; FIELDS] = [1.0, 0.85, 0.9, 0.65, 0.5];
/// A related concept's share of a match: the listing names a narrower concept than the request
/// (asked for a contract tool, it checks NDAs) …
pub const NARROWER_CREDIT: f64 = 0.7;
/// … or a broader one (asked for an NDA check, it reviews contracts).
pub const BROADER_CREDIT: f64 = 0.5;
/// A listing that calls itself all-in-one ('全家桶', 'one skill for everything'): its claims
/// count this much (on top of the breadth weight).
pub const CATCH_ALL: f64 = 0.6;
/// An action the candidate has, but not on the request's object.
pub const UNBOUND_ACTION: f64 = 0.35;
/// An action in the same sentence as the request's object, but another clause of it.
pub const SENTENCE_ACTION: f64 = 0.55;
/// A listing whose name states an action the request does not ask for (`pptx-translator` for
/// restyling a deck, `youtube-downloader` for a summary): its match counts this much.
pub const NAME_ACTION_MISS: f64 = 0.75;
/// An action read from one Chinese character alone (写, 签, 转, 弄, 算, 录, 补, 慢 …): in the order, a
/// listing earns this share of what it matches on it. A lone character is a morpheme of countless
/// words (写 in 手写的表 "a handwritten sheet" or 我写的 "that I wrote", 签 in 落地签 "visa on arrival",
/// 转 in 转正 "turn upright" or 转来的 "forwarded", 算 in 不算太离谱 "not too unreasonable"), so its
/// reading as an action is weak evidence next to a word's; a listing that shares only it with the
/// request should not outrank one that shares the request's words. Order only: the strength the
/// cut-off reads is unchanged, so it makes no pick silent and no request picked.
pub const LONE_CHARACTER: f64 = 0.3;
/// An action of a listing that names no specific object at all (it works on anything).
pub const OBJECTLESS_ACTION: f64 = 1.0;
/// The action concept of names that only say they make something (`Chart Maker`, `docx-builder`).
pub const GENERIC_MAKING: &str = "create";
/// Drawing a chart: making one, for the check of a maker's name against the asked action.
const VISUALIZE: &str = "visualize";
/// An action when the request names no known object but other words.
pub const UNKNOWN_OBJECT_ACTION: f64 = 0.6;
/// The least match of a goal action that counts towards [`Match::core`]: bound to the request's
/// object (or the request names none) in the name, the first sentence, the categories or the rest
/// of the description; an action only in another clause or sentence of the object does not count.
pub const CORE_ACTION: f64 = 0.5;
/// Coverage kept by a candidate that matches none of the request's objects.
pub const OBJECT_MISS: f64 = 0.25;
/// Strength kept by a listing that only makes the request's object out of another object (an
/// image-to-PDF maker for merging PDFs) when the request asks no conversion.
pub const TARGET_ONLY: f64 = 0.5;
/// Distinct objects and actions a listing may claim before its claims weigh less.
pub const BREADTH_FREE: f64 = 9.0;
/// A topic (home, health, travel) matched on a listing that claims more than [`BREADTH_FREE`]
/// jobs earns this much: for such a listing the topic is the domain of everything it claims (a
/// household catch-all and 家里), not evidence that it does the job asked.
pub const BROAD_TOPIC: f64 = 0.5;
pub const BREADTH_POWER: f64 = 0.8;
/// Share of relevance that comes from BM25F relative to the best candidate.
pub const LEXICAL_SHARE: f64 = 0.15;
/// A listing written only in the other language than the request (an English request, a
/// Chinese-only listing, or the reverse) orders this much lower: its output (minutes, review
/// comments, copy) is likely in its own language, so among near-equal matches the one in the
/// user's language goes first. Bilingual listings and mixed-language requests are exempt; the
/// strength the cut-off reads is unchanged, so a cross-lingual listing still gets picked.
pub const LANGUAGE_FIT: f64 = 0.96;

/// What a unit of a request is.
#[derive(Debug, Clone, PartialEq)]
pub enum UnitKind {
    Concept {
        concept: usize,
        kind: Kind,
    },
    /// Lexical tokens that count as one unit (one word; or the bigrams of one Chinese stretch).
    Words(Vec<u32>),
}

/// One unit of a request.
#[derive(Debug, Clone)]
pub struct Unit {
    pub kind: UnitKind,
    pub weight: f64,
    pub side: bool,
    /// How the user wrote it (for the card's "matched" list); empty for bigram stretches.
    pub surface: String,
    /// Where it starts in the lower-cased request.
    pub at: u32,
    /// Where else the request names the same concept ('查一下 … 新进展 … 来源' are three ways to
    /// ask for a search): a request that comes back to one thing is about it.
    pub also_at: Vec<u32>,
    /// An action read from one Chinese character alone, and from no longer term ([`LONE_CHARACTER`]).
    pub lone: bool,
}

/// A request, analyzed.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub units: Vec<Unit>,
    /// Objects of the main part (of the whole request when the main part names none).
    pub objects: Vec<usize>,
    /// Lexical tokens for BM25F with their weights (side part halved), distinct.
    pub tokens: Vec<(u32, f64)>,
    /// Concepts related to each concept unit (broader and narrower) with their credit, by unit.
    related: Vec<Vec<(usize, f64)>>,
    /// Conversions asked for: (source, target).
    pub directions: Vec<(usize, usize)>,
    /// Each asked conversion's ends with their broader and narrower kinds (a CSV is a spreadsheet).
    direction_kin: Vec<(Vec<u16>, Vec<u16>)>,
    /// The main part's actions (any part's when the main part has none).
    pub actions: Vec<usize>,
    /// The objects and the concepts related to them.
    object_family: Vec<usize>,
    unknown_object: bool,
    /// The script the request is written in.
    pub script: Option<Script>,
    /// What the phrasing rules read ([`super::phrasing`]), for the `task` factor's detail.
    pub readings: Vec<super::text::Reading>,
    /// Actions the request says were already done (写了篇, 剪好了), each with its words: they weigh
    /// as a side part ([`parts::completed_actions`]) and the `task` factor's detail says so.
    pub done: Vec<(usize, String)>,
}

/// Which script a request is written in: the cut-off is calibrated per script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Script {
    /// No CJK.
    Latin,
    /// Chinese with at most a few Latin words (product names, file types).
    Han,
    /// Chinese and English words mixed.
    Mixed,
}

/// The script of a request: Latin without CJK; Han when CJK characters are at least half of its
/// letters and digits; Mixed otherwise.
pub fn script_of(text: &str) -> Script {
    let (mut cjk, mut other) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphanumeric()) {
        if super::lexicon::is_cjk(c) {
            cjk += 1;
        } else {
            other += 1;
        }
    }
    if cjk == 0 {
        Script::Latin
    } else if cjk * 2 >= cjk + other {
        Script::Han
    } else {
        Script::Mixed
    }
}

impl Query {
    pub fn new(vocab: &mut Vocab, a: &Analysis) -> Query {
        let lex = lexicon();
        let mut q = Query {
            script: Some(script_of(&a.lower)),
            readings: a.readings.clone(),
            ..Query::default()
        };
        let add_concept =
            |q: &mut Query, concept: usize, side: bool, surface: &str, at: u32| {
                if let Some(u) = q.units.iter_mut().find(
                    |u| matches!(u.kind, UnitKind::Concept { concept: c, .. } if c == concept),
                ) {
                    if at != u.at && !u.also_at.contains(&at) {
                        u.also_at.push(at);
                    }
                    // Named in both parts: the main part's weight.
                    if u.side && !side {
                        u.side = false;
                        u.weight /= SIDE_WEIGHT;
                    }
                    // Also named by a word: no lone character's reading.
                    u.lone &= lone_character(surface);
                    return;
                }
                let kind = lex.concepts[concept].kind;
                let w = match kind {
                    Kind::Object if lex.concepts[concept].generic => GENERIC_WEIGHT,
                    Kind::Object => OBJECT_WEIGHT,
                    Kind::Action => ACTION_WEIGHT,
                    Kind::Topic => TOPIC_WEIGHT,
                } * if side { SIDE_WEIGHT } else { 1.0 };
                q.units.push(Unit {
                    kind: UnitKind::Concept { concept, kind },
                    weight: w,
                    side,
                    surface: surface.to_owned(),
                    at,
                    also_at: Vec::new(),
                    lone: kind == Kind::Action && lone_character(surface),
                });
            };
        for c in &a.concepts {
            let surface = &a.lower[c.at.0 as usize..c.at.1 as usize];
            add_concept(&mut q, c.concept, c.side, surface, c.at.0);
        }
        // Free words: one unit per distinct word, one per uncovered Chinese stretch.
        let mut free: Vec<Unit> = Vec::new();
        let mut stretch_of: Vec<(u32, usize)> = Vec::new();
        for t in a.tokens.iter().filter(|t| t.free) {
            let surface = a.lower[t.at.0 as usize..t.at.1 as usize].to_owned();
            let w = WORD_WEIGHT * if t.side { SIDE_WEIGHT } else { 1.0 };
            match t.kind {
                TokKind::CjkGram => {
                    if let Some(&(_, i)) = stretch_of.iter().find(|(s, _)| *s == t.stretch) {
                        if let UnitKind::Words(ids) = &mut free[i].kind
                            && !ids.contains(&t.id)
                        {
                            ids.push(t.id);
                        }
                        continue;
                    }
                    stretch_of.push((t.stretch, free.len()));
                    free.push(Unit {
                        kind: UnitKind::Words(vec![t.id]),
                        weight: w,
                        side: t.side,
                        surface: String::new(),
                        at: t.at.0,
                        also_at: Vec::new(),
                        lone: false,
                    });
                }
                _ => {
                    if free
                        .iter()
                        .any(|u| matches!(&u.kind, UnitKind::Words(ids) if ids == &[t.id]))
                    {
                        continue;
                    }
                    free.push(Unit {
                        kind: UnitKind::Words(vec![t.id]),
                        weight: w,
                        side: t.side,
                        surface,
                        at: t.at.0,
                        also_at: Vec::new(),
                        lone: false,
                    });
                }
            }
        }
        let objectless = !q.units.iter().any(|u| {
            matches!(
                u.kind,
                UnitKind::Concept {
                    kind: Kind::Object,
                    ..
                }
            )
        });
        if objectless {
            for u in &mut free {
                u.weight *= OBJECTLESS_WORD_WEIGHT / WORD_WEIGHT;
            }
        }
        let total: f64 = free.iter().map(|u| u.weight).sum();
        if total > FREE_WORDS_CAP {
            for u in &mut free {
                u.weight *= FREE_WORDS_CAP / total;
            }
        }
        q.unknown_object = !free.is_empty();
        q.units.extend(free);
        detail_after_colon(&mut q.units, &a.lower);
        constraints_after_negation(&mut q.units, &a.lower);
        q.done = completed_actions(&mut q.units, &a.lower);
        let objects = |side: Option<bool>| -> Vec<usize> {
            q.units
                .iter()
                .filter(|u| side.is_none_or(|s| u.side == s))
                .filter_map(|u| match u.kind {
                    UnitKind::Concept {
                        concept,
                        kind: Kind::Object,
                    } => Some(concept),
                    _ => None,
                })
                .collect()
        };
        // The request's objects: the main part's specific ones; else any specific ones; else the
        // generic ones.
        let specific = |v: Vec<usize>| -> Vec<usize> {
            v.into_iter()
                .filter(|&o| !lex.concepts[o].generic)
                .collect()
        };
        q.objects = specific(objects(Some(false)));
        if q.objects.is_empty() {
            q.objects = specific(objects(None));
        }
        if q.objects.is_empty() {
            q.objects = objects(None);
        }
        if !q.objects.is_empty() {
            q.unknown_object = false;
        }
        q.object_family = q
            .objects
            .iter()
            .flat_map(|&o| std::iter::once(o).chain(related(o).into_iter().map(|r| r.0)))
            .collect();
        q.directions = a.directions.clone();
        let kin_of = |c: usize| -> Vec<u16> {
            std::iter::once(c)
                .chain(related(c).into_iter().map(|r| r.0))
                .filter_map(|k| u16::try_from(k).ok())
                .collect()
        };
        q.direction_kin = q
            .directions
            .iter()
            .map(|&(s, d)| (kin_of(s), kin_of(d)))
            .collect();
        let actions = |side: Option<bool>| -> Vec<usize> {
            q.units
                .iter()
                .filter(|u| side.is_none_or(|s| u.side == s))
                .filter_map(|u| match u.kind {
                    UnitKind::Concept {
                        concept,
                        kind: Kind::Action,
                    } => Some(concept),
                    _ => None,
                })
                .collect()
        };
        // The goal: the main part's actions that are not a means (download, send, import); else
        // any part's such actions ("download this talk, then summarize it" asks for a summary);
        // else whatever actions it names.
        let goal = |v: Vec<usize>| -> Vec<usize> {
            v.into_iter().filter(|&a| !lex.concepts[a].minor).collect()
        };
        q.actions = goal(actions(Some(false)));
        if q.actions.is_empty() {
            q.actions = goal(actions(None));
        }
        if q.actions.is_empty() {
            q.actions = actions(Some(false));
        }
        if q.actions.is_empty() {
            q.actions = actions(None);
        }
        // A minor action (download, send, import) beside a main one is the means: side weight.
        let has_main_action = q.units.iter().any(|u| {
            matches!(u.kind, UnitKind::Concept { concept, kind: Kind::Action } if !lex.concepts[concept].minor)
        });
        if has_main_action {
            for u in &mut q.units {
                if let UnitKind::Concept {
                    concept,
                    kind: Kind::Action,
                } = u.kind
                    && lex.concepts[concept].minor
                    && !u.side
                {
                    u.side = true;
                    u.weight *= SIDE_WEIGHT;
                }
            }
        }
        q.related = q
            .units
            .iter()
            .map(|u| match u.kind {
                UnitKind::Concept { concept, .. } => related(concept),
                UnitKind::Words(_) => Vec::new(),
            })
            .collect();
        // Lexical tokens: every token and concept of the request, side part at half weight.
        let mut tokens: Vec<(u32, f64)> = Vec::new();
        let mut push = |id: u32, side: bool| {
            let w = if side { SIDE_WEIGHT } else { 1.0 };
            match tokens.iter_mut().find(|(t, _)| *t == id) {
                Some(e) => e.1 = e.1.max(w),
                None => tokens.push((id, w)),
            }
        };
        for t in &a.tokens {
            push(t.id, t.side);
        }
        for c in &a.concepts {
            let name = format!("@{}", lex.concepts[c.concept].name);
            push(vocab.intern(&name), c.side);
        }
        q.tokens = tokens;
        q
    }

    /// Whether the request has anything to match.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// What a document must name for this request to find anything in it ([`Reach`]).
    pub fn reach(&self) -> Reach {
        let mut tokens: Vec<u32> = self.tokens.iter().map(|t| t.0).collect();
        tokens.sort_unstable();
        tokens.dedup();
        let mut concepts = vec![false; lexicon().concepts.len()];
        for (u, related) in self.units.iter().zip(&self.related) {
            if let UnitKind::Concept { concept, .. } = u.kind {
                concepts[concept] = true;
                for &(r, _) in related {
                    concepts[r] = true;
                }
            }
        }
        Reach { tokens, concepts }
    }
}

/// The tokens and concepts through which a request can match a document at all. [`match_doc`]
/// credits a unit only for a document's occurrences of the unit's concept or a concept related to
/// it ([`concept_match`]), or for the unit's own token ids (a free word or stretch is made of the
/// request's tokens); BM25F sums over the request's tokens the document holds (its `@concept`
/// tokens are the request's concepts). A document whose analyzed texts hold none of these has
/// coverage 0, so match strength 0, no core or single match, and BM25F 0: its relevance is 0
/// whatever else it says. `rank::scorer` builds no document for such a candidate until it is
/// scored.
#[derive(Debug, Clone)]
pub struct Reach {
    /// The request's token ids (lexical and `@concept`), sorted.
    tokens: Vec<u32>,
    /// By concept index: a concept of the request or related to one.
    concepts: Vec<bool>,
}

impl Reach {
    /// [`Vocab::count_tokens`] with what the request can match: how many tokens `text` adds to its
    /// document's field, and whether it holds a token or a concept the request can match.
    pub fn count(&self, vocab: &mut Vocab, text: &str) -> (usize, bool) {
        vocab.count_tokens(text, &self.tokens, &self.concepts)
    }

    /// Whether an analyzed text holds a token or a concept the request can match.
    pub fn touches(&self, a: &Analysis) -> bool {
        a.tokens
            .iter()
            .any(|t| self.tokens.binary_search(&t.id).is_ok())
            || a.concepts.iter().any(|c| self.concepts[c.concept])
    }
}

mod parts;
pub use parts::{NEGATIONS, a_not_a};
use parts::{completed_actions, constraints_after_negation, detail_after_colon};

/// Concepts related to `concept` with their credit: its broader ones and those it is broader than.
fn related(concept: usize) -> Vec<(usize, f64)> {
    let lex = lexicon();
    let mut out: Vec<(usize, f64)> = lex.concepts[concept]
        .broader
        .iter()
        .map(|&b| (b, BROADER_CREDIT))
        .collect();
    for (i, c) in lex.concepts.iter().enumerate() {
        if c.broader.contains(&concept) {
            out.push((i, NARROWER_CREDIT));
        }
    }
    out
}

/// How one candidate matches a request.
#[derive(Debug, Clone, Default)]
pub struct Match {
    /// Absolute match strength in [0, 1] (what the cut-off reads).
    pub strength: f64,
    /// What the order (relevance) keeps of the strength: [`NAME_ACTION_MISS`] when the name states
    /// another action, [`LANGUAGE_FIT`] for the other language, and less of what it matched on a
    /// lone character's action ([`LONE_CHARACTER`]). It ranks such a listing below one that does
    /// what was asked, but the listing still matches (it is not what makes the pick silent).
    pub order_weight: f64,
    /// Coverage before the object rule and the breadth weight.
    pub coverage: f64,
    /// Indices of the units matched (fully or partly), in request order.
    pub matched: Vec<usize>,
    /// The candidate does what the request asks on what it names: one of the request's goal
    /// actions matches, bound to the request's object, and so does one of the request's specific
    /// objects (a request that names none has no such structure to trust: 'why is the engine
    /// light on' shares only the action with a Kubernetes troubleshooter). The pick's cut-off is
    /// lower for such a match
    /// (`recommend::CORE_MATCH_SHARE`): a short or paraphrased request with both right is weak only
    /// because of the words around them.
    pub core: bool,
    /// The match rests on one word or phrase of a request that says more, and that word is an
    /// action, a topic or a free word, not a specific object: everything matched comes from the
    /// same place in the request ('*tune* my guitar' against an SEO optimizer, '*家里*下水道堵了'
    /// against a home helper), and it is no core match. A request nothing in the registry does
    /// often shares just such a word with some listing, so the pick needs more strength for it
    /// (`recommend::SINGLE_MATCH_FLOOR`). A specific object is evidence of its own (a right
    /// pet-health pick often shares only the pet), and so is a concept the request names in
    /// several places ('查一下 … 新进展 … 来源'). So is a match on generic actions alone (make,
    /// ask: `generic` in the lexicon) when the request also says what to act on and the listing
    /// has none of it.
    pub single: bool,
    /// The candidate names none of the request's objects.
    pub object_miss: bool,
    /// The candidate converts the other way round (Word → PDF asked, PDF → Word offered).
    pub reversed: bool,
    /// It makes the request's object out of another one (see [`TARGET_ONLY`]).
    pub target_only: bool,
    /// The listing calls itself all-in-one.
    pub catch_all: bool,
    /// Its name states an action the request does not ask for.
    pub name_action_miss: bool,
    /// It is written only in the other language than the request ([`LANGUAGE_FIT`]).
    pub other_language: bool,
    /// The listing's own script, for the reason ("described only in English").
    pub doc_script: Option<Script>,
    /// The breadth weight applied (1 for a specific listing).
    pub breadth_weight: f64,
    /// Distinct objects and actions the listing claims.
    pub breadth: u16,
    /// A topic of the request matched on a listing broader than [`BREADTH_FREE`] and earned
    /// [`BROAD_TOPIC`] of its weight.
    pub broad_topic: bool,
    /// Units it matched that are actions read from a lone Chinese character ([`LONE_CHARACTER`]).
    pub lone: Vec<usize>,
}

/// Whether a request's words are one Chinese character alone (写 but not 写作 or `pdf`).
pub fn lone_character(surface: &str) -> bool {
    let mut chars = surface.trim().chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if super::lexicon::is_cjk(c))
}

/// The weight a listing's claims keep for its breadth.
pub fn breadth_weight(breadth: u16) -> f64 {
    let b = f64::from(breadth);
    if b <= BREADTH_FREE {
        1.0
    } else {
        libm::pow((1.0 + BREADTH_FREE) / (1.0 + b), BREADTH_POWER)
    }
}

/// The best field weight of a concept in a document, with the clause test for actions.
fn concept_match(q: &Query, unit: usize, concept: usize, kind: Kind, doc: &Doc) -> f64 {
    let direct = best_field(doc, concept, |o| bound(q, kind, doc, o));
    let related = q.related[unit]
        .iter()
        .map(|&(r, credit)| credit * best_field(doc, r, |o| bound(q, kind, doc, o)))
        .fold(0.0, f64::max);
    direct.max(related)
}

/// The best field weight over the occurrences of `concept`, each times `factor`.
fn best_field(doc: &Doc, concept: usize, factor: impl Fn(&super::text::Occurrence) -> f64) -> f64 {
    doc.occurrences_of(concept)
        .iter()
        .map(|o| FIELD_MATCH[o.field as usize] * factor(o))
        .fold(0.0, f64::max)
}

/// For an action: whether the occurrence in (`field`, `clause`) is about one of the request's
/// objects (1), not (a fraction). Objects and topics always count fully.
fn bound(q: &Query, kind: Kind, doc: &Doc, at: &super::text::Occurrence) -> f64 {
    if kind != Kind::Action {
        return 1.0;
    }
    if q.objects.is_empty() {
        return if q.unknown_object {
            UNKNOWN_OBJECT_ACTION
        } else {
            1.0
        };
    }
    // A listing that names no specific object of its own (a proofreader, a translator) does its
    // action on whatever it is given: nothing binds the action to another object.
    if !doc.has_object {
        return OBJECTLESS_ACTION;
    }
    let identity = |f: u8| f == Field::Name as u8 || f == Field::Categories as u8;
    let mut best = UNBOUND_ACTION;
    let mut by_identity = false;
    for &c in &q.object_family {
        for x in doc.occurrences_of(c) {
            if x.field == at.field && x.clause == at.clause {
                return 1.0;
            }
            by_identity |= identity(x.field);
            if x.field == at.field && x.sentence == at.sentence {
                best = best.max(SENTENCE_ACTION);
            }
        }
    }
    // The listing's identity (a PDF in its name) carries the action to the request's object, unless
    // the action's own clause names another specific object ('合并单元格', merge *cells*, in a PDF
    // table extractor): then the action is that object's.
    if by_identity {
        let lex = lexicon();
        let own_object = at.field != Field::Name as u8
            && doc.occurrences().iter().any(|o| {
                o.field == at.field
                    && o.clause == at.clause
                    && !q.object_family.contains(&(o.concept as usize))
                    && {
                        let c = &lex.concepts[o.concept as usize];
                        c.kind == Kind::Object && !c.generic
                    }
            });
        if !own_object {
            return 1.0;
        }
    }
    best
}

/// Match one document against a request.
pub fn match_doc(q: &Query, doc: &Doc) -> Match {
    let mut have = 0.0;
    let mut all = 0.0;
    let mut matched = Vec::new();
    let mut object_hit = false;
    let mut action_hit = false;
    let mut broad_topic = false;
    let mut lone = Vec::new();
    let mut lone_loss = 0.0;
    for (i, u) in q.units.iter().enumerate() {
        all += u.weight;
        let m = match &u.kind {
            UnitKind::Concept { concept, kind } => {
                let mut m = concept_match(q, i, *concept, *kind, doc);
                // A broad listing's topic is the domain of all it claims (家里 for a household
                // catch-all), not evidence that it does this job.
                if *kind == Kind::Topic && m > 0.0 && f64::from(doc.breadth) > BREADTH_FREE {
                    m *= BROAD_TOPIC;
                    broad_topic = true;
                }
                if *kind == Kind::Object && m > 0.0 && q.objects.contains(concept) {
                    object_hit = true;
                }
                if *kind == Kind::Action
                    && !u.side
                    && m >= CORE_ACTION
                    && q.actions.contains(concept)
                {
                    action_hit = true;
                }
                m
            }
            UnitKind::Words(ids) => {
                let per: f64 = ids
                    .iter()
                    .map(|&id| {
                        doc.fields_with(id)
                            .map(|f| FIELD_MATCH[f])
                            .fold(0.0, f64::max)
                    })
                    .sum();
                per / ids.len() as f64
            }
        };
        if m > 0.0 {
            matched.push(i);
            have += u.weight * m;
            if u.lone {
                lone.push(i);
                lone_loss += u.weight * m * (1.0 - LONE_CHARACTER);
            }
        }
    }
    // What the order keeps of the coverage when a lone character's action earns less.
    let lone_weight = if have > 0.0 {
        (have - lone_loss) / have
    } else {
        1.0
    };
    let coverage = if all > 0.0 { have / all } else { 0.0 };
    // The right action on another object is a miss; a listing that names no object of its own
    // (a proofreader, a translator) merely lacks the request's. A request that names only generic
    // objects ('split the data into a file per region') has not said what it works on, so a
    // listing's specific object (a spreadsheet) is no other object: it only lacks the generic word.
    let lex = lexicon();
    let specific_request = q.objects.iter().any(|&o| !lex.concepts[o].generic);
    let object_miss = specific_request && !object_hit && doc.has_object;
    let core = action_hit && object_hit && specific_request;
    let places = |units: &mut dyn Iterator<Item = &Unit>| {
        let mut at: Vec<u32> = units
            .flat_map(|u| std::iter::once(u.at).chain(u.also_at.iter().copied()))
            .collect();
        at.sort_unstable();
        at.dedup();
        at.len()
    };
    let specific_object = |u: &Unit| match &u.kind {
        UnitKind::Concept { concept, kind } => {
            *kind == Kind::Object && !lexicon().concepts[*concept].generic
        }
        UnitKind::Words(_) => false,
    };
    // Only generic actions of the request matched ('make', 'how do I'), and it says more than
    // actions (what to act on, in words or concepts the listing lacks): '*做* pizza 的时候 dough
    // 老是粘手*怎么办*' against a lesson planner. Such a verb is no evidence of the subject.
    let generic_action = |u: &Unit| match &u.kind {
        UnitKind::Concept { concept, kind } => {
            *kind == Kind::Action && lex.concepts[*concept].generic
        }
        UnitKind::Words(_) => false,
    };
    let is_action = |u: &Unit| {
        matches!(
            u.kind,
            UnitKind::Concept {
                kind: Kind::Action,
                ..
            }
        )
    };
    let generic_actions_only = !matched.is_empty()
        && matched.iter().all(|&i| generic_action(&q.units[i]))
        && q.units.iter().any(|u| !u.side && !is_action(u));
    let single = (places(&mut matched.iter().map(|&i| &q.units[i])) == 1
        && !matched.iter().any(|&i| specific_object(&q.units[i]))
        && places(&mut q.units.iter().filter(|u| !u.side)) > 1)
        || generic_actions_only;
    // A conversion the other way round, or from the same source to another target.
    // One conversion the listing offers is enough ("into a GIF for the README" reads as two
    // targets); otherwise one it does the other way round, or to another target, is a miss.
    // A narrower or broader kind of an asked end is the same end (a PDF-to-CSV extractor offers
    // PDF to spreadsheet; a CSV is a kind of spreadsheet).
    let reversed = if q.directions.is_empty() || doc.directions.is_empty() {
        false
    } else {
        let asked = &q.direction_kin;
        let offered = asked.iter().any(|(s, d)| {
            doc.directions
                .iter()
                .any(|(x, y)| s.contains(x) && d.contains(y))
        });
        !offered
            && asked.iter().any(|(s, d)| {
                doc.directions.iter().any(|(x, y)| {
                    (d.contains(x) && s.contains(y)) || (s.contains(x) && !d.contains(y))
                })
            })
    };
    // The listing makes the request's object out of something else (photos into a PDF, Word into
    // a PDF) and the request asks no conversion: it does not work on that object.
    let lex = lexicon();
    let making = |a: usize| matches!(lex.concepts[a].name.as_str(), GENERIC_MAKING | "convert");
    let target_only = object_hit
        && q.directions.is_empty()
        && !q.actions.is_empty()
        && !q.actions.iter().any(|&a| making(a))
        && q.objects
            .iter()
            .filter(|&&o| !doc.occurrences_of(o).is_empty())
            .all(|&o| {
                let o = o as u16;
                doc.directions
                    .iter()
                    .any(|&(s, d)| d == o && !q.object_family.contains(&(s as usize)))
                    && !doc.directions.iter().any(|&(s, _)| s == o)
            });
    let bw = breadth_weight(doc.breadth) * if doc.catch_all { CATCH_ALL } else { 1.0 };
    let asked = |a: usize| {
        q.actions
            .iter()
            .any(|&x| x == a || related(x).iter().any(|r| r.0 == a))
    };
    let lex = lexicon();
    // The first clause of the first sentence that names an action: what the skill does ("Translate
    // PowerPoint decks, keeping layout and fonts" translates; it does not format).
    let lead_verb = doc
        .occurrences()
        .iter()
        .filter(|o| {
            o.field == Field::Lead as u8 && lex.concepts[o.concept as usize].kind == Kind::Action
        })
        .map(|o| o.clause)
        .min();
    // The name states another action, and neither the name nor the first sentence's main clause
    // (what the skill does) names one the request asks for: `Deck Polish` "restyles a PowerPoint"
    // is no rewriter. A name that only says it makes something (`Chart Maker`) states no other
    // action, unless the request asks for a specific action and no making at all: a contract
    // drafter (合同起草) for "check this lease before I sign" makes what the user already has.
    // For this check only, drawing a chart (`visualize`: 画 … 柱状图) is making too.
    let asks_other_than_making = !q
        .actions
        .iter()
        .any(|&a| making(a) || lex.concepts[a].name == VISUALIZE)
        && q.actions
            .iter()
            .any(|&a| !lex.concepts[a].minor && !lex.concepts[a].generic);
    let name_action_miss = q.actions.iter().any(|&a| !lex.concepts[a].minor)
        && doc
            .name_actions
            .iter()
            .any(|&a| lex.concepts[a as usize].name != GENERIC_MAKING || asks_other_than_making)
        && !doc.name_actions.iter().any(|&a| asked(a as usize))
        && !q.actions.iter().any(|&x| {
            std::iter::once(x)
                .chain(related(x).into_iter().map(|r| r.0))
                .any(|c| {
                    doc.occurrences_of(c)
                        .iter()
                        .any(|o| o.field == Field::Lead as u8 && Some(o.clause) == lead_verb)
                })
        });
    let other_language = matches!(
        (q.script, doc.script),
        (Some(Script::Latin), Some(Script::Han)) | (Some(Script::Han), Some(Script::Latin))
    );
    let strength = coverage
        * if object_miss || reversed {
            OBJECT_MISS
        } else if target_only {
            TARGET_ONLY
        } else {
            1.0
        }
        * bw;
    Match {
        strength,
        order_weight: if name_action_miss {
            NAME_ACTION_MISS
        } else {
            1.0
        } * if other_language { LANGUAGE_FIT } else { 1.0 }
            * lone_weight,
        coverage,
        matched,
        core: core && !reversed && !target_only && !doc.catch_all,
        single,
        object_miss,
        reversed,
        target_only,
        name_action_miss,
        other_language,
        doc_script: doc.script,
        catch_all: doc.catch_all,
        breadth_weight: bw,
        breadth: doc.breadth,
        broad_topic,
        lone,
    }
}

/// Relevance from the match strength and BM25F relative to the best candidate.
/// The lexical score a listing is ordered by. A listing written only in the other language shares
/// no words with the request by nature, so BM25 would order it last among equal concept matches
/// for a reason that says nothing about the job; it is credited its coverage instead (relative
/// to the best BM25, as the others are).
pub fn lexical_score(m: &Match, bm25: f64, best_bm25: f64) -> f64 {
    if m.other_language {
        bm25.max(m.coverage * best_bm25)
    } else {
        bm25
    }
}

pub fn relevance(strength: f64, bm25: f64, best_bm25: f64) -> f64 {
    let lexical = if best_bm25 > 0.0 {
        bm25 / best_bm25
    } else {
        0.0
    };
    strength * (1.0 - LEXICAL_SHARE + LEXICAL_SHARE * lexical)
}

/// BM25F of every document for the request.
pub fn bm25_all(index: &Index<'_>, q: &Query, n: usize) -> Vec<(f64, Vec<u32>)> {
    (0..n).map(|i| index.score(i, &q.tokens)).collect()
}

/// The matched units as the user wrote them, in the order of the request, at most six: concept terms
/// and whole words, never a bigram of an unknown Chinese stretch; a surface inside a longer one
/// shown is left out.
pub fn display_terms(q: &Query, matched: &[usize]) -> Vec<String> {
    let mut found: Vec<(u32, &str)> = matched
        .iter()
        .filter_map(|&i| q.units.get(i))
        .filter(|u| !u.surface.trim().is_empty())
        .map(|u| (u.at, u.surface.trim()))
        .collect();
    found.sort();
    let mut out: Vec<String> = Vec::new();
    for (_, s) in found {
        if out.iter().any(|o| o.contains(s)) {
            continue;
        }
        out.retain(|o| !s.contains(o.as_str()));
        out.push(s.to_owned());
    }
    out.truncate(6);
    out
}

/// The phrasing rules' readings behind the matched units ("备…课" read as 备课), for the `task`
/// factor's detail: each reading whose concepts a matched unit names.
/// The finished actions among the matched units (`Query::done`): their words as written.
pub fn matched_done<'q>(q: &'q Query, matched: &[usize]) -> Vec<&'q str> {
    q.done
        .iter()
        .filter(|(c, _)| {
            matched
                .iter()
                .filter_map(|&i| q.units.get(i))
                .any(|u| matches!(u.kind, UnitKind::Concept { concept, .. } if concept == *c))
        })
        .map(|(_, w)| w.as_str())
        .collect()
}

pub fn matched_readings<'q>(q: &'q Query, matched: &[usize]) -> Vec<&'q super::text::Reading> {
    q.readings
        .iter()
        .filter(|r| {
            matched.iter().filter_map(|&i| q.units.get(i)).any(|u| {
                matches!(u.kind, UnitKind::Concept { concept, .. } if r.concepts.contains(&concept))
            })
        })
        .collect()
}

/// Relevance bands: with a task, candidates whose relevance is within the same step of
/// [`BAND`] × the best relevance are ordered by their score (credibility, productivity and the
/// rest decide among comparable matches); a whole band of relevance outweighs any score.
pub const BAND: f64 = 0.05;

/// The band of a relevance below the best one (0 = the top band).
pub fn band(relevance: f64, best: f64) -> u32 {
    if best <= 0.0 {
        return 0;
    }
    libm::floor(((1.0 - relevance / best) / BAND).max(0.0)) as u32
}

mod typos;
pub use typos::{SUBSTITUTION_MIN, consults_vocabulary, correct_typos};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod lone_tests;
