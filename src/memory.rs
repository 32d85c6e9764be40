//! The process's memory: how much is resident, and the allocator told to keep less of it.
//!
//! glibc's allocator gives each thread that allocates its own arena (up to eight per core) and
//! keeps freed memory inside them. The 3D table runs Bevy's task pools, the renderer's and the
//! software rasteriser's threads: dozens of threads, each arena holding on to what a scene once
//! needed. [`lean_allocator`] limits the arenas to two and [`give_back`] returns the free pages
//! to the system; on other allocators both do nothing.

/// Limits the allocator's arenas to two (for the arenas made from then on: call it before the
/// app's threads start), and keeps every block of 128 KB or more in its own mapping, returned
/// to the system as soon as it is freed. glibc otherwise raises that threshold (up to 32 MB)
/// each time such a block is freed, and the software renderer's device memory, its staging
/// buffers and the frames' large buffers then go into the arenas, where what they leave free
/// stays resident: 6 to 13 MB more for the CTOR table's window.
pub fn lean_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // glibc's mallopt; M_ARENA_MAX is -8 and M_MMAP_THRESHOLD -3 in <malloc.h>.
        unsafe extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        const M_ARENA_MAX: i32 = -8;
        const M_MMAP_THRESHOLD: i32 = -3;
        // SAFETY: mallopt only sets a tunable of the allocator, under the allocator's own
        // lock; it takes no pointer.
        unsafe {
            mallopt(M_ARENA_MAX, 2);
            mallopt(M_MMAP_THRESHOLD, 128 * 1024);
        }
    }
}

/// Returns the allocator's free pages to the system (after a scene is dropped, or when the
/// table comes to rest): the resident memory then says what is in use.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: malloc_trim only releases free memory the allocator holds; it is safe to
        // call at any time from any thread.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// This process's resident memory in MB now (`VmRSS`), from /proc; 0 where there is none.
pub fn resident_mb() -> f64 {
    from_status("VmRSS")
}

/// This process's resident memory in MB at its peak so far (`VmHWM`).
pub fn peak_mb() -> f64 {
    from_status("VmHWM")
}

fn from_status(key: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn giving_back_returns_freed_memory() {
        super::lean_allocator();
        if super::resident_mb() == 0.0 {
            return; // no /proc here
        }
        // 64 MB in small blocks (kept in the arena, not mapped one by one), touched, freed.
        let before = super::resident_mb();
        let blocks: Vec<Vec<u8>> = (0..64 * 1024).map(|i| vec![(i | 1) as u8; 1000]).collect();
        let full = super::resident_mb();
        drop(blocks);
        super::give_back();
        let after = super::resident_mb();
        assert!(full - before > 40.0, "64 MB allocated, resident grew by {:.0} MB", full - before);
        assert!(full - after > 40.0, "freed and given back, resident fell only {:.0} MB", full - after);
    }
}
