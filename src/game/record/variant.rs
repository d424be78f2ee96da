//! How a record names its variant: a shipped name, or a definition file by its path from the
//! record's own folder, with a hash of the definition's text so that a changed file is noticed.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::definition::{Sources, is_path};

/// The `VariantHash` of a definition: the SHA-256 of the text of every file it was read from
/// (itself first, then the files it extends), in hexadecimal.
#[must_use]
pub fn definition_hash(sources: &Sources) -> String {
    let mut hasher = Sha256::new();
    for file in sources.files() {
        // The length first, so that moving text from one file to the next changes the hash.
        hasher.update((file.text.len() as u64).to_le_bytes());
        hasher.update(file.text.as_bytes());
    }
    crate::text::hex(&hasher.finalize())
}

/// The `Variant` tag of a game of `variant` recorded in the file `record`: a shipped name as it
/// is; a definition file by its path from the record's folder, so that the record finds it from
/// any working directory (as given when either path cannot be resolved).
#[must_use]
pub fn variant_tag(variant: &str, record: &Path) -> String {
    if !is_path(variant) {
        return variant.to_owned();
    }
    let folder = record.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let relative = match (std::fs::canonicalize(variant), std::fs::canonicalize(folder)) {
        (Ok(file), Ok(folder)) => pathdiff::diff_paths(file, folder),
        _ => None,
    };
    match relative.as_deref().and_then(Path::to_str) {
        // The reader takes `/` on every system.
        Some(relative) => relative.replace(std::path::MAIN_SEPARATOR, "/"),
        None => variant.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_follows_the_text() {
        let a = crate::definition::load_shipped("boyer-1951").unwrap();
        let b = crate::definition::load_shipped("vchess").unwrap();
        assert_eq!(definition_hash(&a.sources), definition_hash(&a.sources));
        assert_ne!(definition_hash(&a.sources), definition_hash(&b.sources));
        assert_eq!(definition_hash(&a.sources).len(), 64);
    }

    #[test]
    fn shipped_names_stay_names() {
        assert_eq!(variant_tag("vchess", Path::new("/somewhere/game.txt")), "vchess");
    }

    #[test]
    fn files_are_named_from_the_record_folder() {
        let dir = tempfile::tempdir().unwrap();
        let defs = dir.path().join("defs");
        std::fs::create_dir(&defs).unwrap();
        std::fs::write(defs.join("mine.toml"), "").unwrap();
        let variant = defs.join("mine.toml");
        let variant = variant.to_str().unwrap();
        assert_eq!(variant_tag(variant, &dir.path().join("game.txt")), "defs/mine.toml");
        assert_eq!(variant_tag(variant, &defs.join("game.txt")), "mine.toml");
        let games = dir.path().join("games");
        std::fs::create_dir(&games).unwrap();
        assert_eq!(variant_tag(variant, &games.join("game.txt")), "../defs/mine.toml");
    }
}
