//! What the menu's *Start*, *Join a game* and *Watch a game* do: the chosen game opened at the
//! table (hosted on the network if asked), the seat an invitation names once its host answers,
//! or a game followed as its spectator.

use super::*;

pub(super) fn start(
    _: On<Pointer<Click>>,
    mut commands: Commands,
    mut choice: ResMut<MenuChoice>,
    seats: Res<MenuSeats>,
    mut labels: Query<&mut Text, With<MenuLabel>>,
    folder: Res<crate::gui::frame::session::SaveFolder>,
    settings: Option<Res<crate::settings::Settings>>,
) {
    if choice.host {
        let relay = settings.and_then(|s| s.relay.clone());
        if choice.relay && relay.is_none() {
            for mut t in &mut labels {
                t.0 = "cannot host through a relay: copy its address (nats://HOST:PORT) and press *Set the relay from the address you copied* first".into();
            }
            return;
        }
        match hosted(&choice, folder.0.as_deref(), relay.filter(|_| choice.relay)) {
            Ok(h) => {
                commands.insert_resource(h.seat);
                commands.insert_resource(h.hosting);
                commands.queue(crate::gui::frame::session::open(h.table));
                choice.seed = choice.seed.wrapping_add(1);
            }
            Err(e) => {
                for mut t in &mut labels {
                    t.0 = format!("cannot host this game: {e}");
                }
            }
        }
        return;
    }
    let mut session = Table::new(choice.game(), choice.players, choice.seed);
    if let Some(team) = seats.team(&choice) {
        for (player, members) in session.record.players.iter_mut().zip(&team.seats) {
            player.name = members.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
        }
        session.record.team = Some(team);
    }
    let session = if choice.secrets { session.with_secrets() } else { session };
    commands.queue(crate::gui::frame::session::open(session));
    choice.seed = choice.seed.wrapping_add(1);
}

/// The chosen game hosted on the network, this table the first person's seat.
fn hosted(
    choice: &MenuChoice,
    folder: Option<&std::path::Path>,
    relay: Option<String>,
) -> Result<crate::gui::frame::remote::HostedHere, crate::gui::error::GuiError> {
    use crate::gui::frame::remote::{host_addr, host_here, sitters};
    let game = choice.game();
    let seats = sitters(&game, choice.players)?;
    // Saved with the table's games (the host's record; the table keeps its own copy too).
    let record = folder.map(|d| {
        d.join("games").join(format!(
            "{}-{}-hosted.json",
            crate::record::now_ms(),
            crate::rules::Game::variant(&game).name()
        ))
    });
    host_here(crate::net::host::HostOptions {
        seats,
        record,
        timer: choice.timer,
        secrets: choice.secrets,
        relay,
        ..crate::net::host::HostOptions::remote(game, host_addr())
    })
}

/// An invitation from the clipboard being taken (see [`crate::gui::frame::remote::Joining`]).
#[derive(Resource)]
pub(super) struct MenuJoin(crate::gui::frame::remote::Joining);

/// *Join a game*: the invitation on the clipboard makes the table that seat, once its host
/// answers ([`menu_joined`]); the menu never waits on the network.
pub(super) fn join(
    _: On<Pointer<Click>>,
    mut commands: Commands,
    mut labels: Query<&mut Text, With<MenuLabel>>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
) {
    let said = match crate::gui::frame::clipboard::text() {
        Ok(text) => match crate::net::Invitation::parse(&text) {
            Ok(inv) => {
                let joining = crate::gui::frame::remote::joining(
                    text,
                    std::time::Duration::from_secs(3),
                    proxy.as_deref(),
                );
                commands.insert_resource(MenuJoin(joining));
                format!("joining the game at {}…", inv.addr)
            }
            Err(_) => "copy a seat's invitation (http://…/join#seat=…&token=…, or nats://… through a relay) first, then press Join".to_string(),
        },
        Err(e) => format!("the clipboard is not available ({e})"),
    };
    for mut t in &mut labels {
        t.0 = said.clone();
    }
}

/// The invitation's seat once its host answered: the table opens as that seat, or the menu
/// says why not.
pub(super) fn menu_joined(
    joining: Res<MenuJoin>,
    mut commands: Commands,
    mut labels: Query<&mut Text, With<MenuLabel>>,
) {
    let Some(answer) = joining.0.poll() else { return };
    commands.remove_resource::<MenuJoin>();
    open_or_say(answer, &mut commands, &mut labels, "the invitation cannot be used");
}

/// What the menu asked of the network, once it came: the table opens with the resource that
/// follows it (a seat, a spectator's feed), or the menu says why not.
fn open_or_say<R: Resource>(
    answer: Result<(crate::table::Table, R), String>,
    commands: &mut Commands,
    labels: &mut Query<&mut Text, With<MenuLabel>>,
    refused: &str,
) {
    match answer {
        Ok((table, follows)) => {
            commands.insert_resource(follows);
            commands.queue(crate::gui::frame::session::open(table));
        }
        Err(e) => {
            for mut t in labels.iter_mut() {
                t.0 = format!("{refused}: {e}");
            }
        }
    }
}

/// A game's address for spectators from the clipboard, its first state being read (see
/// [`crate::gui::frame::remote::Pending`]).
#[derive(Resource)]
pub(super) struct MenuWatch(
    crate::gui::frame::remote::Pending<(crate::table::Table, crate::gui::stream::feed::Spectating)>,
);

/// *Watch a game*: the game's address for spectators on the clipboard (`nats://RELAY:PORT/GAME`
/// through a relay, or a table's live feed `http://HOST:PORT`) opens the table as its spectator
/// once its state is read ([`menu_watched`]); the menu never waits on the network.
pub(super) fn watch(
    _: On<Pointer<Click>>,
    mut commands: Commands,
    mut labels: Query<&mut Text, With<MenuLabel>>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
) {
    let said = match crate::gui::frame::clipboard::text() {
        Ok(text) => match crate::feed::client::base_url(text.trim()) {
            Ok(base) => {
                let address = base.clone();
                let reading = crate::gui::frame::remote::Pending::start(
                    "tablero-watch",
                    move || {
                        crate::gui::stream::feed::spectator(&address, std::time::Duration::from_secs(5))
                            .map_err(|e| e.to_string())
                    },
                    proxy.as_deref(),
                );
                commands.insert_resource(MenuWatch(reading));
                format!("reading the game at {base}…")
            }
            Err(_) => "copy a game's address for spectators (nats://RELAY:PORT/GAME, or a live feed's http://HOST:PORT) first, then press Watch".to_string(),
        },
        Err(e) => format!("the clipboard is not available ({e})"),
    };
    for mut t in &mut labels {
        t.0 = said.clone();
    }
}

/// The watched game once its state is read: the table opens as its spectator, or the menu says
/// why not.
pub(super) fn menu_watched(
    reading: Res<MenuWatch>,
    mut commands: Commands,
    mut labels: Query<&mut Text, With<MenuLabel>>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
) {
    let Some(answer) = reading.0.poll() else { return };
    commands.remove_resource::<MenuWatch>();
    if let Ok((_, spectating)) = &answer {
        spectating.wake(proxy.as_deref());
    }
    open_or_say(answer, &mut commands, &mut labels, "the game cannot be watched");
}

/// *Set the relay from the address you copied*: the relay that *Host through a relay* hosts
/// through, kept in the settings.
pub(super) fn set_relay(
    _: On<Pointer<Click>>,
    settings: Option<ResMut<crate::settings::Settings>>,
    mut note: ResMut<SetRelayNote>,
    mut labels: Query<&mut Text, With<MenuLabel>>,
) {
    let copied = crate::gui::frame::clipboard::text();
    let (said, trouble) = match (copied.as_deref().map(crate::net::relay::relay_address), settings) {
        (Ok(Ok(relay)), Some(mut s)) => {
            let said = format!("the relay: {} (kept in the settings)", crate::net::relay::shown(&relay));
            s.relay = Some(relay);
            (said, None)
        }
        (Ok(Ok(_)), None) => ("the settings are not available".to_string(), Some("no settings".to_string())),
        (Ok(Err(_)), _) => {
            let why = "the clipboard holds no nats://HOST:PORT".to_string();
            (format!("{why}: copy the relay's address first, then press"), Some(why))
        }
        (Err(e), _) => (format!("the clipboard is not available ({e})"), Some("no clipboard".to_string())),
    };
    note.0 = trouble;
    for mut t in &mut labels {
        t.0 = said.clone();
    }
}
