//! When the customer goes quiet (SPEC D5) on the team database: the reminder and the closing,
//! each case taken by one instance however many run the job at once.

use skillcase_cases::quiet::{QuietDelays, QuietRun};

use crate::db::Pg;
use crate::error::TeamError;

pub fn follow_up(pg: &Pg, now: &str, delays: &QuietDelays) -> Result<QuietRun, TeamError> {
    todo!()
}
