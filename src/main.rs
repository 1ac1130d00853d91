//! The `bterm` command: parses the command line and hands it to the library,
//! with the 3D arena as its game window when this build has it.

use clap::Parser as _;

fn main() -> std::process::ExitCode {
    let cli = bterm::cli::Cli::parse();
    #[cfg(feature = "arena")]
    let window: Option<&dyn bterm::session::Window> = Some(&bterm::arena::Arena);
    #[cfg(not(feature = "arena"))]
    let window: Option<&dyn bterm::session::Window> = None;
    bterm::cli::run(cli, window)
}
