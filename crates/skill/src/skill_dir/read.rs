//! Reads into a vector's spare capacity, and the capped whole-file read.

use std::fs;

/// Reads `file` to its end into a buffer sized for its `size` bytes, but never holds more than
/// `limit + 1` bytes: `None` when the file had more than `limit` (it grew after it was sized).
pub(super) fn read_capped(file: &fs::File, size: u64, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let cap = limit.saturating_add(1);
    let first = size.saturating_add(1).min(cap);
    let mut buf = Vec::new();
    buf.reserve_exact(usize::try_from(first).unwrap_or(usize::MAX));
    loop {
        if buf.len() == buf.capacity() {
            let len = buf.len() as u64;
            if len >= cap {
                break;
            }
            let more = len.max(4096).min(cap - len);
            buf.reserve_exact(usize::try_from(more).unwrap_or(usize::MAX));
        }
        if read_once(file, &mut buf)? == 0 {
            break;
        }
    }
    Ok((buf.len() as u64 <= limit).then_some(buf))
}

/// One `read` appended to `buf`, as much as its spare capacity holds, retried when a signal
/// interrupts it. On Unix the bytes land straight in the uninitialised spare capacity, so no
/// buffer is zeroed first (level 1 would otherwise clear 4 KB per folder).
#[cfg(unix)]
pub(crate) fn read_once(file: &fs::File, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    loop {
        match rustix::io::read(file, rustix::buffer::spare_capacity(buf)) {
            Err(rustix::io::Errno::INTR) => {}
            other => return other.map_err(Into::into),
        }
    }
}

#[cfg(not(unix))]
pub(crate) fn read_once(mut file: &fs::File, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    use std::io::Read;
    let start = buf.len();
    buf.resize(buf.capacity(), 0);
    let read = loop {
        match file.read(&mut buf[start..]) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            other => break other,
        }
    };
    buf.truncate(start + *read.as_ref().unwrap_or(&0));
    read
}
