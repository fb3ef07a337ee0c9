//! Every numeric option is checked at the door: random values thrown at each are either
//! refused by clap (with the range in the message) or accepted inside the range `--help`
//! states, and an accepted value never panics later (the conversions bench makes of it,
//! and whole `bench run` / `bench solve` commands with random accepted values).

use std::process::Command;
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;
use bench::cli::{Cli, Command as Sub, ranges};
use clap::Parser;
use proptest::prelude::*;

/// Any string a user (or a fuzzer) might type as a number.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        (0u64..100_000).prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| x.to_string()),
        (-1e3f64..1e10).prop_map(|x| x.to_string()),
        prop::sample::select(vec![
            "0",
            "-0",
            "1e308",
            "-1e308",
            "NaN",
            "inf",
            "-inf",
            "1e-320",
            "0.0001",
            "31536000",
            "31536001",
            "18446744073709551616",
            "99999999999999999999999",
            "",
            " ",
            "1.5",
            "0x10",
            "+3",
        ])
        .prop_map(str::to_string),
    ]
}

fn parse(args: &[&str]) -> Option<Cli> {
    let mut argv = vec!["bench"];
    argv.extend_from_slice(args);
    Cli::try_parse_from(argv).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn run_options_in_range(v in number_text(), which in 0usize..6) {
        let flag = ["--timeout", "--jobs", "--repeat", "--mem-limit", "--count", "--cpu-limit"][which];
        if let Some(cli) = parse(&["run", "x.txt", flag, &v]) {
            let Sub::Run(a) = cli.command else { panic!("not run") };
            for t in [a.limits.timeout, a.limits.cpu_limit].into_iter().flatten() {
                prop_assert!((ranges::MIN_TIMEOUT_S..=ranges::MAX_TIMEOUT_S).contains(&t));
                let _ = Duration::from_secs_f64(t);
            }
            prop_assert!(a.jobs.is_none_or(|j| (1..=ranges::max_jobs()).contains(&j)));
            prop_assert!((1..=ranges::MAX_REPEAT).contains(&a.repeat));
            let mem_ok = a.limits.mem_limit.is_none_or(|m| {
                (ranges::MIN_MEM_LIMIT_MB..=ranges::MAX_MEM_LIMIT_MB).contains(&m)
                    && m.checked_mul(1 << 20).is_some()
            });
            prop_assert!(mem_ok);
            prop_assert!(a.count >= 1);
        }
    }

    #[test]
    fn solve_and_report_options_in_range(v in number_text(), which in 0usize..3) {
        let args: Vec<&str> = match which {
            0 => vec!["solve", "x.cnf", "--timeout", &v],
            1 => vec!["solve", "x.cnf", "--mem-limit", &v],
            _ => vec!["report", "r.csv", "--timeout", &v],
        };
        match parse(&args).map(|c| c.command) {
            Some(Sub::Solve(a)) => {
                if let Some(t) = a.limits.timeout {
                    prop_assert!((ranges::MIN_TIMEOUT_S..=ranges::MAX_TIMEOUT_S).contains(&t));
                    let _ = Duration::from_secs_f64(t);
                }
                prop_assert!(a.limits.mem_limit.is_none_or(|m| m >= ranges::MIN_MEM_LIMIT_MB));
            }
            Some(Sub::Report(a)) => {
                prop_assert!(a.timeout.is_none_or(|t| t.is_finite() && t > 0.0));
            }
            Some(_) => prop_assert!(false),
            None => {}
        }
    }

    #[test]
    fn gen_and_slurm_options_in_range(v in number_text(), which in 0usize..8) {
        let args: Vec<&str> = match which {
            0 => vec!["gen", "--box", &v],
            1 => vec!["gen", "--side", &v],
            2 => vec!["gen", "--count", &v],
            3 => vec!["gen", "--givens", &v],
            4 => vec!["gen", "--min-rating", &v],
            5 => vec!["gen", "--pool", &v],
            6 => vec!["gen", "--shuffles", &v],
            _ => vec!["slurm", "x.txt", "--shards", &v],
        };
        match parse(&args).map(|c| c.command) {
            Some(Sub::Gen(g)) => {
                prop_assert!(g.box_size.is_none_or(|k| k.checked_mul(k)
                    .is_some_and(|s| s <= bench::puzzle::MAX_SIDE)));
                prop_assert!(g.side.is_none_or(|s| s <= bench::puzzle::MAX_SIDE));
                prop_assert!(g.count >= 1 && g.count <= ranges::MAX_GEN_COUNT);
                prop_assert!(g.min_rating.is_none_or(f64::is_finite));
                prop_assert!(g.pool.is_none_or(|p| (1..=ranges::MAX_GEN_COUNT).contains(&p)));
                prop_assert!(g.shuffles >= 1 && g.shuffles <= ranges::MAX_SHUFFLES);
            }
            Some(Sub::Slurm(s)) => prop_assert!(s.shards >= 1),
            Some(_) => prop_assert!(false),
            None => {}
        }
    }
}

/// The refusals name the range, and `--help` states it.
#[test]
fn refusals_and_help_state_the_range() {
    let out = Command::cargo_bin("bench")
        .unwrap()
        .args(["run", "x.txt", "--timeout", "1e308"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("31536000"), "{err}");
    let out = Command::cargo_bin("bench")
        .unwrap()
        .args(["run", "x.txt", "--jobs", "100000"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::cargo_bin("bench")
        .unwrap()
        .args(["run", "x.txt", "--mem-limit", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let help = Command::cargo_bin("bench")
        .unwrap()
        .args(["run", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for range in [
        "0.001 to 31536000",
        "4 to 16777216",
        "1 to 10000",
        "4 times the cores",
    ] {
        assert!(help.contains(range), "--help lacks `{range}`:\n{help}");
    }
}

/// Whole commands with random accepted values: no panic, no abort, an answer.
#[test]
fn accepted_values_run_without_panic() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("s.txt");
    std::fs::write(
        &corpus,
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n",
    )
    .unwrap();
    let cnf = dir.path().join("f.cnf");
    std::fs::write(&cnf, "p cnf 2 2\n1 2 0\n-1 0\n").unwrap();
    let most_jobs = ranges::max_jobs().to_string();
    let cases: [(&str, &str, &str, &str); 6] = [
        ("31536000", "1", "16", "1"),
        ("0.001", "1", "16777216", "2"),
        ("1e-3", "2", "4", "1"),
        ("2.5", &most_jobs, "1024", "3"),
        ("100", "1", "17", "10"),
        ("31535999.999", "2", "64", "1"),
    ];
    for (i, (timeout, jobs, mem, repeat)) in cases.into_iter().enumerate() {
        let out = Command::cargo_bin("bench")
            .unwrap()
            .args(["run"])
            .arg(&corpus)
            .args(["--timeout", timeout, "--jobs", jobs, "--mem-limit", mem])
            .args(["--repeat", repeat, "--out"])
            .arg(dir.path().join(format!("r{i}")))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "--timeout {timeout} --jobs {jobs} --mem-limit {mem}: {:?}\n{err}",
            out.status
        );
        assert!(!err.contains("panicked"), "{err}");
        let out = Command::cargo_bin("bench")
            .unwrap()
            .arg("solve")
            .arg(&cnf)
            .args(["--timeout", timeout, "--mem-limit", mem])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{err}");
        assert!(matches!(out.status.code(), Some(0 | 10 | 20)), "{err}");
    }
}
