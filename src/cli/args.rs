//! Every command of the `tablero` binary as clap's derive reads it: the help of each command,
//! `tablero --version`, the usage and the shell completions all come from these definitions.
//! The 3D table's commands are read here too (without Bevy), so that a build without the
//! table names them and says why it cannot run them.

use crate::rules::{Variant, quote};
use clap::{Args, Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

/// The most games `match` plays in one run.
pub const MAX_GAMES: u32 = 100_000;

/// The deepest `perft` (a count that deep takes years in every variant but Volterra's end
/// positions; progress and Ctrl-C keep it in hand).
pub const MAX_DEPTH: u32 = 12;

/// What each command that takes a position says of it.
const POSITION: &str = "A position string, in quotes, or a variant's name for its start (ordo, volterra, ctor8, …)";

const AFTER_HELP: &str = "\
Without a command tablero opens the 3D table (the menu).
variants: ordo, ordo-x, crossings, volterra, volterra-free, ctor8, ctor10; a variant's name
  stands for its start wherever a position is asked for
positions (docs/notation.md): crossings ... [exact]; volterra ... [build-near-source], the side
  field l or d of a start says who starts; ctor8|ctor10 <board> <side> <turn> <left> <teams>
  <idle> [landing=N] [power=R] [landing-back]: teams 1v1 to 3v3 (Black's first), power=R the
  turn power (the allowance table's row 1, 2 or 3; the larger team's unless given),
  landing-back a Landing's disc goes back on a square just emptied
players: random, ai:easy, ai:medium, ai:hard, ai:master, ai:baseline, ai:uct[:N | :Ns | :Nms]
`tablero <command> --help` tells more of each command.";

/// A 3D tabletop for CTOR, Crossings, Volterra and Ordo, and a headless command line for their
/// rules, records and computer players.
#[derive(Parser, Debug)]
#[command(name = "tablero", version, after_help = AFTER_HELP, disable_help_subcommand = false)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub table: TableFlags,
}

/// What goes with the 3D table's commands (the table, `play` without moves, `replay`, `watch`).
#[derive(Args, Debug, Clone, Default, PartialEq)]
pub struct TableFlags {
    /// Opens the broadcast window too, WxH (1920x1080 unless given)
    #[arg(long, value_name = "WxH", num_args = 0..=1, require_equals = true, default_missing_value = "1920x1080",
          value_parser = size)]
    pub broadcast: Option<(u32, u32)>,
    /// Serves the table's game on the live feed, on 127.0.0.1 at PORT (7878 unless given)
    #[arg(long, value_name = "PORT", num_args = 0..=1, require_equals = true, default_missing_value = "7878",
          value_parser = local_addr, conflicts_with = "listen")]
    pub feed: Option<SocketAddr>,
    /// Serves the table's game on the live feed at any address, like 0.0.0.0:7878
    #[arg(long, value_name = "ADDR", value_parser = any_addr)]
    pub listen: Option<SocketAddr>,
}

impl TableFlags {
    /// The feed's address, if asked for.
    pub fn feed_addr(&self) -> Option<SocketAddr> {
        self.listen.or(self.feed)
    }

    pub fn is_empty(&self) -> bool {
        *self == TableFlags::default()
    }
}

/// `tablero host`'s options.
#[derive(Args, Debug, Clone)]
pub struct HostArgs {
    #[arg(allow_hyphen_values = true, help = POSITION)]
    pub position: String,
    /// Without a window: the seats are remote players or the computer
    #[arg(long)]
    pub headless: bool,
    /// Who sits where: SIDE=person|remote|ai:<level>|random, SIDE first, second or the side's
    /// name, SIDE.N one member of a CTOR team (remote for each seat not given)
    #[arg(long = "seat", value_name = "SIDE=WHO")]
    pub seats: Vec<String>,
    /// The port on 127.0.0.1
    #[arg(long, default_value = "7979", value_parser = host_addr, conflicts_with = "listen")]
    pub port: SocketAddr,
    /// Any address, such as 0.0.0.0:7979 (other machines can then reach the seats, over HTTPS
    /// with a certificate the host makes and the invitations pin)
    #[arg(long, value_name = "ADDR", value_parser = any_addr)]
    pub listen: Option<SocketAddr>,
    /// HTTPS on 127.0.0.1 too (a host that other machines reach always serves HTTPS)
    #[arg(long, conflicts_with = "relay")]
    pub tls: bool,
    /// Through a relay that every seat connects out to: a NATS server, nats://HOST:PORT (or
    /// tls://HOST:PORT); the host then listens on no port
    #[arg(long, value_name = "URL", conflicts_with = "listen")]
    pub relay: Option<String>,
    /// The record's file (resumed, with the same invitations, if it exists)
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Seconds to go on serving after the end, so that the seats see the result
    #[arg(long, default_value = "5", value_parser = seconds, allow_negative_numbers = true)]
    pub linger: f64,
    /// CTOR's sand-glass, timed by the host: 5, 10, 15 or 30 seconds a turn
    #[arg(long, value_name = "SECONDS")]
    pub timer: Option<u8>,
    /// CTOR: each team chooses 5 secret squares before the first move, sent to the host only
    #[arg(long)]
    pub secrets: bool,
    /// Serves the live feed for spectators on 127.0.0.1 at PORT (7878 unless given)
    #[arg(long, value_name = "PORT", num_args = 0..=1, require_equals = true, default_missing_value = "7878",
          value_parser = local_addr, conflicts_with = "feed_listen")]
    pub feed: Option<SocketAddr>,
    /// Serves the live feed at any address, like 0.0.0.0:7878
    #[arg(long, value_name = "ADDR", value_parser = any_addr)]
    pub feed_listen: Option<SocketAddr>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Every legal move of a position, one per line
    Moves {
        #[arg(allow_hyphen_values = true, help = POSITION)]
        position: String,
    },
    /// The number of move sequences of a given length from a position
    Perft {
        #[arg(allow_hyphen_values = true, help = POSITION)]
        position: String,
        /// Moves deep
        #[arg(value_parser = depth, allow_negative_numbers = true)]
        depth: u32,
        /// Also the count after each first move
        #[arg(long)]
        divide: bool,
    },
    /// The position after the moves, and the result if the game ended; without moves, the 3D
    /// table on that position
    Play {
        #[arg(allow_hyphen_values = true, help = POSITION)]
        position: String,
        /// Moves in the notation
        #[arg(allow_hyphen_values = true)]
        moves: Vec<String>,
        #[command(flatten)]
        table: TableFlags,
    },
    /// Plays games between two players without a window, sides alternating
    Match(MatchArgs),
    /// Serves a record, or a match (`feed match`), on the live feed without a window
    Feed(FeedArgs),
    /// Writes the overlay page for a streaming tool that follows a game through a relay's
    /// WebSocket: one HTML file, opened as a local file
    Overlay {
        /// The game's address for spectators, as the host prints it: nats://RELAY:PORT/GAME
        address: String,
        /// The relay's WebSocket: ws://HOST:PORT (or wss://), or its port alone on the relay's host
        #[arg(long, value_name = "URL|PORT")]
        websocket: String,
        /// The HTML file to write
        #[arg(long)]
        out: PathBuf,
    },
    /// The best moves of a position with their scores and lines
    #[command(alias = "analyze")]
    Analyse {
        /// A position string, in quotes, or a variant's name for its start, maybe followed by
        /// `moves ...`
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// The computer's level (easy, medium, hard, master)
        #[arg(long, default_value = "hard", value_parser = level)]
        level: crate::ai::Level,
        /// How many moves to show
        #[arg(long, default_value_t = 3, value_parser = top, allow_negative_numbers = true)]
        top: usize,
        /// Threads the computer thinks on
        #[arg(long, default_value_t = 1, value_parser = threads, allow_negative_numbers = true)]
        threads: usize,
    },
    /// The computer opponent for other programs: UCI-like commands on standard input
    /// (docs/engine.md)
    Engine,
    /// Replays a record: the final position and the result
    Check {
        /// A record (.json)
        record: PathBuf,
    },
    /// The moves that lost most in a record, by the computer's estimate
    Review {
        /// A record (.json)
        record: PathBuf,
        /// How many moves to show
        #[arg(long, default_value_t = 5, value_parser = top, allow_negative_numbers = true)]
        top: usize,
    },
    /// Writes the table's synthesised sounds as WAV files
    Sounds {
        /// The folder to write into
        dir: PathBuf,
    },
    /// Speed of the rules (perft, nodes per second) or of the strongest level
    Bench {
        /// A shorter run
        #[arg(long, conflicts_with = "ai")]
        quick: bool,
        /// How long the strongest level takes per move, over a game
        #[arg(long)]
        ai: bool,
        /// With --ai: the search's threads (1 unless given; the table's are one fewer than
        /// the cores)
        #[arg(long, requires = "ai", value_parser = threads)]
        threads: Option<usize>,
    },
    /// Serves a game's seats to players on other machines: prints an invitation for each
    /// remote seat
    Host(HostArgs),
    /// Takes a seat with its invitation: the 3D table at that seat, or the computer (--as)
    Join {
        /// The invitation the host printed: http://HOST:PORT/join#seat=…&token=…
        invitation: String,
        /// The computer plays the seat: ai:<level> or random
        #[arg(long = "as", value_name = "PLAYER", value_parser = player)]
        as_player: Option<String>,
    },
    /// Shell completions for bash, zsh or fish, on standard output
    Completions {
        /// bash, zsh or fish
        shell: Shell,
    },
    /// Renders a position off-screen into a PNG file
    Screenshot {
        #[arg(allow_hyphen_values = true, help = POSITION)]
        position: String,
        #[command(flatten)]
        picture: Picture,
        /// Colours: classic or okabe-ito
        #[arg(long, default_value = "classic", value_parser = palette)]
        palette: crate::settings::Palette,
        /// CTOR's field: flat or doughnut
        #[arg(long, default_value = "flat", value_parser = ["flat", "doughnut"])]
        field: String,
    },
    /// A picture of a position without any control, up to 3840x2160
    Photo {
        #[arg(allow_hyphen_values = true, help = POSITION)]
        position: String,
        #[command(flatten)]
        picture: Picture,
        /// The camera: first, second, top, macro or doughnut
        #[arg(long, default_value = "first")]
        view: String,
        /// Volterra: the tower (and pawn) on this cell alone, close up, on a plain sweep
        #[arg(long, value_name = "CELL", conflicts_with = "view")]
        inspect: Option<String>,
    },
    /// A film of a record, as a GIF or an MP4 (with ffmpeg)
    Film {
        /// A record (.json)
        record: PathBuf,
        /// The film: file.gif or file.mp4
        #[arg(long)]
        out: PathBuf,
        /// WxH (1280x720 unless given)
        #[arg(long, value_parser = size)]
        size: Option<(u32, u32)>,
        /// Frames a second
        #[arg(long)]
        fps: Option<u32>,
        /// Seconds a move
        #[arg(long)]
        pace: Option<f32>,
        /// Also writes every frame as a PNG file into DIR
        #[arg(long, value_name = "DIR")]
        frames_dir: Option<PathBuf>,
    },
    /// Frame time and memory of the 3D table
    BenchTable {
        /// Frames to draw of each scene
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..), allow_negative_numbers = true)]
        frames: u32,
        /// The figures as JSON, to compare two builds side by side
        #[arg(long)]
        json: bool,
        /// Only these scenes (every one unless given)
        #[arg(long, value_enum, value_delimiter = ',')]
        scene: Vec<BenchScene>,
        /// Measures nothing: two runs written by --json, side by side with their ratios
        #[arg(long, num_args = 2, value_names = ["A.json", "B.json"], conflicts_with_all = ["json", "scene"])]
        compare: Vec<PathBuf>,
    },
    /// Every key of the 3D table, and what it does
    Keys,
    /// Opens a record in the 3D table to watch or play on
    Replay {
        /// A record (.json)
        record: PathBuf,
        #[command(flatten)]
        table: TableFlags,
    },
    /// The 3D table as a spectator of a live feed
    Watch {
        /// The feed, like http://127.0.0.1:7878
        url: String,
        #[command(flatten)]
        table: TableFlags,
    },
}

/// Where a picture goes and how large it is.
#[derive(Args, Debug)]
pub struct Picture {
    /// The PNG file to write
    #[arg(long)]
    pub out: PathBuf,
    /// WxH (1280x720 for a screenshot, 3840x2160 for a photo, unless given)
    #[arg(long, value_parser = size)]
    pub size: Option<(u32, u32)>,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The variant (ordo, ordo-x, crossings, volterra, volterra-free, ctor8, ctor10)
    #[arg(value_parser = variant)]
    pub variant: Variant,
    /// The first player: random, ai:<level>, ai:baseline or ai:uct[:N | :Ns | :Nms]
    #[arg(long, value_parser = player)]
    pub a: String,
    /// The second player
    #[arg(long, value_parser = player)]
    pub b: String,
    /// Games to play (twice the openings with --openings)
    #[arg(long, value_parser = games, allow_negative_numbers = true, required_unless_present = "openings")]
    pub games: Option<u32>,
    /// Start from N seeded random openings of four turns, each played from both sides
    #[arg(long, value_parser = openings, allow_negative_numbers = true)]
    pub openings: Option<u32>,
    /// A line for each game: its opening, who began, the result, its length and times
    #[arg(long)]
    pub each: bool,
    /// The seed: a match repeats for a seed
    #[arg(long, value_parser = seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// Threads each computer player thinks on
    #[arg(long, default_value_t = 1, value_parser = threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Threads of the first player only
    #[arg(long, value_parser = threads, allow_negative_numbers = true)]
    pub a_threads: Option<usize>,
    /// Threads of the second player only
    #[arg(long, value_parser = threads, allow_negative_numbers = true)]
    pub b_threads: Option<usize>,
}

impl MatchArgs {
    /// The games to play: as asked, or two for each opening.
    pub fn games(&self) -> u32 {
        self.games.unwrap_or_else(|| self.openings.unwrap_or(0).saturating_mul(2).min(MAX_GAMES))
    }

    pub fn threads(&self) -> [usize; 2] {
        [self.a_threads.unwrap_or(self.threads), self.b_threads.unwrap_or(self.threads)]
    }
}

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct FeedArgs {
    #[command(subcommand)]
    pub feed_match: Option<FeedMatch>,
    /// A record (.json) to show move by move
    #[arg(required = true)]
    pub record: Option<PathBuf>,
    #[command(flatten)]
    pub options: FeedOptions,
}

#[derive(Subcommand, Debug)]
pub enum FeedMatch {
    /// A computer match on the feed, game after game
    Match {
        /// The variant
        #[arg(value_parser = variant)]
        variant: Variant,
        /// The first player: random, ai:<level> or ai:baseline
        #[arg(long, value_parser = player)]
        a: String,
        /// The second player
        #[arg(long, value_parser = player)]
        b: String,
        /// The seed: the games of `tablero match` with this seed
        #[arg(long, value_parser = seed, allow_negative_numbers = true)]
        seed: u64,
        /// Games to play
        #[arg(long, default_value_t = 1, value_parser = feed_games, allow_negative_numbers = true)]
        games: u32,
        #[command(flatten)]
        options: FeedOptions,
    },
}

#[derive(Args, Debug, Clone)]
pub struct FeedOptions {
    /// Seconds a move
    #[arg(long, default_value = "1", value_parser = seconds, allow_negative_numbers = true)]
    pub pace: f64,
    /// The port on 127.0.0.1
    #[arg(long, value_parser = local_addr, conflicts_with = "listen", default_value = "7878")]
    pub port: SocketAddr,
    /// Any address, such as 0.0.0.0:7878
    #[arg(long, value_name = "ADDR", value_parser = any_addr)]
    pub listen: Option<SocketAddr>,
    /// Seconds to go on serving after the end (until Ctrl-C unless given)
    #[arg(long, value_parser = seconds, allow_negative_numbers = true)]
    pub linger: Option<f64>,
    /// The computer's evaluation after every move, for the overlay's eval bar
    #[arg(long)]
    pub eval: bool,
}

impl FeedOptions {
    pub fn addr(&self) -> SocketAddr {
        self.listen.unwrap_or(self.port)
    }
}

/// The scenes of `tablero bench-table`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchScene {
    /// The game's systems without rendering, and while the computer thinks
    Ecs,
    /// Frames while the computer thinks
    Thinking,
    /// The full Ordo board, the full CTOR field flat and on the doughnut, Volterra's towers,
    /// in both profiles
    Boards,
    /// The table and the broadcast together
    Broadcast,
    /// A CTOR cascade as it animates, in both profiles
    Cascade,
}

/// The shells `tablero completions` writes for.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

fn number<T: std::str::FromStr>(text: &str) -> Option<T> {
    crate::rules::number(text)
}

/// A value on the command line that is not what its flag takes (clap puts the flag before it).
#[derive(Debug, thiserror::Error)]
pub enum BadValue {
    #[error("depth '{}' is not a whole number from 0 to {MAX_DEPTH}", quote(.0))]
    Depth(String),
    #[error("'{}' is not a number from 1 to 100", quote(.0))]
    Top(String),
    #[error("'{}' is not a number of games from 1 to {most}", quote(.text))]
    Games { text: String, most: u32 },
    #[error("'{}' is not a number of openings from 1 to {most}", quote(.text))]
    Openings { text: String, most: u32 },
    #[error("'{}' is not a whole number (0 to {})", quote(.0), u64::MAX)]
    Seed(String),
    #[error("'{}' is not a number of seconds", quote(.0))]
    Seconds(String),
    #[error("'{}' is not WxH, like 1280x720", quote(.0))]
    Size(String),
    #[error("'{}' is not classic or okabe-ito", quote(.0))]
    Palette(String),
}

fn depth(text: &str) -> Result<u32, BadValue> {
    number::<u32>(text).filter(|d| *d <= MAX_DEPTH).ok_or_else(|| BadValue::Depth(text.to_string()))
}

fn top(text: &str) -> Result<usize, BadValue> {
    number::<usize>(text).filter(|k| (1..=100).contains(k)).ok_or_else(|| BadValue::Top(text.to_string()))
}

fn threads(text: &str) -> Result<usize, crate::ai::ThreadsError> {
    crate::ai::parse_threads(text)
}

fn level(text: &str) -> Result<crate::ai::Level, crate::engine::EngineError> {
    crate::engine::level(text)
}

fn variant(text: &str) -> Result<Variant, crate::rules::UnknownVariant> {
    text.parse::<Variant>()
}

fn player(text: &str) -> Result<String, crate::players::UnknownPlayer> {
    crate::players::by_name(text, 0).map(|_| text.to_string())
}

fn games_up_to(text: &str, most: u32) -> Result<u32, BadValue> {
    number::<u32>(text)
        .filter(|n| (1..=most).contains(n))
        .ok_or_else(|| BadValue::Games { text: text.to_string(), most })
}

fn openings(text: &str) -> Result<u32, BadValue> {
    let most = MAX_GAMES / 2;
    number::<u32>(text)
        .filter(|n| (1..=most).contains(n))
        .ok_or_else(|| BadValue::Openings { text: text.to_string(), most })
}

fn games(text: &str) -> Result<u32, BadValue> {
    games_up_to(text, MAX_GAMES)
}

fn feed_games(text: &str) -> Result<u32, BadValue> {
    games_up_to(text, 10_000)
}

fn seed(text: &str) -> Result<u64, BadValue> {
    number::<u64>(text).ok_or_else(|| BadValue::Seed(text.to_string()))
}

fn seconds(text: &str) -> Result<f64, BadValue> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && (0.0..=86_400.0).contains(s))
        .ok_or_else(|| BadValue::Seconds(text.to_string()))
}

fn local_addr(text: &str) -> Result<SocketAddr, crate::feed::FeedError> {
    crate::feed::parse_addr(text, false)
}

fn host_addr(text: &str) -> Result<SocketAddr, crate::net::NetError> {
    match crate::feed::parse_addr(text, false) {
        Ok(a) => Ok(a),
        Err(crate::feed::FeedError::NotLocal(a)) => Err(crate::net::NetError::NotLocal(a)),
        Err(_) => Err(crate::net::NetError::Address(text.to_string())),
    }
}

fn any_addr(text: &str) -> Result<SocketAddr, crate::feed::FeedError> {
    crate::feed::parse_addr(text, true)
}

/// Reads `WxH` (each 16 to 8192).
pub fn size(text: &str) -> Result<(u32, u32), BadValue> {
    text.split_once('x')
        .and_then(|(w, h)| Some((number(w)?, number(h)?)))
        .filter(|(w, h): &(u32, u32)| (16..=8192).contains(w) && (16..=8192).contains(h))
        .ok_or_else(|| BadValue::Size(text.to_string()))
}

fn palette(text: &str) -> Result<crate::settings::Palette, BadValue> {
    serde_json::from_value(serde_json::Value::String(text.to_string())).map_err(|_| BadValue::Palette(text.to_string()))
}
