//! A map from strings that compares 64-bit hashes instead of strings.
//!
//! Ranking interns every word of every candidate and the filter looks up every candidate's ids, names
//! and URLs; with `BTreeMap<String, _>` each lookup compares strings a dozen times, and strings that
//! share long prefixes (`clawhub:skill-…`, `https://github.com/…`) cost a byte-by-byte `memcmp` each
//! time — in WebAssembly, where `memcmp` is a plain loop, a tenth of a `recommend` call.
//!
//! Keys are ordered by a SipHash of the string (std's `DefaultHasher::new()`: fixed keys, so no
//! randomness import in the component and the same layout on every run) and only strings with equal
//! hashes are compared. Unlike a hash table with a known seed, crafted colliding keys cannot make it
//! quadratic: they only fall back to comparing strings, as an ordinary `BTreeMap` does. Iteration
//! order is by hash, so callers that need a meaningful order must not iterate it (none do).

use smallvec::SmallVec;
use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// The keys of one hash: nearly always one, held inline (no allocation besides the key's own).
type Bucket<V> = SmallVec<[(Box<str>, V); 1]>;

/// See the module documentation.
#[derive(Debug, Clone)]
pub struct StrMap<V> {
    map: BTreeMap<u64, Bucket<V>>,
    len: usize,
}

impl<V> Default for StrMap<V> {
    fn default() -> Self {
        StrMap {
            map: BTreeMap::new(),
            len: 0,
        }
    }
}

fn hash(key: &str) -> u64 {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

impl<V> StrMap<V> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.map
            .get(&hash(key))?
            .iter()
            .find(|(k, _)| **k == *key)
            .map(|(_, v)| v)
    }

    /// The value of `key`, inserting `make()` first when it is absent.
    pub fn get_or_insert_with(&mut self, key: &str, make: impl FnOnce() -> V) -> &mut V {
        let bucket = self.map.entry(hash(key)).or_default();
        let at = match bucket.iter().position(|(k, _)| **k == *key) {
            Some(at) => at,
            None => {
                bucket.push((key.into(), make()));
                self.len += 1;
                bucket.len() - 1
            }
        };
        &mut bucket[at].1
    }

    /// Insert or replace; returns the previous value.
    pub fn insert(&mut self, key: &str, value: V) -> Option<V> {
        let bucket = self.map.entry(hash(key)).or_default();
        match bucket.iter_mut().find(|(k, _)| **k == *key) {
            Some((_, v)) => Some(std::mem::replace(v, value)),
            None => {
                bucket.push((key.into(), value));
                self.len += 1;
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Behaves exactly like a `BTreeMap<String, _>` for every sequence of inserts and lookups.
        #[test]
        fn agrees_with_btreemap(ops in prop::collection::vec(("[a-c]{0,3}", any::<u8>(), any::<bool>()), 0..200)) {
            let mut ours = StrMap::new();
            let mut reference = BTreeMap::new();
            for (key, value, insert) in ops {
                if insert {
                    prop_assert_eq!(ours.insert(&key, value), reference.insert(key.clone(), value));
                } else {
                    let got = *ours.get_or_insert_with(&key, || value);
                    prop_assert_eq!(got, *reference.entry(key.clone()).or_insert(value));
                }
                prop_assert_eq!(ours.get(&key), reference.get(&key));
                prop_assert_eq!(ours.len(), reference.len());
            }
        }
    }

    #[test]
    fn keys_with_equal_hashes_stay_apart() {
        // Force a collision by putting two keys in one bucket, as a crafted input would.
        let mut m: StrMap<u32> = StrMap::new();
        m.map.entry(hash("a")).or_default().push(("b".into(), 2));
        m.len = 1;
        m.insert("a", 1);
        assert_eq!(m.len(), 2);
        assert_eq!(m.get("a"), Some(&1));
        assert_eq!(*m.get_or_insert_with("a", || 9), 1);
        assert_eq!(m.map[&hash("a")].len(), 2);
    }
}
