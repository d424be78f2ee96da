//! `kickoff admin ACTION [--data DIR]`: a server's accounts, backups and imports, on its
//! database (while the server runs or not).

use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Arc;

use crate::cli::AdminAction;
use crate::commands::Exit;
use kickoff::text::{excerpt, printable_path};
use kickoff::web::db::{DbError, Flag, Sqlite, Storage, now_ms};
use kickoff::web::limits::ServerLimits;
use kickoff::web::lobby::accounts::{check_name, hash_password};
use kickoff::web::session::{ID_LEN, Store, well_formed};
use kickoff::web::{compile_shipped, default_data_folder};

/// Does `action` on the database in `data`.
pub fn run(data: Option<PathBuf>, action: AdminAction) -> Exit {
    let data = data.unwrap_or_else(default_data_folder);
    if let Err(e) = std::fs::create_dir_all(&data) {
        eprintln!("error: cannot make the data folder {}: {e}", printable_path(&data));
        return Exit::Usage;
    }
    let path = data.join("kickoff.db");
    let db = match Sqlite::open(&path) {
        Ok(db) => db,
        Err(e) => {
            eprintln!("error: {}: {e}", printable_path(&path));
            return Exit::Failure;
        }
    };
    match act(db, action) {
        Ok(done) => {
            println!("{done}");
            Exit::Success
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Failure
        }
    }
}

fn act(db: Sqlite, action: AdminAction) -> Result<String, String> {
    let flag = |name: &str, flag, on, done: &str| -> Result<String, String> {
        if db.set_flag(name, flag, on).map_err(|e| e.to_string())? {
            Ok(format!("{} {done}", excerpt(name)))
        } else {
            Err(format!("no account is named `{}`", excerpt(name)))
        }
    };
    match action {
        AdminAction::CreateUser { name, admin } => {
            check_name(&name)?;
            let mut password = String::new();
            std::io::stdin().lock().read_line(&mut password).map_err(|e| e.to_string())?;
            let password = password.trim_end_matches(['\r', '\n']);
            if password.chars().count() < 8 {
                return Err("a password has at least 8 characters (give it on stdin)".to_owned());
            }
            let hash = hash_password(password).map_err(|e| e.to_string())?;
            match db.create_user(&name, &hash, now_ms()) {
                Ok(_) => {}
                Err(DbError::Taken) => return Err(format!("the name `{name}` is taken")),
                Err(e) => return Err(e.to_string()),
            }
            if admin {
                db.set_flag(&name, Flag::Admin, true).map_err(|e| e.to_string())?;
            }
            Ok(format!("{name}: account made{}", if admin { " (an administrator)" } else { "" }))
        }
        AdminAction::MakeAdmin { name } => flag(&name, Flag::Admin, true, "is an administrator"),
        AdminAction::Ban { name } => flag(&name, Flag::Banned, true, "is banned"),
        AdminAction::Unban { name } => flag(&name, Flag::Banned, false, "is no longer banned"),
        AdminAction::Mute { name } => flag(&name, Flag::Muted, true, "may not chat"),
        AdminAction::Unmute { name } => flag(&name, Flag::Muted, false, "may chat again"),
        AdminAction::Backup { file } => {
            db.backup(&file).map_err(|e| e.to_string())?;
            Ok(format!("the database is copied to {}", printable_path(&file)))
        }
        AdminAction::Import { folder } => import(db, folder),
    }
}

fn import(db: Sqlite, folder: PathBuf) -> Result<String, String> {
    let entries = std::fs::read_dir(&folder)
        .map_err(|e| format!("cannot read {}: {e}", printable_path(&folder)))?;
    let compiled = compile_shipped()?;
    let limits = ServerLimits::default();
    let store = Store::new(folder, Arc::new(db), compiled, &limits, |w| eprintln!("warning: {w}"));
    let (mut imported, mut kept, mut failed) = (0, 0, 0);
    let mut ids: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            e.file_name().to_str().and_then(|n| n.strip_suffix(".txt")).map(String::from)
        })
        .filter(|id| well_formed(id, ID_LEN))
        .collect();
    ids.sort();
    for id in ids {
        match store.import(&id) {
            Ok(true) => imported += 1,
            Ok(false) => kept += 1,
            Err(e) => {
                eprintln!("warning: game {id} is not imported: {e}");
                failed += 1;
            }
        }
    }
    Ok(format!(
        "{imported} games imported, {kept} already in the database, {failed} that could not be read"
    ))
}
