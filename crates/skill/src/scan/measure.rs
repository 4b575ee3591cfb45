//! Precision and recall of the scan per category on a labelled set: malicious skills written for
//! it (`tests/data/scan/<split>/<category>/<skill>/`, each labelled by the folder it sits in) and
//! clean real skills (the shared corpus, labelled with no category). A skill counts as flagged in
//! a category when the scan reports any finding of that category in it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{scan_package, Category};
use crate::load::package_from_dir;

/// One skill of the labelled set.
#[derive(Debug, Clone)]
pub struct Sample {
    pub dir: PathBuf,
    /// The categories it belongs to; empty for a clean skill.
    pub labels: Vec<Category>,
}

/// Outcomes in one category.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub true_positives: u32,
    pub false_positives: u32,
    pub false_negatives: u32,
}

impl Counts {
    /// Flagged skills that belong to the category, of all flagged; `None` when none was flagged.
    pub fn precision(&self) -> Option<f64> {
        let flagged = self.true_positives + self.false_positives;
        (flagged > 0).then(|| f64::from(self.true_positives) / f64::from(flagged))
    }

    /// Skills of the category that were flagged, of all of them; `None` when there are none.
    pub fn recall(&self) -> Option<f64> {
        let positives = self.true_positives + self.false_negatives;
        (positives > 0).then(|| f64::from(self.true_positives) / f64::from(positives))
    }
}

/// The malicious skills of `split` under `data_dir` (`<split>/<category>/<skill>/`), sorted.
pub fn malicious(data_dir: &Path, split: &str) -> std::io::Result<Vec<Sample>> {
    let mut out = Vec::new();
    for category in sorted_dirs(&data_dir.join(split))? {
        let name = category.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let label = Category::from_name(name).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidData, format!("`{name}` is not a scan category"))
        })?;
        out.extend(sorted_dirs(&category)?.into_iter().map(|dir| Sample { dir, labels: vec![label] }));
    }
    Ok(out)
}

/// The clean skills of a corpus laid out as `<collection>/<skill>/SKILL.md`, sorted.
pub fn clean(corpus: &Path) -> std::io::Result<Vec<Sample>> {
    let mut out = Vec::new();
    for collection in sorted_dirs(corpus)? {
        for dir in sorted_dirs(&collection)? {
            if dir.join("SKILL.md").is_file() {
                out.push(Sample { dir, labels: Vec::new() });
            }
        }
    }
    Ok(out)
}

fn sorted_dirs(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(dir)?.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    Ok(dirs)
}

/// The categories the scan flags in the skill folder `dir` (a folder that cannot be read is
/// flagged in none).
pub fn flagged(dir: &Path) -> Vec<Category> {
    let Ok(pkg) = package_from_dir(dir) else { return Vec::new() };
    let mut categories: Vec<Category> = scan_package(&pkg).into_iter().map(|f| f.category).collect();
    categories.sort();
    categories.dedup();
    categories
}

/// Counts per category over `samples`, with each sample's flagged categories from `flag`.
pub fn measure(samples: &[Sample], flag: impl Fn(&Path) -> Vec<Category>) -> BTreeMap<Category, Counts> {
    let mut counts: BTreeMap<Category, Counts> =
        Category::ALL.into_iter().map(|c| (c, Counts::default())).collect();
    for sample in samples {
        let flagged = flag(&sample.dir);
        for category in Category::ALL {
            let labelled = sample.labels.contains(&category);
            let found = flagged.contains(&category);
            let entry = counts.get_mut(&category).expect("every category");
            match (labelled, found) {
                (true, true) => entry.true_positives += 1,
                (false, true) => entry.false_positives += 1,
                (true, false) => entry.false_negatives += 1,
                (false, false) => {}
            }
        }
    }
    counts
}
