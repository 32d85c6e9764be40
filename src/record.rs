//! Game records (JSON, docs/notation.md): what a game was and how it went, saved atomically, loaded
//! only after every move has been replayed through the rules. A bad record is refused with a
//! message naming the field or the move number, and nothing is written.

use crate::rules::{AnyGame, AnyMove, Game, Side};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The record format this tablero writes. It reads this one and the one before.
pub const FORMAT: u32 = 2;

/// The record format written before CTOR's opening was read again (2026-12-03): its CTOR
/// games were played with a normal third turn where the normal row has 2 Puts. Such a record
/// is read with the option `opening=old` on its start, so that it replays and goes on as it was
/// played (docs/notation.md, *Records*).
pub const FORMAT_OLD_OPENING: u32 = 1;

/// The largest record file tablero reads: 16 MiB, about 300 000 moves. Anything larger is
/// refused before it is read.
pub const MAX_RECORD_BYTES: u64 = 16 * 1024 * 1024;

/// Who a record's player is, from its `kind` field (one kind for records, the table and the
/// seats: [`crate::players::Kind`]).
pub use crate::players::Kind;

/// Who played a side: a name and a kind (`human`, `computer:random`, `ai:<level>`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerInfo {
    pub name: String,
    pub kind: String,
}

/// One move in notation, with when it was played (milliseconds since 1970).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub at_ms: u64,
    /// CTOR team play: the seat (from 0) in the moving team of the member who made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<u8>,
}

/// The end of the game: the winner's side name (`None` for a draw) and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordResult {
    pub winner: Option<String>,
    pub reason: String,
}

impl RecordResult {
    /// The result as a record writes it, once `game` is over.
    pub fn of(game: &AnyGame) -> Option<RecordResult> {
        game.outcome().map(|o| RecordResult {
            winner: o.winner.map(|w| game.variant().side_name(w).to_string()),
            reason: o.reason.to_string(),
        })
    }
}

/// Rule options that the start position does not carry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordOptions {
    /// CTOR: the sand-glass, seconds per turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timer: Option<u8>,
}

/// A game record.
///
/// ```
/// use tablero::record::Record;
/// use tablero::rules::{Game, Variant};
/// let mut game = Variant::Ordo.initial();
/// let mut rec = Record::new(&game, ["Ana", "Bo"].map(|n| (n.to_string(), "human".to_string())));
/// let mv = game.legal_moves()[0].clone();
/// game.play(&mv).unwrap();
/// rec.push(&mv.to_string(), &game);
/// let back = Record::from_json(&rec.to_json()).unwrap();
/// assert_eq!(back.replay().unwrap().last().unwrap().to_string(), game.to_string());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub format: u32,
    pub variant: String,
    #[serde(default)]
    pub options: RecordOptions,
    pub start: String,
    pub players: [PlayerInfo; 2],
    pub moves: Vec<RecordedMove>,
    pub result: Option<RecordResult>,
    /// CTOR's secret squares of each team (black first), if the game had them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets: Option<[Vec<u16>; 2]>,
    /// CTOR team play: each team's members, who plays the Moves, and the seats' changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<TeamRecord>,
    pub created_ms: u64,
}

/// Why a record was refused: one line naming the file, the field or the move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("bad record: cannot read {path}: {why}")]
    Read { path: String, why: String },
    #[error("bad record: {path} holds {bytes} bytes, above the {} MiB a record may have", MAX_RECORD_BYTES >> 20)]
    FileTooLarge { path: String, bytes: u64 },
    #[error("bad record: {path} is not UTF-8 text (byte {at})")]
    NotUtf8 { path: String, at: usize },
    #[error("bad record: {bytes} bytes, above the {} MiB a record may have", MAX_RECORD_BYTES >> 20)]
    TooLarge { bytes: usize },
    #[error("bad record: the file ends too early (truncated at line {line}, column {column})")]
    Truncated { line: usize, column: usize },
    #[error("bad record: not JSON: {0}")]
    NotJson(String),
    #[error(
        "bad record: format version {0} is not supported (this tablero reads versions {FORMAT_OLD_OPENING} and {FORMAT})"
    )]
    Format(String),
    #[error("bad record: missing field `format` (the record format version)")]
    NoFormat,
    /// A field missing or of the wrong type, as serde says it.
    #[error("bad record: {0}")]
    Shape(String),
    /// A field whose value the game refuses: the field, and what is wrong with it.
    #[error("bad record: field `{field}`{why}")]
    Field { field: String, why: String },
    #[error("bad record: move {n}: {err}")]
    Move { n: usize, err: crate::rules::MoveError },
    #[error("bad record: field `result` says {said} but the moves give {actual}")]
    Result { said: String, actual: String },
    #[error("bad record: move {0}: `member` belongs to CTOR team games, and this record has no `team`")]
    Member(usize),
    /// CTOR's team seats and who made each Put.
    #[error("bad record: {0}")]
    Team(String),
}

impl RecordError {
    fn field(field: impl Into<String>, why: impl std::fmt::Display) -> RecordError {
        RecordError::Field { field: field.into(), why: why.to_string() }
    }
}

pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

impl Record {
    /// A record of a game that starts at `start`, with the players' names and kinds.
    pub fn new(start: &AnyGame, players: [(String, String); 2]) -> Record {
        let [a, b] = players;
        let secrets = Record::secrets_of(start);
        let options = match start {
            AnyGame::Ctor(g) => RecordOptions { timer: g.options().timer },
            _ => RecordOptions::default(),
        };
        Record {
            format: FORMAT,
            variant: start.variant().name().to_string(),
            options,
            start: start.to_string(),
            players: [PlayerInfo { name: a.0, kind: a.1 }, PlayerInfo { name: b.0, kind: b.1 }],
            moves: Vec::new(),
            result: None,
            secrets,
            team: None,
            created_ms: now_ms(),
        }
    }

    /// CTOR's secret squares of each team as a record holds them, once both teams have
    /// chosen theirs (while the second team is still choosing, the record has none: a record
    /// with one team's squares would not load).
    pub fn secrets_of(start: &AnyGame) -> Option<[Vec<u16>; 2]> {
        match start {
            // Both teams' whole choice, or none (a seat knows only the other team's that
            // worked: its copy of the record has none).
            AnyGame::Ctor(g)
                if g.secrets(Side::First).len() == crate::rules::ctor::SECRETS
                    && g.secrets(Side::Second).len() == crate::rules::ctor::SECRETS =>
            {
                Some([Side::First, Side::Second].map(|s| g.secrets(s).iter().map(|(sq, _)| *sq).collect()))
            }
            _ => None,
        }
    }

    /// Adds a move played, and the result if the game (`after` the move) is over.
    pub fn push(&mut self, mv: &str, after: &AnyGame) {
        self.moves.push(RecordedMove { mv: mv.to_string(), at_ms: now_ms(), member: None });
        self.result = RecordResult::of(after);
    }

    /// Reads a record, checking its shape (not yet its moves: see [`Record::replay`]).
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        if text.len() as u64 > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge { bytes: text.len() });
        }
        // The version first, so that a record of another version says so rather than failing
        // on a field it may not have.
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            if e.is_eof() {
                RecordError::Truncated { line: e.line(), column: e.column() }
            } else {
                RecordError::NotJson(e.to_string())
            }
        })?;
        match value.get("format") {
            Some(v) if v.as_u64() == Some(FORMAT as u64) || v.as_u64() == Some(FORMAT_OLD_OPENING as u64) => {}
            Some(v) => {
                return Err(RecordError::Format(v.to_string()));
            }
            None => return Err(RecordError::NoFormat),
        }
        let mut record: Record =
            serde_json::from_value(value).map_err(|e| RecordError::Shape(crate::rules::one_line(&e.to_string())))?;
        if record.format == FORMAT_OLD_OPENING {
            record.upgrade();
        }
        for (i, p) in record.players.iter().enumerate() {
            if Kind::parse(&p.kind).is_none() {
                let levels: Vec<String> = crate::ai::levels::LEVELS.iter().map(|l| format!("ai:{}", l.name)).collect();
                return Err(RecordError::field(
                    format!("players[{i}].kind"),
                    format!(
                        " is '{}', expected human, computer:random, {}, ai:baseline or ai:uct[:N]",
                        crate::rules::quote(&p.kind),
                        levels.join(", ")
                    ),
                ));
            }
        }
        Ok(record)
    }

    /// A record of the format before: its CTOR start says `opening=old` (where that reading
    /// differs), and it is written in this format from now on. A start that does not read is
    /// left for [`Record::start_game`] to refuse.
    fn upgrade(&mut self) {
        if let Ok(AnyGame::Ctor(mut g)) = self.start.parse::<AnyGame>() {
            g.set_old_opening();
            self.start = g.to_string();
        }
        self.format = FORMAT;
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serialises")
    }

    /// The start position with its options and secret squares applied.
    pub fn start_game(&self) -> Result<AnyGame, RecordError> {
        let variant: crate::rules::Variant =
            self.variant.parse().map_err(|e| RecordError::field("variant", format!(": {e}")))?;
        let mut game: AnyGame = self
            .start
            .parse()
            .map_err(|e: crate::rules::PositionError| RecordError::field("start", format!(": {}", e.detail())))?;
        if game.variant() != variant {
            return Err(RecordError::field(
                "start",
                format!(" is a {} position but `variant` says {}", game.variant(), self.variant),
            ));
        }
        if let AnyGame::Ctor(g) = &mut game {
            if let Some(t) = self.options.timer {
                if !crate::rules::ctor::TIMERS.contains(&t) {
                    return Err(RecordError::field(
                        "options.timer",
                        format!(" is {t}: the sand-glass runs 5, 10, 15 or 30 s"),
                    ));
                }
                g.set_timer(Some(t));
            }
            if let Some([black, white]) = &self.secrets {
                for (side, squares) in [(Side::First, black), (Side::Second, white)] {
                    g.set_secrets(side, squares).map_err(|e| RecordError::field("secrets", format!(": {e}")))?;
                }
            }
        } else if self.secrets.is_some() {
            return Err(RecordError::field("secrets", " belongs to CTOR records only"));
        } else if self.options.timer.is_some() {
            return Err(RecordError::field(
                "options.timer",
                format!(" (the sand-glass) belongs to CTOR records only, not {variant}"),
            ));
        }
        Ok(game)
    }

    /// Replays every move through the rules: the positions from the start to the end.
    pub fn replay(&self) -> Result<Vec<AnyGame>, RecordError> {
        let mut game = self.start_game()?;
        let mut positions = vec![game.clone()];
        for (i, m) in self.moves.iter().enumerate() {
            game.play_text(&m.mv).map_err(|err| RecordError::Move { n: i + 1, err })?;
            positions.push(game.clone());
        }
        let actual = RecordResult::of(&game);
        let said = |r: &Option<RecordResult>| match r {
            None => "the game goes on".to_string(),
            Some(RecordResult { winner: Some(w), reason }) => {
                format!("{} wins ({})", crate::rules::quote(w), crate::rules::quote(reason))
            }
            Some(RecordResult { winner: None, reason }) => format!("a draw ({})", crate::rules::quote(reason)),
        };
        if self.result != actual {
            return Err(RecordError::Result { said: said(&self.result), actual: said(&actual) });
        }
        match &self.team {
            Some(team) => team.check(&positions, &self.moves)?,
            None => {
                if let Some(i) = self.moves.iter().position(|m| m.member.is_some()) {
                    return Err(RecordError::Member(i + 1));
                }
            }
        }
        Ok(positions)
    }

    /// The moves read from their text, `positions` being [`Record::replay`]'s.
    pub fn moves_played(&self, positions: &[AnyGame]) -> Result<Vec<AnyMove>, RecordError> {
        self.moves
            .iter()
            .zip(positions)
            .enumerate()
            .map(|(i, (m, g))| g.parse_move(&m.mv).map_err(|err| RecordError::Move { n: i + 1, err }))
            .collect()
    }

    /// The moves as plain text, numbered by pairs.
    pub fn move_list(&self) -> String {
        let mut out = format!("{} from {}\n", self.variant, self.start);
        for (i, pair) in self.moves.chunks(2).enumerate() {
            let texts: Vec<&str> = pair.iter().map(|m| m.mv.as_str()).collect();
            out.push_str(&format!("{}. {}\n", i + 1, texts.join(" ")));
        }
        if let Some(r) = &self.result {
            out.push_str(&format!("result: {} ({})\n", r.winner.as_deref().unwrap_or("draw"), r.reason));
        }
        out
    }
}

/// Writes a file so that a reader finds either the old or the new complete text, never a part:
/// a temporary file in the same folder, flushed to disk, then renamed over the old one.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("record");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.sync_all()
    });
    // A failed write (a full disk, a folder turned read-only) leaves the old file as it was
    // and no half-written temporary beside it.
    let result = written.and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Reads and checks a record file.
pub fn load(path: &Path) -> Result<(Record, Vec<AnyGame>), RecordError> {
    let text = read_limited(path)?;
    let record = Record::from_json(&text)?;
    let positions = record.replay()?;
    Ok((record, positions))
}

/// Reads a record file's text: only a regular file (not a folder, FIFO or device, which
/// could block or never end) of at most [`MAX_RECORD_BYTES`], as UTF-8.
pub fn read_limited(path: &Path) -> Result<String, RecordError> {
    use std::io::Read;
    let shown = crate::rules::quote(&path.display().to_string());
    let cannot = |e: std::io::Error| RecordError::Read { path: shown.clone(), why: e.to_string() };
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        let what = if meta.is_dir() { "a folder" } else { "not a regular file" };
        return Err(RecordError::Read { path: shown, why: format!("it is {what}, and a record is a .json file") });
    }
    let too_big = |bytes: u64| RecordError::FileTooLarge { path: shown.clone(), bytes };
    if meta.len() > MAX_RECORD_BYTES {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path).map_err(cannot)?.take(MAX_RECORD_BYTES + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > MAX_RECORD_BYTES {
        return Err(too_big(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| RecordError::NotUtf8 { path: shown.clone(), at: e.utf8_error().valid_up_to() })
}

/// Where tablero keeps its games: `$TABLERO_DATA_DIR`, else `$XDG_DATA_HOME/tablero`, else
/// `~/.local/share/tablero`.
pub fn data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("TABLERO_DATA_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_DATA_HOME") {
        return PathBuf::from(d).join("tablero");
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
    home.join(".local/share/tablero")
}

/// The saved games under the data folder `dir` (see [`data_dir`]), newest first: (path,
/// record) for each readable record.
pub fn saved_games(dir: &Path) -> Vec<(PathBuf, Record)> {
    let dir = dir.join("games");
    let mut out: Vec<(PathBuf, Record)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| read_limited(&p).ok().and_then(|t| Record::from_json(&t).ok()).map(|r| (p, r)))
        .collect();
    out.sort_by_key(|(_, r)| std::cmp::Reverse(r.created_ms));
    out
}

/// A new file name for a game under the data folder `dir`: `games/<created>-<variant>.json`,
/// with `-2`, `-3`, … if a game started in the same millisecond already has that name.
pub fn new_game_path(dir: &Path, record: &Record) -> PathBuf {
    new_file_in(&dir.join("games"), record)
}

/// The name of a record, `<created_ms>-<variant>`, as every game's file and export is named.
pub fn file_stem(record: &Record) -> String {
    format!("{}-{}", record.created_ms, record.variant)
}

/// A new file for `record` in `folder` itself: `<created_ms>-<variant>.json`, or `-2`, `-3`…
/// after it where that file exists.
pub fn new_file_in(folder: &Path, record: &Record) -> PathBuf {
    let base = file_stem(record);
    (1u32..)
        .map(|k| folder.join(if k == 1 { format!("{base}.json") } else { format!("{base}-{k}.json") }))
        .find(|p| !p.exists())
        .unwrap_or_else(|| folder.join(format!("{base}.json")))
}

/// CTOR team play as a record keeps it (the team rules that check it, and the seats at a move,
/// are `crate::team`'s). Who plays a team's Moves and Landings (its Puts are always shared among
/// the members).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lead {
    /// The first member, every turn.
    #[default]
    Captain,
    /// Each member in turn: the team's first turn the first member, its next the second, …
    Rotation,
}

impl Lead {
    pub fn label(self) -> &'static str {
        match self {
            Lead::Captain => "the captain",
            Lead::Rotation => "each member in turn",
        }
    }
}

/// A change of a team's seats, made before move `at` (counted from 0) is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamChange {
    /// Moves played before the change.
    pub at: usize,
    /// The team: `black` or `white`.
    pub team: String,
    /// A player who joins, seated last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join: Option<PlayerInfo>,
    /// The seat (from 0) of a member who leaves; those after move up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leave: Option<u8>,
}

/// A CTOR team game's seats as a record keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamRecord {
    /// Each team's members at the start, black first, in the order they share the Puts.
    pub seats: [Vec<PlayerInfo>; 2],
    #[serde(default)]
    pub lead: Lead,
    /// Members leaving and players joining, in the order they happened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<TeamChange>,
}
