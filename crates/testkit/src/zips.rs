//! Building zips inside tests: well-formed ones with the `zip` writer, malicious ones by editing
//! the bytes of the local and central headers afterwards.

#![allow(dead_code)]

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// A minimal valid `SKILL.md` for a skill named `frete`.
pub const SKILL_MD: &[u8] = b"---\nname: frete\ndescription: Calcula o frete por CEP. Use quando o cliente pergunta do frete.\n---\n# Frete\n\nLeia references/tabela.md.\n";

pub fn deflated() -> SimpleFileOptions {
    SimpleFileOptions::default().compression_method(CompressionMethod::Deflated)
}

pub fn stored() -> SimpleFileOptions {
    SimpleFileOptions::default().compression_method(CompressionMethod::Stored)
}

/// A zip of `(name, bytes)` entries, deflated, in the given order.
pub fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    zip_with(entries.iter().map(|(n, b)| (*n, *b, deflated())))
}

/// A zip of `(name, bytes, options)` entries.
pub fn zip_with<'a>(entries: impl IntoIterator<Item = (&'a str, &'a [u8], SimpleFileOptions)>) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes, options) in entries {
        writer.start_file(name, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// Offset of the central directory record named `name`.
pub fn central_record(bytes: &[u8], name: &[u8]) -> usize {
    find_record(bytes, [0x50, 0x4b, 0x01, 0x02], 28, 46, name)
}

/// Offset of the local header named `name`.
pub fn local_header(bytes: &[u8], name: &[u8]) -> usize {
    find_record(bytes, [0x50, 0x4b, 0x03, 0x04], 26, 30, name)
}

fn find_record(bytes: &[u8], sig: [u8; 4], len_at: usize, name_at: usize, name: &[u8]) -> usize {
    (0..bytes.len() - 4)
        .find(|&p| {
            bytes[p..p + 4] == sig && {
                let len = u16::from_le_bytes([bytes[p + len_at], bytes[p + len_at + 1]]) as usize;
                bytes.get(p + name_at..p + name_at + len) == Some(name)
            }
        })
        .unwrap_or_else(|| panic!("no record named {}", String::from_utf8_lossy(name)))
}

/// Renames an entry in both its local header and its central record (same length).
pub fn rename_entry(bytes: &mut [u8], from: &[u8], to: &[u8]) {
    assert_eq!(from.len(), to.len(), "raw renames keep the length");
    for pos in [local_header(bytes, from) + 30, central_record(bytes, from) + 46] {
        bytes[pos..pos + to.len()].copy_from_slice(to);
    }
}

pub fn read_u32(bytes: &[u8], pos: usize) -> u32 {
    u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap())
}

pub fn write_u16(bytes: &mut [u8], pos: usize, value: u16) {
    bytes[pos..pos + 2].copy_from_slice(&value.to_le_bytes());
}

pub fn write_u32(bytes: &mut [u8], pos: usize, value: u32) {
    bytes[pos..pos + 4].copy_from_slice(&value.to_le_bytes());
}

/// Rewrites a zip (without comment) to end with a zip64 end record and locator, the classic end
/// record pointing at them with its fields set to 0xFFFF / 0xFFFFFFFF.
pub fn with_zip64_end(zip: &[u8]) -> Vec<u8> {
    let eocd = zip.len() - 22;
    assert_eq!(read_u32(zip, eocd), 0x0605_4b50, "a zip without comment");
    let entries = u16::from_le_bytes([zip[eocd + 10], zip[eocd + 11]]) as u64;
    let cd_size = read_u32(zip, eocd + 12) as u64;
    let cd_offset = read_u32(zip, eocd + 16) as u64;
    let mut out = zip[..eocd].to_vec();
    let record = out.len() as u64;
    out.extend_from_slice(&0x0606_4b50u32.to_le_bytes());
    out.extend_from_slice(&44u64.to_le_bytes());
    out.extend_from_slice(&[45, 3, 45, 0]);
    out.extend_from_slice(&[0; 8]);
    for value in [entries, entries, cd_size, cd_offset] {
        out.extend_from_slice(&value.to_le_bytes());
    }
    out.extend_from_slice(&0x0706_4b50u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&record.to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&[0xff; 4]);
    out.extend_from_slice(&[0xff; 8]);
    out.extend_from_slice(&[0; 2]);
    out
}
