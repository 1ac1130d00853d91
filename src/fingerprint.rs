//! Stable fingerprints: the same on every platform and Rust version, unlike
//! `std`'s hasher. Match states are hashed with them for replays, and wild
//! Digimon take their stats from them.

/// FNV-1a, 64 bits: a small stable hash for state fingerprints (the same on
/// every platform and Rust version, unlike `std`'s hasher).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
