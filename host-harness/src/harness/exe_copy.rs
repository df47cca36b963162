//! Copying the embedded artifact out of the running executable's file inside the kernel.
//!
//! The artifact (~47 MB) lives in the binary's read-only data, which the loader maps from the
//! executable file. Writing it to the cache directory or to a memfd with `write` reads every page of
//! that mapping in user space (page faults) and copies it into the page cache: most of a first run's
//! ~50 ms of CPU. `sendfile` from the executable's own file at the artifact's offset copies page-cache
//! pages to page-cache pages in the kernel, with no user-space mapping touched.
//!
//! The offset comes from `/proc/self/maps` (the mapping that holds the artifact's address, and its
//! file offset), and is trusted only when that mapping is the file `/proc/self/exe` opens (same inode)
//! and the file's bytes at both ends of the artifact equal the artifact's. `/proc/self/exe` opens the
//! file this process runs even if it was replaced on disk since, and a running executable cannot be
//! written in place (`ETXTBSY`). Any doubt or failure and the caller writes the bytes as before.

use std::fs::File;
use std::os::unix::fs::{FileExt, MetadataExt};

/// How much of each end of the artifact is compared with the file before trusting the offset.
const CHECKED: usize = 4096;

/// The running executable opened, and the offset in it of `bytes`' first byte, when `bytes` lies in
/// a mapping of that file and the file holds the same bytes there (checked at both ends).
pub(crate) fn locate(bytes: &[u8]) -> Option<(File, u64)> {
    if bytes.is_empty() {
        return None;
    }
    let start = bytes.as_ptr() as usize;
    let end = start.checked_add(bytes.len())?;
    let exe = File::open("/proc/self/exe").ok()?;
    let inode = exe.metadata().ok()?.ino();
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    let offset = maps
        .lines()
        .find_map(|line| file_offset(line, start, end))
        .filter(|&(_, mapped_inode)| mapped_inode == inode)?
        .0;
    let len = bytes.len();
    let ends = [(0, CHECKED.min(len)), (len - CHECKED.min(len), len)];
    let mut buf = vec![0; CHECKED];
    for (from, to) in ends {
        let part = &mut buf[..to - from];
        exe.read_exact_at(part, offset + from as u64).ok()?;
        if part != &bytes[from..to] {
            return None;
        }
    }
    Some((exe, offset))
}

/// For a `/proc/self/maps` line whose mapping holds `start..end`: the file offset of `start` and the
/// mapped file's inode.
fn file_offset(line: &str, start: usize, end: usize) -> Option<(u64, u64)> {
    let mut fields = line.split_ascii_whitespace();
    let (low, high) = fields.next()?.split_once('-')?;
    let low = usize::from_str_radix(low, 16).ok()?;
    let high = usize::from_str_radix(high, 16).ok()?;
    if !(low <= start && end <= high) {
        return None;
    }
    let _perms = fields.next()?;
    let offset = u64::from_str_radix(fields.next()?, 16).ok()?;
    let _device = fields.next()?;
    let inode = fields.next()?.parse().ok()?;
    Some((offset + (start - low) as u64, inode))
}

/// Copy `len` bytes of `src` from `offset` to `dst`'s current position, in the kernel.
pub(crate) fn send(src: &File, mut offset: u64, len: usize, dst: &File) -> std::io::Result<()> {
    let mut left = len;
    while left > 0 {
        let sent = rustix::fs::sendfile(dst, src, Some(&mut offset), left)?;
        if sent == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        left -= sent;
    }
    Ok(())
}

/// Fill the empty file `dst` with `bytes`: sent from the executable when they are found there
/// ([`locate`]), else (or if that fails midway) written. Says which way it went (`true`: sent).
pub(crate) fn fill(dst: &mut File, bytes: &[u8]) -> std::io::Result<bool> {
    use std::io::{Seek, Write};
    if let Some((exe, offset)) = locate(bytes)
        && send(&exe, offset, bytes.len(), dst).is_ok()
    {
        return Ok(true);
    }
    dst.set_len(0)?;
    dst.rewind()?;
    dst.write_all(bytes)?;
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// Bytes compiled into this test binary's read-only data.
    static EMBEDDED: &[u8] = include_bytes!("exe_copy.rs");

    fn read_all(mut file: File) -> Vec<u8> {
        use std::io::Seek;
        file.rewind().unwrap();
        let mut out = vec![];
        file.read_to_end(&mut out).unwrap();
        out
    }

    #[test]
    fn embedded_bytes_are_found_in_the_executable_and_sent_exactly() {
        let (exe, offset) = locate(EMBEDDED).expect("the bytes are mapped from the test binary");
        let mut got = vec![0; EMBEDDED.len()];
        exe.read_exact_at(&mut got, offset).unwrap();
        assert_eq!(got, EMBEDDED);
        let mut dst = tempfile::tempfile().unwrap();
        assert!(fill(&mut dst, EMBEDDED).unwrap(), "sent, not written");
        assert_eq!(read_all(dst), EMBEDDED);
    }

    #[test]
    fn the_precompiled_artifact_is_found_too() {
        let artifact = crate::harness::PRECOMPILED;
        let mut dst = tempfile::tempfile().unwrap();
        assert!(fill(&mut dst, artifact).unwrap());
        assert_eq!(dst.metadata().unwrap().len(), artifact.len() as u64);
        let mut tail = vec![0; 1 << 16];
        let at = (artifact.len() - tail.len()) as u64;
        dst.read_exact_at(&mut tail, at).unwrap();
        assert_eq!(tail, artifact[artifact.len() - tail.len()..]);
    }

    #[test]
    fn bytes_not_in_the_executable_are_written_instead() {
        let heap = EMBEDDED.to_vec();
        assert!(locate(&heap).is_none(), "heap memory is no file mapping");
        assert!(locate(&[]).is_none());
        let mut dst = tempfile::tempfile().unwrap();
        assert!(!fill(&mut dst, &heap).unwrap(), "written");
        assert_eq!(read_all(dst), heap);
    }

    #[test]
    fn a_maps_line_gives_the_offset_only_when_it_holds_the_range() {
        let line = "5600a000-5600c000 r--p 00002000 fd:01 1234   /usr/bin/x";
        assert_eq!(
            file_offset(line, 0x5600a010, 0x5600b000),
            Some((0x2010, 1234))
        );
        assert_eq!(file_offset(line, 0x5600b000, 0x5600c001), None);
        assert_eq!(file_offset(line, 0x56009fff, 0x5600a001), None);
        let anonymous = "7f00a000-7f00c000 rw-p 00000000 00:00 0";
        assert_eq!(file_offset(anonymous, 0x7f00a000, 0x7f00a001), Some((0, 0)));
    }
}
