//! Tables on disk and in memory: LZ4-compressed blocks with an offset index.
//!
//! A file holds one slice: a header (magic, format version, variant, material,
//! entry count, block length), the offsets of the blocks, then the blocks. A probe
//! decompresses one block into a small shared cache; tables small enough are kept
//! decompressed whole.

use std::path::Path;
use std::sync::{Arc, Mutex};

use super::index::Material;
use super::EgdbError;

const MAGIC: &[u8; 8] = b"DAMAEGDB";
/// Version 2: Russian king against king is drawn only where neither side can win
/// (version 1 ended every such position as a draw). Version 3: one table per mirrored
/// pair of slices, White to move only in a slice that is its own mirror. Tables of
/// another version are rebuilt.
const VERSION: u32 = 3;
/// Entries per compressed block in the files this build writes (a file says its own).
const BLOCK: usize = 1 << 12;
/// Tables up to this many entries are held decompressed.
const WHOLE: u64 = 1 << 20;
/// Blocks held by the probe cache.
const CACHE_SLOTS: usize = 8192;

/// One slice's values.
pub struct Table {
    /// Its material.
    pub material: Material,
    entries: u64,
    block: usize,
    offsets: Vec<u64>,
    data: Vec<u8>,
    whole: Option<Vec<u8>>,
}

/// A cached block: (table id << 32 | block number, its values).
type Slot = Option<(u64, Arc<[u8]>)>;

/// Decompressed blocks shared by every probe of a database.
pub struct BlockCache {
    slots: Mutex<Vec<Slot>>,
}

impl Default for BlockCache {
    fn default() -> Self {
        BlockCache { slots: Mutex::new(vec![None; CACHE_SLOTS]) }
    }
}

/// The file name of a slice.
pub fn file_name(m: Material) -> String {
    format!("{m}.egdb")
}

/// Compresses the values of a slice into the bytes of its file.
pub fn encode(variant: &str, m: Material, values: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() / 8 + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(variant.len() as u8);
    out.extend_from_slice(variant.as_bytes());
    out.extend_from_slice(&[m.men[0], m.kings[0], m.men[1], m.kings[1]]);
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    let blocks: Vec<Vec<u8>> = values.chunks(BLOCK).map(lz4_flex::block::compress).collect();
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    let mut at = 0u64;
    for b in &blocks {
        out.extend_from_slice(&at.to_le_bytes());
        at += b.len() as u64;
    }
    out.extend_from_slice(&at.to_le_bytes());
    for b in &blocks {
        out.extend_from_slice(b);
    }
    out
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

/// True when `path` is a dama table written in another format version (a build
/// replaces it).
pub fn is_stale(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 12];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head));
    read.is_ok() && &head[..8] == MAGIC.as_slice() && head[8..12] != VERSION.to_le_bytes()
}

impl Table {
    /// Reads a slice file of `variant`, checking its header and block index.
    pub fn read(path: &Path, variant: &str) -> Result<Table, EgdbError> {
        let bytes = std::fs::read(path).map_err(|e| EgdbError::Io(path.display().to_string(), e))?;
        Self::decode(&bytes, variant).map_err(|what| EgdbError::Format(path.display().to_string(), what))
    }

    fn decode(bytes: &[u8], variant: &str) -> Result<Table, String> {
        let mut r = Reader { bytes, at: 0 };
        let short = || "the file ends early".to_string();
        if r.take(8) != Some(MAGIC.as_slice()) {
            return Err("not a dama endgame table".into());
        }
        let version = r.u32().ok_or_else(short)?;
        if version != VERSION {
            return Err(format!(
                "format version {version}, this build reads {VERSION} (dama egdb build writes it again)"
            ));
        }
        let n = r.take(1).ok_or_else(short)?[0] as usize;
        let v = r.take(n).ok_or_else(short)?;
        if v != variant.as_bytes() {
            return Err(format!("a table of {}, not {variant}", String::from_utf8_lossy(v)));
        }
        let m = r.take(4).ok_or_else(short)?;
        let material = Material { men: [m[0], m[2]], kings: [m[1], m[3]] };
        let entries = r.u64().ok_or_else(short)?;
        let block = r.u32().ok_or_else(short)? as usize;
        if !(64..=1 << 20).contains(&block) {
            return Err(format!("blocks of {block} entries"));
        }
        let blocks = r.u32().ok_or_else(short)? as usize;
        if blocks as u64 != entries.div_ceil(block as u64) {
            return Err(format!("{blocks} blocks for {entries} entries"));
        }
        let offsets: Vec<u64> = (0..=blocks).map(|_| r.u64()).collect::<Option<_>>().ok_or_else(short)?;
        let data = bytes[r.at..].to_vec();
        if offsets.windows(2).any(|w| w[0] > w[1]) || offsets.last() != Some(&(data.len() as u64)) {
            return Err("the block index does not match the data".into());
        }
        let mut t = Table { material, entries, block, offsets, data, whole: None };
        if entries <= WHOLE {
            t.whole = Some(t.decompress()?);
        }
        Ok(t)
    }

    fn block(&self, b: usize) -> Result<Vec<u8>, String> {
        let len = (self.entries as usize - b * self.block).min(self.block);
        let src = &self.data[self.offsets[b] as usize..self.offsets[b + 1] as usize];
        let out = lz4_flex::block::decompress(src, len).map_err(|e| format!("block {b}: {e}"))?;
        if out.len() != len {
            return Err(format!("block {b} holds {} entries, expected {len}", out.len()));
        }
        Ok(out)
    }

    /// Every value, decompressed.
    pub fn into_values(self) -> Result<Vec<u8>, String> {
        match self.whole {
            Some(w) => Ok(w),
            None => self.decompress(),
        }
    }

    fn decompress(&self) -> Result<Vec<u8>, String> {
        let mut out = Vec::with_capacity(self.entries as usize);
        for b in 0..self.offsets.len() - 1 {
            out.extend(self.block(b)?);
        }
        Ok(out)
    }

    /// Entries (indices) in the slice.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Bytes held in memory.
    pub fn memory(&self) -> usize {
        self.data.len() + self.offsets.len() * 8 + self.whole.as_ref().map_or(0, Vec::len)
    }

    /// The value at index `i` (`id` names the table in the cache).
    pub fn get(&self, i: u64, id: u64, cache: &BlockCache) -> Option<u8> {
        if i >= self.entries {
            return None;
        }
        if let Some(w) = &self.whole {
            return Some(w[i as usize]);
        }
        let b = (i / self.block as u64) as usize;
        let key = id << 32 | b as u64;
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize % CACHE_SLOTS;
        let mut slots = cache.slots.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, data)) = &slots[slot] {
            if *k == key {
                return Some(data[i as usize % self.block]);
            }
        }
        let data: Arc<[u8]> = self.block(b).ok()?.into();
        let v = data[i as usize % self.block];
        slots[slot] = Some((key, data));
        Some(v)
    }
}
