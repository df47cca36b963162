//! The floors recorded before `heldout-17` (batches `heldout-3` … `heldout-16`), moved out of
//! `ranking_benchmark.rs` so that file reads in one sitting. Each floor leaves out the batches
//! written after it (`before`, resolved against `BATCHES` in `ranking_benchmark.rs`).

use super::Floors;

/// The 298 tasks before `heldout-3` (dev, the first held-out split and `heldout-2`), ranked among
/// all 231 listings. The 15 listings of `heldout-4` (catch-alls, popular neighbours on the wrong
/// object) cost main 8188d34's ranking 2 of these tasks (236 → 234 of 298, NDCG@3 0.825 → 0.819);
/// branch `ranking4` reached 238/298, 0.831; branch `ranking5` (with the 12 listings of
/// `heldout-5`) 240/298, 0.843; branch `ranking6` (with the 13 listings of `heldout-6`) 242/298,
/// 0.845. BENCHMARKS.md has the history.
pub(super) const BEFORE_HELDOUT_3: Floors = Floors {
    before: Some("heldout-3"),
    slices: &[
        ("all", 73.7, 0.764),
        ("dev", 84.6, 0.843),
        ("held-out", 63.5, 0.689),
        ("batch:heldout-2", 64.2, 0.708),
        ("lang:en", 68.4, 0.730),
        ("lang:zh", 75.3, 0.775),
        ("lang:mixed", 89.5, 0.875),
    ],
    max_traps: 11,
    max_silent_relevant: 2,
};

/// The 375 tasks up to the 77-task batch `heldout-3` (main 8188d34: 288, NDCG@3 0.808;
/// `ranking4`: 293, 0.819; `ranking5`: 295, 0.829; `ranking6`: 297, 0.831). Silent with a right
/// skill 3 -> 4 on `ranking6`: t337 (a paraphrased weekly report) had picked a podcast cleaner on
/// one free word and is now silent (`recommend::SINGLE_MATCH_FLOOR`).
pub(super) const BEFORE_HELDOUT_4: Floors = Floors {
    before: Some("heldout-4"),
    slices: &[
        ("all", 71.6, 0.748),
        ("held-out", 63.5, 0.688),
        ("batch:heldout-3", 63.5, 0.687),
        ("lang:en", 67.3, 0.718),
        ("lang:zh", 72.5, 0.756),
        ("lang:mixed", 89.1, 0.863),
    ],
    max_traps: 14,
    max_silent_relevant: 4,
};

/// The 445 tasks up to the 70-task batch `heldout-4` (written before the ranking changes of
/// `ranking4`: main 8188d34 scored 33/70 on it, NDCG@3 0.588). Main 9e1d59d: 349/445, 0.829;
/// with the 12 listings of `heldout-5` 348/445, 0.825; `ranking5`: 353/445, 0.837; `ranking6`:
/// 355/445, 0.838 (silent with a right skill 4 -> 5: t337, see above).
pub(super) const BEFORE_HELDOUT_5: Floors = Floors {
    before: Some("heldout-5"),
    slices: &[
        ("all", 72.5, 0.762),
        ("held-out", 66.7, 0.723),
        ("batch:heldout-4", 77.0, 0.835),
        ("lang:en", 68.1, 0.732),
        ("lang:zh", 73.7, 0.771),
        ("lang:mixed", 88.5, 0.869),
    ],
    max_traps: 16,
    max_silent_relevant: 5,
};

/// The 510 tasks up to the 65-task batch `heldout-5` (written on `ranking5` before any ranking
/// change there: main 9e1d59d scored 39/65 on it, NDCG@3 0.684, 8 traps picked; whole 387/510,
/// 0.807; `ranking5` 413/510, 0.846; with the 13 listings of `heldout-6` main c5e24a8 412/510,
/// 0.844; `ranking6` 415/510, 0.847; silent with a right skill 4 -> 5: t337, see above).
pub(super) const BEFORE_HELDOUT_6: Floors = Floors {
    before: Some("heldout-6"),
    slices: &[
        ("all", 74.0, 0.776),
        ("held-out", 69.8, 0.749),
        ("batch:heldout-5", 84.5, 0.863),
        ("lang:en", 70.4, 0.748),
        ("lang:zh", 74.5, 0.784),
        ("lang:mixed", 88.5, 0.873),
    ],
    max_traps: 16,
    max_silent_relevant: 5,
};

/// The whole benchmark with the 60-task batch `heldout-6` (written on `ranking6` before the
/// ranking code or the concept map was read: main c5e24a8 scored 30/60 on it, NDCG@3 0.589, 6 traps
/// picked, 7 silent with a right skill; whole 442/570, 0.817).
pub(super) const BEFORE_HELDOUT_7: Floors = Floors {
    before: Some("heldout-7"),
    slices: &[
        ("all", 73.4, 0.773),
        ("held-out", 69.6, 0.749),
        ("batch:heldout-6", 68.2, 0.746),
        ("lang:en", 71.1, 0.753),
        ("lang:zh", 72.5, 0.771),
        ("lang:mixed", 88.0, 0.872),
    ],
    max_traps: 19,
    max_silent_relevant: 6,
};

/// The whole benchmark with the 70-task batch `heldout-7` (written on `rank7` before the ranking
/// code or the concept map was read: main 0c426fb scored 39/70 on it, NDCG@3 0.651, 7 traps picked,
/// 4 silent with a right skill; whole 499/640, 0.821). Its 12 listings (catch-alls, popular
/// neighbours, near-duplicates) cost the older slices a few tasks, so the floors above were
/// lowered to what main scored with them plus the `rank7` concept map (commit message has the
/// figures); `rank7`: heldout-7 55/70, 0.832; whole 518/640, 0.843.
pub(super) const BEFORE_HELDOUT_8: Floors = Floors {
    before: Some("heldout-8"),
    slices: &[
        ("all", 72.6, 0.770),
        ("held-out", 69.1, 0.749),
        ("batch:heldout-7", 65.6, 0.752),
        ("lang:en", 70.1, 0.747),
        ("lang:zh", 71.9, 0.775),
        ("lang:mixed", 86.5, 0.863),
    ],
    max_traps: 23,
    max_silent_relevant: 6,
};

/// The whole benchmark with the 72-task batch `heldout-8` (written on `rank8` before the ranking
/// code or the concept map was read: main 8d70845 scored 35/72 on it, NDCG@3 0.550, 6 traps picked,
/// 5 silent with a right skill; whole 552/712, 0.810). Its 12 listings cost two older floors a
/// little with main's ranking (oldest slice's Chinese NDCG@3 0.864, heldout-6's 0.843, the 640
/// older tasks' English NDCG@3 0.822), so those floors were lowered to what was measured; the rest
/// hold with the `rank8` concept map.
pub(super) const BEFORE_HELDOUT_9: Floors = Floors {
    before: Some("heldout-9"),
    slices: &[
        ("all", 71.2, 0.759),
        ("held-out", 67.9, 0.737),
        ("batch:heldout-8", 59.6, 0.657),
        ("lang:en", 68.6, 0.736),
        ("lang:zh", 70.9, 0.764),
        ("lang:mixed", 85.0, 0.848),
    ],
    max_traps: 27,
    max_silent_relevant: 7,
};

/// The whole benchmark with the 72-task batch `heldout-9` (written on `rank9` before the ranking
/// code or the concept map was read: main 03ffe6d scored 34/72 on it, NDCG@3 0.588, 8 traps picked,
/// 3 silent with a right skill; whole 604/784, 0.810). Its 13 listings cost main two older English
/// tasks (274 -> 272 of 345, NDCG@3 0.822 -> 0.815), and `rank9` trades three older English tasks
/// (t111, t315, t597) for one English and two Chinese ones (t016, t628, t705), so the older English
/// floors above were lowered to what was measured; `rank9`: heldout-9 53/72, 0.754; whole 623/784,
/// 0.829; the 712 older tasks 570, 0.837 (main with the new listings: 570, 0.832).
pub(super) const BEFORE_HELDOUT_10: Floors = Floors {
    before: Some("heldout-10"),
    slices: &[
        ("all", 70.9, 0.756),
        ("held-out", 67.9, 0.737),
        ("batch:heldout-8", 59.6, 0.657),
        ("batch:heldout-9", 65.2, 0.716),
        ("lang:en", 67.5, 0.730),
        // 0.83 until `rank13`: its goal-phrasing terms moved second and third places of some
        // Chinese tasks (measured 0.829 on this slice, Chinese P@1 unchanged on the whole set).
        ("lang:zh", 71.6, 0.763),
        ("lang:mixed", 83.4, 0.849),
    ],
    max_traps: 30,
    max_silent_relevant: 8,
};

/// The whole benchmark with the 77-task batch `heldout-10` (written on `rank10` before the ranking
/// code or the concept map was read: the integration head c58a341 scored 47/77 on it, NDCG@3
/// 0.670, 8 traps picked, 1 silent with a right skill; whole 668/861, 0.813). Its 12 listings cost
/// the older tasks two picks with that ranking (623 -> 621 of 784), one of them mixed (t639: the
/// whole-page PDF->Excel converter, graded 1, takes a bank-statement export), so the older mixed
/// floor above went from 89.0 to what was measured (88.2%).
pub(super) const BEFORE_HELDOUT_11: Floors = Floors {
    before: Some("heldout-11"),
    slices: &[
        ("all", 70.1, 0.746),
        ("held-out", 67.1, 0.726),
        ("batch:heldout-8", 59.6, 0.657),
        ("batch:heldout-9", 65.2, 0.716),
        ("batch:heldout-10", 60.9, 0.636),
        ("lang:en", 67.0, 0.721),
        ("lang:zh", 70.9, 0.754),
        ("lang:mixed", 80.3, 0.829),
    ],
    max_traps: 37,
    max_silent_relevant: 8,
};

/// The whole benchmark with the 65-task batch `heldout-11` (written on `rank11` before the ranking
/// code or the concept map was read: the integration head b87c8af scored 22/65 on it, NDCG@3
/// 0.407, 13 traps picked, 7 silent with a right skill; whole 694/926, 0.786). `rank11` (the
/// generic-action rule and the concept map for mind maps, Gantt charts, lesson plans and mail merge,
/// tuned on the batch): heldout-11 26/65, 0.488; whole 698/926, 0.792, 48 traps, 13 silent.
pub(super) const BEFORE_HELDOUT_12: Floors = Floors {
    before: Some("heldout-12"),
    slices: &[
        ("all", 68.0, 0.726),
        ("held-out", 64.9, 0.705),
        ("batch:heldout-8", 59.6, 0.657),
        ("batch:heldout-9", 65.2, 0.716),
        ("batch:heldout-10", 60.9, 0.636),
        ("batch:heldout-11", 39.5, 0.472),
        ("lang:en", 64.6, 0.699),
        ("lang:zh", 68.9, 0.736),
        ("lang:mixed", 79.5, 0.816),
    ],
    max_traps: 48,
    max_silent_relevant: 13,
};

/// The whole benchmark with the 60-task batch `heldout-12` (written on `rank12` before the ranking
/// code or the concept map was read, 46 of its tasks paraphrases that share no word with the right
/// listing: the integration head 35b44aa scored 18/60 on it, NDCG@3 0.370, 7 traps picked, 4 silent
/// with a right skill; whole 716/986, 0.766). It adds no listing, so the older tasks are unchanged.
/// `rank12` (goal phrasings in the concept map, grown from `guest/rules/goal-phrasings.json`; the
/// heldout-12 figure is tuned on it): heldout-12 38/60, 0.708; whole 738/986, 0.789, 51 traps, 17
/// silent; the 926 older tasks 700 (+2), no batch lower. `rank13` (the goal phrasings grown to 402,
/// with 168 terms): whole 740/986, 0.790, 51 traps, 16 silent; heldout-12 39/60, 0.725.
pub(super) const BEFORE_HELDOUT_13: Floors = Floors {
    before: Some("heldout-13"),
    slices: &[
        ("all", 67.5, 0.723),
        ("held-out", 64.6, 0.703),
        ("batch:heldout-8", 59.6, 0.657),
        ("batch:heldout-9", 65.2, 0.716),
        ("batch:heldout-10", 60.9, 0.636),
        ("batch:heldout-11", 39.5, 0.472),
        ("batch:heldout-12", 61.6, 0.662),
        ("lang:en", 63.8, 0.694),
        ("lang:zh", 69.1, 0.735),
        ("lang:mixed", 78.4, 0.809),
    ],
    max_traps: 51,
    max_silent_relevant: 16,
};

/// The benchmark without `heldout-14`, with the 62-task batch `heldout-13` (written on `rank14`
/// before the ranking was changed, from the listings alone: realistic requests, most of them sharing no word with the
/// right listing, catch-alls among the candidates, object/action confusions; it adds no listing,
/// so the older tasks are unchanged). The integration head d5d8f227: heldout-13 32/62, NDCG@3
/// 0.552, 5 traps, 7 silent with a right skill; whole 772/1048, 0.776, 56 traps, 23 silent.
/// `rank14` (a source marker *from* after a making action): whole 774/1048, 0.777 (the 986 older
/// tasks 742, 0.791; heldout-12 40/60, 0.740), heldout-13 unchanged.
pub(super) const BEFORE_HELDOUT_14: Floors = Floors {
    before: Some("heldout-14"),
    slices: &[
        ("all", 66.7, 0.715),
        ("held-out", 63.9, 0.695),
        ("batch:heldout-12", 61.6, 0.662),
        ("batch:heldout-13", 51.5, 0.55),
        ("lang:en", 62.9, 0.683),
        ("lang:zh", 68.5, 0.730),
        ("lang:mixed", 76.6, 0.803),
    ],
    max_traps: 56,
    max_silent_relevant: 23,
};

/// The whole benchmark with the 14-task batch `heldout-14` (written on `rank15` before the ranking
/// was changed: a focused listing against catch-alls that claim its job, such as PDF compression
/// against 办公全家桶 listing 压缩, a PDF password against 全能办公王 listing 加密, a dependency
/// audit against the developer catch-alls; it adds no listing). The integration head d2804184:
/// heldout-14 10/14, NDCG@3 0.795, one trap picked (Meeting Recorder Bot, a popular neighbour, for
/// Cantonese recordings to type out: the one trap over 56), none silent; whole 784/1062, 0.777,
/// 57 traps, 23 silent. `rank15` (问题 alone no longer a review term: 回答几个问题 in a contract
/// drafter is no review): whole 785/1062, 0.778, 54 traps (t338, t959, t361 no longer pick a
/// trap), 23 silent; Chinese 325/432, 0.789; heldout-14 unchanged.
pub(super) const BEFORE_HELDOUT_15: Floors = Floors {
    before: Some("heldout-15"),
    slices: &[
        ("all", 66.9, 0.717),
        ("held-out", 64.1, 0.697),
        ("batch:heldout-12", 61.6, 0.662),
        ("batch:heldout-13", 51.5, 0.574),
        ("batch:heldout-14", 71.4, 0.79),
        ("lang:en", 62.7, 0.682),
        ("lang:zh", 68.9, 0.732),
        ("lang:mixed", 77.2, 0.808),
    ],
    max_traps: 54,
    max_silent_relevant: 22,
};

/// The benchmark without `heldout-16`, with the 50-task batch `heldout-15` (written on `rank16` before the ranking
/// was changed, from the listings alone: everyday colloquial requests, 26 Chinese and 8 mixed, in
/// the domains whose Chinese requests went silent and beside catch-alls, popular neighbours and
/// object/action confusions; it adds no listing). The integration head 4dd7c3ac: heldout-15
/// 34/50, NDCG@3 0.740, 3 traps, 4 silent with a right skill; whole 819/1112, 0.777, 57 traps,
/// 27 silent. `rank16` (families of colloquial terms for seven domains; a maker's name is another
/// action when the request asks a specific action and no making): whole 821/1112, 0.778, 57 traps,
/// 26 silent (the 1,062 older tasks: 785 → 787, heldout-13 32 → 34, 22 silent); heldout-15
/// unchanged. The older slices' P@1 floors above were raised to what `rank16` measures.
pub(super) const BEFORE_HELDOUT_16: Floors = Floors {
    before: Some("heldout-16"),
    slices: &[
        ("all", 66.8, 0.716),
        ("held-out", 64.1, 0.697),
        ("batch:heldout-12", 61.6, 0.662),
        ("batch:heldout-13", 51.5, 0.574),
        ("batch:heldout-14", 71.4, 0.79),
        ("batch:heldout-15", 63.9, 0.695),
        ("lang:en", 62.7, 0.682),
        ("lang:zh", 68.7, 0.731),
        ("lang:mixed", 76.3, 0.799),
    ],
    max_traps: 57,
    max_silent_relevant: 26,
};
