//! Executable bits and native executables. A script (by extension or `#!`) may be executable; any
//! other file with an exec bit is either a mistake or something that wants to run unseen, and a
//! compiled program is code no reviewer can read.

use super::text::whole_file;
use super::ScanFinding;
use crate::files::{self, EXECUTABLE_EXTENSIONS};
use crate::package::PackageFile;

/// Magic numbers of native executables: ELF, PE (MZ), Mach-O (both byte orders, 32/64-bit, fat).
const MAGICS: &[(&[u8], &str)] = &[
    (b"\x7fELF", "ELF"),
    (b"MZ", "PE (Windows)"),
    (b"\xfe\xed\xfa\xce", "Mach-O"),
    (b"\xfe\xed\xfa\xcf", "Mach-O"),
    (b"\xce\xfa\xed\xfe", "Mach-O"),
    (b"\xcf\xfa\xed\xfe", "Mach-O"),
    (b"\xca\xfe\xba\xbe", "Mach-O universal"),
];

/// Reports the exec bit on a non-script file and any native executable.
pub(super) fn check(file: &PackageFile, out: &mut Vec<ScanFinding>) {
    let binary = MAGICS.iter().find(|(magic, _)| file.bytes.starts_with(magic) && file.bytes.len() >= 64);
    if let Some((_, format)) = binary {
        out.push(whole_file(
            &file.path,
            "executable_binary",
            format!("{} is a native {format} executable", file.path),
        ));
        return;
    }
    let executable_bit = file.unix_mode.is_some_and(|m| m & 0o111 != 0);
    let script = EXECUTABLE_EXTENSIONS.contains(&files::extension(&file.path).as_str())
        || file.bytes.starts_with(b"#!");
    if executable_bit && !script {
        let mode = file.unix_mode.unwrap_or_default() & 0o777;
        let message = format!("{} is not a script but has mode {mode:o} (executable)", file.path);
        out.push(whole_file(&file.path, "exec_bit_non_script", message));
    }
}
