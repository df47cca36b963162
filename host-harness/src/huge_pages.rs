//! Transparent huge pages for the few large buffers a big input fills at once.
//!
//! A `filter` of 100,000 candidates first touches ~45 MB of host buffer (the input file read) and
//! ~150 MB of the component's linear memory (the input's copy, the parsed candidates, the result).
//! In 4 KiB pages that is ~50,000 page faults, a quarter of the whole process's CPU time
//! (BENCHMARKS.md, issue 17). Asking the kernel for 2 MiB pages there (`madvise(MADV_HUGEPAGE)`: the
//! usual Linux setting, `transparent_hugepage=madvise`, gives huge pages only where asked) turns them
//! into a few hundred faults. Contents are never changed: the advice only says how to back the pages.
//! Elsewhere than Linux, or where the kernel declines (THP off, a range not mapped), nothing happens.

/// The size of a huge page on x86-64 and aarch64 Linux; smaller ranges cannot hold one.
pub const HUGE_PAGE: usize = 2 << 20;

/// Ask for huge pages over `[start, start + len)` (the whole 4 KiB pages inside it). Ranges shorter
/// than a huge page are left alone. Errors are ignored: the advice is only about speed.
pub fn advise(start: *const u8, len: usize) {
    if len < HUGE_PAGE {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let first = (start as usize).div_ceil(PAGE) * PAGE;
        let end = (start as usize).saturating_add(len) / PAGE * PAGE;
        if end > first {
            // SAFETY: MADV_HUGEPAGE changes neither the contents nor the validity of any mapping
            // (only how the kernel may back it later), so no memory, mapped or not, is affected in a
            // way Rust can observe; an unmapped part of the range is an ENOMEM, ignored.
            let _ = unsafe {
                rustix::mm::madvise(
                    first as *mut std::ffi::c_void,
                    end - first,
                    rustix::mm::Advice::LinuxHugepage,
                )
            };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = start;
}
