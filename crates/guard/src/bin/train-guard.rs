//! Trains the shipped promise model from `tests/data/guard/` and writes `crates/guard/model/guard.bin`.
//!
//! `cargo run -p skillcase-guard --release --bin train-guard`
//!
//! Deterministic: the same data gives the same file to the bit (a test checks the committed file).

fn main() {
    let started = std::time::Instant::now();
    let model = skillcase_guard::train::train_shipped();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("model/guard.bin");
    let bytes = model.to_bytes();
    std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    println!(
        "wrote {} ({} bytes, 2^{} buckets, {} non-zero, thresholds {:?}) in {:.2} s",
        path.display(),
        bytes.len(),
        model.bits,
        model.nonzero(),
        model.thresholds,
        started.elapsed().as_secs_f64()
    );
}
