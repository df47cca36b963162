//! Scoring one candidate at a time against what a ranking works out once (the user's profile, the
//! analyzed documents, the task's matches), and the order of a ranking. [`super::rank_for`] scores
//! every candidate into a [`Ranked`]; the `rank` export ([`super::export`]) scores each twice and
//! keeps only its sort key in between, so 100,000 candidates' factors and reasons never exist at
//! once (see [`super::export::write_ranking`]).

use std::borrow::Cow;
use std::cmp::Ordering;

use super::text::FIELDS;
use super::*;

/// What a ranking reads for every candidate, worked out once.
pub(super) struct Scorer<'e> {
    pub(super) mode: Mode,
    pub(super) theme: Option<Theme>,
    /// The task, trimmed; `None` when empty.
    pub(super) task: Option<String>,
    lang: Lang,
    clock: &'e Clock,
    agent: &'e crate::fit::Agent,
    profile: Profile,
    /// Shared with the documents made when an unanalyzed candidate is scored.
    vocab: std::cell::RefCell<Vocab>,
    /// The analyzed candidates' documents ([`Scorer::slot`]).
    docs: Vec<Doc>,
    /// By candidate: the index of its document in `docs`, or [`UNANALYZED`].
    slots: Vec<u32>,
    query: Option<Query>,
    signals: Vec<(String, Vec<u32>)>,
    /// By document: its match with the task and its BM25F (empty without a task).
    matches: Vec<Match>,
    bm25: Vec<f64>,
    best: f64,
    /// The request's lexical share of relevance ([`relevance::lexical_share`]).
    share: f64,
    task_key: Option<String>,
    /// No candidate was analyzed: the sort keys read only the categories ([`key`]).
    deferred: bool,
}

/// The slot of a candidate that has no document yet.
const UNANALYZED: u32 = u32::MAX;

/// A candidate's match with the task ([`Scorer::preview`]): the fields of a [`Ranked`] that the
/// task alone decides.
#[derive(Debug, Clone, Copy)]
pub struct Preview {
    /// [`Ranked::exact_name_match`].
    pub exact: bool,
    /// [`Ranked::relevance`].
    pub relevance: f64,
    /// [`Ranked::coverage`].
    pub strength: f64,
    /// [`Ranked::core_match`].
    pub core: bool,
    /// [`Ranked::single_match`].
    pub single: bool,
}

/// One candidate scored: everything of a [`Ranked`] but the candidate, its risk and its band.
pub(super) struct Scored {
    pub(super) exact: bool,
    pub(super) relevance: f64,
    pub(super) strength: f64,
    pub(super) core: bool,
    /// The match rests on one action, topic or free word of a longer request ([`super::Ranked::single_match`]).
    pub(super) single: bool,
    pub(super) work_family: bool,
    pub(super) factors: Vec<Factor>,
    pub(super) score: f64,
    pub(super) reasons: Vec<String>,
    pub(super) tie: (f64, f64, u8),
    pub(super) assessed: adjust::Assessed,
}

/// The texts of a candidate that task matching analyzes, by field: the name, the id's slug, the
/// categories, the description's first sentence and the rest, the agent's notes.
fn doc_texts(c: &Candidate) -> [(Field, Cow<'_, str>); 6] {
    let notes: Cow<'_, str> = match (c.pain_point.as_deref(), c.highlights.as_slice()) {
        (None | Some(""), []) => Cow::Borrowed(""),
        (Some(p), []) => Cow::Borrowed(p),
        (p, h) => format!("{} {}", p.unwrap_or(""), h.join(" ")).into(),
    };
    let categories = categories_text(c);
    let (lead, body) = crate::render::first_sentence(&c.description);
    [
        (Field::Name, spaced(&c.name, &['-', '_', '/'])),
        (Field::Name, spaced(id_slug(&c.skill_id), &['-', '_', '/'])),
        (Field::Categories, categories),
        (Field::Lead, lead.into()),
        (Field::Body, body.into()),
        (Field::AgentNotes, notes),
    ]
}

/// The categories as [`doc_texts`] gives them to the analysis.
fn categories_text(c: &Candidate) -> Cow<'_, str> {
    match c.categories.as_slice() {
        [] => Cow::Borrowed(""),
        [one] => spaced(one, &['-']),
        many => Cow::Owned(many.join(", ").replace('-', " ")),
    }
}

/// `text` with each of `seps` replaced by a space, borrowed when it has none.
fn spaced<'t>(text: &'t str, seps: &[char]) -> Cow<'t, str> {
    if text.contains(seps) {
        Cow::Owned(text.replace(seps, " "))
    } else {
        Cow::Borrowed(text)
    }
}

/// The fields of [`doc_texts`] as [`Doc::new`] takes them.
fn as_fields<'t>(texts: &'t [(Field, Cow<'_, str>); 6]) -> [(Field, &'t str); 6] {
    texts.each_ref().map(|(f, t)| (*f, t.as_ref()))
}

impl<'e> Scorer<'e> {
    /// Analyze `cands` (in the order [`Scorer::score`] will be given their indexes).
    ///
    /// `lazy`: with a task whose analysis does not depend on the candidates (no word of it is
    /// checked against their vocabulary as a possible typo, [`relevance::consults_vocabulary`]),
    /// the task is analyzed first, and a candidate whose texts hold nothing it can match
    /// ([`relevance::Reach`]) gets no document: only its field lengths are counted (BM25F's
    /// averages are over every candidate) and its match is the empty one, which is what matching
    /// its document would give. Its document is made when it is scored ([`Scorer::score`]).
    /// Everything a caller reads is the same as without `lazy`.
    pub(super) fn new<'c>(
        cands: impl Iterator<Item = &'c Candidate>,
        mode: Mode,
        request: &Request,
        env: &Env<'e>,
        agent: &'e crate::fit::Agent,
        lazy: bool,
    ) -> Scorer<'e> {
        let Env {
            state,
            history,
            installed,
            clock,
            lang,
        } = *env;
        let profile = Profile::new(state, history, installed, request, clock);
        let theme = (mode == Mode::Daily).then(|| theme_for_today(state, clock));
        let mut vocab = Vocab::default();
        let task = request
            .task
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let analyze_query = |vocab: &mut Vocab, t: &str| {
            let corrected = relevance::correct_typos(vocab, t);
            let a = vocab.analyze_request(&corrected);
            Query::new(vocab, &a)
        };
        // The task first when nothing about it depends on the candidates.
        let early = task
            .filter(|t| lazy && !relevance::consults_vocabulary(t))
            .map(|t| analyze_query(&mut vocab, t));
        let reach = early.as_ref().map(Query::reach);
        // Without a task or a signal's words the sort keys read nothing of a document but the
        // categories' concepts ([`key`]): documents are made only for candidates that are scored.
        let deferred = lazy
            && mode == Mode::Manual
            && task.is_none()
            && profile.signals.iter().all(|(_, toks)| toks.is_empty());
        let mut docs: Vec<Doc> = Vec::new();
        let mut slots: Vec<u32> = Vec::new();
        let mut other_lengths = [0usize; FIELDS];
        let mut others = 0usize;
        for c in cands {
            if deferred {
                slots.push(UNANALYZED);
                continue;
            }
            let texts = doc_texts(c);
            let fields = as_fields(&texts);
            if let Some(reach) = &reach {
                // Counted, not analyzed, until a text holds something the task can match.
                let mut lens = [0usize; FIELDS];
                let mut touched = false;
                for (f, text) in &fields {
                    let (n, t) = reach.count(&mut vocab, text);
                    if t {
                        touched = true;
                        break;
                    }
                    lens[*f as usize] += n;
                }
                if !touched {
                    for (total, len) in other_lengths.iter_mut().zip(lens) {
                        *total += len;
                    }
                    others += 1;
                    slots.push(UNANALYZED);
                    continue;
                }
            }
            slots.push(docs.len() as u32);
            docs.push(Doc::new(&mut vocab, &fields));
        }
        let mut query = match early {
            Some(q) => Some(q),
            None => task.map(|t| analyze_query(&mut vocab, t)),
        };
        let signals: Vec<(String, Vec<u32>)> = profile
            .signals
            .iter()
            .map(|(text, toks)| {
                let ids: Vec<u32> = toks.iter().map(|t| vocab.intern(t)).collect();
                (text.clone(), distinct(&ids))
            })
            .collect();
        let (mut matches, bm25): (Vec<Match>, Vec<f64>) = match &mut query {
            Some(q) => {
                // The postings are read here only: they are freed before any candidate is scored.
                let index = Index::with_others(&docs, &vocab, other_lengths, others);
                // The free words share their weight by rarity among these candidates (`rank33`).
                q.weigh_by_rarity(index.count(), |t| {
                    (index.doc_freq(t) > 0).then(|| index.idf(t))
                });
                let q = &*q;
                (0..docs.len())
                    .map(|i| (match_doc(q, &docs[i]), index.score(i, &q.tokens).0))
                    .unzip()
            }
            None => (Vec::new(), Vec::new()),
        };
        relevance::prefer_same_language_twin(&mut matches);
        if let Some(q) = &query {
            relevance::prefer_subject_words(&mut matches, q);
        }
        let best = bm25.iter().copied().fold(0.0, f64::max);
        // How much of the order shared words decide: more when no candidate matches the
        // request's concepts well (one pass over the matches: linear in the candidates).
        let share =
            relevance::lexical_share(matches.iter().map(|m| m.strength).fold(0.0, f64::max));
        Scorer {
            share,
            mode,
            theme,
            task: task.map(str::to_owned),
            lang,
            clock,
            agent,
            task_key: task.map(name_key).filter(|k| !k.is_empty()),
            profile,
            vocab: std::cell::RefCell::new(vocab),
            docs,
            slots,
            query,
            signals,
            matches,
            bm25,
            best,
            deferred,
        }
    }

    /// Candidate `i`'s match with the task alone, before any factor (what [`Scorer::score`] reads
    /// of it): cheap, so a ranking can tell which candidates can lead before it scores them.
    pub(super) fn preview(&self, i: usize, c: &Candidate) -> Preview {
        let exact = self
            .task_key
            .as_ref()
            .is_some_and(|k| *k == name_key(&c.name) || *k == name_key(id_slug(&c.skill_id)));
        let no_match = Match::default();
        let slot = self.slot(i);
        let m = slot.and_then(|d| self.matches.get(d)).unwrap_or(&no_match);
        let strength = if exact { 1.0 } else { m.strength };
        let relevance = if exact {
            1.0
        } else {
            // The rare words' raise orders the candidates; the cut-off reads `strength` alone.
            relevance::relevance_with(
                (m.strength + m.rare_lift) * m.order_weight,
                relevance::lexical_score(
                    m,
                    slot.and_then(|d| self.bm25.get(d)).map_or(0.0, |b| *b),
                    self.best,
                ),
                self.best,
                self.share,
            )
        };
        Preview {
            exact,
            relevance,
            strength,
            core: exact || m.core,
            single: !exact && !m.core && m.single,
        }
    }

    /// The index in `docs` (and `matches`, `bm25`) of candidate `i`'s document; `None` when it was
    /// not analyzed (see [`Scorer::new`]).
    fn slot(&self, i: usize) -> Option<usize> {
        match self.slots.get(i) {
            Some(&UNANALYZED) => None,
            Some(&d) => Some(d as usize),
            None => Some(i),
        }
    }

    /// Score candidate `i` (`c`, as given to [`Scorer::new`]).
    pub(super) fn score(&self, i: usize, c: &Candidate, risk: Risk) -> Scored {
        // A candidate that was not analyzed gets its document now, and its match (the empty one
        // in effect: see `relevance::Reach`, but the factors read the match's details).
        let made = match self.slot(i) {
            Some(_) => None,
            None => {
                let texts = doc_texts(c);
                let doc = Doc::new(&mut self.vocab.borrow_mut(), &as_fields(&texts));
                let m = self
                    .query
                    .as_ref()
                    .map_or_else(Match::default, |q| match_doc(q, &doc));
                Some((doc, m))
            }
        };
        let vocab = self.vocab.borrow();
        let cx = Ctx {
            lang: self.lang,
            clock: self.clock,
            profile: &self.profile,
            theme: self.theme,
            vocab: &vocab,
            signals: &self.signals,
            query: self.query.as_ref(),
            lexical_share: self.share,
        };
        let Preview {
            exact,
            relevance,
            strength,
            core,
            single,
        } = self.preview(i, c);
        let no_match = Match::default();
        let (doc, m) = match (&made, self.slot(i)) {
            (Some((doc, m)), _) => (doc, m),
            (None, Some(d)) => (&self.docs[d], self.matches.get(d).unwrap_or(&no_match)),
            (None, None) => unreachable!("an unanalyzed candidate's document is made above"),
        };
        let traits = Traits::of_doc(c, doc);
        let work_family = traits.work_family();
        let mut factors = factors(
            c,
            &traits,
            risk,
            self.mode,
            self.task.as_deref(),
            relevance,
            exact,
            m,
            doc,
            &cx,
        );
        let assessed = adjust::Assessed::of(c, self.agent);
        factors.extend(adjust::factors(&assessed, self.lang));
        let score = factors.iter().map(Factor::points).sum();
        let reasons = reasons(&factors, risk, self.lang);
        let value = |k| factors.iter().find(|f| f.key == k).map_or(0.0, |f| f.value);
        let tie = (
            value(FactorKey::Complement),
            value(FactorKey::Credibility),
            trust_rank(&c.source),
        );
        Scored {
            exact,
            relevance,
            strength,
            core,
            single,
            work_family,
            factors,
            score,
            reasons,
            tie,
            assessed,
        }
    }

    /// With a task in manual mode, the best relevance of all candidates: bands are counted from it.
    /// `None` otherwise (every candidate is in band 0).
    pub(super) fn best_relevance(&self, relevances: impl Iterator<Item = f64>) -> Option<f64> {
        (self.mode == Mode::Manual && self.query.is_some()).then(|| relevances.fold(0.0, f64::max))
    }
}

/// The sort key of a ranked candidate. Best first: exact name match, relevance band (with a task),
/// score, then complement, credibility, trust, id, name, URL.
pub(super) struct Order<'a> {
    pub(super) exact: bool,
    pub(super) band: u32,
    pub(super) score: f64,
    pub(super) tie: (f64, f64, u8),
    pub(super) candidate: &'a Candidate,
}

impl<'a> Order<'a> {
    pub(super) fn of(r: &'a Ranked) -> Order<'a> {
        Order {
            exact: r.exact_name_match,
            band: r.band,
            score: r.score,
            tie: r.tie,
            candidate: &r.candidate,
        }
    }

    pub(super) fn cmp(&self, b: &Order<'_>) -> Ordering {
        let a = self;
        b.exact
            .cmp(&a.exact)
            .then(a.band.cmp(&b.band))
            .then(b.score.total_cmp(&a.score))
            .then(b.tie.0.total_cmp(&a.tie.0))
            .then(b.tie.1.total_cmp(&a.tie.1))
            .then(b.tie.2.cmp(&a.tie.2))
            // The string keys only break ties (`then_with`: not compared at all when the score decides).
            .then_with(|| a.candidate.skill_id.cmp(&b.candidate.skill_id))
            .then_with(|| a.candidate.name.cmp(&b.candidate.name))
            .then_with(|| a.candidate.url.cmp(&b.candidate.url))
    }
}

pub(super) mod key;
#[cfg(test)]
mod tests;
