//! The results CSV's own tests: writing, reading back, repairing, refusing bad rows.

use super::*;
use std::fs;
use std::io::Write;

fn row(instance: &str) -> Row {
    Row {
        corpus: "c.txt".into(),
        instance: instance.into(),
        hash: Default::default(),
        kind: InstanceKind::Puzzle(Kind::Sudoku),
        side: 9,
        encoding: "extended".into(),
        vars: 729,
        clauses: 12_000,
        solver: "native".into(),
        mode: Some(Mode::Session),
        run: 1,
        status: Status::Sat,
        check: Check::ModelOk,
        wall_s: 0.01,
        cpu_s: Some(0.01),
        max_rss_kb: None,
        exit_code: None,
        timeout_s: 100.0,
        jobs: 2,
        error: String::new(),
        wrong: false,
        solutions: None,
        count_wall_s: None,
        count_cpu_s: None,
        givens: Some(30),
        family: "c.txt".into(),
        ..Row::default()
    }
}

#[test]
fn append_read_and_repair() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    let mut w = ResultsWriter::append(&path).unwrap();
    w.write(&row("c.txt:1")).unwrap();
    drop(w);
    let mut w = ResultsWriter::append(&path).unwrap();
    w.write(&row("c.txt:2")).unwrap();
    drop(w);
    // A kill in the middle of a row.
    let mut f = OpenOptions::new().append(true).open(&path).unwrap();
    f.write_all(b"c.txt,c.txt:3,sudo").unwrap();
    let rows = read_rows(&path, true).unwrap();
    assert_eq!(rows, vec![row("c.txt:1"), row("c.txt:2")]);
    assert!(fs::read_to_string(&path).unwrap().ends_with('\n'));
}

#[test]
fn times_to_the_microsecond_and_errors_on_one_line() {
    assert_eq!(format_seconds(2.160_905_999_999_999_8), "2.160906");
    assert_eq!(format_seconds(4.817e-6), "0.000005");
    assert_eq!(format_seconds(3.0), "3.0");
    assert_eq!(format_seconds(0.0), "0.0");
    let mut r = row("c.txt:1");
    r.cpu_s = Some(2.160_905_999_999_999_8);
    r.wall_s = 4.817e-6;
    r.error = "bad\u{1b}[2J\u{0}bytes\nand more".into();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    let mut w = ResultsWriter::append(&path).unwrap();
    w.write(&r).unwrap();
    drop(w);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(",0.000005,2.160906,"), "{text}");
    assert!(
        text.contains("bad\\x1b[2J\\x00bytes\\x0aand more"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2);
    assert!(!text.bytes().any(|b| b < 0x20 && b != b'\n'));
    let back = read_rows(&path, false).unwrap();
    assert_eq!(back[0].cpu_s, Some(2.160906));
}

#[test]
fn kinds_read_and_write_as_their_names() {
    let mut text = String::from_utf8(header_line()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    let mut w = ResultsWriter::append(&path).unwrap();
    for kind in ["sudoku", "latin", "pair", "cnf"] {
        let mut r = row("c.txt:1");
        r.kind = InstanceKind::parse(kind).unwrap();
        assert_eq!(r.kind.as_str(), kind);
        w.write(&r).unwrap();
    }
    drop(w);
    let written = fs::read_to_string(&path).unwrap();
    let kinds: Vec<&str> = written
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap())
        .collect();
    assert_eq!(kinds, ["sudoku", "latin", "pair", "cnf"]);
    let back = read_rows(&path, false).unwrap();
    assert_eq!(back[3].kind, InstanceKind::Cnf);
    assert_eq!(back[2].kind, InstanceKind::Puzzle(Kind::Pair));
    // Any other name is an error naming its line.
    let line = written
        .lines()
        .nth(1)
        .unwrap()
        .replace(",sudoku,", ",hexagon,");
    text.push_str(&line);
    text.push('\n');
    let err = parse_rows(&text, "r.csv").unwrap_err().to_string();
    assert!(
        err.starts_with("r.csv:2:") && err.contains("hexagon"),
        "{err}"
    );
}

#[test]
fn an_unsat_against_a_verified_model_is_wrong_when_read() {
    let unsat = Row {
        status: Status::Unsat,
        check: Check::Unchecked,
        solver: "liar".into(),
        ..row("c.txt:1")
    };
    let witness = Row {
        status: Status::Sat,
        check: Check::ModelOk,
        solver: "kissat".into(),
        ..row("c.txt:1")
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    let mut w = ResultsWriter::append(&path).unwrap();
    w.write(&unsat).unwrap();
    w.write(&witness).unwrap();
    drop(w);
    let read = read_rows(&path, false).unwrap();
    assert!(read[0].wrong && read[0].error.contains("verified model of kissat"));
    assert!(!read[1].wrong);
    // The file keeps the rows as written.
    assert!(!read_table(&path, false).unwrap().0[0].wrong);
    let mut rows = vec![unsat, witness];
    assert_eq!(cross_check_unsat(&mut rows), 1);
    assert_eq!(cross_check_unsat(&mut rows), 0, "once");
}

#[test]
fn a_formula_in_a_name_is_written_as_text_and_read_back_exactly() {
    let mut r = row("=HYPERLINK(\"http:x\",\"y\").cnf");
    r.corpus = "-c.txt".into();
    r.family = "@fam".into();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    let mut w = ResultsWriter::append(&path).unwrap();
    w.write(&r).unwrap();
    drop(w);
    let text = fs::read_to_string(&path).unwrap();
    let line = text.lines().nth(1).unwrap();
    assert!(line.starts_with("'-c.txt,\"'=HYPERLINK("), "{line}");
    assert!(line.contains(",'@fam,"), "{line}");
    assert_eq!(read_rows(&path, false).unwrap(), vec![r]);
}

#[test]
fn nan_infinite_and_negative_times_are_refused_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    let mut w = ResultsWriter::append(&path).unwrap();
    w.write(&row("c.txt:1")).unwrap();
    drop(w);
    let good = fs::read_to_string(&path).unwrap();
    for bad in ["NaN", "inf", "-0.5"] {
        let text = good.replace(",0.01,0.01,", &format!(",{bad},0.01,"));
        assert_ne!(text, good);
        let err = parse_rows(&text, "r.csv").unwrap_err().to_string();
        assert!(err.starts_with("r.csv:2: wall_s is"), "{err}");
    }
}

#[test]
fn blank_lines_do_not_size_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    let mut w = ResultsWriter::append(&path).unwrap();
    w.write(&row("c.txt:1")).unwrap();
    drop(w);
    let mut f = OpenOptions::new().append(true).open(&path).unwrap();
    f.write_all(&vec![b'\n'; 1 << 20]).unwrap();
    drop(f);
    let (rows, _) = read_table(&path, false).unwrap();
    assert_eq!(rows.len(), 1);
    assert!(rows.capacity() < 1 << 16, "{}", rows.capacity());
}

#[test]
fn a_bad_row_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    let mut w = ResultsWriter::append(&path).unwrap();
    w.write(&row("c.txt:1")).unwrap();
    drop(w);
    let text = fs::read_to_string(&path).unwrap() + "c.txt,x,sudoku,nine,extended\n";
    let err = parse_rows(&text, "r.csv").unwrap_err().to_string();
    assert!(err.starts_with("r.csv:3:"), "{err}");
}

#[test]
fn the_limit_columns_round_trip_and_old_files_read_without_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    let mut timed_out = row("c.txt:1");
    timed_out.status = Status::Timeout;
    timed_out.check = Check::Unchecked;
    timed_out.cpu_limit_s = Some(2.5);
    timed_out.limit = Some(LimitHit::Cpu);
    let mut w = ResultsWriter::append(&path).unwrap();
    w.write(&timed_out).unwrap();
    drop(w);
    let text = fs::read_to_string(&path).unwrap();
    assert!(
        text.lines().next().unwrap().ends_with(",cpu_limit_s,limit"),
        "{text}"
    );
    assert!(text.lines().nth(1).unwrap().ends_with(",2.5,cpu"), "{text}");
    assert_eq!(read_rows(&path, false).unwrap(), vec![timed_out]);
    // A file of a bench before the columns: no limit, no CPU limit.
    let old = "corpus,instance,kind,side,encoding,vars,clauses,solver,run,status,check,wall_s,\
               cpu_s,max_rss_kb,exit_code,timeout_s,jobs,error,wrong,solutions,givens\n\
               c.txt,c.txt:1,sudoku,9,extended,729,1,native,1,TIMEOUT,unchecked,10,9.5,,,10,1,,false,,30\n";
    let rows = parse_rows(old, "old.csv").unwrap();
    assert_eq!((rows[0].cpu_limit_s, rows[0].limit), (None, None));
}
