//! Fuzzes the untrusted-zip inspector: any bytes must yield a package or findings, never a
//! panic, a hang or an allocation beyond the import limits.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skillcase_skill::archive::inspect_bytes;
use skillcase_skill::policy::Policy;

fuzz_target!(|data: &[u8]| {
    let policy = Policy::default();
    if let Ok(package) = inspect_bytes(data, &policy) {
        assert!(package.files.len() <= policy.limits.max_files as usize);
        assert!(package.total_bytes() <= policy.limits.max_total_bytes);
    }
});
