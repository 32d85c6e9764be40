//! Work on a thread of its own whose answer is polled: the table's searches, at a lower priority
//! than the window's threads so that the frame goes on while the computer thinks, and what the
//! table asks of the network, so that the window never waits on it.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// How a job's thread runs beside the window's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    Normal,
    /// Below the window's threads (Linux: nice [`LOWER_NICE`], for the job's thread and the
    /// threads it starts): the search takes what the frame leaves.
    Lower,
}

/// The nice value of a job at [`Priority::Lower`]: a thread at the usual 0 then has about ten
/// times its share of a core both want, and the rests of [`pause_point`] keep the frame's share
/// while the window draws. Not lower: at nice 19 the search had about a seventieth of a core
/// beside other busy work (master's first Ordo move, 0.9 s alone, took 74 s beside two busy
/// loops; 9 s at nice 10); nor the idle class (`SCHED_IDLE`), in which it had nothing (it never
/// moved while the machine ran the full test suite) and which a thread cannot leave without
/// privileges.
pub const LOWER_NICE: i32 = 10;

/// A job's thread is gone without an answer (it could not start, or its work panicked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gone;

/// A job on a thread of its own. Dropping it leaves the thread to finish on its own (a search
/// is told to stop by its own flag).
pub struct Job<T>(Mutex<mpsc::Receiver<T>>);

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a thread named `name`; `then` runs once its answer can be polled (to
    /// wake a window that sleeps until something happens).
    pub fn spawn(
        name: &str,
        priority: Priority,
        work: impl FnOnce() -> T + Send + 'static,
        then: impl FnOnce() + Send + 'static,
    ) -> Job<T> {
        let (tx, rx) = mpsc::channel();
        // A thread that cannot start drops its sender: polling then says so.
        let _ = std::thread::Builder::new().name(name.into()).spawn(move || {
            if priority == Priority::Lower {
                lower_this_thread();
            }
            let _ = tx.send(work());
            then();
        });
        Job(Mutex::new(rx))
    }

    /// The answer once it came, or [`Gone`]; None while the work goes on.
    pub fn poll(&self) -> Option<Result<T, Gone>> {
        match self.0.lock().unwrap_or_else(|e| e.into_inner()).try_recv() {
            Ok(answer) => Some(Ok(answer)),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => Some(Err(Gone)),
        }
    }
}

/// Lowers the calling thread's priority to nice [`LOWER_NICE`] (on Linux a thread's own; the
/// threads it starts afterwards inherit it). Elsewhere it does nothing: the job then counts on
/// taking fewer threads than the cores.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority take plain integers; no memory is shared.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, LOWER_NICE);
    }
    set_yields(true);
}

/// Whether the window draws every frame (pieces moving, the camera turning): a job below it
/// then works in slices and rests between them.
static DRAWING: AtomicBool = AtomicBool::new(false);

/// While the window draws every frame, a job below it works this long, then rests as long.
pub const SLICE: Duration = Duration::from_millis(3);

/// Says whether the window draws every frame (the window says so as its pace changes).
pub fn set_drawing(on: bool) {
    DRAWING.store(on, Ordering::Relaxed);
}

/// Whether the window said it draws every frame.
pub fn drawing() -> bool {
    DRAWING.load(Ordering::Relaxed)
}

/// Held by the tests that set [`set_drawing`], one at a time (it is the whole process's).
#[cfg(test)]
pub(crate) static DRAWING_TESTS: Mutex<()> = Mutex::new(());

thread_local! {
    /// This thread runs a job below the window: it rests while the window draws.
    static YIELDS: Cell<bool> = const { Cell::new(false) };
    /// When this thread's present slice of work began (None: not in a slice).
    static SLICE_BEGAN: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Whether the calling thread rests while the window draws (a job at [`Priority::Lower`]).
pub fn yields() -> bool {
    YIELDS.with(Cell::get)
}

/// Makes the calling thread rest while the window draws, or not.
pub fn set_yields(on: bool) {
    YIELDS.with(|y| y.set(on));
}

/// `work` made to run on another thread as the calling thread runs here: resting while the
/// window draws if this one does (a search's own threads; their nice value they inherit).
pub fn as_this_thread<T>(work: impl FnOnce() -> T) -> impl FnOnce() -> T {
    let told = yields();
    move || {
        set_yields(told);
        work()
    }
}

/// Where a search may pause: on a thread below the window while the window draws every
/// frame, it rests a [`SLICE`] after each slice of work, so that the frame has the cores at
/// least half the time whatever the scheduler does with priorities (a lowered priority alone
/// left the frame 1.5 times slower in some runs). Elsewhere, and with the window at rest, it
/// returns at once. Says whether it rested.
pub fn pause_point() -> bool {
    if !yields() {
        return false;
    }
    let drawing = drawing();
    SLICE_BEGAN.with(|slice| {
        if !drawing {
            slice.set(None);
            return false;
        }
        let now = Instant::now();
        match slice.get() {
            Some(began) if now.duration_since(began) >= SLICE => {
                std::thread::sleep(SLICE);
                slice.set(Some(Instant::now()));
                true
            }
            Some(_) => false,
            None => {
                slice.set(Some(now));
                false
            }
        }
    })
}

/// The calling thread's nice value (Linux; 0 elsewhere).
pub fn this_threads_nice() -> i32 {
    #[cfg(target_os = "linux")]
    // SAFETY: as above; errno is reset first because -1 is also a valid nice value.
    unsafe {
        *libc::__errno_location() = 0;
        libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t)
    }
    #[cfg(not(target_os = "linux"))]
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait<T: Send + 'static>(job: &Job<T>) -> Result<T, Gone> {
        loop {
            if let Some(answer) = job.poll() {
                return answer;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    #[test]
    fn a_job_answers_once_and_a_lower_one_runs_below_the_caller_and_so_do_its_threads() {
        let normal = Job::spawn("t-normal", Priority::Normal, this_threads_nice, || {});
        let caller = this_threads_nice();
        assert_eq!(wait(&normal), Ok(caller));
        let state = this_threads_nice;
        let lower =
            Job::spawn("t-lower", Priority::Lower, move || (state(), std::thread::spawn(state).join().unwrap()), || {});
        let (own, child) = wait(&lower).unwrap();
        if cfg!(target_os = "linux") {
            // A nice value only rises without privileges: from the caller's up to LOWER_NICE.
            assert_eq!(own, caller.max(LOWER_NICE));
            assert_eq!(child, own, "threads it starts inherit it");
            assert_eq!(state(), caller, "the caller's own is unchanged");
        }
        let (done_tx, done_rx) = mpsc::channel();
        let panics: Job<u8> = Job::spawn(
            "t-panics",
            Priority::Normal,
            || panic!("on purpose"),
            move || {
                let _ = done_tx.send(());
            },
        );
        assert_eq!(wait(&panics), Err(Gone));
        assert!(done_rx.try_recv().is_err(), "then runs only after an answer");
    }

    /// How many times a job at `priority` rested in 60 ms of work calling [`pause_point`]
    /// (and a thread it starts and tells what it does), with the window drawing every frame
    /// meanwhile or not.
    fn rests(priority: Priority, drawing: bool) -> (u32, u32) {
        set_drawing(drawing);
        let work = move || {
            let mut rested = 0;
            let started = Instant::now();
            while started.elapsed() < Duration::from_millis(60) {
                rested += pause_point() as u32;
            }
            rested
        };
        let both = move || {
            let child = std::thread::spawn(as_this_thread(work));
            (work(), child.join().unwrap())
        };
        let job = Job::spawn("t-slices", priority, both, || {});
        wait(&job).unwrap()
    }

    #[test]
    fn a_lower_job_rests_between_slices_only_while_the_window_draws() {
        let _one_at_a_time = DRAWING_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        // With the window at rest a lower job works without a pause.
        assert_eq!(rests(Priority::Lower, false), (0, 0));
        // While the window draws every frame, it rests after each slice of work (60 ms: about ten slices of
        // 3 ms each followed by a rest, fewer on a busy machine), and a thread it starts and
        // tells so does too.
        let (own, child) = rests(Priority::Lower, true);
        assert!((3..=10).contains(&own), "{own} rests in 60 ms");
        assert!(child >= 3, "{child} rests");
        // A job at the usual priority never rests.
        assert_eq!(rests(Priority::Normal, true), (0, 0));
        set_drawing(false);
    }
}
