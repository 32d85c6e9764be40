//! Work shared out among a search's threads, in a fixed order, so that what each thread sees
//! depends only on the number of threads, never on timing.

/// The values of `root`'s entries, shared out among the searchers (entry i to searcher i mod
/// their number, each on a thread of its own when there are several), each share valued in
/// order by `value`, in `root`'s order; `None` if any share was cut short (over budget or
/// stopped). What each searcher sees depends only on the number of searchers, never on timing.
pub(crate) fn share_out<S: Send, E: Sync>(
    searchers: &mut [S],
    root: &[E],
    value: impl Fn(&mut S, Vec<&E>) -> Option<Vec<f64>> + Sync,
) -> Option<Vec<f64>> {
    let n = searchers.len().max(1);
    let shares: Vec<Option<Vec<f64>>> = if searchers.len() <= 1 {
        searchers.iter_mut().map(|s| value(s, root.iter().collect())).collect()
    } else {
        let value = &value;
        std::thread::scope(|scope| {
            let handles: Vec<_> = searchers
                .iter_mut()
                .enumerate()
                .map(|(k, s)| {
                    let share = move || value(s, root.iter().skip(k).step_by(n).collect());
                    scope.spawn(crate::background::as_this_thread(share))
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a search thread does not panic")).collect()
        })
    };
    let mut out = vec![f64::NEG_INFINITY; root.len()];
    for (k, share) in shares.into_iter().enumerate() {
        for (j, v) in share?.into_iter().enumerate() {
            out[k + j * n] = v;
        }
    }
    Some(out)
}
