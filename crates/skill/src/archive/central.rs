//! Our own reading of a zip's structure (end record, central directory, local headers), done
//! before any byte is decompressed. The `zip` crate reads the data later; this reader is the
//! independent second opinion the metadata pass checks names, sizes and overlaps against, so a
//! quirk in one parser cannot smuggle an entry past the other.

use std::ops::Range;

use crate::archive::codes;

const EOCD_SIG: u32 = 0x0605_4b50;
const EOCD64_LOCATOR_SIG: u32 = 0x0706_4b50;
const EOCD64_SIG: u32 = 0x0606_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
const LOCAL_SIG: u32 = 0x0403_4b50;
const EOCD_LEN: usize = 22;
const EOCD64_LOCATOR_LEN: usize = 20;
const CENTRAL_LEN: usize = 46;
const LOCAL_LEN: usize = 30;
const ZIP64_EXTRA_ID: u16 = 0x0001;

/// General-purpose flag bits that mean the entry is encrypted (traditional and strong).
const FLAG_ENCRYPTED: u16 = 0x0001;
const FLAG_STRONG_ENCRYPTION: u16 = 0x0040;
/// Compression method 99 is WinZip AES, which always means encryption.
const METHOD_AES: u16 = 99;

/// One central directory record, with the local header it points at already located.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CentralEntry {
    /// Position in the central directory (0-based).
    pub index: usize,
    /// The name exactly as stored, undecoded.
    pub name: Vec<u8>,
    pub version_made_by: u16,
    pub flags: u16,
    pub method: u16,
    pub crc32: u32,
    pub compressed_size: u64,
    pub uncompressed_size: u64,
    pub external_attributes: u32,
    /// Offset of the local header.
    pub header_offset: u64,
    /// Offset of the first compressed byte (after the local header).
    pub data_offset: u64,
    /// True when the local header carries a different name than the central record.
    pub local_name_differs: bool,
    /// True when the local header has the encryption flag although the central record has not.
    pub local_encrypted: bool,
    /// The compression method the local header names; a streaming extractor trusts this one,
    /// not the central record's, so the two must agree.
    pub local_method: u16,
}

impl CentralEntry {
    /// Bytes of the archive this entry occupies: its local header and its compressed data.
    pub fn span(&self) -> Range<u64> {
        self.header_offset..self.data_offset + self.compressed_size
    }

    /// Encrypted by any scheme the format knows.
    pub fn is_encrypted(&self) -> bool {
        self.flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION) != 0
            || self.method == METHOD_AES
            || self.local_method == METHOD_AES
            || self.local_encrypted
    }

    /// The Unix mode in the upper half of the external attributes, when the creator was a
    /// Unix-like system and set one.
    pub fn unix_mode(&self) -> Option<u32> {
        let host = self.version_made_by >> 8;
        let mode = self.external_attributes >> 16;
        (matches!(host, 3 | 19) && mode != 0).then_some(mode)
    }

    /// MS-DOS attributes (lower byte of the external attributes).
    pub fn dos_attributes(&self) -> u32 {
        self.external_attributes & 0xff
    }
}

/// The whole directory: its entries in central-directory order.
#[derive(Debug, Clone)]
pub struct CentralDirectory {
    pub entries: Vec<CentralEntry>,
}

/// A structural problem: which refusal code applies, a sentence saying what was found and how
/// to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    pub code: &'static str,
    pub message: String,
    pub hint: &'static str,
}

const RECREATE: &str = "re-create the zip with a standard tool (zip -r, Finder, Explorer)";

fn malformed(message: impl Into<String>) -> Malformed {
    Malformed { code: codes::INVALID, message: message.into(), hint: RECREATE }
}

/// Reads the central directory of `bytes` and locates each local header. `max_entries` is
/// checked against the declared count before any record is parsed.
pub fn read(bytes: &[u8], max_entries: usize) -> Result<CentralDirectory, Malformed> {
    let end = find_end(bytes)?;
    if end.entries > max_entries as u64 {
        return Err(Malformed {
            code: codes::TOO_MANY_FILES,
            message: format!("the archive lists {} entries; at most {max_entries} are read", end.entries),
            hint: "remove files the skill does not need, or raise the file limit in Settings",
        });
    }
    let cd_end = end
        .cd_offset
        .checked_add(end.cd_size)
        .ok_or_else(|| malformed("central directory size overflows"))?;
    if cd_end != end.record_offset {
        return Err(malformed("the central directory does not end where its end record begins"));
    }
    let mut entries = Vec::with_capacity(end.entries as usize);
    let mut pos = to_usize(end.cd_offset)?;
    for index in 0..end.entries as usize {
        let (mut entry, next) = read_central(bytes, pos, index)?;
        locate_data(bytes, &mut entry, end.cd_offset)?;
        entries.push(entry);
        pos = next;
    }
    if pos as u64 != cd_end {
        return Err(malformed("the central directory holds more bytes than its entries"));
    }
    Ok(CentralDirectory { entries })
}

struct End {
    entries: u64,
    cd_size: u64,
    cd_offset: u64,
    /// Where the record that follows the directory starts (zip64 end record or classic one).
    record_offset: u64,
}

fn find_end(bytes: &[u8]) -> Result<End, Malformed> {
    if bytes.len() < EOCD_LEN {
        return Err(malformed("too short to be a zip archive"));
    }
    let last = bytes.len() - EOCD_LEN;
    let first = last.saturating_sub(u16::MAX as usize);
    let pos = (first..=last)
        .rev()
        .find(|&p| {
            u32_at(bytes, p) == Some(EOCD_SIG)
                && p + EOCD_LEN + u16_at(bytes, p + 20).unwrap_or(0) as usize == bytes.len()
        })
        .ok_or_else(|| {
            malformed("no end-of-central-directory record: not a zip archive, or a truncated one")
        })?;
    let disk = u16_at(bytes, pos + 4).unwrap_or(0);
    let cd_disk = u16_at(bytes, pos + 6).unwrap_or(0);
    if disk != 0 || cd_disk != 0 {
        return Err(malformed("multi-disk archives are not supported"));
    }
    let entries = u16_at(bytes, pos + 10).unwrap_or(0);
    let cd_size = u32_at(bytes, pos + 12).unwrap_or(0);
    let cd_offset = u32_at(bytes, pos + 16).unwrap_or(0);
    let zip64 = entries == u16::MAX || cd_size == u32::MAX || cd_offset == u32::MAX;
    if zip64
        || (pos >= EOCD64_LOCATOR_LEN && u32_at(bytes, pos - EOCD64_LOCATOR_LEN) == Some(EOCD64_LOCATOR_SIG))
    {
        return find_end64(bytes, pos);
    }
    Ok(End {
        entries: entries.into(),
        cd_size: cd_size.into(),
        cd_offset: cd_offset.into(),
        record_offset: pos as u64,
    })
}

fn find_end64(bytes: &[u8], eocd: usize) -> Result<End, Malformed> {
    let locator = eocd.checked_sub(EOCD64_LOCATOR_LEN).ok_or_else(|| malformed("zip64 locator missing"))?;
    if u32_at(bytes, locator) != Some(EOCD64_LOCATOR_SIG) {
        return Err(malformed("zip64 locator missing"));
    }
    let record = to_usize(u64_at(bytes, locator + 8).ok_or_else(|| malformed("zip64 locator truncated"))?)?;
    if record + 56 > locator || u32_at(bytes, record) != Some(EOCD64_SIG) {
        return Err(malformed("zip64 end record missing"));
    }
    let field =
        |off: usize| u64_at(bytes, record + off).ok_or_else(|| malformed("zip64 end record truncated"));
    if u32_at(bytes, record + 16) != Some(0) || u32_at(bytes, record + 20) != Some(0) {
        return Err(malformed("multi-disk archives are not supported"));
    }
    Ok(End { entries: field(32)?, cd_size: field(40)?, cd_offset: field(48)?, record_offset: record as u64 })
}

fn read_central(bytes: &[u8], pos: usize, index: usize) -> Result<(CentralEntry, usize), Malformed> {
    let truncated = || malformed(format!("central directory entry {} is truncated", index + 1));
    if u32_at(bytes, pos) != Some(CENTRAL_SIG) {
        return Err(malformed(format!("central directory entry {} has no valid signature", index + 1)));
    }
    let name_len = u16_at(bytes, pos + 28).ok_or_else(truncated)? as usize;
    let extra_len = u16_at(bytes, pos + 30).ok_or_else(truncated)? as usize;
    let comment_len = u16_at(bytes, pos + 32).ok_or_else(truncated)? as usize;
    let name_start = pos + CENTRAL_LEN;
    let extra_start = name_start + name_len;
    let next = extra_start + extra_len + comment_len;
    if next > bytes.len() {
        return Err(truncated());
    }
    let mut entry = CentralEntry {
        index,
        name: bytes[name_start..extra_start].to_vec(),
        version_made_by: u16_at(bytes, pos + 4).ok_or_else(truncated)?,
        flags: u16_at(bytes, pos + 8).ok_or_else(truncated)?,
        method: u16_at(bytes, pos + 10).ok_or_else(truncated)?,
        crc32: u32_at(bytes, pos + 16).ok_or_else(truncated)?,
        compressed_size: u32_at(bytes, pos + 20).ok_or_else(truncated)?.into(),
        uncompressed_size: u32_at(bytes, pos + 24).ok_or_else(truncated)?.into(),
        external_attributes: u32_at(bytes, pos + 38).ok_or_else(truncated)?,
        header_offset: u32_at(bytes, pos + 42).ok_or_else(truncated)?.into(),
        data_offset: 0,
        local_name_differs: false,
        local_encrypted: false,
        local_method: 0,
    };
    if u16_at(bytes, pos + 34) != Some(0) {
        return Err(malformed(format!("central directory entry {} lives on another disk", index + 1)));
    }
    apply_zip64(&mut entry, &bytes[extra_start..extra_start + extra_len])?;
    Ok((entry, next))
}

/// Replaces the 32-bit fields set to `0xFFFFFFFF` with their values from the zip64 extra field,
/// in the order the format defines (uncompressed size, compressed size, header offset).
fn apply_zip64(entry: &mut CentralEntry, extra: &[u8]) -> Result<(), Malformed> {
    let needs =
        [entry.uncompressed_size, entry.compressed_size, entry.header_offset].map(|v| v == u32::MAX as u64);
    if !needs.contains(&true) {
        return Ok(());
    }
    let field = extra_field(extra, ZIP64_EXTRA_ID)
        .ok_or_else(|| malformed("zip64 sizes without a zip64 extra field"))?;
    let mut values = field.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
    let mut next = || values.next().ok_or_else(|| malformed("zip64 extra field too short"));
    if needs[0] {
        entry.uncompressed_size = next()?;
    }
    if needs[1] {
        entry.compressed_size = next()?;
    }
    if needs[2] {
        entry.header_offset = next()?;
    }
    Ok(())
}

fn extra_field(mut extra: &[u8], id: u16) -> Option<&[u8]> {
    while extra.len() >= 4 {
        let field_id = u16::from_le_bytes([extra[0], extra[1]]);
        let len = u16::from_le_bytes([extra[2], extra[3]]) as usize;
        let body = extra.get(4..4 + len)?;
        if field_id == id {
            return Some(body);
        }
        extra = &extra[4 + len..];
    }
    None
}

/// Reads the local header of `entry`: where its data starts, whether the header names the same
/// file, and that the data ends before the central directory.
fn locate_data(bytes: &[u8], entry: &mut CentralEntry, cd_start: u64) -> Result<(), Malformed> {
    let pos = to_usize(entry.header_offset)?;
    let missing = || malformed(format!("the local header of entry {} is missing", entry.index + 1));
    if u32_at(bytes, pos) != Some(LOCAL_SIG) {
        return Err(missing());
    }
    let name_len = u16_at(bytes, pos + 26).ok_or_else(missing)? as usize;
    let extra_len = u16_at(bytes, pos + 28).ok_or_else(missing)? as usize;
    let name = bytes.get(pos + LOCAL_LEN..pos + LOCAL_LEN + name_len).ok_or_else(missing)?;
    entry.local_name_differs = name != entry.name.as_slice();
    entry.local_encrypted = u16_at(bytes, pos + 6).ok_or_else(missing)? & FLAG_ENCRYPTED != 0;
    entry.local_method = u16_at(bytes, pos + 8).ok_or_else(missing)?;
    entry.data_offset = (pos + LOCAL_LEN + name_len + extra_len) as u64;
    let data_end = entry.data_offset.checked_add(entry.compressed_size);
    if data_end.is_none_or(|end| end > cd_start) {
        return Err(Malformed {
            code: codes::OVERLAPPING_ENTRIES,
            message: format!("the data of entry {} runs into the central directory", entry.index + 1),
            hint: RECREATE,
        });
    }
    Ok(())
}

/// The first pair of entries (by central-directory index) whose spans share a byte.
pub fn first_overlap(entries: &[CentralEntry]) -> Option<(&CentralEntry, &CentralEntry)> {
    let mut sorted: Vec<&CentralEntry> = entries.iter().collect();
    sorted.sort_by_key(|e| (e.header_offset, e.data_offset + e.compressed_size));
    sorted.windows(2).find(|w| w[0].span().end > w[1].span().start).map(|w| (w[0], w[1]))
}

fn to_usize(v: u64) -> Result<usize, Malformed> {
    usize::try_from(v).map_err(|_| malformed("offset out of range"))
}

fn u16_at(bytes: &[u8], pos: usize) -> Option<u16> {
    bytes.get(pos..pos + 2).map(|b| u16::from_le_bytes([b[0], b[1]]))
}

fn u32_at(bytes: &[u8], pos: usize) -> Option<u32> {
    bytes.get(pos..pos + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn u64_at(bytes: &[u8], pos: usize) -> Option<u64> {
    bytes.get(pos..pos + 8).map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
}
