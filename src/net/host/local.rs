//! The seat of a person at the host's own table: the same seats' logic as a remote seat's, in
//! this process, without the network in between (no request, no token, no wait on a port).

use super::seats::Shared;
use super::{LONGEST_WAIT, server};
use crate::net::{Link, NetError, Posted, Said, SeatView};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// A seat of the host taken in this process (see [`super::Host::local_seat`]).
pub struct LocalSeat {
    pub(super) shared: Arc<Shared>,
    pub(super) k: usize,
}

impl Link for LocalSeat {
    fn view(&self, after: Option<u64>) -> Result<Option<SeatView>, NetError> {
        if self.shared.closed.load(Ordering::Relaxed) {
            return Err(NetError::Stopped);
        }
        self.shared.heard_from(self.k, Instant::now());
        if let Some(after) = after {
            let until = Instant::now() + LONGEST_WAIT;
            let mut t = self.shared.lock();
            while t.version == after && !self.shared.closed.load(Ordering::Relaxed) {
                let left = until.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                // In steps, so that a host that closes is seen soon.
                t = self
                    .shared
                    .moved
                    .wait_timeout(t, left.min(Duration::from_millis(250)))
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        }
        Ok(Some(self.shared.view(self.k, after)))
    }

    fn say(&self, said: &Said) -> Result<Posted, NetError> {
        self.shared.heard_from(self.k, Instant::now());
        Ok(server::posted(self.shared.hear(self.shared.seats[self.k].id, said)))
    }
}
