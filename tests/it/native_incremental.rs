//! The incremental interface of the CDCL solver: assumptions, failed assumptions, clauses
//! added between calls (model enumeration against brute force, sudoku uniqueness), seeded
//! random decisions, and the limits (time, conflicts, interrupt).

use crate::support::native::brute_force_count;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bench::check::check_model;
use bench::cnf::{ClauseSink, Cnf, Lit, Var};
use bench::cnf_gen::{pigeonhole, planted_3sat, random_ksat};
use bench::encode::{EncodeOptions, decode::decode_full, encode, grid_var};
use bench::puzzle::format::{ReadOptions, read_str};
use bench::puzzle::{Kind, Puzzle};
use bench::rng::SplitMix64;
use bench::solver::cdcl::{CdclSolver, NativeSolver, Options, SolveLimits, SolveResult};
use bench::solver::{Limits, Solver, Status};

fn lit(d: i32) -> Lit {
    Lit::from_dimacs(d)
}

fn solver_of(cnf: &Cnf) -> CdclSolver {
    let mut s = CdclSolver::new();
    s.ensure_vars(cnf.num_vars());
    for c in cnf.clauses() {
        s.add_clause(c);
    }
    s
}

#[test]
fn assumptions_and_failed_assumptions() {
    let mut s = CdclSolver::new();
    // 1 -> 2 -> 3, and (4 or 5).
    assert!(s.add_clause(&[lit(-1), lit(2)]));
    assert!(s.add_clause(&[lit(-2), lit(3)]));
    assert!(s.add_clause(&[lit(4), lit(5)]));

    assert_eq!(s.solve_with(&[lit(1), lit(-4)]), SolveResult::Sat);
    assert_eq!((s.value(lit(3)), s.value(lit(5))), (Some(true), Some(true)));

    assert_eq!(
        s.solve_with(&[lit(6), lit(1), lit(-5), lit(-3)]),
        SolveResult::Unsat
    );
    let failed = s.failed_assumptions().to_vec();
    assert!(
        failed.contains(&lit(1)) && failed.contains(&lit(-3)),
        "{failed:?}"
    );
    assert!(
        !failed.contains(&lit(6)) && !failed.contains(&lit(-5)),
        "irrelevant assumptions: {failed:?}"
    );
    assert_eq!(s.value(lit(1)), None, "no model after UNSAT");

    // Contradictory assumptions.
    assert_eq!(s.solve_with(&[lit(7), lit(-7)]), SolveResult::Unsat);
    let failed = s.failed_assumptions().to_vec();
    assert!(
        failed.contains(&lit(7)) && failed.contains(&lit(-7)),
        "{failed:?}"
    );

    // The clauses themselves are still satisfiable.
    assert!(s.is_ok());
    assert_eq!(s.solve(), SolveResult::Sat);
    assert!(s.failed_assumptions().is_empty());

    // A unit makes an assumption fail at level 0.
    assert!(s.add_clause(&[lit(-3)]));
    assert_eq!(s.solve_with(&[lit(1)]), SolveResult::Unsat);
    assert_eq!(s.failed_assumptions(), &[lit(1)]);
    assert_eq!(s.solve(), SolveResult::Sat);
    assert_eq!(s.value(lit(1)), Some(false));

    // Clauses that contradict each other end it for good.
    assert!(!s.add_clause(&[lit(3)]));
    assert_eq!(s.solve(), SolveResult::Unsat);
    assert!(s.failed_assumptions().is_empty());
}

#[test]
fn assumptions_agree_with_adding_units() {
    // Solving under assumptions must answer as solving with the assumptions as units.
    let mut rng = SplitMix64::new(5);
    for seed in 0..150 {
        let cnf = random_ksat(25, 90, 3, seed);
        let mut s = solver_of(&cnf);
        for _ in 0..4 {
            let assumptions: Vec<Lit> = (0..1 + rng.below(6))
                .map(|_| Var::new(rng.below(25) as u32).lit(rng.coin()))
                .collect();
            let got = s.solve_with(&assumptions);
            let mut with_units = solver_of(&cnf);
            let ok = assumptions.iter().all(|&a| with_units.add_clause(&[a]));
            let expected = if ok {
                with_units.solve()
            } else {
                SolveResult::Unsat
            };
            assert_eq!(got, expected, "seed {seed}, assumptions {assumptions:?}");
            if got == SolveResult::Sat {
                let model = s.model().unwrap();
                check_model(&cnf, &model).unwrap();
                assert!(assumptions.iter().all(|&a| s.value(a) == Some(true)));
            } else {
                // The failed assumptions alone must already be contradictory.
                let failed = s.failed_assumptions().to_vec();
                assert!(failed.iter().all(|f| assumptions.contains(f)));
                let mut check = solver_of(&cnf);
                let ok = failed.iter().all(|&a| check.add_clause(&[a]));
                assert!(
                    !ok || check.solve() == SolveResult::Unsat,
                    "seed {seed}: {failed:?} is not a core"
                );
            }
        }
    }
}

#[test]
fn chronological_backtracking_keeps_assumptions_cores_and_enumeration_right() {
    // Every backjump over more than one level goes back one level only: literals of
    // lower levels pile up above higher ones on the trail, under assumptions and across
    // calls with clauses added between them.
    let chrono = |base: Options| Options { chrono: 1, ..base };
    for (k, options) in [chrono(Options::plain()), chrono(Options::default())]
        .into_iter()
        .enumerate()
    {
        let mut rng = SplitMix64::new(11 + k as u64);
        for seed in 0..60 {
            let cnf = random_ksat(40, 170, 3, seed);
            let mut s = CdclSolver::with_options(options.clone());
            s.add_cnf(&cnf);
            for _ in 0..4 {
                let assumptions: Vec<Lit> = (0..1 + rng.below(8))
                    .map(|_| Var::new(rng.below(40) as u32).lit(rng.coin()))
                    .collect();
                let got = s.solve_with(&assumptions);
                let mut with_units = solver_of(&cnf);
                let ok = assumptions.iter().all(|&a| with_units.add_clause(&[a]));
                let expected = if ok {
                    with_units.solve()
                } else {
                    SolveResult::Unsat
                };
                assert_eq!(got, expected, "{k}: seed {seed}, {assumptions:?}");
                if got == SolveResult::Sat {
                    check_model(&cnf, &s.model().unwrap()).unwrap();
                    assert!(assumptions.iter().all(|&a| s.value(a) == Some(true)));
                } else {
                    let failed = s.failed_assumptions().to_vec();
                    assert!(failed.iter().all(|f| assumptions.contains(f)));
                    let mut check = solver_of(&cnf);
                    let ok = failed.iter().all(|&a| check.add_clause(&[a]));
                    assert!(
                        !ok || check.solve() == SolveResult::Unsat,
                        "{k}: seed {seed}"
                    );
                }
            }
        }
        for seed in 0..40 {
            let vars = 5 + (seed % 8) as u32;
            let cnf = random_ksat(vars, (vars as f64 * 2.5) as usize, 3, 100 + seed);
            let mut s = CdclSolver::with_options(options.clone());
            s.add_cnf(&cnf);
            let mut count = 0;
            while s.solve() == SolveResult::Sat {
                count += 1;
                check_model(&cnf, &s.model().unwrap()).unwrap();
                let block: Vec<Lit> = (0..vars)
                    .map(|v| Var::new(v).lit(s.value(Var::new(v).pos()) != Some(true)))
                    .collect();
                if !s.add_clause(&block) {
                    break;
                }
                assert!(count <= 1 << vars, "enumeration does not terminate");
            }
            assert_eq!(count, brute_force_count(&cnf), "{k}: seed {seed}");
        }
    }
}

#[test]
fn model_enumeration_by_blocking_clauses_matches_brute_force() {
    for seed in 0..60 {
        let vars = 4 + (seed % 9) as u32;
        let cnf = random_ksat(
            vars,
            (vars as f64 * (1.5 + (seed % 4) as f64)) as usize,
            3,
            seed,
        );
        let mut s = solver_of(&cnf);
        let mut count = 0;
        while s.solve() == SolveResult::Sat {
            count += 1;
            check_model(&cnf, &s.model().unwrap()).unwrap();
            let block: Vec<Lit> = (0..vars)
                .map(|v| Var::new(v).lit(s.value(Var::new(v).pos()) != Some(true)))
                .collect();
            if !s.add_clause(&block) {
                break;
            }
            assert!(count <= 1 << vars, "enumeration does not terminate");
        }
        assert_eq!(count, brute_force_count(&cnf), "seed {seed}");
    }
}

fn sudoku(line: &str) -> Puzzle {
    let file = read_str(line, "test", &ReadOptions::default()).unwrap();
    file.entries.into_iter().next().unwrap().unwrap().puzzle
}

#[test]
fn sudoku_uniqueness_check() {
    // A proper puzzle has one solution: after blocking it the formula is UNSAT.
    let unique =
        sudoku("003020600900305001001806400008102900700000008006708200002609500800203009005010300");
    // Removing givens from a proper puzzle (here the first four rows) allows more.
    let mut loose = unique.clone();
    for r in 0..4 {
        for c in 0..9 {
            loose.boards_mut()[0].set(r, c, 0);
        }
    }
    for (puzzle, solutions) in [(unique, 1), (loose, 2)] {
        let mut cnf = Cnf::new(0);
        encode(&puzzle, EncodeOptions::default(), &mut cnf);
        let mut s = solver_of(&cnf);
        let mut found = 0;
        while found < 2 && s.solve() == SolveResult::Sat {
            found += 1;
            let solved = decode_full(&puzzle, &s.model().unwrap()).unwrap();
            puzzle.check_solution(&solved).unwrap();
            let grid = &solved.boards()[0];
            let block: Vec<Lit> = (0..81)
                .map(|i| grid_var(9, 0, i / 9, i % 9, grid.get(i / 9, i % 9) as usize - 1).neg())
                .collect();
            s.add_clause(&block);
        }
        assert_eq!(found, solutions);
    }
}

/// A random full grid from the empty sudoku, deciding random values with `seed`.
fn random_grid(k: usize, seed: u64) -> Puzzle {
    let empty = Puzzle::empty(Kind::Sudoku, k * k).unwrap();
    let mut cnf = Cnf::new(0);
    encode(&empty, EncodeOptions::default(), &mut cnf);
    let options = Options {
        seed,
        random_polarity: true,
        random_var_freq: 0.05,
        ..Options::plain()
    };
    let mut s = CdclSolver::with_options(options);
    for c in cnf.clauses() {
        s.add_clause(c);
    }
    assert_eq!(s.solve(), SolveResult::Sat);
    let solved = decode_full(&empty, &s.model().unwrap()).unwrap();
    empty.check_solution(&solved).unwrap();
    solved
}

#[test]
fn seeded_random_decisions_give_reproducible_varied_grids() {
    let a = random_grid(3, 1);
    assert_eq!(a, random_grid(3, 1));
    let distinct: std::collections::HashSet<Vec<u16>> = (0..8)
        .map(|seed| random_grid(3, seed).boards()[0].cells().to_vec())
        .collect();
    assert!(
        distinct.len() >= 6,
        "only {} distinct grids from 8 seeds",
        distinct.len()
    );
}

#[test]
fn one_second_timeout_on_pigeonhole_12_11() {
    let cnf = pigeonhole(12, 11);
    let limits = Limits {
        timeout: Some(Duration::from_secs(1)),
        ..Limits::default()
    };
    let start = Instant::now();
    let out = NativeSolver::default().solve(&cnf, &limits);
    let elapsed = start.elapsed();
    assert_eq!(out.status, Status::Timeout);
    assert!(
        elapsed >= Duration::from_secs(1),
        "stopped early: {elapsed:?}"
    );
    // The CPU time it used, which a loaded machine does not stretch: a solver that
    // overran would have spent it past the deadline.
    let cpu = out.cpu.expect("native measures its thread's CPU time");
    assert!(
        cpu < Duration::from_millis(1500),
        "the limit was overrun: {cpu:?} of CPU"
    );
    eprintln!("pigeonhole 12/11 with a 1 s limit stopped after {elapsed:?}");
}

#[test]
fn conflict_budget_and_interrupt() {
    let cnf = pigeonhole(11, 10);
    let mut s = solver_of(&cnf);
    s.set_limits(SolveLimits {
        conflicts: Some(300),
        ..SolveLimits::default()
    });
    assert_eq!(s.solve(), SolveResult::Unknown);
    assert_eq!(s.stats().conflicts, 300);
    // The budget is per call: the next call gets 300 more.
    assert_eq!(s.solve(), SolveResult::Unknown);
    assert_eq!(s.stats().conflicts, 600);

    let flag = Arc::new(AtomicBool::new(false));
    s.set_limits(SolveLimits {
        interrupt: Some(flag.clone()),
        ..SolveLimits::default()
    });
    // The clock starts before the setter does, so the stop cannot seem early; the bound
    // above is loose (a shared machine), the point being that the flag stops the search.
    let start = Instant::now();
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::Relaxed);
    });
    assert_eq!(s.solve(), SolveResult::Unknown);
    let elapsed = start.elapsed();
    setter.join().unwrap();
    assert!(
        elapsed >= Duration::from_millis(200) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
    // Limits lifted: the solver finishes the job it was stopped in.
    s.set_limits(SolveLimits::default());
    let small = pigeonhole(6, 5);
    let mut t = solver_of(&small);
    t.set_limits(SolveLimits {
        conflicts: Some(1),
        ..SolveLimits::default()
    });
    assert_eq!(t.solve(), SolveResult::Unknown);
    t.set_limits(SolveLimits::default());
    assert_eq!(t.solve(), SolveResult::Unsat);
}

#[test]
fn stats_reach_the_outcome() {
    let out = NativeSolver::default().solve(&pigeonhole(7, 6), &Limits::default());
    assert_eq!(out.status, Status::Unsat);
    let get = |k: &str| {
        out.stats
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| *v)
            .unwrap()
    };
    assert!(
        get("conflicts") > 0
            && get("decisions") > 0
            && get("propagations") > 0
            && get("learnt") > 0
    );
    assert!(out.cpu.is_some());
}

#[test]
fn many_incremental_calls_through_reductions() {
    // One long-lived solver answering many assumption sets (thousands of conflicts in all,
    // so learnt clauses are reduced between and within calls), with clauses added now and
    // then; each answer is cross-checked with a fresh solver that gets everything so far and
    // the assumptions as unit clauses.
    let (mut all, planted) = planted_3sat(150, 630, 77);
    let mut s = solver_of(&all);
    let mut rng = SplitMix64::new(78);
    let mut answers = [0; 2];
    for call in 0..150 {
        if call % 10 == 9 {
            // Clauses the planted model satisfies, so the formula stays satisfiable.
            let extra = random_ksat(150, 10, 3, 1000 + call);
            for c in extra
                .clauses()
                .filter(|c| c.iter().any(|&l| planted.lit_value(l) == Some(true)))
            {
                all.add_clause(c);
                s.add_clause(c);
            }
        }
        let assumptions: Vec<Lit> = (0..4 + rng.below(16))
            .map(|_| Var::new(rng.below(150) as u32).lit(rng.coin()))
            .collect();
        let got = s.solve_with(&assumptions);
        let mut fresh = solver_of(&all);
        let ok = assumptions.iter().all(|&a| fresh.add_clause(&[a]));
        let expected = if ok {
            fresh.solve()
        } else {
            SolveResult::Unsat
        };
        assert_eq!(got, expected, "call {call}");
        if got == SolveResult::Sat {
            check_model(&all, &s.model().unwrap()).unwrap();
            assert!(assumptions.iter().all(|&a| s.value(a) == Some(true)));
            answers[0] += 1;
        } else {
            let failed = s.failed_assumptions().to_vec();
            assert!(
                failed.iter().all(|f| assumptions.contains(f)),
                "call {call}: {failed:?}"
            );
            let mut core = solver_of(&all);
            let ok = failed.iter().all(|&a| core.add_clause(&[a]));
            assert!(
                !ok || core.solve() == SolveResult::Unsat,
                "call {call}: {failed:?} is not a core"
            );
            answers[1] += 1;
        }
    }
    eprintln!("{answers:?} SAT/UNSAT, {:?}", s.stats());
    assert!(
        answers[0] > 0,
        "the formula must stay satisfiable for the test to mean much"
    );
    assert!(
        s.stats().conflicts > 2000,
        "only {} conflicts: make the formula harder",
        s.stats().conflicts
    );
    assert!(s.stats().reductions > 0);
}
