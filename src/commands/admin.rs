//! `kickoff admin ACTION [--data DIR]`: a server's accounts, backups and imports, on its
//! database (while the server runs or not).

use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Arc;

use crate::commands::{CommandError, CommandResult};
use kickoff::text::{excerpt, printable_path};
use kickoff::web::db::{DbError, Flag, Sqlite, Storage, now_ms};
use kickoff::web::limits::ServerLimits;
use kickoff::web::lobby::accounts::{check_name, hash_password};
use kickoff::web::session::{ID_LEN, Store, well_formed};
use kickoff::web::{compile_shipped, default_data_folder};

/// The arguments of `kickoff admin`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The server's data folder (default: kickoff in the user's data folder).
    #[arg(long, value_name = "DIR", global = true)]
    pub data: Option<PathBuf>,
    #[command(subcommand)]
    pub action: Action,
}

/// What `kickoff admin` does.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Make an account; its password is read from the first line of stdin.
    CreateUser {
        /// Its name.
        name: String,
        /// Make it an administrator.
        #[arg(long)]
        admin: bool,
    },
    /// Make an account an administrator.
    MakeAdmin {
        /// Its name.
        name: String,
    },
    /// Ban an account: it can no longer sign in, seek or play; its sessions end and its seeks go.
    Ban {
        /// Its name.
        name: String,
    },
    /// Lift a ban.
    Unban {
        /// Its name.
        name: String,
    },
    /// Forbid an account to chat.
    Mute {
        /// Its name.
        name: String,
    },
    /// Let an account chat again.
    Unmute {
        /// Its name.
        name: String,
    },
    /// Copy the whole database to a new file while the server runs.
    Backup {
        /// The copy (a new file).
        file: PathBuf,
    },
    /// Import the games of a games folder (records `ID.txt`, definitions `HASH.toml`): their
    /// links keep working, from the database.
    Import {
        /// The folder.
        folder: PathBuf,
    },
}

/// Does the action on the database in the data folder.
pub fn run(args: Args) -> CommandResult {
    let data = args.data.unwrap_or_else(default_data_folder);
    std::fs::create_dir_all(&data).map_err(|e| {
        CommandError::usage(format!("cannot make the data folder {}: {e}", printable_path(&data)))
    })?;
    let path = data.join("kickoff.db");
    let db = Sqlite::open(&path)
        .map_err(|e| CommandError::failure(format!("{}: {e}", printable_path(&path))))?;
    println!("{}", act(db, args.action).map_err(CommandError::failure)?);
    Ok(())
}

fn act(db: Sqlite, action: Action) -> Result<String, String> {
    let flag = |name: &str, flag, on, done: &str| -> Result<String, String> {
        if db.set_flag(name, flag, on).map_err(|e| e.to_string())? {
            Ok(format!("{} {done}", excerpt(name)))
        } else {
            Err(format!("no account is named `{}`", excerpt(name)))
        }
    };
    match action {
        Action::CreateUser { name, admin } => {
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
        Action::MakeAdmin { name } => flag(&name, Flag::Admin, true, "is an administrator"),
        Action::Ban { name } => flag(&name, Flag::Banned, true, "is banned"),
        Action::Unban { name } => flag(&name, Flag::Banned, false, "is no longer banned"),
        Action::Mute { name } => flag(&name, Flag::Muted, true, "may not chat"),
        Action::Unmute { name } => flag(&name, Flag::Muted, false, "may chat again"),
        Action::Backup { file } => {
            db.backup(&file).map_err(|e| e.to_string())?;
            Ok(format!("the database is copied to {}", printable_path(&file)))
        }
        Action::Import { folder } => import(db, folder),
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
