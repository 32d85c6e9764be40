//! The `tablero` binary: the headless subcommands of NOTATION.md; without arguments, the 3D table.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        eprintln!(
            "tablero: the 3D table is not part of this build yet; the headless commands are:\n{}",
            tablero::cli::USAGE
        );
        return ExitCode::from(2);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match tablero::cli::run(&args, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            drop(out);
            eprintln!("tablero: {e}");
            ExitCode::from(2)
        }
    }
}
