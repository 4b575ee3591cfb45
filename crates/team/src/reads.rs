//! Reading the team inbox: one case with its timeline, the inbox pages with their tab counts,
//! the read marks and the handover report.

use postgres::{GenericClient, Transaction};
use skillcase_cases::model::Case;
use skillcase_cases::report::{CaseReport, ReportRange};
use skillcase_cases::store::{CaseFilter, CasePage, CaseWithTimeline, TabCounts};

use crate::error::TeamError;

pub fn get_case(c: &mut impl GenericClient, id: &str) -> Result<CaseWithTimeline, TeamError> {
    todo!()
}

pub fn find_case_by_number(c: &mut impl GenericClient, number: i64) -> Result<Case, TeamError> {
    todo!()
}

pub fn list_cases(c: &mut impl GenericClient, filter: &CaseFilter) -> Result<CasePage, TeamError> {
    todo!()
}

pub fn tab_counts(c: &mut impl GenericClient) -> Result<TabCounts, TeamError> {
    todo!()
}

pub fn report(c: &mut impl GenericClient, range: &ReportRange) -> Result<CaseReport, TeamError> {
    todo!()
}

pub fn set_read(tx: &mut Transaction<'_>, case_id: &str, read: bool) -> Result<(), TeamError> {
    todo!()
}

pub fn set_read_many(tx: &mut Transaction<'_>, case_ids: &[String], read: bool) -> Result<(), TeamError> {
    todo!()
}
