//! The `dama` binary: one program for the command-line tools (and, later, the server).

mod cmd_accounts;
mod cmd_analyze;
mod cmd_bench;
mod cmd_book;
mod cmd_egdb;
mod cmd_hub;
mod cmd_moves;
mod cmd_pdn;
mod cmd_perft;
mod cmd_selfplay;
mod cmd_serve;
mod cmd_train;
mod cmd_worker;
mod loadtest;
mod matches;
mod progress;
mod tables;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// dama: draughts by every rulebook.
#[derive(Parser)]
#[command(name = "dama", version, about = "Draughts by every rulebook: rules, tools and play.")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// No progress bars: plain progress lines on standard error instead (as when it is
    /// not a terminal).
    #[arg(long, short, global = true)]
    quiet: bool,
}

// Parsed once at start: the size of the server's settings does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Run the play server (the default): web UI, HTTP API and websockets.
    Serve(cmd_serve::Args),
    /// An engine worker of a cluster: takes engine jobs from the nodes through NATS.
    Worker(cmd_worker::Args),
    /// List the legal moves of a position, one a line, in the variant's notation.
    Moves(cmd_moves::Args),
    /// Count move paths to a depth (perft), optionally split by first move.
    Perft(cmd_perft::Args),
    /// Think about a position: iterations, then the best move.
    Analyze(cmd_analyze::Args),
    /// Hub protocol on standard input and output, for draughts GUIs.
    Hub(cmd_hub::Args),
    /// Search fixed positions to a fixed depth: a deterministic node count and speed.
    Bench(cmd_bench::Args),
    /// Play two Hub engines against each other: W/D/L, Elo, SPRT, PDN of the games.
    Match(matches::Args),
    /// Make match openings: short random lines from the start that a deep search finds level.
    Openings(matches::openings::Args),
    /// Play training games: positions with search scores and results, to a data file.
    Selfplay(cmd_selfplay::Args),
    /// Fit the evaluation of a family of variants to self-play data.
    Train(cmd_train::Args),
    /// Load-test the server: concurrent games over websockets, latency and memory.
    Loadtest(loadtest::Args),
    /// Check and convert PDN files.
    #[command(subcommand)]
    Pdn(cmd_pdn::Command),
    /// Opening books: build from games and engine analysis, look a position up.
    #[command(subcommand)]
    Book(cmd_book::Command),
    /// Endgame databases: build by retrograde analysis, probe a position, verify.
    #[command(subcommand)]
    Egdb(cmd_egdb::Command),
    /// Accounts: give and take roles (moderator).
    #[command(subcommand)]
    Accounts(cmd_accounts::Command),
}

fn main() -> Result<()> {
    // Output piped into a program that stops reading (`dama perft ... | head`) ends
    // the command quietly instead of with a panic message.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload().downcast_ref::<String>().map(String::as_str).unwrap_or("");
        if msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
    let cli = Cli::parse();
    progress::set_quiet(cli.quiet);
    match cli.command {
        Some(Command::Moves(a)) => cmd_moves::run(a),
        Some(Command::Perft(a)) => cmd_perft::run(a),
        Some(Command::Pdn(c)) => cmd_pdn::run(c),
        Some(Command::Egdb(c)) => cmd_egdb::run(c),
        Some(Command::Book(c)) => cmd_book::run(c),
        Some(Command::Accounts(c)) => cmd_accounts::run(c),
        Some(Command::Analyze(a)) => cmd_analyze::run(a),
        Some(Command::Hub(a)) => cmd_hub::run(a),
        Some(Command::Bench(a)) => cmd_bench::run(a),
        Some(Command::Match(a)) => matches::run(a),
        Some(Command::Openings(a)) => matches::openings::run(a),
        Some(Command::Loadtest(a)) => loadtest::run(a),
        Some(Command::Selfplay(a)) => cmd_selfplay::run(a),
        Some(Command::Train(a)) => cmd_train::run(a),
        Some(Command::Serve(a)) => cmd_serve::run(a),
        Some(Command::Worker(a)) => cmd_worker::run(a),
        None => cmd_serve::run(cmd_serve::Args::from_env()?),
    }
}
