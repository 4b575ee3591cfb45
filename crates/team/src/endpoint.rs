//! The team's default agent endpoint: one row, its secret never shown back.

use postgres::{GenericClient, Transaction};
use skillcase_cases::endpoint::{EndpointInput, EndpointSettings, EndpointView};

use crate::error::TeamError;

pub fn get_endpoint(c: &mut impl GenericClient) -> Result<Option<EndpointSettings>, TeamError> {
    todo!()
}

pub fn endpoint_view(c: &mut impl GenericClient) -> Result<Option<EndpointView>, TeamError> {
    todo!()
}

pub fn set_endpoint(tx: &mut Transaction<'_>, input: &EndpointInput) -> Result<EndpointView, TeamError> {
    todo!()
}

pub fn checked_endpoint(
    c: &mut impl GenericClient,
    input: &EndpointInput,
) -> Result<EndpointSettings, TeamError> {
    todo!()
}
