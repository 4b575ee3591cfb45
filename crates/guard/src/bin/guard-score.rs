//! Prints the detector's verdict, score and spans for each argument (a development aid). Reads
//! `model/guard.bin` at run time, so a freshly trained model is used without rebuilding.
//!
//! `cargo run -p skillcase-guard --release --bin guard-score -- "message" ...`

use skillcase_guard::model::Model;

fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("model/guard.bin");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let model = Model::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for message in std::env::args().skip(1) {
        let found = skillcase_guard::detect_with(&model, &message);
        println!("{:+.3} {} {message}", found.score, if found.promise { "PROMISE" } else { "clear  " });
        for span in &found.spans {
            println!("        {:?} {}..{} {:?}", span.role, span.start, span.end, span.text);
        }
    }
}
