//! A small direct-mapped cache in front of [`super::Vocab`]'s word map.
//!
//! Ranking looks up every word of every candidate's texts (100,000 candidates: millions of
//! lookups), and nearly all of them are words seen before. The word map ([`crate::strmap::StrMap`])
//! hashes with SipHash and searches a B-tree, which keeps crafted inputs from making it quadratic but
//! costs a few hundred instructions a lookup. This cache answers most lookups with one multiply and
//! two comparisons: a fixed array of slots, each holding one short word (up to [`MAX_LEN`] bytes,
//! zero-padded) and its value. A lookup compares the whole word, so a hit is always right; a miss, a
//! long word or a slot taken by another word falls through to the map. Its size is fixed, so no
//! input can make it grow or slow down: a crafted input at worst makes every lookup a miss. The
//! slots are allocated only after [`WARM_UP`] words were put, so the short-lived vocabularies of
//! one-off normalizations never pay for them.

/// Longest word the cache holds, in bytes (longer words go to the map).
pub const MAX_LEN: usize = 16;
/// Slots by default (a power of two): 8,192 × 32 bytes.
const SLOT_BITS: u32 = 13;
/// Words put before the slots are allocated (and the cache starts answering).
pub const WARM_UP: u32 = 256;

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// The word's bytes, zero-padded; `len == 0` marks an empty slot.
    key: [u64; 2],
    len: u8,
    value: (u32, bool),
}

/// See the module documentation.
#[derive(Debug)]
pub struct WordCache {
    /// Empty until [`WARM_UP`] words were put.
    slots: Vec<Slot>,
    bits: u32,
    puts: u32,
}

impl Default for WordCache {
    fn default() -> Self {
        WordCache::with_slot_bits(SLOT_BITS)
    }
}

/// The word as two zero-padded words, or `None` when it is empty or too long to cache.
fn key_of(word: &str) -> Option<[u64; 2]> {
    let b = word.as_bytes();
    if b.is_empty() || b.len() > MAX_LEN {
        return None;
    }
    let mut buf = [0u8; MAX_LEN];
    buf[..b.len()].copy_from_slice(b);
    let (lo, hi) = buf.split_at(8);
    Some([
        u64::from_le_bytes(lo.try_into().expect("8 bytes")),
        u64::from_le_bytes(hi.try_into().expect("8 bytes")),
    ])
}

impl WordCache {
    /// A cache of `2^bits` slots.
    pub fn with_slot_bits(bits: u32) -> WordCache {
        assert!((1..=20).contains(&bits), "a cache of 2 to 2^20 slots");
        WordCache {
            slots: Vec::new(),
            bits,
            puts: 0,
        }
    }

    fn slot_of(&self, key: [u64; 2], len: usize) -> usize {
        let mixed =
            (key[0] ^ key[1].rotate_left(29) ^ len as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> (64 - self.bits)) as usize
    }

    /// The cached value of `word`, if this word is the one its slot holds.
    pub fn get(&self, word: &str) -> Option<(u32, bool)> {
        if self.slots.is_empty() {
            return None;
        }
        let key = key_of(word)?;
        let slot = &self.slots[self.slot_of(key, word.len())];
        (slot.len as usize == word.len() && slot.key == key).then_some(slot.value)
    }

    /// Remember `word`'s value, replacing whatever its slot held (a no-op for uncacheable words).
    pub fn put(&mut self, word: &str, value: (u32, bool)) {
        if self.slots.is_empty() {
            self.puts += 1;
            if self.puts < WARM_UP {
                return;
            }
            self.slots = vec![Slot::default(); 1 << self.bits];
        }
        if let Some(key) = key_of(word) {
            let at = self.slot_of(key, word.len());
            self.slots[at] = Slot {
                key,
                len: word.len() as u8,
                value,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn warm(cache: &mut WordCache) {
        for _ in 0..WARM_UP {
            cache.put("", (0, false));
        }
    }

    proptest! {
        /// Whatever was put, a lookup answers the last value put for that word or nothing: never
        /// another word's value (four slots: words share slots all the time).
        #[test]
        fn never_answers_for_another_word(words in prop::collection::vec("[a-c\u{e9}]{0,18}", 1..300)) {
            let mut cache = WordCache::with_slot_bits(2);
            warm(&mut cache);
            let mut last = std::collections::BTreeMap::new();
            for (i, w) in words.iter().enumerate() {
                cache.put(w, (i as u32, i % 2 == 0));
                last.insert(w.clone(), (i as u32, i % 2 == 0));
                for (k, v) in &last {
                    if let Some(got) = cache.get(k) {
                        prop_assert_eq!(got, *v);
                    }
                }
            }
        }
    }

    #[test]
    fn words_that_share_a_padded_prefix_stay_apart() {
        let mut cache = WordCache::with_slot_bits(1);
        cache.put("ab", (1, false));
        assert_eq!(
            cache.get("ab"),
            None,
            "nothing is answered before the warm-up"
        );
        warm(&mut cache);
        cache.put("ab", (1, false));
        assert_eq!(cache.get("ab"), Some((1, false)));
        assert_eq!(
            cache.get("ab\0"),
            None,
            "a padding byte is not part of the word"
        );
        assert_eq!(cache.get("a"), None);
        let long = "x".repeat(MAX_LEN + 1);
        cache.put(&long, (2, true));
        assert_eq!(cache.get(&long), None, "a long word is never cached");
        assert_eq!(cache.get(""), None);
    }
}
