//! `bterm print`, `bterm scan` and `bterm enroll`: the scanner's commands.

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;

use clap::Args;

use super::collection::{Collector, card_ref};
use super::{CliError, escape, load_set};
use crate::barcode::files::{self, FileReport, MAX_PIXELS};
use crate::barcode::frames::{self, FolderFrames, FrameEvent, FrameSource, Stabilizer};
use crate::barcode::{Enrolments, Scanner, Source, code, decode, print as printer};
use crate::cards::{Card, CardKind};
use crate::collection::{CardRef, NewScan, Origin, Store};

/// `bterm print`.
#[derive(Debug, Args)]
pub struct PrintArgs {
    /// Card numbers or names to print (forgiving: da-001 is Dα-001).
    #[arg(value_name = "NUMBER")]
    pub numbers: Vec<String>,
    /// Print every card of the set that has a barcode (Command cards have none).
    #[arg(long)]
    pub all: bool,
    /// Also print the custom cards in this RON file; their QR code carries the whole card.
    #[arg(long, value_name = "FILE.ron")]
    pub custom: Option<PathBuf>,
    /// Where to write: a .png (one card alone, or A4 sheets `NAME-1.png`, …) or a .pdf (A4 pages).
    #[arg(long, short, value_name = "FILE", default_value = "cards.pdf")]
    pub out: PathBuf,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
}

/// `bterm scan`.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Image files and folders (searched recursively for image files).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// One JSON object per file on stdout (JSON Lines): file, codes, card, error, ms.
    #[arg(long)]
    pub json: bool,
    /// Read live from a webcam (index 0 unless given); needs a build with `--features camera`.
    #[arg(long, value_name = "INDEX", num_args = 0..=1, default_missing_value = "0")]
    pub camera: Option<u32>,
    /// Read a recorded "video": a folder of frames, through the same pipeline as the webcam.
    #[arg(long, value_name = "DIR", conflicts_with = "camera")]
    pub frames: Option<PathBuf>,
    /// Refuse images with more pixels than this (decompression bombs).
    #[arg(long, value_name = "N", default_value_t = MAX_PIXELS)]
    pub max_pixels: u64,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Memory the workers may hold for pictures at once, in MiB; large
    /// pictures are decoded fewer at a time to stay within it.
    #[arg(long, value_name = "MIB", default_value_t = files::MEMORY_BUDGET >> 20)]
    pub max_memory: u64,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
    /// Only read: do not add the cards to the collection.
    #[arg(long, conflicts_with = "remove")]
    pub no_collect: bool,
    /// Take the scanned cards out of the collection (traded away).
    #[arg(long)]
    pub remove: bool,
    /// The collection's database (default: `collection.sqlite` in the data folder).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

/// `bterm enroll`.
#[derive(Debug, Args)]
pub struct EnrollArgs {
    /// A picture of the barcode to bind.
    pub image: PathBuf,
    /// The card it stands for (number or name).
    pub number: String,
    /// Card files to use instead of the built-in sample set.
    #[arg(long, value_name = "PATH")]
    pub cards: Option<PathBuf>,
    /// The collection's database (default: `collection.sqlite` in the data folder).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

fn scanner(
    cards: Option<&std::path::Path>,
    store: Option<&mut Store>,
) -> Result<Scanner, CliError> {
    let set = load_set(cards)?;
    Ok(Scanner::new(set, enrolments(store)))
}

/// The enrolled barcodes (see `collection::enrol`), warnings shown.
fn enrolments(store: Option<&mut Store>) -> Enrolments {
    let (enrolments, warnings) = crate::collection::enrol::for_scanning(store);
    for w in warnings {
        eprintln!("warning: {}", super::escape_lines(&w));
    }
    enrolments
}

/// The collector of a scan command (`None` with `--no-collect`).
fn collector(args: &ScanArgs) -> Option<Collector> {
    if args.no_collect {
        return None;
    }
    let command = format!(
        "scan{} {}",
        if args.remove { " --remove" } else { "" },
        args.paths
            .iter()
            .map(|p| p.display().to_string())
            .chain(
                args.frames
                    .iter()
                    .map(|p| format!("--frames {}", p.display()))
            )
            .chain(args.camera.iter().map(|c| format!("--camera {c}")))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let c = Collector::open(args.db.as_deref(), command, args.remove);
    if let Some(why) = &c.unavailable {
        eprintln!(
            "warning: {}; the cards will be read but not collected",
            super::escape_lines(why)
        );
    }
    Some(c)
}

/// The scan's collector (none with `--no-collect`) and its scanner, with
/// the enrolments of the collection (with `--no-collect`, of one that
/// exists already).
fn collector_and_scanner(args: &ScanArgs) -> Result<(Option<Collector>, Scanner), CliError> {
    let mut collect = collector(args);
    let mut only_read = if collect.is_none() {
        existing_store(args)
    } else {
        None
    };
    let store = match collect.as_mut() {
        Some(c) => c.store_mut(),
        None => only_read.as_mut(),
    };
    let scanner = scanner(args.cards.as_deref(), store)?;
    Ok((collect, scanner))
}

/// With `--no-collect`: the collection only if it exists, for its enrolments.
fn existing_store(args: &ScanArgs) -> Option<Store> {
    let path = crate::collection::default_path(args.db.as_deref()).ok()?;
    std::fs::symlink_metadata(&path).ok()?;
    Store::open(&path).ok()
}

/// A file's cards as the collection records them: one scan a card. A
/// picture of several cards keeps a digest for each (the picture's and the
/// card's number), so scanning it again counts none of them twice.
fn file_scans(r: &FileReport) -> Vec<NewScan> {
    let several = r.cards.len() > 1;
    let cards: Vec<&files::CardReport> = if several {
        r.cards.iter().collect()
    } else {
        r.card.iter().collect()
    };
    cards
        .into_iter()
        .filter_map(|card| {
            Some(NewScan {
                card: CardRef {
                    number: card.number.parse().ok()?,
                    name: card.name.clone(),
                    data: card
                        .data
                        .as_ref()
                        .and_then(|c| crate::cards::write_ron(c).ok()),
                },
                origin: Origin::File,
                place: Some(r.file.clone()),
                // The card's own code (each card of a page has its own).
                code: card
                    .code
                    .as_ref()
                    .or(r.codes.first())
                    .map(|s| (s.format.name().to_string(), s.text.clone())),
                digest: r.content.map(|c| {
                    let d = crate::collection::digest(c);
                    if several {
                        format!("{d}#{}", card.number)
                    } else {
                        d
                    }
                }),
                count: 1,
                remove: false,
            })
        })
        .collect()
}

/// `bterm print`.
pub fn print(args: PrintArgs) -> Result<(), CliError> {
    let set = load_set(args.cards.as_deref())?;
    let mut cards: Vec<(Card, bool)> = Vec::new();
    if args.all {
        cards.extend(
            set.cards()
                .iter()
                .filter(|c| c.kind() != CardKind::Command)
                .map(|c| (c.clone(), false)),
        );
    }
    // Command cards have no barcode: named among others, they are left
    // out and said so; the others are printed.
    let mut skipped = Vec::new();
    for n in &args.numbers {
        let card = set.resolve(n).map_err(|e| format!("error: {e}"))?;
        if card.kind() == CardKind::Command {
            skipped.push(format!("{} {}", card.number(), card.name()));
        } else {
            cards.push((card.clone(), false));
        }
    }
    if let Some(path) = &args.custom {
        let text = crate::save::read_text(path, crate::cards::MAX_CARD_FILE_BYTES)
            .map_err(|e| format!("error: {}: cannot read: {e}", path.display()))?;
        // Checked as a card file of its own, so every problem names it and
        // its line.
        let with = set.with_card_file(path, &text).map_err(|e| {
            format!(
                "{e}\nerror: the custom cards in {} have problems",
                path.display()
            )
        })?;
        let custom: Vec<Card> = with
            .cards()
            .iter()
            .filter(|c| set.get(&c.number()).is_none())
            .cloned()
            .collect();
        cards.extend(custom.into_iter().map(|c| (c, true)));
    }
    let skipped_line = (!skipped.is_empty()).then(|| {
        format!(
            "skipped {}: Command cards have no barcode, so there is nothing to print",
            super::escape_lines(&skipped.join(", "))
        )
    });
    if cards.is_empty() {
        return Err(CliError::failed(match skipped_line {
            Some(line) => format!("error: nothing to print; {line}"),
            None => "error: no cards to print; name some (`bterm print Dα-001 Dα-002`), or use --all or --custom FILE.ron".to_string(),
        }));
    }
    if let Some(line) = &skipped_line {
        eprintln!("{line}");
    }
    let written =
        printer::print(&cards, &args.out, args.force).map_err(|e| format!("error: {e}"))?;
    for path in written {
        println!("{}", super::escape_lines(&path.display().to_string()));
    }
    eprintln!(
        "{} card{} at {} dpi",
        cards.len(),
        if cards.len() == 1 { "" } else { "s" },
        printer::DPI
    );
    Ok(())
}

/// A file's line in the text output. Everything in it that came from
/// outside (the file name, the codes' text, the card's name) is escaped,
/// so a QR code cannot move the cursor or retitle the terminal.
fn text_line(r: &FileReport) -> String {
    let codes: Vec<String> = r
        .codes
        .iter()
        .map(|s| format!("{} \"{}\"", s.format.name(), abbreviate(&s.text)))
        .collect();
    let codes = if codes.is_empty() {
        String::new()
    } else {
        format!(" [{}]", codes.join(", "))
    };
    match (&r.card, &r.error) {
        (Some(_), _) if r.cards.len() > 1 => {
            let cards: Vec<String> = r
                .cards
                .iter()
                .map(|c| format!("{} {}", c.number, escape(&c.name)))
                .collect();
            format!(
                "{}: {} cards: {}{codes}  {:.0} ms",
                escape(&r.file),
                cards.len(),
                cards.join(", "),
                r.ms
            )
        }
        (Some(c), _) => {
            let how = match c.source {
                Source::Printed => "",
                Source::Custom => " (custom card)",
                Source::Wild => " (wild Digimon)",
                Source::Enrolled => " (enrolled)",
            };
            format!(
                "{}: {} {}{how}{codes}  {:.0} ms",
                escape(&r.file),
                c.number,
                escape(&c.name),
                r.ms
            )
        }
        (None, e) => format!(
            "{}: error: {}{codes}",
            escape(&r.file),
            escape(e.as_deref().unwrap_or("no card"))
        ),
    }
}

/// Outside text cut to 40 characters and escaped.
fn abbreviate(text: &str) -> String {
    let cut = if text.chars().count() > 40 {
        format!("{}…", text.chars().take(39).collect::<String>())
    } else {
        text.to_string()
    };
    escape(&cut)
}

/// `bterm scan`.
pub fn scan(args: ScanArgs) -> Result<(), CliError> {
    if let Some(index) = args.camera {
        return camera(index, &args);
    }
    if let Some(dir) = &args.frames {
        let source = FolderFrames::open(dir).map_err(|e| format!("error: {e}"))?;
        return live(Box::new(source), &args);
    }
    if args.paths.is_empty() {
        return Err(CliError::failed(
            "error: nothing to scan; give image files or folders (`bterm scan barcodes/`), --frames DIR or --camera",
        ));
    }
    let (mut collect, scanner) = collector_and_scanner(&args)?;
    let (found, path_errors) = files::collect(&args.paths);
    for e in &path_errors {
        eprintln!("error: {}: {}", escape(&e.path), escape(&e.why));
    }
    let bar = if found.len() > 5 && std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(found.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} files  {elapsed} elapsed, {eta} left",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut out = std::io::stdout().lock();
    let mut write_error = None;
    let memory = args.max_memory.saturating_mul(1 << 20);
    let tally = files::scan_all(&scanner, &found, args.max_pixels, threads, memory, |r| {
        let line = if args.json {
            serde_json::to_string(r).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
        } else {
            text_line(r)
        };
        bar.suspend(|| {
            if let Err(e) = writeln!(out, "{line}") {
                write_error.get_or_insert(e);
            }
        });
        bar.inc(1);
        if let Some(c) = collect.as_mut() {
            for scan in file_scans(r) {
                c.add(scan);
            }
        }
    });
    bar.finish_and_clear();
    let collected = collect.map_or(Ok(()), Collector::finish);
    if let Some(e) = write_error {
        return Err(super::output_error(e));
    }
    let (failed, total) = (tally.failed, tally.files);
    if total == 0 && path_errors.is_empty() {
        return Err(CliError::from(format!(
            "error: no image files found in {}; bterm reads {}",
            args.paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            files::EXTENSIONS.join(", ")
        )));
    }
    if failed > 0 || !path_errors.is_empty() {
        return Err(CliError::from(format!(
            "{failed} of {total} files gave no card{}{}",
            if path_errors.is_empty() {
                String::new()
            } else {
                format!(", {} paths could not be read", path_errors.len())
            },
            collected
                .err()
                .map(|e| format!("\n{}", e.message))
                .unwrap_or_default()
        )));
    }
    if !args.json {
        match total {
            1 => eprintln!("1 file, a card"),
            n => eprintln!("{n} files, every one a card"),
        }
    }
    collected
}

fn live(source: Box<dyn FrameSource>, args: &ScanArgs) -> Result<(), CliError> {
    let (mut collect, scanner) = collector_and_scanner(args)?;
    let place = match (&args.frames, args.camera) {
        (Some(dir), _) => format!("frames {}", dir.display()),
        (None, Some(i)) => format!("camera {i}"),
        (None, None) => "camera".to_string(),
    };
    let pipeline = frames::start(source, scanner, Stabilizer::default());
    let mut out = std::io::stdout().lock();
    let mut errors = 0;
    for event in pipeline.events.iter() {
        // Each event as (JSON, words); `--json` picks the first.
        let (json, words) = match &event {
            FrameEvent::Card { frame, card } => {
                let recorded = collect.as_mut().and_then(|c| {
                    c.add_now(NewScan {
                        card: card_ref(&card.card, card.in_set),
                        origin: Origin::Camera,
                        place: Some(place.clone()),
                        code: None,
                        digest: None,
                        count: 1,
                        remove: false,
                    })
                });
                let new = recorded.is_some_and(|r| r.first_ever);
                (
                    serde_json::json!({"frame": frame, "card": files::CardReport::of(card), "new": new}),
                    format!(
                        "frame {frame}: {} {}{}",
                        card.card.number(),
                        escape(card.card.name()),
                        if new { "  NEW!" } else { "" }
                    ),
                )
            }
            FrameEvent::Refused { frame, why } => (
                serde_json::json!({"frame": frame, "error": why.to_string()}),
                format!("frame {frame}: {}", escape(&why.to_string())),
            ),
            FrameEvent::Gone { frame } => (
                serde_json::json!({"frame": frame, "gone": true}),
                format!("frame {frame}: the card left the view"),
            ),
            FrameEvent::FrameError { frame, message } => {
                errors += 1;
                (
                    serde_json::json!({"frame": frame, "error": message}),
                    format!("frame {frame}: error: {}", escape(message)),
                )
            }
            FrameEvent::Ended {
                decoded,
                dropped,
                over_cap,
            } => {
                let over = if *over_cap > 0 {
                    format!(
                        ", {over_cap} given up after {} ms",
                        decode::FRAME_CAP.as_millis()
                    )
                } else {
                    String::new()
                };
                eprintln!(
                    "{decoded} frames decoded, {dropped} dropped while the decoder was busy{over}"
                );
                continue;
            }
        };
        let line = if args.json { json.to_string() } else { words };
        writeln!(out, "{line}").map_err(super::output_error)?;
        out.flush().map_err(super::output_error)?;
    }
    pipeline.join();
    let collected = collect.map_or(Ok(()), Collector::finish);
    if errors > 0 {
        return Err(CliError::from(format!("{errors} frames could not be read")));
    }
    collected
}

#[cfg(feature = "camera")]
fn camera(index: u32, args: &ScanArgs) -> Result<(), CliError> {
    let source = crate::barcode::webcam::Webcam::open(index).map_err(|e| format!("error: {e}"))?;
    eprintln!("reading camera {index}; hold a card in view, Ctrl+C to stop");
    live(Box::new(source), args)
}

#[cfg(not(feature = "camera"))]
fn camera(_index: u32, _args: &ScanArgs) -> Result<(), CliError> {
    Err(CliError::failed(
        "error: this bterm was built without webcam support (cargo feature `camera`).\n\
         Rebuild with `cargo build --release --features camera` (Debian needs libclang-dev), \
         or scan pictures instead: `bterm scan FILE...` or `bterm scan --frames DIR`.",
    ))
}

/// `bterm enroll`.
pub fn enroll(args: EnrollArgs) -> Result<(), CliError> {
    let set = load_set(args.cards.as_deref())?;
    let card = set
        .resolve(&args.number)
        .map_err(|e| format!("error: {e}"))?
        .clone();
    if card.kind() == CardKind::Command {
        return Err(CliError::failed(format!(
            "error: {} {} is a Command card, which is played at the tabletop and never scanned into a team; enroll a Digimon or Option card",
            card.number(),
            super::escape(card.name())
        )));
    }
    let img = files::load_gray(&args.image, MAX_PIXELS)
        .map_err(|e| format!("error: {}: {e}", args.image.display()))?;
    let symbols = decode(&img, crate::barcode::Effort::File).symbols;
    let symbol = match symbols.as_slice() {
        [] => {
            return Err(CliError::from(format!(
                "error: {}: no barcode found; take a sharper, closer picture of the code",
                args.image.display()
            )));
        }
        [one] => one.clone(),
        many => {
            return Err(CliError::from(format!(
                "error: {}: {} barcodes in the picture ({}); crop it to the one to enroll",
                args.image.display(),
                many.len(),
                many.iter()
                    .map(|s| format!("{} \"{}\"", s.format.name(), s.text))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    };
    if matches!(
        code::classify(&symbol),
        code::Content::Number(_) | code::Content::Custom(_)
    ) {
        return Err(CliError::from(format!(
            "error: {}: the {} \"{}\" is already a bterm card code; it needs no enrolment",
            args.image.display(),
            symbol.format.name(),
            abbreviate(&symbol.text)
        )));
    }
    let mut store = super::collection::open(args.db.as_deref())?;
    enrolments(Some(&mut store));
    let before = store
        .enrol(
            &format!("enroll {} {}", args.image.display(), card.number()),
            symbol.format.name(),
            &symbol.text,
            &card.number(),
        )
        .map_err(|e| format!("error: {e}"))?;
    let path = escape(&store.path().display().to_string());
    match before {
        Some(old) if old != card.number() => println!(
            "{} \"{}\" is now {} {} (was {old}); saved in {path}",
            symbol.format.name(),
            abbreviate(&symbol.text),
            card.number(),
            escape(card.name())
        ),
        _ => println!(
            "{} \"{}\" is {} {}; saved in {path}",
            symbol.format.name(),
            abbreviate(&symbol.text),
            card.number(),
            escape(card.name())
        ),
    }
    Ok(())
}
