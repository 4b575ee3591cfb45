//! A skill *folder* to import is packed into an in-memory zip and imported like any package, so
//! it meets exactly the checks of SPEC A8 (names, limits, symlinks, executables) in one place:
//! [`crate::Library::import_zip`]. Reading stops one file and one byte past the limits, so dropping a huge
//! folder by mistake costs little and still comes back as the usual `zip_too_many_files` or
//! `zip_file_too_large` refusal.

use std::io::{Read, Write};
use std::path::Path;

use skillcase_skill::policy::ImportLimits;
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

/// Packs `dir` as a zip with one top-level folder named like `dir`. Symbolic links become
/// symlink entries (which the import refuses); other non-regular files are left out.
/// The folder `dir` as a zip holding one top folder named like it; symlinks are kept as
/// symlinks so the import refuses them by name.
pub fn zip_folder(dir: &Path, limits: &ImportLimits) -> std::io::Result<Vec<u8>> {
    let top = dir.file_name().and_then(|n| n.to_str()).unwrap_or("skill").to_string();
    let mut zip = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut files = 0u32;
    let mut pending = vec![(dir.to_path_buf(), top)];
    while let Some((folder, prefix)) = pending.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&folder)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let Some(name) = entry.file_name().to_str().map(str::to_string) else { continue };
            let inner = format!("{prefix}/{name}");
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push((entry.path(), inner));
                continue;
            }
            files += 1;
            if files > limits.max_files.saturating_add(1) {
                break;
            }
            if kind.is_symlink() {
                let target = std::fs::read_link(entry.path())?;
                zip.add_symlink(inner, target.to_string_lossy(), SimpleFileOptions::default())?;
            } else if kind.is_file() {
                let mut bytes = Vec::new();
                std::fs::File::open(entry.path())?.take(limits.max_file_bytes + 1).read_to_end(&mut bytes)?;
                zip.start_file(inner, SimpleFileOptions::default())?;
                zip.write_all(&bytes)?;
            }
        }
    }
    Ok(zip.finish()?.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(bytes: &[u8]) -> Vec<String> {
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let mut names: Vec<String> =
            (0..archive.len()).map(|i| archive.by_index(i).unwrap().name().unwrap().to_string()).collect();
        names.sort();
        names
    }

    #[test]
    fn a_folder_becomes_one_top_folder_with_every_file() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("frete");
        std::fs::create_dir_all(skill.join("references")).unwrap();
        std::fs::write(skill.join("SKILL.md"), "---\nname: frete\n---\n").unwrap();
        std::fs::write(skill.join("references/tabela.md"), "# Tabela\n").unwrap();
        let bytes = zip_folder(&skill, &ImportLimits::default()).unwrap();
        assert_eq!(names(&bytes), ["frete/SKILL.md", "frete/references/tabela.md"]);
    }

    #[test]
    fn reading_stops_one_file_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..10 {
            std::fs::write(dir.path().join(format!("{i}.md")), "x").unwrap();
        }
        let limits = ImportLimits { max_files: 3, ..ImportLimits::default() };
        assert_eq!(names(&zip_folder(dir.path(), &limits).unwrap()).len(), 4);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_kept_as_a_symlink_for_the_import_to_refuse() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("SKILL.md"), "x").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("passwd.md")).unwrap();
        let bytes = zip_folder(dir.path(), &ImportLimits::default()).unwrap();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let top = dir.path().file_name().unwrap().to_str().unwrap().to_string();
        assert!(archive.by_name(&format!("{top}/passwd.md")).unwrap().is_symlink());
    }
}
