//! Reading a 100 MB PDN stream keeps memory flat: the reader holds one game at a time.

use std::io::{BufReader, Read};

use dama_core::pdn::PdnReader;

/// An endless-looking input: one game repeated until `total` bytes, never in memory.
struct Repeat {
    game: Vec<u8>,
    pos: usize,
    left: usize,
}

impl Read for Repeat {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.left).min(self.game.len() - self.pos);
        buf[..n].copy_from_slice(&self.game[self.pos..self.pos + n]);
        self.pos = (self.pos + n) % self.game.len();
        self.left -= n;
        Ok(n)
    }
}

#[test]
fn a_100_mb_stream_is_read_in_flat_memory() {
    let game = b"[Event \"x\"]\n[GameType \"20\"]\n[Result \"2-0\"]\n\n1. 32-28 18-23 2. 33-29 23x32 3. 37x28 {a comment} 17-22 4. 28x17 11x22 2-0\n\n".to_vec();
    let total = 100 * 1024 * 1024;
    let per = game.len();
    let input = Repeat { game, pos: 0, left: total };
    let (mut games, mut bad) = (0, 0);
    let info = allocation_counter::measure(|| {
        for g in PdnReader::new(BufReader::new(input)) {
            match g {
                Ok(_) => games += 1,
                Err(_) => bad += 1,
            }
        }
    });
    // Every whole game reads; only the last one, cut by the byte limit, may not.
    assert_eq!(games + bad, total / per + usize::from(total % per != 0));
    assert!(bad <= 1);
    // One game and the read buffer at a time: well under a megabyte at the peak.
    assert!(info.bytes_max < 1 << 20, "peak {} bytes", info.bytes_max);
}
