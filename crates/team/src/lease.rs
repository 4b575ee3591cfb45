//! "Ana is replying" on the team database: the lease of [`skillcase_cases::lease`] in a
//! `reply_leases` row, taken under the case's row lock so two people asking at once take turns
//! and the second sees the first's lease. Its changes are announced like the case's, so every
//! desktop shows who is replying within a second.

use postgres::{GenericClient, Transaction};
use skillcase_cases::clock;
use skillcase_cases::lease::{next_holder, Replying, REPLY_LEASE};
use skillcase_cases::transition::required;

use crate::error::TeamError;
use crate::rows::lock_case;

/// The lease `person` asked for: renewed for [`REPLY_LEASE`] and returned, or the other
/// person's live lease, left as it is. The case must exist.
pub fn hold(tx: &mut Transaction<'_>, case_id: &str, person: &str) -> Result<Replying, TeamError> {
    let person = required("person", person)?;
    lock_case(tx, case_id)?;
    let now = clock::now();
    match next_holder(stored(tx, case_id)?, person, &now, clock::after(REPLY_LEASE)) {
        Err(other) => Ok(other),
        Ok(mine) => {
            tx.execute(
                "INSERT INTO reply_leases (case_id, person, until) VALUES ($1, $2, $3) \
                 ON CONFLICT (case_id) DO UPDATE SET person = excluded.person, until = excluded.until",
                &[&case_id, &mine.person, &mine.until],
            )?;
            Ok(mine)
        }
    }
}

/// The stored lease of a case, running or not.
pub fn stored(c: &mut impl GenericClient, case_id: &str) -> Result<Option<Replying>, TeamError> {
    let row = c.query_opt("SELECT person, until FROM reply_leases WHERE case_id = $1", &[&case_id])?;
    Ok(match row {
        Some(row) => Some(Replying { person: row.try_get(0)?, until: row.try_get(1)? }),
        None => None,
    })
}

/// The lease of a case if one still runs at `now`.
pub fn live(c: &mut impl GenericClient, case_id: &str, now: &str) -> Result<Option<Replying>, TeamError> {
    Ok(stored(c, case_id)?.filter(|lease| lease.live_at(now)))
}

/// Ends the lease of a case (its reply was sent, or it was taken over).
pub fn clear(c: &mut impl GenericClient, case_id: &str) -> Result<(), TeamError> {
    c.execute("DELETE FROM reply_leases WHERE case_id = $1", &[&case_id])?;
    Ok(())
}
