//! `bench shrink` on a real solver with a planted fault: minisat behind a wrapper that
//! claims UNSAT, or negates minisat's model, whenever the formula holds one given clause
//! (`1 -2 3 0`), else answers as minisat does; and kissat behind a wrapper that spoils its
//! proofs of UNSAT. A satisfiable formula of more than 1,000
//! clauses shrinks to at most 20 that still fail as bench judges it (the model breaks a
//! clause; native's checked model refutes the UNSAT), from
//! the CNF and from the WRONG row of a `bench run`, whose summary prints the command (the
//! run's limits, a CPU limit too, carried on); the printed reproducing command shows the
//! WRONG answer again.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::external::{random_3sat_with, script};
use crate::support::{bench, require_tool};

/// What the wrapper does wrong when the formula holds the planted clause.
#[derive(Clone, Copy)]
enum Fault {
    /// Claims UNSAT.
    Unsat,
    /// Hands back minisat's model with every literal negated.
    Flip,
    /// Aborts (SIGABRT), as a failed assertion does.
    Crash,
}

/// The wrapper around `minisat`: the competition's output, and `fault` on the planted
/// clause.
fn liar(dir: &Path, minisat: &Path, fault: Fault) -> PathBuf {
    let on_planted = match fault {
        Fault::Unsat => "if [ $planted = 1 ]; then echo 's UNSATISFIABLE'; exit 20; fi\nflip=0",
        Fault::Flip => "flip=$planted",
        Fault::Crash => "if [ $planted = 1 ]; then kill -ABRT $$; fi\nflip=0",
    };
    script(
        dir,
        "liar.sh",
        &format!(
            "planted=0\n\
             grep -qx -- '1 -2 3 0' \"$1\" && planted=1\n\
             {on_planted}\n\
             out=$(mktemp)\n\
             '{}' -verb=0 \"$1\" \"$out\" >/dev/null 2>&1\n\
             code=$?\n\
             case \"$(head -n 1 \"$out\")\" in\n\
             SAT) echo 's SATISFIABLE'\n\
             sed -n 2p \"$out\" | awk -v flip=$flip '{{for (i = 1; i < NF; i++) if (flip) $i = -$i; print \"v \" $0}}' ;;\n\
             UNSAT) echo 's UNSATISFIABLE' ;;\n\
             *) echo 's UNKNOWN' ;;\n\
             esac\n\
             rm -f \"$out\"\n\
             exit $code",
            minisat.display()
        ),
    )
}

/// A satisfiable random 3-SAT formula of 300 variables and 1,050 clauses with the planted
/// clause in the middle, written to `dir/big.cnf`.
fn planted(dir: &Path) -> PathBuf {
    let base = random_3sat_with(300, 1050);
    let mut clauses: Vec<Vec<i32>> = base
        .clauses()
        .map(|c| c.iter().map(|l| l.dimacs() as i32).collect())
        .collect();
    clauses.insert(613, vec![1, -2, 3]);
    let cnf = bench::cnf::Cnf::from_dimacs_clauses(300, &clauses);
    let native = bench::solver::by_name("native", &Default::default()).unwrap();
    let answer = native.solve(&cnf, &Default::default());
    assert_eq!(
        answer.status,
        bench::solver::Status::Sat,
        "the formula is SAT"
    );
    let path = dir.join("big.cnf");
    bench::cnf::dimacs::write_cnf(std::fs::File::create(&path).unwrap(), &cnf, &[]).unwrap();
    path
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The clauses of a DIMACS file.
fn clauses_of(path: &Path) -> Vec<Vec<i32>> {
    let d = bench::cnf::dimacs::read_path(path, Default::default()).unwrap();
    d.cnf
        .clauses()
        .map(|c| c.iter().map(|l| l.dimacs() as i32).collect())
        .collect()
}

/// The value after `label` on a line of `out`.
fn after(out: &str, label: &str) -> String {
    out.lines()
        .find_map(|l| l.trim().strip_prefix(label))
        .unwrap_or_else(|| panic!("no `{label}` in:\n{out}"))
        .trim()
        .to_string()
}

/// Runs a printed `bench …` command line in `cwd`.
fn run_printed(command: &str, cwd: &Path) -> Output {
    let words = shell_words::split(command).unwrap();
    assert_eq!(words[0], "bench", "{command}");
    bench().args(&words[1..]).current_dir(cwd).output().unwrap()
}

#[test]
fn a_planted_wrong_unsat_shrinks_to_a_few_clauses() {
    shrinks_to_a_few_clauses(Fault::Unsat, "a wrong UNSAT");
}

#[test]
fn a_planted_wrong_model_shrinks_to_a_few_clauses() {
    shrinks_to_a_few_clauses(Fault::Flip, "a wrong model");
}

#[test]
fn a_planted_crash_shrinks_to_a_few_clauses() {
    shrinks_to_a_few_clauses(Fault::Crash, "an ERROR");
}

fn shrinks_to_a_few_clauses(fault: Fault, shows: &str) {
    let Some(minisat) = require_tool("minisat") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let liar = liar(dir.path(), &minisat, fault);
    let big = planted(dir.path());
    let small = dir.path().join("small.cnf");
    let out = bench()
        .args(["shrink", "--cnf"])
        .arg(&big)
        .arg("--solver")
        .arg(format!("liar='{}' {{cnf}}", liar.display()))
        .args(["--timeout", "30", "-o"])
        .arg(&small)
        .output()
        .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    let clauses = clauses_of(&small);
    assert!(
        !clauses.is_empty() && clauses.len() <= 20,
        "{} clauses: {said}",
        clauses.len()
    );
    assert!(clauses.contains(&vec![1, -2, 3]), "{clauses:?}");
    assert!(said.contains(shows), "{said}");
    // The printed command shows the failure on the small formula: a WRONG answer, or
    // an ERROR row.
    let again = run_printed(&after(&said, "reproduce:"), dir.path());
    let shown = text(&again);
    if let Fault::Crash = fault {
        assert_eq!(again.status.code(), Some(0), "{shown}");
        let csv = dir.path().join(after(&shown, "results:"));
        let rows = bench::results::read_rows(&csv, false).unwrap();
        assert!(
            rows.iter()
                .any(|r| r.solver == "liar" && r.status == bench::solver::Status::Error),
            "{rows:?}"
        );
    } else {
        assert_eq!(again.status.code(), Some(1), "{shown}");
        assert!(shown.contains("WRONG liar"), "{shown}");
    }
}

#[test]
fn the_wrong_row_of_a_run_shrinks_by_the_command_its_summary_prints() {
    let Some(minisat) = require_tool("minisat") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let liar = liar(dir.path(), &minisat, Fault::Unsat);
    let big = planted(dir.path());
    let run = dir.path().join("run");
    let out = bench()
        .arg("run")
        .arg(&big)
        .args(["--solvers", "native,liar", "--timeout", "30", "--jobs", "1"])
        .args(["--cpu-limit", "20"])
        .arg("--solver")
        .arg(format!("liar='{}' {{cnf}}", liar.display()))
        .arg("--out")
        .arg(&run)
        .output()
        .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let command = after(&said, "shrink it:");
    let row = command.rsplit_once("--row ").unwrap().1.to_string();
    // The run's solver and limits come from its run.json: the command names neither.
    let shrunk = run_printed(&command, dir.path());
    let shown = text(&shrunk);
    assert_eq!(shrunk.status.code(), Some(0), "{shown}");
    let small = PathBuf::from(after(&shown, "written:"));
    assert_eq!(small, run.join(format!("shrunk-row-{row}.cnf")));
    let clauses = clauses_of(&small);
    assert!(clauses.len() <= 20, "{} clauses: {shown}", clauses.len());
    assert!(clauses.contains(&vec![1, -2, 3]), "{clauses:?}");
    // The row's limits, its CPU limit among them, are the shrink's and the reproducing
    // command's.
    let again = after(&shown, "reproduce:");
    assert!(
        again.contains("--timeout 30") && again.contains("--cpu-limit 20"),
        "{again}"
    );
}

#[test]
fn a_right_answer_has_nothing_to_shrink() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = crate::support::root().join("corpora/cnf/rand3-150-639-s2.cnf");
    let out = bench()
        .args(["shrink", "--cnf"])
        .arg(&cnf)
        .args(["--solver", "native", "-o"])
        .arg(dir.path().join("x.cnf"))
        .output()
        .unwrap();
    let said = text(&out);
    assert_ne!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("does not reproduce"), "{said}");
    assert!(!dir.path().join("x.cnf").exists());
}

#[test]
fn a_puzzles_wrong_row_is_encoded_again_and_shrunk() {
    // A liar that claims UNSAT of everything: its row on a solvable sudoku is WRONG
    // (native's verified model contradicts it), and the row's formula is the puzzle
    // encoded again under the row's encoding.
    let dir = tempfile::tempdir().unwrap();
    let liar = script(dir.path(), "liar.sh", "echo 's UNSATISFIABLE'\nexit 20");
    let easy = std::fs::read_to_string(crate::support::root().join("corpora/easy.txt")).unwrap();
    let one = dir.path().join("one.txt");
    std::fs::write(
        &one,
        format!("{}\n", easy.lines().find(|l| !l.starts_with('#')).unwrap()),
    )
    .unwrap();
    let run = dir.path().join("run");
    let out = bench()
        .arg("run")
        .arg(&one)
        .args(["--solvers", "native,liar", "--encodings", "minimal"])
        .args(["--timeout", "30", "--jobs", "1"])
        .arg("--solver")
        .arg(format!("liar='{}' {{cnf}}", liar.display()))
        .arg("--out")
        .arg(&run)
        .output()
        .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let shrunk = run_printed(&after(&said, "shrink it:"), dir.path());
    let shown = text(&shrunk);
    assert_eq!(shrunk.status.code(), Some(0), "{shown}");
    assert!(shown.contains("a wrong UNSAT"), "{shown}");
    // Every clause goes: the liar claims UNSAT of the empty formula too.
    let small = PathBuf::from(after(&shown, "written:"));
    assert!(clauses_of(&small).is_empty(), "{shown}");
    assert!(
        shown.contains("8829 clauses") || shown.contains("clauses over 729"),
        "{shown}"
    );
}

/// A proof a checker rejects is a failure to keep: kissat behind a wrapper that replaces
/// each proof of UNSAT with one that adds the empty clause at once (no unit propagation
/// refutes a pigeonhole formula, so `rate` rejects it). Pigeonhole 4 into 3 among 1,050
/// satisfiable clauses over other variables shrinks to the pigeonhole's 22 clauses or
/// fewer, and the printed command (with `--proofs`) shows the WRONG row again.
#[test]
fn a_rejected_proof_shrinks_to_the_formula_that_needs_one() {
    let (Some(kissat), Some(_rate)) = (require_tool("kissat"), require_tool("rate")) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // kissat's adapter runs `kissat [OPTIONS] CNF PROOF`: the proof is the last argument.
    let wrapper = script(
        dir.path(),
        "kissat",
        &format!(
            "'{}' \"$@\"\ncode=$?\nfor proof; do :; done\n[ $code = 20 ] && printf 'a\\000' > \"$proof\"\nexit $code",
            kissat.display()
        ),
    );
    let php = crate::support::external::pigeonhole(4, 3);
    let padding = random_3sat_with(300, 1050);
    let offset = php.num_vars() as i32;
    let mut clauses: Vec<Vec<i32>> = padding
        .clauses()
        .map(|c| {
            c.iter()
                .map(|l| {
                    let d = l.dimacs() as i32;
                    d.signum() * (d.abs() + offset)
                })
                .collect()
        })
        .collect();
    for (i, c) in php.clauses().enumerate() {
        clauses.insert(i * 40, c.iter().map(|l| l.dimacs() as i32).collect());
    }
    let cnf = bench::cnf::Cnf::from_dimacs_clauses(300 + php.num_vars(), &clauses);
    let big = dir.path().join("big.cnf");
    bench::cnf::dimacs::write_cnf(std::fs::File::create(&big).unwrap(), &cnf, &[]).unwrap();
    let small = dir.path().join("small.cnf");
    let out = bench()
        .args(["shrink", "--proofs", "--solver", "kissat", "--solver-path"])
        .arg(format!("kissat={}", wrapper.display()))
        .arg("--cnf")
        .arg(&big)
        .args(["--timeout", "30", "-o"])
        .arg(&small)
        .output()
        .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("a rejected proof"), "{said}");
    let kept = clauses_of(&small);
    assert!(
        !kept.is_empty() && kept.len() <= 22,
        "{} clauses: {said}",
        kept.len()
    );
    let command = after(&said, "reproduce:");
    assert!(command.contains("--proofs"), "{command}");
    let again = run_printed(&command, dir.path());
    let shown = text(&again);
    assert_eq!(again.status.code(), Some(1), "{shown}");
    assert!(shown.contains("WRONG kissat"), "{shown}");
}
