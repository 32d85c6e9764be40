//! The command line's error: a failure the user caused, said in one line (exit status 2). The
//! commands of other modules (`engine`'s `analyse`, the feed's headless runs) return it too.

/// A failure the user caused: printed as one line, exit status 2.
#[derive(Debug, PartialEq, Eq)]
pub struct CliError(pub String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> CliError {
        CliError(e.to_string())
    }
}
