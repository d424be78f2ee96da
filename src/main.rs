use std::process::ExitCode;

mod cli;
mod commands;

use clap::Parser;
use cli::{Cli, Command};
use kickoff::definition::LoadOptions;
use kickoff::movegen::PerftOptions;

fn main() -> ExitCode {
    restore_sigpipe();
    let cli = Cli::parse();
    let options = LoadOptions { allow_outside: cli.allow_outside };
    let exit = match cli.command {
        Command::Play {
            variant,
            white,
            black,
            setup,
            fen,
            record,
            force,
            load,
            seed,
            embed,
            interactive,
        } => {
            let request = commands::play::Request {
                variant,
                white,
                black,
                setup,
                fen,
                record,
                force,
                load,
                seed,
                embed,
                interactive,
            };
            commands::play::run(&request, options)
        }
        Command::Validate { files, format, simulate, seed } => {
            let simulation = simulate.map(|games| (games as usize, seed));
            commands::validate::run(&files, format, simulation, options)
        }
        Command::List { format } => commands::list::run(format),
        Command::Definition { variant, resolved } => {
            commands::definition::run(&variant, resolved, options)
        }
        Command::Explain { variant } => commands::explain::run(&variant, options),
        Command::Setup { variant, number, seed, asymmetric, count, fair } => {
            let request = commands::setup::Request { number, seed, asymmetric, count, fair };
            commands::setup::run(&variant, &request, options)
        }
        Command::Show { variant, start } => commands::show::run(&variant, &start, options),
        Command::Replay { file, variant } => {
            commands::replay::run(&file, variant.as_deref(), options)
        }
        Command::Schema => commands::schema::run(),
        Command::Completions { shell } => commands::completions::completions(shell),
        Command::Manpage { subcommand, dir } => match dir {
            Some(dir) => commands::completions::write_manpages(&dir),
            None => commands::completions::manpage(subcommand.as_deref()),
        },
        Command::Turns { variant, start, format } => {
            commands::turns::run(&variant, &start, format, options)
        }
        Command::Bestmove { variant, start, depth, movetime, level, exact, moves, format } => {
            let request = commands::bestmove::Request {
                variant: &variant,
                start: &start,
                depth,
                movetime,
                level,
                exact,
                moves: moves.as_deref(),
                format,
            };
            commands::bestmove::run(&request, options)
        }
        Command::Match {
            variant,
            games,
            white,
            black,
            setup,
            opening,
            movetime,
            max_turns,
            program_time,
            seed,
            threads,
            records,
            embed,
            resume,
            force,
        } => {
            let request = commands::matches::Request {
                variant: &variant,
                games: games as usize,
                white: &white,
                black: &black,
                setup: setup.as_deref(),
                opening,
                movetime,
                max_turns,
                program_time: std::time::Duration::from_secs(program_time),
                seed,
                threads: usize::from(threads),
                records: records.as_deref(),
                embed,
                resume,
                force,
            };
            commands::matches::run(&request, options)
        }
        Command::Solve { variant, start, turns, format, check, max_nodes, time } => {
            let request = commands::solve::Request {
                variant,
                start,
                turns,
                format: Some(format),
                check,
                max_nodes,
                time,
            };
            commands::solve::run(&request, options)
        }
        Command::Analyze {
            variant,
            turns,
            games,
            level,
            max_turns,
            seed,
            threads,
            time,
            format,
        } => {
            let request = commands::analyze::Request {
                variant,
                turns,
                games: usize::try_from(games).unwrap_or(usize::MAX),
                level,
                max_turns,
                seed,
                threads: threads.map(usize::from),
                time,
                format,
            };
            commands::analyze::run(&request, options)
        }
        Command::Admin { data, action } => commands::admin::run(data, action),
        Command::Bot {
            server,
            token,
            level,
            variants,
            accept_seeks,
            no_live,
            no_correspondence,
            max_games,
            poll,
        } => {
            let token = if token == "-" {
                let mut line = String::new();
                let _ = std::io::stdin().read_line(&mut line);
                line.trim().to_owned()
            } else {
                token
            };
            commands::bot::run(&commands::bot::Request {
                server,
                token,
                level,
                variants,
                accept_seeks,
                live: !no_live,
                correspondence: !no_correspondence,
                max_games,
                poll: std::time::Duration::from_millis(poll),
            })
        }
        Command::Serve {
            port,
            host,
            open,
            data,
            games,
            secure_cookies,
            smtp,
            mail_from,
            public_url,
            allow_hosts,
            proxies,
            max_connections,
        } => commands::serve::run(commands::serve::Request {
            address: std::net::SocketAddr::new(host, port),
            data,
            games,
            secure_cookies,
            smtp: smtp.zip(mail_from),
            public_url,
            open,
            allow_hosts,
            proxies,
            max_connections,
        }),
        Command::Render { variant, start, record, turn, format, arrows, flip, output } => {
            let request = commands::render::Request {
                variant,
                start,
                record,
                turn,
                format,
                arrows,
                flip,
                output,
            };
            commands::render::run(&request, options)
        }
        Command::Perft { variant, depth, start, divide, exact, distinct, threads } => {
            commands::perft::run(
                &variant,
                depth as usize,
                &start,
                divide,
                PerftOptions {
                    threads: usize::from(threads),
                    exact,
                    distinct,
                    ..PerftOptions::default()
                },
                options,
            )
        }
    };
    ExitCode::from(exit as u8)
}

/// Dies quietly, like other command-line tools, when the reader of our output goes away
/// (`kickoff turns ... | head`), instead of failing to print.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
