//! The `bterm` command: parses the command line and hands it to the library.

use clap::Parser as _;

fn main() -> std::process::ExitCode {
    bterm::cli::run(bterm::cli::Cli::parse())
}
