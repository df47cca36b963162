//! A candidate's sort key without its document, when [`Scorer::new`] deferred every document.
//!
//! Without a task and without a signal that has words, a candidate's factors read its document
//! only through [`Traits::of_doc`]'s topics: the concepts of its categories field. The task factor
//! is 0 for every candidate (no query), the scenario factor reads no document (no signal has a
//! token to look up), and in manual mode no factor reads the families of the name and description
//! (those go into [`Ranked::work_family`], not into the score). So the key is computed from a
//! document of the categories alone, whose concept occurrences are the full document's for that
//! field ([`Doc::new`] analyzes each field's text on its own). Listings share their categories, so
//! that analysis is made once per distinct category list ([`KeyCache`]). A candidate that reaches
//! the head is scored in full ([`Scorer::score`] makes its whole document), so what is shown is
//! unchanged; `key_equals_score` checks the key against the full scoring.

use super::*;

/// What the order ([`Order`]) reads of a scored candidate besides the candidate itself.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::rank) struct SortKey {
    pub(in crate::rank) exact: bool,
    pub(in crate::rank) score: f64,
    pub(in crate::rank) tie: (f64, f64, u8),
}

/// The traits of each distinct category list met so far (for [`Scorer::key`]).
#[derive(Default)]
pub(in crate::rank) struct KeyCache {
    /// A category list, written injectively ([`list_key`]) → its index in `traits`.
    index: crate::strmap::StrMap<u32>,
    traits: Vec<Traits>,
    /// Scratch for [`list_key`].
    scratch: String,
}

#[cfg(test)]
impl KeyCache {
    /// How many category lists were analyzed.
    pub(in crate::rank) fn lists(&self) -> usize {
        self.traits.len()
    }
}

/// `categories` as one string that no other list gives: each item's byte length, a colon, the item.
fn list_key(categories: &[String], out: &mut String) {
    use std::fmt::Write;
    out.clear();
    for c in categories {
        let _ = write!(out, "{}:", c.len());
        out.push_str(c);
    }
}

impl Scorer<'_> {
    /// Candidate `i`'s sort key: what [`Scorer::score`] gives for it, without the factors' details
    /// ([`crate::rank::factors::factors_with`]) and the reasons, and without analyzing more than
    /// its categories when the documents were deferred.
    pub(in crate::rank) fn key(
        &self,
        i: usize,
        c: &Candidate,
        risk: Risk,
        cache: &mut KeyCache,
    ) -> SortKey {
        if !self.deferred || self.slot(i).is_some() {
            let s = self.score(i, c, risk);
            return SortKey {
                exact: s.exact,
                score: s.score,
                tie: s.tie,
            };
        }
        list_key(&c.categories, &mut cache.scratch);
        let at = match cache.index.get(&cache.scratch) {
            Some(&at) => at as usize,
            None => {
                let text = categories_text(c);
                let doc = Doc::new(
                    &mut self.vocab.borrow_mut(),
                    &[(Field::Categories, text.as_ref())],
                );
                cache.traits.push(Traits::of_doc(c, &doc));
                let at = cache.traits.len() - 1;
                cache.index.insert(&cache.scratch, at as u32);
                at
            }
        };
        let traits = &cache.traits[at];
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
        let p = self.preview(i, c);
        // The document is never read: no signal has a token (see the module's note).
        let mut factors = crate::rank::factors::factors_with(
            c,
            traits,
            risk,
            self.mode,
            self.task.as_deref(),
            p.relevance,
            p.exact,
            &Match::default(),
            &Doc::default(),
            &cx,
            false,
        );
        let assessed = adjust::Assessed::of(c, self.agent);
        factors.extend(adjust::factors(&assessed, self.lang));
        let score = factors.iter().map(Factor::points).sum();
        let value = |k| factors.iter().find(|f| f.key == k).map_or(0.0, |f| f.value);
        SortKey {
            exact: p.exact,
            score,
            tie: (
                value(FactorKey::Complement),
                value(FactorKey::Credibility),
                trust_rank(&c.source),
            ),
        }
    }
}
