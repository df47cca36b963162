//! A ranking scored a group at a time, best group first, so that a caller that reads only the head
//! of the order (`recommend` lists ten entries and picks from the head) does not score, sort and
//! drop 100,000 candidates to read ten.
//!
//! Why the head is exact: the order ([`super::compare`]) compares first the exact name match, then
//! the relevance band, and only then the score and the rest. Both come from the candidate's match
//! with the task alone ([`Scorer::preview`], computed for every candidate and the very values
//! [`Scorer::score`] uses), and the band from the best relevance over all candidates, as
//! [`super::rank_for`] computes it. So the candidates fall into groups of equal (exact, band); every
//! candidate of a group comes before every candidate of a later group whatever their scores; and
//! within a group the full order is the group's own order under the same comparison, with ties kept
//! in input order (both sorts are stable and the groups keep the input order). Scoring and sorting
//! the groups one after another therefore yields a prefix of exactly the ranking
//! [`super::rank_for`] makes, entry for entry and position for position. A property test
//! (`recommend::tests::staged_recommend_equals_full`) compares the two on random candidate sets.
//!
//! With a task in manual mode the groups are small: candidates that share nothing with the task have
//! relevance 0 and sit in the last band together, and only a catalog whose candidates all miss the
//! task needs that group scored. Without a task (or in daily mode) every candidate is in one group.
//!
//! Within a group, a candidate is first scored for its sort key only ([`Scorer::score`]'s score and
//! tie-breakers; its factors and reasons are dropped at once), the group's input indexes are sorted
//! by those keys with the same comparison, and a [`Ranked`] is made (the candidate scored again)
//! only when the caller reads that far ([`Staged::score_more`]). Scoring is a pure function of the
//! candidate and what [`Scorer::new`] worked out (the `rank` export relies on the same), so both
//! scorings agree and the order is the one sorting the [`Ranked`] values gives. At 100,000
//! candidates in one group this keeps 100,000 keys instead of 100,000 factor lists and reason
//! texts, and sorts 64-byte keys instead of moving whole entries. Without a task (and without
//! signal words) in manual mode the key reads nothing of a candidate's texts but its categories
//! ([`Scorer::key`]): no listing is analyzed until it is scored into the head.

use super::*;

/// A ranking scored group by group ([`Staged::score_next_group`]).
pub struct Staged<'e> {
    scorer: Scorer<'e>,
    mode: Mode,
    /// Every candidate's match with the task, by input index.
    previews: Vec<Preview>,
    /// Every candidate's band, by input index.
    bands: Vec<u32>,
    /// Input indexes by group (exact matches first, then by band; input order within a group).
    order: Vec<usize>,
    /// How many of `order` are scored (for their keys at least).
    next: usize,
    /// The input indexes of the group scored last that are not in `ranked` yet, in their final
    /// order (front first).
    queue: std::collections::VecDeque<usize>,
    /// The candidates not scored yet, by input index.
    pending: Vec<Option<(Candidate, Risk, Vec<RiskFinding>)>>,
    /// The scored head of the ranking, in its final order.
    ranked: Vec<Ranked>,
    /// What the sort keys share between candidates ([`Scorer::key`]).
    keys: scorer::key::KeyCache,
}

impl<'e> Staged<'e> {
    /// Analyze `cands` and match them with the task; score nothing yet.
    pub fn new(
        cands: Vec<(Candidate, Risk, Vec<RiskFinding>)>,
        mode: Mode,
        request: &Request,
        env: &Env<'e>,
        agent: &'e crate::fit::Agent,
    ) -> Staged<'e> {
        // Manual mode reads the head of the order: candidates the task cannot match are scored only
        // if the head reaches their group, so they are analyzed only then. Daily mode scores all.
        let lazy = mode == Mode::Manual;
        let scorer = Scorer::new(
            cands.iter().map(|(c, _, _)| c),
            mode,
            request,
            env,
            agent,
            lazy,
        );
        let previews: Vec<Preview> = cands
            .iter()
            .enumerate()
            .map(|(i, (c, _, _))| scorer.preview(i, c))
            .collect();
        let bands: Vec<u32> = match scorer.best_relevance(previews.iter().map(|p| p.relevance)) {
            Some(best) => previews
                .iter()
                .map(|p| relevance::band(p.relevance, best))
                .collect(),
            None => vec![0; previews.len()],
        };
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by_key(|&i| (!previews[i].exact, bands[i]));
        Staged {
            scorer,
            mode,
            previews,
            bands,
            order,
            next: 0,
            queue: std::collections::VecDeque::new(),
            pending: cands.into_iter().map(Some).collect(),
            ranked: Vec::new(),
            keys: Default::default(),
        }
    }

    /// The scored head of the ranking (a prefix of the full ranking).
    pub fn ranked(&self) -> &[Ranked] {
        &self.ranked
    }

    /// Whether every candidate is scored.
    pub fn is_complete(&self) -> bool {
        self.next == self.order.len() && self.queue.is_empty()
    }

    /// The task matches of the candidates not in the head yet, in the order they would join it
    /// (within a later group, in input order).
    pub fn pending(&self) -> impl Iterator<Item = &Preview> + '_ {
        self.queue
            .iter()
            .chain(&self.order[self.next..])
            .map(|&i| &self.previews[i])
    }

    /// Sort the next group by its members' keys into `queue`; false when every group was.
    fn queue_next_group(&mut self) -> bool {
        let Some(&first) = self.order.get(self.next) else {
            return false;
        };
        let key = |i: usize| (self.previews[i].exact, self.bands[i]);
        let group = key(first);
        let end = self.next
            + self.order[self.next..]
                .iter()
                .take_while(|&&i| key(i) == group)
                .count();
        /// What [`super::compare`] reads of a [`Ranked`] besides its candidate, by input index.
        struct Key {
            index: usize,
            exact: bool,
            band: u32,
            score: f64,
            tie: (f64, f64, u8),
        }
        let cache = &mut self.keys;
        let mut keys: Vec<Key> = self.order[self.next..end]
            .iter()
            .map(|&i| {
                let (c, risk, _) = self.pending[i].as_ref().expect("scored once");
                let s = self.scorer.key(i, c, *risk, cache);
                Key {
                    index: i,
                    exact: s.exact,
                    band: self.bands[i],
                    score: s.score,
                    tie: s.tie,
                }
            })
            .collect();
        let pending = &self.pending;
        let order = |k: &Key| scorer::Order {
            exact: k.exact,
            band: k.band,
            score: k.score,
            tie: k.tie,
            candidate: &pending[k.index].as_ref().expect("not scored yet").0,
        };
        keys.sort_by(|a, b| order(a).cmp(&order(b)));
        self.queue.extend(keys.iter().map(|k| k.index));
        self.next = end;
        true
    }

    /// Append up to `n` more candidates to the head, in order; false when none was left.
    pub fn score_more(&mut self, n: usize) -> bool {
        let mut added = 0;
        while added < n {
            if self.queue.is_empty() && !self.queue_next_group() {
                break;
            }
            let i = self.queue.pop_front().expect("a queued candidate");
            let (c, risk, findings) = self.pending[i].take().expect("scored once");
            let mut r = ranked_of(&self.scorer, i, c, risk, findings);
            r.band = self.bands[i];
            self.ranked.push(r);
            added += 1;
        }
        added > 0
    }

    /// Append the rest of the current group, or else the next group, to the head; false when
    /// every candidate was scored.
    pub fn score_next_group(&mut self) -> bool {
        if self.queue.is_empty() && !self.queue_next_group() {
            return false;
        }
        self.score_more(self.queue.len())
    }

    /// Score until at least `n` candidates are in the head (or all are).
    pub fn score_at_least(&mut self, n: usize) {
        let short = n.saturating_sub(self.ranked.len());
        if short > 0 {
            self.score_more(short);
        }
    }

    /// The head scored so far as a ranking (the rest is dropped unscored).
    pub fn into_ranking(self) -> Ranking {
        let ranking = Ranking {
            mode: self.mode,
            theme: self.scorer.theme,
            task: self.scorer.task.clone(),
            ranked: self.ranked,
        };
        // The vocabulary, the documents and the candidates never scored: at 100,000 candidates
        // freeing them one by one was ~10% of `recommend`'s whole process (see `crate::discard`).
        crate::discard((
            self.scorer,
            self.pending,
            self.previews,
            self.order,
            self.queue,
            self.keys,
        ));
        ranking
    }
}
