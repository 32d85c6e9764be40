//! `cargo bench`: the same measurement as `tablero bench`.
fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    tablero::bench::run(quick, &mut std::io::stdout()).expect("writing to stdout");
}
