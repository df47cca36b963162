//! How one listing matches a request's units: the object binding of actions, related concepts,
//! the object miss and breadth (`match_doc`).

use super::*;

/// Concepts related to `concept` with their credit: its broader ones and those it is broader than.
pub(super) fn related(concept: usize) -> Vec<(usize, f64)> {
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
    /// What the request's rare free words add for the order ([`super::rarity::RARE_WORD_WEIGHT`]),
    /// on the strength's scale: the order reads `strength + rare_lift`, the cut-off `strength`
    /// alone, so a rare word reorders the candidates but never lifts one over the cut-off.
    pub rare_lift: f64,
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
    /// has none of it. So is most of a rare Chinese stretch ([`RARE_STRETCH_SHARE`], `rank50`).
    pub single: bool,
    /// The candidate names none of the request's objects.
    pub object_miss: bool,
    /// The candidate converts the other way round (Word → PDF asked, PDF → Word offered).
    pub reversed: bool,
    /// It makes the request's object out of another one (see [`TARGET_ONLY`]).
    pub target_only: bool,
    /// The listing calls itself all-in-one.
    pub catch_all: bool,
    /// A library of ready-made templates or examples, asked to make or fill one ([`LIBRARY`]).
    pub library: bool,
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
    /// It matched something, but nothing of what it matched is in its name ([`NO_NAME_EVIDENCE`]).
    pub no_name_evidence: bool,
    /// It shares none of the request's rare words while another listing does, in a request no
    /// listing matches well by its concepts ([`super::NO_SUBJECT_WORD`], `rank54`).
    pub no_subject_word: bool,
}

/// Whether a request's words are one Chinese character alone (写 but not 写作 or `pdf`).
pub fn lone_character(surface: &str) -> bool {
    let mut chars = surface.trim().chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if super::super::lexicon::is_cjk(c))
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
    // An object named only in a parenthetical detail (the formats a listing reads: 合同（Word、PDF、
    // 扫描件）) is not what the listing is about.
    let weight = |o: &super::super::text::Occurrence| {
        bound(q, kind, doc, o)
            * if kind == Kind::Object && o.detail {
                PAREN_DETAIL
            } else {
                1.0
            }
    };
    let direct = best_field(doc, concept, weight);
    let related = q.related[unit]
        .iter()
        .map(|&(r, credit)| credit * best_field(doc, r, weight))
        .fold(0.0, f64::max);
    direct.max(related)
}

/// The best field weight over the occurrences of `concept`, each times `factor`.
fn best_field(
    doc: &Doc,
    concept: usize,
    factor: impl Fn(&super::super::text::Occurrence) -> f64,
) -> f64 {
    doc.occurrences_of(concept)
        .iter()
        .map(|o| FIELD_MATCH[o.field as usize] * factor(o))
        .fold(0.0, f64::max)
}

/// For an action: whether the occurrence in (`field`, `clause`) is about one of the request's
/// objects (1), not (a fraction). Objects and topics always count fully.
fn bound(q: &Query, kind: Kind, doc: &Doc, at: &super::super::text::Occurrence) -> f64 {
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
    // The rare free words' raise for the order (`Query::rare_bonus`), kept out of `have`.
    let mut rare_have = 0.0;
    // A rare stretch the listing names most of ([`RARE_STRETCH_SHARE`]).
    let mut rare_stretch = false;
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
                let field = |id: u32| {
                    doc.fields_with(id)
                        .map(|f| FIELD_MATCH[f])
                        .fold(0.0, f64::max)
                };
                let own = match q.stretch_weights.iter().find(|(j, _)| *j == i) {
                    // A stretch by its characters, each weighed by the idf of the bigrams that hold
                    // it and matched when the listing has one of them (`rank49`).
                    Some((_, w)) => {
                        let total: f64 = w.iter().sum();
                        let per: f64 = w
                            .iter()
                            .enumerate()
                            .map(|(c, w)| {
                                let before = c.checked_sub(1).map_or(0.0, |j| field(ids[j]));
                                let after = ids.get(c).map_or(0.0, |&id| field(id));
                                w * before.max(after)
                            })
                            .sum();
                        if total > 0.0 { per / total } else { 0.0 }
                    }
                    None => ids.iter().map(|&id| field(id)).sum::<f64>() / ids.len() as f64,
                };
                // The word in the other language (`rank51`).
                let alt = q
                    .alts
                    .iter()
                    .filter(|(j, _)| *j == i)
                    .map(|(_, alt)| alt.iter().map(|&id| field(id)).sum::<f64>() / alt.len() as f64)
                    .fold(0.0, f64::max);
                own.max(alt * super::translate::TRANSLATION_CREDIT)
            }
        };
        if !u.side
            && m >= RARE_STRETCH_SHARE
            && q.stretch_rare.iter().any(|&(j, r)| j == i && r > 0.0)
        {
            rare_stretch = true;
        }
        if m > 0.0 {
            matched.push(i);
            have += u.weight * m;
            if let Some(&(_, bonus)) = q.rare_bonus.iter().find(|(j, _)| *j == i) {
                rare_have += bonus * m;
            }
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
        && !rare_stretch
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
    // An action read only from lone Chinese characters (写着 "written on", 转氨酶 "an enzyme") is no
    // ask of the request's own: a name that states another action is no miss for it.
    let names_action =
        |u: &Unit, a: usize| matches!(u.kind, UnitKind::Concept { concept, .. } if concept == a);
    let only_lone = |a: usize| {
        q.units.iter().any(|u| names_action(u, a))
            && q.units
                .iter()
                .filter(|u| names_action(u, a))
                .all(|u| u.lone)
    };
    let name_action_miss =
        q.actions
            .iter()
            .any(|&a| !lex.concepts[a].minor && !only_lone(a))
            && doc.name_actions.iter().any(|&a| {
                lex.concepts[a as usize].name != GENERIC_MAKING || asks_other_than_making
            })
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
    // Whether any unit it matched is in its name: a specific concept (or one related to it) or a
    // word of the request, not of the side part and not a lone character's action.
    let in_name = |i: usize| {
        let u = &q.units[i];
        if u.side || u.lone {
            return false;
        }
        let named = |c: usize| {
            doc.occurrences_of(c)
                .iter()
                .any(|o| o.field == Field::Name as u8)
        };
        match &u.kind {
            UnitKind::Concept { concept, .. } => {
                !lex.concepts[*concept].generic
                    && (named(*concept) || q.related[i].iter().any(|&(r, _)| named(r)))
            }
            UnitKind::Words(ids) => ids
                .iter()
                .chain(
                    q.alts
                        .iter()
                        .filter(|(j, _)| *j == i)
                        .flat_map(|(_, alt)| alt),
                )
                .any(|&id| doc.fields_with(id).any(|f| f == Field::Name as usize)),
        }
    };
    let no_name_evidence = !matched.is_empty() && !matched.iter().any(|&i| in_name(i));
    let other_language = matches!(
        (q.script, doc.script),
        (Some(Script::Latin), Some(Script::Han)) | (Some(Script::Han), Some(Script::Latin))
    );
    // A library of templates or examples offers pieces to copy: asked to write, build or fill
    // something (and not for a template), it does not do the job.
    let library = doc.library
        && q.actions
            .iter()
            .any(|&a| matches!(lex.concepts[a].name.as_str(), GENERIC_MAKING | "fill"))
        && !q.units.iter().any(|u| {
            matches!(u.kind, UnitKind::Concept { concept, .. }
                if lex.concepts[concept].name == "template")
        });
    let kept = if object_miss || reversed {
        OBJECT_MISS
    } else if target_only {
        TARGET_ONLY
    } else {
        1.0
    } * bw
        * if library { LIBRARY } else { 1.0 };
    let strength = coverage * kept;
    // The raise as the coverage it would add (at most full coverage), kept as the strength is.
    let rare_lift = if all > 0.0 && rare_have > 0.0 {
        (((have + rare_have) / all).min(1.0) - coverage).max(0.0) * kept
    } else {
        0.0
    };
    Match {
        strength,
        rare_lift,
        order_weight: if name_action_miss {
            NAME_ACTION_MISS
        } else {
            1.0
        } * if other_language { LANGUAGE_FIT } else { 1.0 }
            * lone_weight
            * if no_name_evidence {
                NO_NAME_EVIDENCE
            } else {
                1.0
            },
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
        library,
        breadth_weight: bw,
        breadth: doc.breadth,
        broad_topic,
        lone,
        no_name_evidence,
        no_subject_word: false,
    }
}
