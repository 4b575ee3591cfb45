//! "Ana is replying": while a person writes a reply, the case holds a short lease in
//! their name, renewed as they type. While it runs, the case shows who is replying and another
//! person's Send is refused (`case_being_replied`) — unless that person took the case over, so it
//! is assigned to them. A sent reply ends the lease; an abandoned one simply runs out.
//!
//! The rules are here once; each backend stores the lease in a `reply_leases` row and calls
//! [`check_send`] inside the reply's transaction.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::clock;
use super::error::CasesError;
use super::rows::lock_case;
use crate::args;
use crate::sql::Sql;

/// How long a lease lasts after the last keystroke that renewed it.
pub const REPLY_LEASE: Duration = Duration::from_secs(15);

/// Who is writing a reply on a case, and until when the lease runs without being renewed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Replying {
    pub person: String,
    pub until: String,
}

impl Replying {
    /// Whether the lease still runs at `now`.
    pub fn live_at(&self, now: &str) -> bool {
        self.until.as_str() > now
    }
}

/// Whether `actor` may send a reply on a case whose lease is `lease` and whose assignee is
/// `assignee`, at `now`: refused while someone else's lease runs, unless the case is `actor`'s.
pub fn check_send(
    lease: Option<&Replying>,
    actor: &str,
    assignee: Option<&str>,
    now: &str,
) -> Result<(), CasesError> {
    match lease {
        Some(lease) if lease.person != actor && lease.live_at(now) && assignee != Some(actor) => {
            Err(CasesError::BeingReplied { person: lease.person.clone(), until: lease.until.clone() })
        }
        _ => Ok(()),
    }
}

/// Who holds the lease after `person` asks for it at `now` while `current` is stored: `person`
/// until `until`, or the other person whose lease still runs (and who keeps it), as `Err`.
pub fn next_holder(
    current: Option<Replying>,
    person: &str,
    now: &str,
    until: String,
) -> Result<Replying, Replying> {
    match current {
        Some(other) if other.person != person && other.live_at(now) => Err(other),
        _ => Ok(Replying { person: person.to_string(), until }),
    }
}

/// The lease `person` asked for: renewed for [`REPLY_LEASE`] and returned, or the other
/// person's live lease, left as it is. The case must exist; its row is locked first, so two
/// people asking at once take turns and the second sees the first's lease.
pub fn hold(sql: &mut dyn Sql, case_id: &str, person: &str) -> Result<Replying, CasesError> {
    let person = crate::transition::required("person", person)?;
    lock_case(sql, case_id)?;
    let now = clock::now();
    match next_holder(stored(sql, case_id)?, person, &now, clock::after(REPLY_LEASE)) {
        Err(other) => Ok(other),
        Ok(mine) => {
            sql.execute(
                "INSERT INTO reply_leases (case_id, person, until) VALUES ($1, $2, $3) \
                 ON CONFLICT (case_id) DO UPDATE SET person = excluded.person, until = excluded.until",
                args![case_id, &mine.person, &mine.until],
            )?;
            Ok(mine)
        }
    }
}

/// The lease of a case if one still runs at `now`.
pub fn live(sql: &mut dyn Sql, case_id: &str, now: &str) -> Result<Option<Replying>, CasesError> {
    Ok(stored(sql, case_id)?.filter(|lease| lease.live_at(now)))
}

/// The stored lease of a case, running or not.
pub fn stored(sql: &mut dyn Sql, case_id: &str) -> Result<Option<Replying>, CasesError> {
    let row = sql.query_opt("SELECT person, until FROM reply_leases WHERE case_id = $1", args![case_id])?;
    row.map(|r| Ok(Replying { person: r.text(0)?, until: r.text(1)? })).transpose()
}

/// Ends the lease of a case (its reply was sent, or it was taken over).
pub fn clear(sql: &mut dyn Sql, case_id: &str) -> Result<(), CasesError> {
    sql.execute("DELETE FROM reply_leases WHERE case_id = $1", args![case_id])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: &str = "2026-12-03T10:00:00.000Z";
    const LATER: &str = "2026-12-03T10:00:15.000Z";
    const EARLIER: &str = "2026-12-03T09:59:50.000Z";

    fn ana(until: &str) -> Replying {
        Replying { person: "Ana".into(), until: until.into() }
    }

    #[test]
    fn another_persons_send_is_refused_while_their_lease_runs() {
        let err = check_send(Some(&ana(LATER)), "Bruno", None, NOW).unwrap_err();
        assert!(matches!(err, CasesError::BeingReplied { ref person, .. } if person == "Ana"), "{err}");
    }

    #[test]
    fn the_lease_holders_own_send_goes_through() {
        assert!(check_send(Some(&ana(LATER)), "Ana", None, NOW).is_ok());
    }

    #[test]
    fn a_send_after_the_lease_ran_out_goes_through() {
        assert!(check_send(Some(&ana(EARLIER)), "Bruno", None, NOW).is_ok());
    }

    #[test]
    fn a_person_who_took_the_case_over_may_send() {
        assert!(check_send(Some(&ana(LATER)), "Bruno", Some("Bruno"), NOW).is_ok());
    }

    #[test]
    fn asking_for_a_lease_someone_else_holds_names_them_and_keeps_theirs() {
        assert_eq!(next_holder(Some(ana(LATER)), "Bruno", NOW, LATER.into()), Err(ana(LATER)));
    }

    #[test]
    fn a_lease_that_ran_out_goes_to_whoever_asks() {
        let bruno = Replying { person: "Bruno".into(), until: LATER.into() };
        assert_eq!(next_holder(Some(ana(EARLIER)), "Bruno", NOW, LATER.into()), Ok(bruno));
    }
}
