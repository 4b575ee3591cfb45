//! The move from one desktop to a team: a local SQLite inbox copied into a new team database.
//!
//! Everything goes in one PostgreSQL transaction, and only into a database that holds no inbox
//! yet (a second copy, or a copy into a team already at work, would mix two histories). Each
//! case keeps its id and number and each event its `seq`, so deliveries, vetoes and the numbers
//! people quote still point at the same things; the case counter and the timeline's identity
//! continue after them. Before it commits, the copy reads every table back and compares its row
//! count and a SHA-256 over its rows' canonical text in primary-key order with the same sum over
//! what the local inbox returned; any difference rolls everything back.
//!
//! The timeline's append-only triggers forbid only UPDATE, DELETE and TRUNCATE, so the copy
//! inserts events like any other row; the search columns are rebuilt by their own triggers as
//! the cases and then their events arrive.
//!
//! A NUL character an older desktop kept (PostgreSQL refuses it in text and in `jsonb`) is
//! copied as U+FFFD, the way every case step now stores it (`skillcase_cases::sql::storable`);
//! both checksums are taken over what was written.

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::ToSql;
use postgres::{GenericClient, Transaction};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use skillcase_cases::sla::{CALENDAR_SETTING, TARGETS_SETTING};
use skillcase_cases::CasesError;

use crate::error::TeamError;
use crate::PgCases;
use skillcase_cases::sql::{storable, storable_json};
use Kind::{Flag, Int, Json, Text};

/// What was copied, per table in the order copied: rows and checksum, equal on both sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[ts(export)]
pub struct CopyReport {
    pub tables: Vec<TableCopy>,
}

/// One table of a [`CopyReport`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[ts(export)]
pub struct TableCopy {
    pub table: String,
    #[ts(type = "number")]
    pub rows: u64,
    /// Lowercase hex SHA-256 over the rows' canonical text (one JSON array per row, in key order).
    pub sha256: String,
}

/// Copies the inbox of the local database `sqlite` into the empty team database of `team`: its
/// cases, timelines, deliveries, endpoints, agents, veto counts, the guardrail's marks and
/// adopted model, closed totals, case settings and case counter, all or nothing. `team_db_not_empty` when the team database already holds any of them.
pub fn copy_inbox(sqlite: &rusqlite::Connection, team: &PgCases) -> Result<CopyReport, TeamError> {
    // One read transaction: every table is read from the same moment of the local inbox.
    let local = sqlite.unchecked_transaction()?;
    let mut conn = team.pg().connection()?;
    let mut tx = conn.transaction()?;
    refuse_unless_empty(&mut tx)?;
    let copied =
        TABLES.iter().map(|table| copy_table(&local, &mut tx, table)).collect::<Result<Vec<_>, _>>()?;
    for (table, local_sum) in TABLES.iter().zip(&copied) {
        verify(&mut tx, table, local_sum)?;
    }
    continue_identities(&mut tx)?;
    tx.commit()?;
    Ok(CopyReport { tables: copied })
}

/// The settings of the local database that belong to the inbox (the rest are the desktop's own).
const CASE_SETTINGS: &[&str] = &[TARGETS_SETTING, CALENDAR_SETTING];

/// Rows copied per statement.
const CHUNK: usize = 1000;

/// How a column's values travel: SQLite's 0/1 flags become BOOLEAN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    /// Text holding JSON (a case's context, a payload, a body): PostgreSQL's triggers read it
    /// as `jsonb`.
    Json,
    Int,
    Flag,
}

/// How a table's rows go in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Insert {
    Plain,
    /// An identity column (`case_events.seq`, `guard_marks.id`): the copy keeps each row's own.
    KeepIdentity,
    /// `case_counter` has its one row from the schema: the local value replaces it.
    ReplaceRow,
}

/// One table to copy, the same on both sides.
struct Table {
    name: &'static str,
    columns: &'static [(&'static str, Kind)],
    key: &'static [&'static str],
    insert: Insert,
    /// Only the rows whose `key` column is one of these, when not all of them.
    only: Option<&'static [&'static str]>,
}

/// Every table, parents before the rows that refer to them.
const TABLES: &[Table] = &[
    Table {
        name: "case_counter",
        columns: &[("id", Int), ("next", Int)],
        key: &["id"],
        insert: Insert::ReplaceRow,
        only: None,
    },
    Table {
        name: "cases",
        columns: &[
            ("id", Text),
            ("number", Int),
            ("conversation_id", Text),
            ("lead_id", Text),
            ("lead_name", Text),
            ("lead_channel", Text),
            ("lead_contact", Text),
            ("agent_id", Text),
            ("status", Text),
            ("title", Text),
            ("summary", Text),
            ("blocker", Text),
            ("context", Json),
            ("source", Text),
            ("reason", Text),
            ("waiting_since", Text),
            ("opened_at", Text),
            ("updated_at", Text),
            ("closed_at", Text),
            ("read_at", Text),
            ("first_reply_at", Text),
            ("promise_quote", Text),
            ("promise_due_at", Text),
            ("promise_overdue_told", Flag),
            ("reminded_at", Text),
            ("first_reply_target", Int),
            ("first_reply_due_at", Text),
            ("resolution_target", Int),
            ("resolution_due_at", Text),
            ("sla_paused_at", Text),
            ("sla_due_at", Text),
            ("first_reply_overdue_told", Flag),
            ("resolution_overdue_told", Flag),
            ("assignee", Text),
        ],
        key: &["id"],
        insert: Insert::Plain,
        only: None,
    },
    Table {
        name: "case_events",
        columns: &[
            ("seq", Int),
            ("case_id", Text),
            ("kind", Text),
            ("actor", Text),
            ("actor_name", Text),
            ("at", Text),
            ("payload", Json),
        ],
        key: &["seq"],
        insert: Insert::KeepIdentity,
        only: None,
    },
    Table {
        name: "deliveries",
        columns: &[
            ("id", Text),
            ("case_id", Text),
            ("event_seq", Int),
            ("action", Text),
            ("body", Json),
            ("state", Text),
            ("attempts", Int),
            ("next_attempt_at", Text),
            ("claimed_until", Text),
            ("last_error", Text),
            ("last_status", Int),
            ("created_at", Text),
            ("updated_at", Text),
            ("delivered_at", Text),
        ],
        key: &["id"],
        insert: Insert::Plain,
        only: None,
    },
    Table {
        name: "agent_endpoint",
        columns: &[
            ("id", Int),
            ("url", Text),
            ("secret", Text),
            ("timeout_secs", Int),
            ("max_attempts", Int),
            ("enabled", Flag),
            ("updated_at", Text),
        ],
        key: &["id"],
        insert: Insert::Plain,
        only: None,
    },
    Table {
        name: "agents",
        columns: &[
            ("agent_id", Text),
            ("url", Text),
            ("secret", Text),
            ("cases_enabled", Flag),
            ("guardrail_enabled", Flag),
            ("updated_at", Text),
        ],
        key: &["agent_id"],
        insert: Insert::Plain,
        only: None,
    },
    Table {
        name: "guard_vetoes",
        columns: &[
            ("conversation_id", Text),
            ("turn_id", Text),
            ("vetoes", Int),
            ("first_at", Text),
            ("last_at", Text),
            ("last_rule", Text),
            ("last_evidence", Text),
            ("auto_case_id", Text),
            ("last_message", Text),
        ],
        key: &["conversation_id", "turn_id"],
        insert: Insert::Plain,
        only: None,
    },
    Table {
        name: "guard_marks",
        columns: &[
            ("id", Int),
            ("text", Text),
            ("promise", Flag),
            ("source", Text),
            ("conversation_id", Text),
            ("marked_by", Text),
            ("marked_at", Text),
        ],
        key: &["id"],
        insert: Insert::KeepIdentity,
        only: None,
    },
    Table {
        name: "guard_model",
        columns: &[
            ("id", Int),
            ("model", Text),
            ("report", Text),
            ("adopted_by", Text),
            ("adopted_at", Text),
        ],
        key: &["id"],
        insert: Insert::Plain,
        only: None,
    },
    Table {
        name: "closed_totals",
        columns: &[("assignee", Text), ("n", Int)],
        key: &["assignee"],
        insert: Insert::Plain,
        only: None,
    },
    Table {
        name: "settings",
        columns: &[("key", Text), ("value", Text)],
        key: &["key"],
        insert: Insert::Plain,
        only: Some(CASE_SETTINGS),
    },
];

/// Locks every table the copy writes against other instances' writes (reads go on), then
/// refuses a database where any of them already has rows. The case counter is left out: the
/// schema gives every database its one row.
fn refuse_unless_empty(tx: &mut Transaction<'_>) -> Result<(), TeamError> {
    let names: Vec<&str> = TABLES.iter().map(|t| t.name).collect();
    tx.batch_execute(&format!("LOCK TABLE {} IN EXCLUSIVE MODE", names.join(", ")))?;
    let mut filled = Vec::new();
    for table in TABLES.iter().filter(|t| t.insert != Insert::ReplaceRow) {
        let row = tx.query_one(&format!("SELECT EXISTS (SELECT 1 FROM {})", table.name), &[])?;
        if row.try_get(0)? {
            filled.push(table.name);
        }
    }
    match filled.is_empty() {
        true => Ok(()),
        false => Err(TeamError::NotEmpty { tables: filled }),
    }
}

/// One value of a row, as both sides compare it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
enum Cell {
    Text(Option<String>),
    Int(Option<i64>),
    Flag(Option<bool>),
}

/// A table's rows in order, counted and summed.
#[derive(Default)]
struct Checksum {
    rows: u64,
    sha256: Sha256,
}

impl Checksum {
    /// Adds one row: its cells as a JSON array, then a newline.
    fn add(&mut self, cells: &[Cell]) {
        let line = serde_json::to_string(cells).expect("text, numbers and flags always serialise");
        self.sha256.update(line.as_bytes());
        self.sha256.update(b"\n");
        self.rows += 1;
    }

    fn finish(self, table: &str) -> TableCopy {
        TableCopy {
            table: table.to_string(),
            rows: self.rows,
            sha256: format!("{:x}", self.sha256.finalize()),
        }
    }
}

/// Reads `table` from the local inbox in key order and inserts it in chunks, summing what it read.
fn copy_table(
    local: &rusqlite::Connection,
    tx: &mut Transaction<'_>,
    table: &Table,
) -> Result<TableCopy, TeamError> {
    let mut stmt = local.prepare(&select(table, false))?;
    let mut rows = stmt.query([])?;
    let mut sum = Checksum::default();
    let mut batch = Batch::new(table);
    while let Some(row) = rows.next()? {
        let cells = local_cells(row, table)?;
        sum.add(&cells);
        batch.push(cells);
        if batch.rows == CHUNK {
            batch.insert(tx, table)?;
        }
    }
    batch.insert(tx, table)?;
    Ok(sum.finish(table.name))
}

/// The statement reading `table` in key order: on the team database its integers as BIGINT and
/// its text keys in byte order, as SQLite sorts them.
fn select(table: &Table, team: bool) -> String {
    let columns: Vec<String> = table
        .columns
        .iter()
        .map(|(name, kind)| match (team, kind) {
            (true, Int) => format!("{name}::bigint"),
            _ => name.to_string(),
        })
        .collect();
    let key: Vec<String> = table
        .key
        .iter()
        .map(|name| match team && kind_of(table, name) == Text {
            true => format!("{name} COLLATE \"C\""),
            false => name.to_string(),
        })
        .collect();
    let only = match table.only {
        Some(values) => {
            let quoted: Vec<String> = values.iter().map(|v| format!("'{}'", v.replace('\'', "''"))).collect();
            format!(" WHERE {} IN ({})", table.key[0], quoted.join(", "))
        }
        None => String::new(),
    };
    format!("SELECT {} FROM {}{only} ORDER BY {}", columns.join(", "), table.name, key.join(", "))
}

fn kind_of(table: &Table, column: &str) -> Kind {
    table.columns.iter().find(|(name, _)| *name == column).map_or(Text, |(_, kind)| *kind)
}

/// One local row as cells; a flag that is neither 0 nor 1 is refused as corrupt.
fn local_cells(row: &rusqlite::Row<'_>, table: &Table) -> Result<Vec<Cell>, TeamError> {
    let cell = |(i, (name, kind)): (usize, &(&'static str, Kind))| -> Result<Cell, TeamError> {
        Ok(match kind {
            Text => Cell::Text(row.get::<_, Option<String>>(i)?.map(|t| storable(&t).into_owned())),
            Json => {
                Cell::Text(row.get::<_, Option<String>>(i)?.map(|t| storable_json(storable(&t).into_owned())))
            }
            Int => Cell::Int(row.get(i)?),
            Flag => Cell::Flag(row.get::<_, Option<i64>>(i)?.map(|v| flag(name, v)).transpose()?),
        })
    };
    table.columns.iter().enumerate().map(cell).collect()
}

fn flag(column: &'static str, value: i64) -> Result<bool, TeamError> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(CasesError::Corrupt { what: column, value: other.to_string() }.into()),
    }
}

/// Rows waiting to be inserted, one array per column.
struct Batch {
    columns: Vec<Column>,
    rows: usize,
}

enum Column {
    Text(Vec<Option<String>>),
    Int(Vec<Option<i64>>),
    Flag(Vec<Option<bool>>),
}

impl Batch {
    fn new(table: &Table) -> Batch {
        let columns = table
            .columns
            .iter()
            .map(|(_, kind)| match kind {
                Text | Json => Column::Text(Vec::new()),
                Int => Column::Int(Vec::new()),
                Flag => Column::Flag(Vec::new()),
            })
            .collect();
        Batch { columns, rows: 0 }
    }

    fn push(&mut self, cells: Vec<Cell>) {
        for (column, cell) in self.columns.iter_mut().zip(cells) {
            match (column, cell) {
                (Column::Text(values), Cell::Text(v)) => values.push(v),
                (Column::Int(values), Cell::Int(v)) => values.push(v),
                (Column::Flag(values), Cell::Flag(v)) => values.push(v),
                _ => unreachable!("cells are read by their column's kind"),
            }
        }
        self.rows += 1;
    }

    /// Inserts the rows waiting, if any, in one statement (`unnest` of one array per column),
    /// and empties the batch.
    fn insert(&mut self, tx: &mut Transaction<'_>, table: &Table) -> Result<(), TeamError> {
        if self.rows == 0 {
            return Ok(());
        }
        let params: Vec<&(dyn ToSql + Sync)> = self.columns.iter().map(Column::param).collect();
        tx.execute(&insert(table), &params)?;
        *self = Batch::new(table);
        Ok(())
    }
}

impl Column {
    fn param(&self) -> &(dyn ToSql + Sync) {
        match self {
            Column::Text(values) => values,
            Column::Int(values) => values,
            Column::Flag(values) => values,
        }
    }
}

/// `INSERT … SELECT * FROM unnest($1::text[], $2::bigint[], …)` for `table`.
fn insert(table: &Table) -> String {
    let names: Vec<&str> = table.columns.iter().map(|(name, _)| *name).collect();
    let arrays: Vec<String> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, (_, kind))| {
            let array = match kind {
                Text | Json => "text[]",
                Int => "bigint[]",
                Flag => "boolean[]",
            };
            format!("${}::{array}", i + 1)
        })
        .collect();
    let (overriding, conflict) = match table.insert {
        Insert::Plain => ("", String::new()),
        Insert::KeepIdentity => (" OVERRIDING SYSTEM VALUE", String::new()),
        Insert::ReplaceRow => {
            let set: Vec<String> = names.iter().map(|n| format!("{n} = excluded.{n}")).collect();
            ("", format!(" ON CONFLICT ({}) DO UPDATE SET {}", table.key.join(", "), set.join(", ")))
        }
    };
    format!(
        "INSERT INTO {} ({}){overriding} SELECT * FROM unnest({}){conflict}",
        table.name,
        names.join(", "),
        arrays.join(", ")
    )
}

/// Moves the identities of the timeline and the guardrail's marks past the copied rows, so the
/// next event or mark continues after them. Last before the commit: a sequence change is never
/// rolled back, so a copy refused earlier leaves it untouched (and a failed commit only makes the
/// next rows skip numbers).
fn continue_identities(tx: &mut Transaction<'_>) -> Result<(), TeamError> {
    for (table, column) in [("case_events", "seq"), ("guard_marks", "id")] {
        tx.query(
            &format!(
                "SELECT setval(pg_get_serial_sequence('{table}', '{column}'), max({column})) FROM {table} \
                 HAVING count(*) > 0"
            ),
            &[],
        )?;
    }
    Ok(())
}

/// Reads `table` back from the team database and compares it with what the local inbox gave.
fn verify(tx: &mut Transaction<'_>, table: &Table, local: &TableCopy) -> Result<(), TeamError> {
    let team = team_checksum(tx, table)?;
    if team == *local {
        return Ok(());
    }
    Err(TeamError::CopyMismatch {
        table: table.name,
        local_rows: local.rows,
        local_sha256: local.sha256.clone(),
        team_rows: team.rows,
        team_sha256: team.sha256,
    })
}

/// `table`'s rows on the team database, counted and summed as [`copy_table`] sums the local ones.
fn team_checksum(c: &mut impl GenericClient, table: &Table) -> Result<TableCopy, TeamError> {
    let mut rows = c.query_raw(&select(table, true), std::iter::empty::<&(dyn ToSql + Sync)>())?;
    let mut sum = Checksum::default();
    while let Some(row) = rows.next()? {
        sum.add(&team_cells(&row, table)?);
    }
    Ok(sum.finish(table.name))
}

/// One team row as cells.
fn team_cells(row: &postgres::Row, table: &Table) -> Result<Vec<Cell>, TeamError> {
    let cell = |(i, (_, kind)): (usize, &(&'static str, Kind))| -> Result<Cell, TeamError> {
        Ok(match kind {
            Text | Json => Cell::Text(row.try_get(i)?),
            Int => Cell::Int(row.try_get(i)?),
            Flag => Cell::Flag(row.try_get(i)?),
        })
    };
    table.columns.iter().enumerate().map(cell).collect()
}
