//! Trying again after a failure (a host or a feed out of reach): a pause that starts short,
//! doubles after each failure up to a ceiling, and starts short again once something works.
//! The seats and the spectators reconnect with the same one.

use std::time::Duration;

/// The first pause, and the longest.
pub const FIRST: Duration = Duration::from_millis(250);
pub const LONGEST: Duration = Duration::from_secs(8);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff { next: FIRST }
    }
}

impl Backoff {
    /// The pause before the next try.
    pub fn pause(&self) -> Duration {
        self.next
    }

    /// Another failure: the pause to wait now, and the next one doubled (up to [`LONGEST`]).
    pub fn failed(&mut self) -> Duration {
        let now = self.next;
        self.next = (self.next * 2).min(LONGEST);
        now
    }

    /// Something worked: the next failure waits [`FIRST`] again.
    pub fn worked(&mut self) {
        self.next = FIRST;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_doubles_to_its_ceiling_and_starts_again_after_a_success() {
        let mut b = Backoff::default();
        let pauses: Vec<u64> = (0..8).map(|_| b.failed().as_millis() as u64).collect();
        assert_eq!(pauses, [250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
        b.worked();
        assert_eq!(b.pause(), FIRST);
    }
}
