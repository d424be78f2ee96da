//! `kickoff schema`: the JSON Schema of the definition format.

use crate::commands::Exit;
use kickoff::definition::schema::json_schema;

/// Prints the schema.
pub fn run() -> Exit {
    match serde_json::to_string_pretty(&json_schema()) {
        Ok(text) => {
            println!("{text}");
            Exit::Success
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Failure
        }
    }
}
