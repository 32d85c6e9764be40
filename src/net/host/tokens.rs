//! The seats' tokens, kept beside the record readable by its owner only, so that a host
//! started again with the same record reopens the same seats with the same invitations.

use crate::net::{NetError, SeatId, Token};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The file beside a record that keeps its seats' tokens.
pub fn seats_path(record: &Path) -> PathBuf {
    let mut name = record.file_name().unwrap_or_default().to_os_string();
    name.push(".seats");
    record.with_file_name(name)
}

/// Writes the tokens, readable and writable by the owner only (created so, then renamed).
/// With them, the game's name on a relay (`relay`), if it has one.
pub(super) fn save_tokens(
    path: &Path,
    tokens: &[(SeatId, Option<Token>)],
    team: bool,
    game: Option<&str>,
) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut map: serde_json::Map<String, serde_json::Value> =
        tokens.iter().map(|(id, t)| (id.name(team), t.map(|t| t.hex()).into())).collect();
    if let Some(game) = game {
        map.insert("relay".into(), game.into());
    }
    let text = serde_json::Value::Object(map).to_string();
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".seats.{}.tmp", std::process::id()));
    let mut f = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

pub(super) fn load_tokens(path: &Path, ids: &[SeatId], team: bool) -> Result<Vec<Option<Token>>, NetError> {
    let bad = |why: String| NetError::Seats { path: path.display().to_string(), why };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    ids.iter()
        .map(|id| {
            let k = id.name(team);
            match v.get(&k) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(serde_json::Value::String(s)) => {
                    Token::from_hex(s).map(Some).ok_or_else(|| bad(format!("{k} is not a token")))
                }
                Some(_) => Err(bad(format!("{k} is not a token"))),
            }
        })
        .collect()
}

/// The game's name on a relay kept beside the record, if any (a file without one, or a name
/// that is not one, has none).
pub(super) fn load_game(path: &Path) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v.get("relay")?.as_str().filter(|g| crate::net::relay::is_game(g)).map(str::to_string)
}
