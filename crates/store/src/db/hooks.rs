//! Migrations that need more than SQL. A hook runs inside its migration's transaction, after the
//! migration's SQL: if it fails, the whole upgrade is rolled back and the database is as it was.

use rusqlite::{params, Transaction};
use rusqlite_migration::{HookError, HookResult};

use crate::secrets::SecretFiles;

/// Moves every catalog token stored in the database into a private file of its own and keeps
/// only the file's name (`token_ref`). A file written for an upgrade that then rolls back names
/// nothing; the next upgrade writes the token again.
pub(super) fn move_catalog_tokens(tx: &Transaction, secrets: &SecretFiles) -> HookResult {
    let tokens: Vec<(i64, String)> = tx
        .prepare("SELECT id, token FROM remote_catalogs WHERE token IS NOT NULL")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (id, token) in tokens {
        let reference = secrets.put(&token).map_err(|e| {
            HookError::Hook(format!(
                "cannot write the token of catalog {id} to {}: {e}",
                secrets.dir().display()
            ))
        })?;
        tx.execute(
            "UPDATE remote_catalogs SET token_ref = ?2, token = NULL WHERE id = ?1",
            params![id, reference],
        )?;
    }
    Ok(())
}
