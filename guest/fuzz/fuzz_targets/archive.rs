//! The host's archive reader (`host-harness/src/bundle.rs`, compiled in directly so this target does
//! not build wasmtime): any bytes as a .zip are read within the caps or refused; never a panic, a
//! hang or an allocation beyond the caps. What it reads is then scanned.
#![no_main]

#[path = "../../../host-harness/src/bundle.rs"]
#[allow(dead_code)]
mod bundle;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = bundle::BundleLimits::default();
    let path = std::path::Path::new("fuzz.zip");
    if let Ok(b) = bundle::read_zip(std::io::Cursor::new(data), path, &limits) {
        let total: u64 = b
            .files
            .iter()
            .map(|f| f.content.as_ref().map_or(0, |c| c.len() as u64))
            .sum();
        assert!(total <= limits.max_total_bytes + limits.max_file_bytes);
        let _ = guest::scan::scan_bundle(&b, guest::scan::Trust::Community, false);
    }
});
