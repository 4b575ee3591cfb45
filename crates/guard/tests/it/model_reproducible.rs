//! The committed weights (`model/guard.bin`) are exactly what the training command produces, so
//! anyone can rebuild them: `cargo run -p skillcase-guard --release --bin train-guard`.

#[test]
fn the_committed_model_is_what_train_guard_produces_from_the_data() {
    let trained = skillcase_guard::train::train_shipped().to_bytes();
    let committed: &[u8] = include_bytes!("../../model/guard.bin");
    assert_eq!(
        trained.len(),
        committed.len(),
        "model size differs: rerun train-guard and commit model/guard.bin"
    );
    let first_difference = trained.iter().zip(committed).position(|(a, b)| a != b);
    assert_eq!(first_difference, None, "model differs: rerun train-guard and commit model/guard.bin");
}
