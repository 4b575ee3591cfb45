//! A skill *folder* to import is packed into an in-memory zip and imported like any package, so
//! it meets exactly the checks of SPEC A8 (names, limits, symlinks, executables) in one place:
//! [`crate::Library::import_zip`]. The folder is read through the readers' own walk
//! (`skillcase_skill::skill_dir::walk`): no link is followed, a FIFO cannot block it, and a file
//! over the per-file limit is refused from its size without being read. Reading stops one file
//! past the limit, so dropping a huge folder by mistake costs little and still comes back as the
//! usual `zip_too_many_files` refusal.

use std::io::Write;
use std::path::Path;

use skillcase_skill::archive::codes;
use skillcase_skill::finding::Finding;
use skillcase_skill::load::LoadError;
use skillcase_skill::policy::ImportLimits;
use skillcase_skill::skill_dir::{walk, FileError, Kind, Reach, SkillDir};
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

/// A folder packed for the import, or what refused it before any zip was made.
#[derive(Debug)]
pub enum Packed {
    Zip(Vec<u8>),
    Refused(Vec<Finding>),
}

/// The folder `dir` as a zip holding one top folder named like it. Symbolic links are kept as
/// symlink entries so the import refuses them by name; a FIFO, socket or device
/// (`zip_special_file`) or a file over the per-file limit (`zip_file_too_large`) refuses the
/// folder here, unread, as does a folder the walk cannot read.
pub fn zip_folder(dir: &Path, limits: &ImportLimits) -> std::io::Result<Packed> {
    let top = dir.file_name().and_then(|n| n.to_str()).unwrap_or("skill").to_string();
    let folder = match SkillDir::open(dir, Reach::Named) {
        Ok(folder) => folder,
        Err(e) => return Ok(Packed::Refused(vec![e.to_finding()])),
    };
    let mut zip = ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut refusals = Vec::new();
    let mut files = 0u32;
    let walked = walk::walk(folder, &mut |visit| {
        files += 1;
        if files > limits.max_files.saturating_add(1) {
            return Ok(());
        }
        let inner = format!("{top}/{}", visit.path);
        let added = match visit.kind {
            Kind::Symlink => visit.read_link().and_then(|target| {
                zip.add_symlink(inner.clone(), target.to_string_lossy(), SimpleFileOptions::default())
                    .map_err(|e| FileError::Io { path: visit.path.to_string(), source: e.into() })
            }),
            Kind::File => {
                visit.open(limits.max_file_bytes).and_then(|file| file.read_all()).and_then(|bytes| {
                    zip.start_file(inner.clone(), SimpleFileOptions::default())
                        .map_err(std::io::Error::from)
                        .and_then(|()| zip.write_all(&bytes))
                        .map_err(|source| FileError::Io { path: visit.path.to_string(), source })
                })
            }
            kind => Err(FileError::NotRegular { path: visit.path.to_string(), kind }),
        };
        if let Err(e) = added {
            refusals.push(refusal(&inner, e));
        }
        Ok(())
    });
    if let Err(e) = walked {
        refusals.push(e.to_finding());
    }
    if !refusals.is_empty() {
        return Ok(Packed::Refused(refusals));
    }
    Ok(Packed::Zip(zip.finish()?.into_inner()))
}

/// A file the packing refused, named like the zip entry it would have been.
fn refusal(entry: &str, error: FileError) -> Finding {
    match &error {
        FileError::NotRegular { kind, .. } => Finding::error(
            codes::SPECIAL_FILE,
            entry,
            format!("the entry is {}, not a regular file", kind.describe()),
        )
        .hint("zip only regular files"),
        FileError::TooLarge { size, limit, .. } => Finding::error(
            codes::FILE_TOO_LARGE,
            entry,
            format!("the file is {size} bytes; the limit is {limit} bytes per file"),
        )
        .hint("shrink or split the file, or raise the per-file import limit in Settings"),
        FileError::Symlink { .. } => Finding::error(codes::SYMLINK, entry, "the entry is a symbolic link")
            .hint("replace the link with the file it points to"),
        _ => LoadError::File(error).to_finding(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zipped(packed: Packed) -> Vec<u8> {
        match packed {
            Packed::Zip(bytes) => bytes,
            Packed::Refused(findings) => panic!("refused: {findings:?}"),
        }
    }

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
        let bytes = zipped(zip_folder(&skill, &ImportLimits::default()).unwrap());
        assert_eq!(names(&bytes), ["frete/SKILL.md", "frete/references/tabela.md"]);
    }

    #[test]
    fn reading_stops_one_file_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..10 {
            std::fs::write(dir.path().join(format!("{i}.md")), "x").unwrap();
        }
        let limits = ImportLimits { max_files: 3, ..ImportLimits::default() };
        assert_eq!(names(&zipped(zip_folder(dir.path(), &limits).unwrap())).len(), 4);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_kept_as_a_symlink_for_the_import_to_refuse() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("SKILL.md"), "x").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("passwd.md")).unwrap();
        let bytes = zipped(zip_folder(dir.path(), &ImportLimits::default()).unwrap());
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        let top = dir.path().file_name().unwrap().to_str().unwrap().to_string();
        assert!(archive.by_name(&format!("{top}/passwd.md")).unwrap().is_symlink());
    }
}
