//! A request's units: its concepts and free words, read from its analysis (`Query`), and what it
//! reaches in a listing's text (`Reach`).

use super::*;

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
    pub(super) related: Vec<Vec<(usize, f64)>>,
    /// Conversions asked for: (source, target).
    pub directions: Vec<(usize, usize)>,
    /// Each asked conversion's ends with their broader and narrower kinds (a CSV is a spreadsheet).
    pub(super) direction_kin: Vec<(Vec<u16>, Vec<u16>)>,
    /// The main part's actions (any part's when the main part has none).
    pub actions: Vec<usize>,
    /// The objects and the concepts related to them.
    pub(super) object_family: Vec<usize>,
    pub(super) unknown_object: bool,
    /// The script the request is written in.
    pub script: Option<Script>,
    /// What the phrasing rules read ([`super::phrasing`]), for the `task` factor's detail.
    pub readings: Vec<super::super::text::Reading>,
    /// Actions the request says were already done (写了篇, 剪好了), each with its words: they weigh
    /// as a side part ([`parts::completed_actions`]) and the `task` factor's detail says so.
    pub done: Vec<(usize, String)>,
    /// Each free word's weight against its even share of the free words' weight, by unit index
    /// ([`Query::weigh_by_rarity`]; empty until the candidates are known).
    pub rarity: Vec<(usize, f64)>,
    /// What a listing that has a rare free word earns on top of its weight in the order, by unit
    /// index ([`super::rarity::RARE_WORD_WEIGHT`]): not part of the request's total weight, and
    /// not of the match strength the cut-off reads ([`super::Match::rare_lift`]).
    pub rare_bonus: Vec<(usize, f64)>,
    /// Per uncovered Chinese stretch (by unit index), each of its characters' weight in the
    /// stretch's match (`rank49`, [`Query::weigh_by_rarity`]): the idf over the candidates of the
    /// bigrams that hold it. Empty until the candidates are known; a stretch not in it matches by
    /// the share of its bigrams a listing has.
    pub stretch_weights: Vec<(usize, Vec<f64>)>,
    /// Per uncovered Chinese stretch of three or more characters (by unit index), how rare its
    /// characters' mean weight in [`Query::stretch_weights`] is among the candidates, in [0, 1]
    /// (`rank50`, [`Query::weigh_by_rarity`]): 0 at or under the idf of a pair
    /// [`super::rarity::RARE_SHARE`] of the candidates have, 1 at a pair one candidate has; a
    /// stretch none of whose pairs any candidate has is not in it.
    pub stretch_rare: Vec<(usize, f64)>,
    /// Per free word or stretch (by unit index), the tokens of a word that names it in the other
    /// language (`rank51`, [`super::translate`]): a listing that has them matches the unit at
    /// [`super::translate::TRANSLATION_CREDIT`].
    pub alts: Vec<(usize, Vec<u32>)>,
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
        if super::super::lexicon::is_cjk(c) {
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
        q.done.extend(super::parts::relative_clause_actions(
            &mut q.units,
            &a.lower,
        ));
        super::parts::dual_readings(&mut q.units);
        // The request's concepts of one kind, of one part (`Some(side)`) or of both.
        let of_kind = |units: &[Unit], want: Kind, side: Option<bool>| -> Vec<usize> {
            units
                .iter()
                .filter(|u| side.is_none_or(|s| u.side == s))
                .filter_map(|u| match u.kind {
                    UnitKind::Concept { concept, kind } if kind == want => Some(concept),
                    _ => None,
                })
                .collect()
        };
        let objects = |side: Option<bool>| of_kind(&q.units, Kind::Object, side);
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
        let actions = |side: Option<bool>| of_kind(&q.units, Kind::Action, side);
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
        // A concept's token only while it is a unit (a dropped reading: `parts::dual_readings`).
        for c in a.concepts.iter().filter(|c| {
            q.units.iter().any(
                |u| matches!(u.kind, UnitKind::Concept { concept, .. } if concept == c.concept),
            )
        }) {
            let name = format!("@{}", lex.concepts[c.concept].name);
            push(vocab.intern(&name), c.side);
        }
        q.tokens = tokens;
        q.translate(vocab, a);
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
