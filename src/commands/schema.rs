//! `kickoff schema`: the JSON Schema of the definition format.

use crate::commands::{CommandError, CommandResult};
use kickoff::definition::schema::json_schema;

/// Prints the schema.
pub fn run() -> CommandResult {
    println!("{}", serde_json::to_string_pretty(&json_schema()).map_err(CommandError::failure)?);
    Ok(())
}
