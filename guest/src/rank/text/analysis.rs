//! A text's analysis: lexical tokens (stems, Chinese words, bigrams) and the concepts it names,
//! read in one pass of the lexicon's automaton over the normalized text.

use super::*;
use crate::rank::phrasing::FORMAT_WORDS;

impl Vocab {
    /// Analyze a request: [`Vocab::analyze_text`], then the phrasing rules of requests
    /// ([`super::phrasing`]: separable words, routes, implied conversions).
    pub fn analyze_request(&mut self, text: &str) -> Analysis {
        let mut a = self.analyze_text(text);
        a.raw = text.to_owned();
        super::super::phrasing::apply(&mut a);
        a
    }

    /// Analyze a text: lexical tokens (stems, Chinese words, bigrams of uncovered Chinese stretches)
    /// and the concepts it names.
    pub fn analyze_text(&mut self, text: &str) -> Analysis {
        let mut lower = crate::lowercase(text);
        if !lower.is_ascii() {
            // 繁體 read as 简体 for every rule that reads the lower-cased text, too.
            lower = lower.chars().map(super::vocab::fold_traditional).collect();
        }
        self.normalize(&lower);
        let lex = lexicon();
        let mut out = Analysis::default();
        let spans = std::mem::take(&mut self.spans);
        let norm = std::mem::take(&mut self.norm);
        // Where the side part starts in the normalized text (after the first side marker that
        // follows some content).
        let mut side_from = usize::MAX;
        // Per span: the norm ranges inside it that hits cover, and whether a concept covers it.
        // (span index, cover) in span order: hits come left to right.
        let mut covered: Vec<(usize, Cover)> = Vec::new();
        let mut first = 0usize;
        // (sentence, position, object) in text order, and the first direction marker of each
        // sentence.
        let mut objects: Vec<(u16, usize, usize)> = Vec::new();
        let mut markers: Vec<(u16, usize)> = Vec::new();
        // Where each marker of `markers` ends, and (start, clause, is a file format, is an action)
        // of every concept hit, in text order: whether a marker introduces a format.
        let mut marker_ends: Vec<usize> = Vec::new();
        let mut hit_kinds: Vec<(usize, u16, bool, bool)> = Vec::new();
        // The first source marker of each sentence ("builds X from Y"): (sentence, clause, position).
        let mut sources: Vec<(u16, u16, usize)> = Vec::new();
        // The clause of each object in `objects`.
        let mut object_clauses: Vec<u16> = Vec::new();
        // (clause, position) of each making action ("builds", "turns … into").
        let mut makings: Vec<(u16, usize)> = Vec::new();
        let mut converts = false;
        let mut seen_action = false;
        for hit in lex.hits(&norm) {
            while first < spans.len() && spans[first].norm.1 <= hit.start {
                first += 1;
            }
            if first >= spans.len() {
                break;
            }
            let concepts = lex.hit_concepts(&hit);
            let stop = lex.hit_is_stop(&hit);
            if lex.hit_is_side(&hit) && side_from == usize::MAX && hit.start > 2 {
                side_from = hit.start;
            }
            out.catch_all |= lex.hit_is_catch_all(&hit);
            if lex.hit_is_direction(&hit) && !markers.iter().any(|m| m.0 == spans[first].sentence) {
                markers.push((spans[first].sentence, hit.start));
                marker_ends.push(hit.end);
            }

            if concepts.iter().any(|&c| {
                matches!(
                    lex.concepts[c].name.as_str(),
                    super::super::relevance::GENERIC_MAKING | "convert"
                )
            }) {
                makings.push((spans[first].clause, hit.start));
            }
            if lex.hit_is_source(&hit) && !sources.iter().any(|m| m.0 == spans[first].sentence) {
                sources.push((spans[first].sentence, spans[first].clause, hit.start));
            }
            let is_action = concepts
                .iter()
                .any(|&c| lex.concepts[c].kind == Kind::Action);
            // "… and remove the blank pages": a second action after "and" starts the side part.
            if is_action && seen_action && side_from == usize::MAX && first > 0 {
                let prev = &spans[first - 1];
                if prev.clause == spans[first].clause
                    && prev.word.is_some_and(|(id, _)| self.text(id) == "and")
                {
                    side_from = prev.norm.0;
                }
            }
            seen_action |= is_action;
            for &c in concepts {
                let concept = &lex.concepts[c];
                match concept.kind {
                    Kind::Object if !concept.generic => {
                        objects.push((spans[first].sentence, hit.start, c));
                        object_clauses.push(spans[first].clause);
                    }
                    Kind::Action
                        if matches!(
                            concept.name.as_str(),
                            "convert" | "extract" | "transcribe"
                        ) =>
                    {
                        converts = true;
                    }
                    _ => {}
                }
            }
            let mut last = first;
            while last + 1 < spans.len() && spans[last + 1].norm.0 < hit.end {
                last += 1;
            }
            let clause = spans[first].clause;
            let sentence = spans[first].sentence;
            let o_start = spans[first].orig.0 + hit.start.saturating_sub(spans[first].norm.0);
            let o_end = if hit.end >= spans[last].norm.1 {
                spans[last].orig.1
            } else {
                spans[last].orig.0 + (hit.end - spans[last].norm.0)
            };
            if !concepts.is_empty() {
                let kind = |c: &usize| &lex.concepts[*c];
                let format = lower
                    .get(o_start..o_end)
                    .is_some_and(|w| FORMAT_WORDS.contains(&w.trim_start_matches('.')));
                hit_kinds.push((
                    hit.start,
                    spans[first].clause,
                    format
                        && concepts
                            .iter()
                            .any(|c| kind(c).kind == Kind::Object && !kind(c).generic),
                    concepts.iter().any(|c| kind(c).kind == Kind::Action),
                ));
            }
            for span in first..=last {
                covered.push((
                    span,
                    Cover {
                        from: hit.start,
                        to: hit.end,
                        concept: !concepts.is_empty(),
                        stop,
                    },
                ));
            }
            for &c in concepts {
                out.concepts.push(ConceptHit {
                    concept: c,
                    clause,
                    sentence,
                    side: hit.start >= side_from,
                    at: (o_start as u32, o_end as u32),
                });
            }
        }
        // A direction marker that introduces a file format ("as a high-resolution JPG", "save to
        // pdf", "export as an editable docx") reads the direction without a conversion verb: the
        // next concept after it, in its clause, is that format, with at most a determiner and
        // MAX_MODIFIERS words between. A place is no format ("add subtitles to my video", "jot
        // these into my to-do app", 丢到服务器上).
        let introduces_format = |i: usize| {
            let end = marker_ends[i];
            let Some(&(start, clause, format, action)) = hit_kinds.iter().find(|h| h.0 >= end)
            else {
                return false;
            };
            let between = spans
                .iter()
                .filter(|sp| sp.norm.0 >= end && sp.norm.1 <= start)
                .count();
            let marker_clause = spans.iter().find(|sp| sp.norm.1 >= end).map(|sp| sp.clause);
            format
                && !action
                && marker_clause == Some(clause)
                && between <= 1 + super::super::senses::MAX_MODIFIERS
        };
        // A name ("PDF to Word") is a conversion by itself.
        {
            // Only beside another main action: a text that asks nothing else is read by the
            // implied-conversion rule of requests (`phrasing`), which also adds the conversion.
            let other_action = out.concepts.iter().any(|h| {
                let c = &lex.concepts[h.concept];
                c.kind == Kind::Action && !c.minor && c.name != "convert" && !h.side
            });
            let read =
                |i: usize| converts || spans.len() <= 6 || (other_action && introduces_format(i));
            for (_, &(clause, at)) in markers.iter().enumerate().filter(|&(i, _)| read(i)) {
                let before = objects.iter().filter(|o| o.0 == clause && o.1 < at);
                for &(_, _, src) in before {
                    for &(_, _, dst) in objects.iter().filter(|o| o.0 == clause && o.1 > at) {
                        if src != dst && !out.directions.contains(&(src, dst)) {
                            out.directions.push((src, dst));
                        }
                    }
                }
            }
            // "Builds an expense report from a folder of receipts": the objects before the marker
            // are made from those after it in the same clause (receipts → expense report), when a
            // making action comes before it in that clause ("summarize a video from its transcript"
            // makes no video).
            for &(sentence, clause, at) in &sources {
                if !(converts || spans.len() <= 6)
                    || !makings.iter().any(|&(c, p)| c == clause && p < at)
                {
                    continue;
                }
                let in_sentence = || {
                    objects
                        .iter()
                        .zip(&object_clauses)
                        .filter(move |(o, _)| o.0 == sentence)
                };
                for (&(_, _, dst), _) in in_sentence().filter(|(o, _)| o.1 < at) {
                    for (&(_, _, src), _) in
                        in_sentence().filter(|(o, c)| **c == clause && o.1 > at)
                    {
                        if src != dst && !out.directions.contains(&(src, dst)) {
                            out.directions.push((src, dst));
                        }
                    }
                }
            }
        }
        let mut stretch = 0u32;
        let mut next_cover = 0usize;
        for (i, sp) in spans.iter().enumerate() {
            let from = next_cover;
            while next_cover < covered.len() && covered[next_cover].0 == i {
                next_cover += 1;
            }
            let covers = &covered[from..next_cover];
            let side = sp.norm.0 >= side_from;
            let clause = sp.clause;
            match sp.word {
                Some((id, stop)) => {
                    if !stop {
                        out.tokens.push(Token {
                            id,
                            kind: TokKind::Word,
                            clause,
                            side,
                            free: !covers.iter().any(|c| c.1.concept),
                            stretch: 0,
                            at: (sp.orig.0 as u32, sp.orig.1 as u32),
                        });
                    }
                }
                None => {
                    // Walk the CJK run: dictionary hits are words; the gaps become bigrams.
                    let mut pos = sp.norm.0;
                    let mut emit_gap =
                        |from: usize, to: usize, out: &mut Analysis, v: &mut Vocab| {
                            if from >= to {
                                return;
                            }
                            stretch += 1;
                            let gap = &norm[from..to];
                            let idx: Vec<usize> = gap
                                .char_indices()
                                .map(|(k, _)| k)
                                .chain([gap.len()])
                                .collect();
                            let grams: Vec<(usize, usize)> = if idx.len() == 2 {
                                vec![(0, gap.len())]
                            } else {
                                idx.windows(3).map(|w| (w[0], w[2])).collect()
                            };
                            for (a, b) in grams {
                                let id = v.intern(&gap[a..b]);
                                let o = sp.orig.0 + (from - sp.norm.0);
                                out.tokens.push(Token {
                                    id,
                                    kind: TokKind::CjkGram,
                                    clause,
                                    side: from >= side_from,
                                    free: true,
                                    stretch,
                                    at: ((o + a) as u32, (o + b) as u32),
                                });
                            }
                        };
                    for (_, c) in covers {
                        let (s, e) = (c.from.max(sp.norm.0), c.to.min(sp.norm.1));
                        if s > pos {
                            emit_gap(pos, s, &mut out, self);
                        }
                        let word = &norm[s..e];
                        if !c.stop {
                            let id = self.intern(word);
                            let o = sp.orig.0 + (s - sp.norm.0);
                            out.tokens.push(Token {
                                id,
                                kind: TokKind::CjkWord,
                                clause,
                                side: s >= side_from,
                                free: !c.concept,
                                stretch: 0,
                                at: (o as u32, (o + (e - s)) as u32),
                            });
                        }
                        pos = pos.max(e);
                    }
                    if pos < sp.norm.1 {
                        emit_gap(pos, sp.norm.1, &mut out, self);
                    }
                }
            }
        }
        self.spans = spans;
        self.norm = norm;
        out.lower = lower;
        out
    }

    /// What [`Doc::assemble`] reads of [`Vocab::analyze_text`]'s analysis of `text` when the
    /// document is not made: how many tokens it adds to its field (lexical tokens and concept
    /// hits: `tokens.len() + concepts.len()`) and whether one of them is wanted (a lexical token
    /// id in `wanted_ids`, sorted; a concept whose index is true in `wanted_concepts`). The same
    /// normalization, lexicon hits and Chinese segmentation, without the positions, clauses, side
    /// parts and conversions the analysis records, and without interning Chinese words and bigrams
    /// (an id not interned yet is no wanted one).
    pub fn count_tokens(
        &mut self,
        text: &str,
        wanted_ids: &[u32],
        wanted_concepts: &[bool],
    ) -> (usize, bool) {
        let wanted = |id: Option<u32>| id.is_some_and(|id| wanted_ids.binary_search(&id).is_ok());
        // The lower-cased text is needed only while it is normalized: a buffer reused between
        // texts (one allocation less per text counted).
        let mut lower = std::mem::take(&mut self.lower);
        lower.clear();
        if crate::is_ascii(text) {
            lower.push_str(text);
            lower.make_ascii_lowercase();
        } else {
            lower.push_str(&text.to_lowercase());
        }
        // Numbers and codes are not interned here: only whether one is wanted is read of its id.
        self.normalize_with(&lower, Some(wanted_ids));
        self.lower = lower;
        let lex = lexicon();
        let spans = std::mem::take(&mut self.spans);
        let norm = std::mem::take(&mut self.norm);
        let mut count = 0usize;
        let mut touched = false;
        // The hits that cover each Chinese run: (span index, from, to, stop), in span order.
        let mut covered: Vec<(usize, usize, usize, bool)> = Vec::new();
        let mut first = 0usize;
        for hit in lex.hits(&norm) {
            while first < spans.len() && spans[first].norm.1 <= hit.start {
                first += 1;
            }
            if first >= spans.len() {
                break;
            }
            let concepts = lex.hit_concepts(&hit);
            count += concepts.len();
            touched = touched || concepts.iter().any(|&c| wanted_concepts[c]);
            let mut last = first;
            while last + 1 < spans.len() && spans[last + 1].norm.0 < hit.end {
                last += 1;
            }
            let stop = lex.hit_is_stop(&hit);
            for (span, sp) in spans.iter().enumerate().take(last + 1).skip(first) {
                if sp.word.is_none() {
                    covered.push((span, hit.start, hit.end, stop));
                }
            }
        }
        let mut next_cover = 0usize;
        for (i, sp) in spans.iter().enumerate() {
            let from = next_cover;
            while next_cover < covered.len() && covered[next_cover].0 == i {
                next_cover += 1;
            }
            match sp.word {
                Some((id, stop)) => {
                    if !stop {
                        count += 1;
                        touched = touched || wanted(Some(id));
                    }
                }
                None => {
                    let mut pos = sp.norm.0;
                    // An uncovered stretch: its bigrams (a lone character stays itself).
                    let gap = |from: usize, to: usize, count: &mut usize, touched: &mut bool| {
                        if from >= to {
                            return;
                        }
                        let gap = &norm[from..to];
                        let idx: Vec<usize> = gap
                            .char_indices()
                            .map(|(k, _)| k)
                            .chain([gap.len()])
                            .collect();
                        if idx.len() == 2 {
                            *count += 1;
                            *touched = *touched || wanted(self.get(gap));
                            return;
                        }
                        *count += idx.len() - 2;
                        *touched =
                            *touched || idx.windows(3).any(|w| wanted(self.get(&gap[w[0]..w[2]])));
                    };
                    for &(_, c_from, c_to, stop) in &covered[from..next_cover] {
                        let (s, e) = (c_from.max(sp.norm.0), c_to.min(sp.norm.1));
                        if s > pos {
                            gap(pos, s, &mut count, &mut touched);
                        }
                        if !stop {
                            count += 1;
                            touched = touched || wanted(self.get(&norm[s..e]));
                        }
                        pos = pos.max(e);
                    }
                    if pos < sp.norm.1 {
                        gap(pos, sp.norm.1, &mut count, &mut touched);
                    }
                }
            }
        }
        self.spans = spans;
        self.norm = norm;
        (count, touched)
    }

    /// The lexical and concept token ids of a text, in order (concepts last; repeats kept).
    pub fn analyze(&mut self, text: &str) -> Vec<u32> {
        let a = self.analyze_text(text);
        let mut ids: Vec<u32> = a.tokens.iter().map(|t| t.id).collect();
        let lex = lexicon();
        for c in &a.concepts {
            let name = format!("@{}", lex.concepts[c.concept].name);
            ids.push(self.intern(&name));
        }
        ids
    }
}

/// The tokens of a text as strings: stems, Chinese words, bigrams and `@concept` tokens.
pub fn analyze(text: &str) -> Vec<String> {
    let mut vocab = Vocab::default();
    let ids = vocab.analyze(text);
    ids.into_iter()
        .map(|id| vocab.text(id).to_owned())
        .collect()
}
