//! The puzzle formats from the outside: every format and kind reads back what it writes,
//! no input makes the reader panic, detection on what bench writes, file-level errors, and
//! the throughput of the line format on a million-puzzle corpus (an ignored test).

use std::io::Write;

use bench::puzzle::format::{
    Format, PuzzleFile, ReadOptions, read_bytes, read_path, read_str, write,
};
use bench::puzzle::{Grid, Kind, Puzzle};
use proptest::prelude::*;

/// A full board that obeys the rules: the classic pattern for a sudoku of box size k
/// (side k²), a cyclic Latin square otherwise.
fn pattern(kind: Kind, n: usize) -> Vec<u16> {
    let k = (1..=n).find(|k| k * k == n);
    (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            let v = match (kind, k) {
                (Kind::Latin, _) | (_, None) => (r + c) % n,
                (_, Some(k)) => (r * k + r / k + c) % n,
            };
            v as u16 + 1
        })
        .collect()
}

/// A puzzle of `kind` and side `n` whose givens are the pattern's cells where `keep` is
/// true; a pair's second board relabels every value (v → v+1), so no cell clashes.
fn puzzle_from(kind: Kind, n: usize, keep: &[bool]) -> Puzzle {
    let full = pattern(kind, n);
    let boards = (0..kind.boards())
        .map(|b| {
            let cells = full
                .iter()
                .zip(&keep[b * n * n..(b + 1) * n * n])
                .map(|(&v, &kept)| {
                    if kept {
                        (v - 1 + b as u16) % n as u16 + 1
                    } else {
                        0
                    }
                })
                .collect();
            Grid::from_cells(n, cells).unwrap()
        })
        .collect();
    Puzzle::new(kind, boards).unwrap()
}

/// Kinds and sides to round-trip: sudokus k = 2..5, Latin squares 2..12 and one over 61,
/// pairs k = 2..4.
fn shapes() -> impl Strategy<Value = (Kind, usize)> {
    prop_oneof![
        (2usize..=5).prop_map(|k| (Kind::Sudoku, k * k)),
        (2usize..=12).prop_map(|n| (Kind::Latin, n)),
        Just((Kind::Latin, 64)),
        Just((Kind::Sudoku, 64)),
        (2usize..=4).prop_map(|k| (Kind::Pair, k * k)),
    ]
}

fn puzzles() -> impl Strategy<Value = Puzzle> {
    shapes().prop_flat_map(|(kind, n)| {
        prop::collection::vec(any::<bool>(), kind.boards() * n * n)
            .prop_map(move |keep| puzzle_from(kind, n, &keep))
    })
}

/// Whether `format` can write `puzzle` at all.
fn writable(format: Format, puzzle: &Puzzle) -> bool {
    let n = puzzle.side();
    match format {
        Format::Line => n <= 61,
        Format::Prefixed => n <= 61 && (2..=7).any(|k| k * k == n),
        Format::Grid | Format::Csv => true,
    }
}

fn read_back(text: &str, format: Option<Format>, kind: Option<Kind>) -> PuzzleFile {
    read_str(
        text,
        "round.txt",
        &ReadOptions {
            format,
            kind,
            alphabet: None,
        },
    )
    .unwrap()
}

proptest! {
    // No failure file: proptest cannot find one for an integration test, and says so.
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_format_reads_back_what_it_writes(puzzle in puzzles(), extra in puzzles()) {
        for format in Format::ALL {
            let mut out = Vec::new();
            let result = write(&mut out, &puzzle, format);
            if !writable(format, &puzzle) {
                prop_assert_eq!(result.unwrap_err().kind(), std::io::ErrorKind::InvalidInput);
                continue;
            }
            result.unwrap();
            let text = String::from_utf8(out).unwrap();
            let file = read_back(&text, Some(format), Some(puzzle.kind()));
            prop_assert_eq!(file.entries.len(), 1, "{} in {}:\n{}", puzzle.kind(), format, text);
            prop_assert_eq!(&file.entries[0].as_ref().unwrap().puzzle, &puzzle);
            // Two puzzles written one after the other read back as both, in order, when
            // they are of one kind (a forced kind applies to the whole file).
            if extra.kind() == puzzle.kind() && writable(format, &extra) {
                let mut both = text.into_bytes();
                write(&mut both, &extra, format).unwrap();
                let file = read_back(std::str::from_utf8(&both).unwrap(), Some(format), Some(puzzle.kind()));
                let read: Vec<_> = file.entries.into_iter().map(|e| e.unwrap().puzzle).collect();
                prop_assert_eq!(read, vec![puzzle.clone(), extra.clone()]);
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        for format in [None, Some(Format::Line), Some(Format::Prefixed), Some(Format::Grid), Some(Format::Csv)] {
            for kind in [None, Some(Kind::Latin), Some(Kind::Pair)] {
                let _ = read_bytes(&bytes, "fuzz", &ReadOptions { format, kind, alphabet: None });
            }
        }
    }

    #[test]
    fn random_text_never_panics(
        text in r"([0-9.A-Za-z]{0,20}|[ \t,:|+\-#]|\r?\n|99999999999999999999|4294967296|65536|[2-9] |é|\u{2502}|\u{feff}|\u{0}|Grid 01|\u{1F600}){0,80}",
    ) {
        for format in [None, Some(Format::Line), Some(Format::Prefixed), Some(Format::Grid), Some(Format::Csv)] {
            for kind in [None, Some(Kind::Sudoku), Some(Kind::Latin), Some(Kind::Pair)] {
                if let Ok(file) = read_str(&text, "fuzz", &ReadOptions { format, kind, alphabet: None }) {
                    for entry in file.entries.iter().flatten() {
                        // Whatever is read obeys the rules, as promised.
                        prop_assert!(entry.puzzle.check_givens().is_ok());
                    }
                }
            }
        }
    }

    #[test]
    fn mutated_puzzle_files_never_panic(puzzle in puzzles(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        for format in Format::ALL {
            let mut out = Vec::new();
            if write(&mut out, &puzzle, format).is_err() {
                continue;
            }
            let i = at.index(out.len());
            out[i] = byte;
            let _ = read_bytes(&out, "mutant", &ReadOptions::default());
            out.insert(i, b'\n');
            let _ = read_bytes(&out, "mutant", &ReadOptions { format: Some(format), kind: None, alphabet: None });
        }
    }
}

/// What bench writes is detected as the format it wrote, for the usual shapes.
#[test]
fn detection_recognises_what_bench_writes() {
    let keep_some = |len: usize| (0..len).map(|i| i % 3 == 0).collect::<Vec<_>>();
    let shapes = [
        (Kind::Sudoku, 9),
        (Kind::Sudoku, 16),
        (Kind::Sudoku, 25),
        (Kind::Pair, 9),
        (Kind::Latin, 7),
    ];
    for (kind, n) in shapes {
        let puzzle = puzzle_from(kind, n, &keep_some(kind.boards() * n * n));
        for format in Format::ALL {
            if !writable(format, &puzzle) {
                continue;
            }
            let mut out = Vec::new();
            for _ in 0..3 {
                write(&mut out, &puzzle, format).unwrap();
            }
            let file = read_back(std::str::from_utf8(&out).unwrap(), None, None);
            assert_eq!(file.format, format, "{kind} side {n}");
            assert_eq!(file.entries.len(), 3);
            for entry in file.entries {
                assert_eq!(entry.unwrap().puzzle, puzzle);
            }
        }
    }
}

#[test]
fn crlf_files_read_like_lf_files() {
    let puzzle = puzzle_from(
        Kind::Pair,
        9,
        &(0..162).map(|i| i % 4 == 1).collect::<Vec<_>>(),
    );
    for format in Format::ALL {
        let mut out = Vec::new();
        write(&mut out, &puzzle, format).unwrap();
        let crlf = String::from_utf8(out).unwrap().replace('\n', "\r\n");
        let file = read_back(&crlf, None, None);
        assert_eq!(file.format, format);
        assert_eq!(file.entries[0].as_ref().unwrap().puzzle, puzzle);
    }
}

#[test]
fn file_level_errors() {
    let bad_utf8 = b"003020600900305001001806400008102900700000008006708200002609500800203009005010300\n\xff\n";
    let err = read_bytes(bad_utf8, "bin.txt", &ReadOptions::default()).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(
        err.to_string().starts_with("bin.txt:2: not UTF-8 text"),
        "{err}"
    );

    let err = read_str("# only a comment\n\n", "empty.txt", &ReadOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "empty.txt: no puzzle: the file holds only blank lines and comments"
    );
    let err = read_str("", "empty.txt", &ReadOptions::default()).unwrap_err();
    assert_eq!(err.line, 0);

    let err = read_str(
        "# notes\nThe quick brown fox\n",
        "notes.md",
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.line, 2);
    assert!(
        err.message.starts_with("no puzzle found in any format"),
        "{err}"
    );

    // A forced format reports each line instead (the first, letters only, is taken for a
    // column header).
    let forced = ReadOptions {
        format: Some(Format::Line),
        ..ReadOptions::default()
    };
    let file = read_str("The quick brown fox\njumps over\n", "notes.md", &forced).unwrap();
    assert_eq!(file.entries.len(), 1);
    assert_eq!(
        file.entries[0].as_ref().unwrap_err().to_string(),
        "notes.md:2: 5 symbols: a puzzle line has n² symbols (81 for 9×9), or 2·n² for a pair"
    );

    let err = read_path(
        std::path::Path::new("/nonexistent/puzzles.txt"),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(
        err.to_string().starts_with("/nonexistent/puzzles.txt: "),
        "{err}"
    );
}

#[test]
fn read_path_reads_a_file() {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    writeln!(file, "\u{feff}3 000400009020980030800003400002000000000001008070020016000100007001000002096000300").unwrap();
    let read = read_path(file.path(), &ReadOptions::default()).unwrap();
    assert_eq!(read.format, Format::Prefixed);
    assert_eq!(read.entries[0].as_ref().unwrap().line, 1);
}

/// Bad puzzles are skipped with their `file:line`, and the rest still read; a puzzle whose
/// givens clash is read (it has no solution) and says why.
#[test]
fn bad_puzzles_do_not_stop_reading() {
    let good = "003020600900305001001806400008102900700000008006708200002609500800203009005010300";
    let text = format!(
        "{good}\n{}\n{}\n{good}\n",
        good.replacen('0', "3", 1),
        &good[1..]
    );
    let file = read_str(&text, "hard.txt", &ReadOptions::default()).unwrap();
    let lines: Vec<_> = file
        .entries
        .iter()
        .map(|e| e.as_ref().map(|e| e.line).map_err(|e| e.line))
        .collect();
    assert_eq!(lines, [Ok(1), Ok(2), Err(3), Ok(4)]);
    assert_eq!(
        file.entries[1].as_ref().unwrap().clash.as_deref(),
        Some("value 3 appears twice in row 1 (at r1c1 and r1c3)")
    );
    assert_eq!(file.entries[0].as_ref().unwrap().clash, None);
    assert_eq!(
        file.entries[2].as_ref().unwrap_err().to_string(),
        "hard.txt:3: 80 symbols: a puzzle line has n² symbols (81 for 9×9), or 2·n² for a pair"
    );
}

/// A million 9×9 lines, timed.
#[test]
#[ignore]
fn throughput_of_a_million_lines() {
    // cargo test --test puzzle_formats -- --ignored --nocapture (the test profile is optimised)
    let patterns: Vec<String> = (0..97)
        .map(|seed| {
            let puzzle = puzzle_from(
                Kind::Sudoku,
                9,
                &(0..81).map(|i| (i * 7 + seed) % 3 == 0).collect::<Vec<_>>(),
            );
            let mut out = Vec::new();
            write(&mut out, &puzzle, Format::Line).unwrap();
            String::from_utf8(out).unwrap()
        })
        .collect();
    let text: String = (0..1_000_000)
        .map(|i| patterns[i % patterns.len()].as_str())
        .collect();
    // Best of three, in CPU time of this thread: the machine may be shared.
    let mut elapsed = std::time::Duration::MAX;
    for _ in 0..3 {
        let start = thread_cpu_time();
        let file = read_str(&text, "million.txt", &ReadOptions::default()).unwrap();
        elapsed = elapsed.min(thread_cpu_time() - start);
        assert_eq!(file.entries.len(), 1_000_000);
        assert!(file.entries.iter().all(Result::is_ok));
    }
    let mb = text.len() as f64 / 1e6;
    println!(
        "1,000,000 lines ({mb:.0} MB) in {:.2} s of CPU: {:.1} M puzzles/s, {:.0} MB/s",
        elapsed.as_secs_f64(),
        1.0 / elapsed.as_secs_f64(),
        mb / elapsed.as_secs_f64()
    );
}

/// The CPU time this thread has used.
fn thread_cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
