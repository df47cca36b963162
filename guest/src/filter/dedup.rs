//! The filter's dedup: candidates sharing an id, a name or a source URL key are one group
//! (union-find over their indices), found from the keys' hashes.

use super::keys;
use crate::model::Candidate;

/// Union-find over candidate indices.
pub(super) struct Groups(pub(super) Vec<usize>);

impl Groups {
    pub(super) fn find(&mut self, i: usize) -> usize {
        let mut r = i;
        while self.0[r] != r {
            r = self.0[r];
        }
        let mut j = i;
        while self.0[j] != r {
            let next = self.0[j];
            self.0[j] = r;
            j = next;
        }
        r
    }

    pub(super) fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // The smaller index is the root, so roots are first-seen members.
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.0[hi] = lo;
        }
    }
}

/// What candidates are grouped by: a shared id, name or source URL.
#[derive(Clone, Copy)]
pub(super) enum KeyKind {
    Id,
    Name,
    Url,
}

/// Write candidate `c`'s key of `kind` into `out` (cleared first; left empty when it has none).
pub(super) fn dedup_key_into(kind: KeyKind, c: &Candidate, out: &mut String) {
    out.clear();
    match kind {
        KeyKind::Id => keys::push_id_key(out, &c.skill_id, c.owner.as_deref()),
        KeyKind::Name => keys::push_name_key(out, &c.name),
        KeyKind::Url => {
            if let Some(u) = c.source_code_url.as_deref() {
                keys::push_canonical_url(out, u, c.source_subpath.as_deref());
            }
        }
    }
}

/// A fast, fixed (unseeded: the same on every run) hash of a key: `rustc-hash`'s `FxHasher`. Equal
/// hashes are only a hint: the keys themselves are compared before anything is joined.
pub(super) fn key_hash(key: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write(key);
    h.finish()
}

/// The hash of each of the three dedup keys of one candidate (`KeyKind as usize` indexes them);
/// `has` has bit `k` set when the key of kind `k` is not empty.
#[derive(Clone, Copy, Default)]
pub(super) struct KeyHashes {
    hash: [u64; 3],
    has: u8,
}

pub(super) const KINDS: [KeyKind; 3] = [KeyKind::Id, KeyKind::Name, KeyKind::Url];

/// Every candidate's key hashes of the kinds in `kinds`, in one pass over the candidates: each
/// candidate (and its strings) is read once for all its keys, not once per kind (100,000 candidates
/// of ~350 bytes each are far more than the CPU's caches hold, so each pass over them was mostly
/// waiting for memory). Each key is written into the reused `scratch` and only its hash kept.
pub(super) fn key_hashes<'c>(
    kinds: &[KeyKind],
    n: usize,
    cand: impl Fn(usize) -> &'c Candidate,
    scratch: &mut String,
    hash: fn(&[u8]) -> u64,
) -> Vec<KeyHashes> {
    (0..n)
        .map(|j| {
            let c = cand(j);
            let mut out = KeyHashes::default();
            for &kind in kinds {
                dedup_key_into(kind, c, scratch);
                if !scratch.is_empty() {
                    out.hash[kind as usize] = hash(scratch.as_bytes());
                    out.has |= 1 << kind as usize;
                }
            }
            out
        })
        .collect()
}

/// Join every two of the `n` candidates whose keys of `kind` are equal; empty keys join nothing.
/// (`hash` is [`key_hash`]; the tests pass one under which every key collides.)
#[cfg(test)]
pub(super) fn link_equal<'c>(
    kind: KeyKind,
    n: usize,
    cand: impl Fn(usize) -> &'c Candidate + Copy,
    groups: &mut Groups,
    scratch: &mut String,
    hash: fn(&[u8]) -> u64,
) {
    let hashes = key_hashes(&[kind], n, cand, scratch, hash);
    link_hashed(kind, &hashes, cand, groups);
}

/// Join every two candidates whose keys of `kind` are equal, from their hashes ([`key_hashes`]).
///
/// The hashes go into a map from hash to the first candidate that had it; only candidates whose
/// hash was seen before (almost always because their keys are equal) have their keys built again
/// and compared. Keys share long prefixes (`clawhub:skill-…`), which a string sort would compare
/// byte by byte every time (in WebAssembly `memcmp` is a plain loop), keeping 300,000 keys cost as
/// many allocations, and sorting the 100,000 hashes of each kind cost more than the rest of the
/// filter's dedup. Crafted keys with equal hashes only fall back to comparing strings (sorted
/// within their hash), so this stays O(n log n) whatever the input.
pub(super) fn link_hashed<'c>(
    kind: KeyKind,
    hashes: &[KeyHashes],
    cand: impl Fn(usize) -> &'c Candidate,
    groups: &mut Groups,
) {
    let k = kind as usize;
    // Hash → the first candidate with it; `u32::MAX` once it has been put in `shared`. The hashes
    // are already hashes: the map's own hasher (Fx, unseeded) only mixes them once more.
    let mut first: rustc_hash::FxHashMap<u64, u32> =
        rustc_hash::FxHashMap::with_capacity_and_hasher(hashes.len(), Default::default());
    // (hash, candidate) of every candidate whose hash another one has too.
    let mut shared: Vec<(u64, usize)> = Vec::new();
    for (j, hs) in hashes.iter().enumerate() {
        if hs.has & (1 << k) == 0 {
            continue;
        }
        let h = hs.hash[k];
        match first.entry(h) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(j as u32);
            }
            std::collections::hash_map::Entry::Occupied(mut e) => {
                let f = *e.get();
                if f != u32::MAX {
                    shared.push((h, f as usize));
                    e.insert(u32::MAX);
                }
                shared.push((h, j));
            }
        }
    }
    drop(first);
    shared.sort_unstable();
    let mut i = 0;
    while i < shared.len() {
        let end = i + shared[i..].partition_point(|e| e.0 == shared[i].0);
        let mut run: Vec<(String, usize)> = shared[i..end]
            .iter()
            .map(|&(_, j)| {
                let mut key = String::new();
                dedup_key_into(kind, cand(j), &mut key);
                (key, j)
            })
            .collect();
        run.sort_unstable();
        for w in run.windows(2) {
            if w[0].0 == w[1].0 {
                groups.union(w[0].1, w[1].1);
            }
        }
        i = end;
    }
}

/// The members of every group, in index order, without a map per group.
pub(super) struct Members {
    /// `start[root]..start[root + 1]` indexes `list` for the group whose root is `root`.
    start: Vec<usize>,
    list: Vec<usize>,
    root: Vec<usize>,
}

impl Members {
    pub(super) fn new(groups: &mut Groups) -> Members {
        let n = groups.0.len();
        let root: Vec<usize> = (0..n).map(|j| groups.find(j)).collect();
        let mut start = vec![0usize; n + 1];
        for &r in &root {
            start[r + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut list = vec![0usize; n];
        for (j, &r) in root.iter().enumerate() {
            list[next[r]] = j;
            next[r] += 1;
        }
        Members { start, list, root }
    }

    /// The members of `j`'s group (`j` included), in index order.
    pub(super) fn of(&self, j: usize) -> &[usize] {
        let r = self.root[j];
        &self.list[self.start[r]..self.start[r + 1]]
    }

    /// Every group once, in the order of their roots (first members).
    pub(super) fn groups(&self) -> impl Iterator<Item = &[usize]> {
        (0..self.root.len())
            .filter(|&j| self.root[j] == j)
            .map(|r| &self.list[self.start[r]..self.start[r + 1]])
    }
}
