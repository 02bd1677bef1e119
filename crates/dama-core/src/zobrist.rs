//! Zobrist keys, generated at compile time from a fixed seed.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut s = seed;
    let mut i = 0;
    while i < N {
        let (ns, k) = splitmix(s);
        s = ns;
        keys[i] = k;
        i += 1;
    }
    keys
}

/// Keys for a piece: index `(color * 2 + is_king) * 128 + bit`.
pub static PIECE: [u64; 512] = make_keys::<512>(0x6461_6d61_2d7a_6f62);
/// Key xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = 0x5be4_1d4f_37a2_c9e1;
/// Keys for the Frisian king-move run: index `(color * 4 + count) * 128 + bit`.
pub static KING_RUN: [u64; 1024] = make_keys::<1024>(0x7275_6e73_2d6b_6579);

/// The key of a piece.
#[inline(always)]
pub fn piece(color: usize, king: bool, bit: u32) -> u64 {
    PIECE[(color * 2 + king as usize) * 128 + bit as usize]
}

/// The key of a Frisian king run.
#[inline(always)]
pub fn king_run(color: usize, count: u8, bit: u8) -> u64 {
    if count == 0 {
        0
    } else {
        KING_RUN[(color * 4 + (count.min(3) as usize)) * 128 + bit as usize]
    }
}
