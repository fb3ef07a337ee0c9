//! The simplification techniques of `native` (bounded variable elimination, subsumption and
//! strengthening, probing, vivification, …), each switched on and off through
//! [`Options`]: every model checked against the ORIGINAL formula (so the reconstruction of
//! eliminated variables is tested), every UNSAT answer's DRAT proof verified by `rate`,
//! elimination under assumptions and frozen variables, clauses added after elimination
//! that mention eliminated variables, and a differential test against minisat and cadical.
//! (`Options::plain()` leaves simplification off; `Options::default()` is native's.)

use crate::support::native::{brute_force_count, random_formula, rate, solve_checked};
use std::path::Path;
use std::process::Command;

use bench::check::check_model;
use bench::cnf::dimacs::write_cnf;
use bench::cnf::{ClauseSink, Cnf, Lit, Model, Var};
use bench::cnf_gen::{parity_chains, pigeonhole, planted_3sat, random_ksat};
use bench::rng::SplitMix64;
use bench::solver::cdcl::{CdclSolver, Options, RestartPolicy, SolveResult, Stats};
use proptest::prelude::*;

/// Every technique on, native's off-by-default ones (vivification, tiers) too, with the
/// first simplification round before the search.
fn eager() -> Options {
    Options {
        inprocess_first: 0,
        vivify: true,
        vivify_irred: true,
        tiers: true,
        rephase: true,
        ..Options::default()
    }
}

/// The configurations compared: everything off, each technique alone, everything on, and
/// everything on with rounds, reductions and rephases every few conflicts (so that rounds
/// meet learnt clauses and tiers decide), under glucose, Luby and mode-switching restarts
/// (where the stable phases decide by the target phases); native's defaults as they are,
/// and the previous ones (glucose, no target phases, the non-binary elimination bound, no
/// reason-side bumping).
fn configs() -> Vec<(&'static str, Options)> {
    let all = eager();
    let only = |f: &dyn Fn(&mut Options)| {
        let mut o = Options {
            elim: false,
            subsume: false,
            probe: false,
            vivify: false,
            vivify_irred: false,
            tiers: false,
            rephase: false,
            equiv: false,
            ..eager()
        };
        f(&mut o);
        o
    };
    vec![
        (
            "off",
            Options {
                inprocess: false,
                tiers: false,
                rephase: false,
                ..eager()
            },
        ),
        (
            "tiers-often",
            only(&|o| {
                o.tiers = true;
                o.first_reduce = 30;
                o.reduce_increment = 10;
            }),
        ),
        (
            "rephase-luby",
            only(&|o| {
                o.rephase = true;
                o.restarts = RestartPolicy::Luby { unit: 8 };
            }),
        ),
        (
            "modes-rephase",
            only(&|o| {
                o.rephase = true;
                o.restarts = RestartPolicy::Modes { unit: 8 };
            }),
        ),
        (
            "lbd-reduce-often",
            only(&|o| {
                o.reduce_activity = false;
                o.first_reduce = 30;
                o.reduce_increment = 10;
            }),
        ),
        ("elim", only(&|o| o.elim = true)),
        (
            "equiv+elim",
            only(&|o| {
                o.equiv = true;
                o.elim = true;
            }),
        ),
        ("subsume", only(&|o| o.subsume = true)),
        (
            "vivify-irred-often",
            only(&|o| {
                o.vivify_irred = true;
                o.inprocess_interval = 15;
            }),
        ),
        (
            "mode-scores-focused-decay",
            only(&|o| {
                o.mode_scores = true;
                o.focused_decay = Some(0.75);
                o.restarts = RestartPolicy::Modes { unit: 4 };
            }),
        ),
        (
            "probe+vivify-often",
            only(&|o| {
                o.probe = true;
                o.vivify = true;
                o.inprocess_interval = 15;
            }),
        ),
        (
            "vivify-tiers-often",
            only(&|o| {
                o.vivify = true;
                o.vivify_effort = 1000;
                o.first_reduce = 25;
                o.reduce_increment = 10;
            }),
        ),
        (
            "chrono-often",
            only(&|o| {
                o.chrono = 1;
                o.first_reduce = 30;
                o.reduce_increment = 10;
            }),
        ),
        (
            "all-chrono-often",
            Options {
                chrono: 1,
                vivify_effort: 1000,
                inprocess_interval: 25,
                first_reduce: 40,
                reduce_increment: 20,
                restarts: RestartPolicy::Modes { unit: 10 },
                ..all.clone()
            },
        ),
        ("all", all.clone()),
        ("native's defaults", Options::default()),
        (
            "target-modes-often",
            Options {
                target_phase: true,
                restarts: RestartPolicy::Modes { unit: 4 },
                inprocess_interval: 25,
                first_reduce: 40,
                reduce_increment: 20,
                ..Options::default()
            },
        ),
        (
            "previous-defaults-often",
            Options {
                restarts: RestartPolicy::Glucose,
                target_phase: false,
                elim_long_bound: true,
                elim_lit_slack: 0,
                bump_reasons: false,
                first_reduce: 40,
                reduce_increment: 20,
                inprocess_interval: 25,
                ..Options::default()
            },
        ),
        (
            "all-often",
            Options {
                inprocess_interval: 20,
                elim_bound: 8,
                first_reduce: 40,
                reduce_increment: 20,
                ..all.clone()
            },
        ),
        (
            "all-modes-often",
            Options {
                inprocess_interval: 25,
                first_reduce: 40,
                reduce_increment: 20,
                restarts: RestartPolicy::Modes { unit: 10 },
                ..all.clone()
            },
        ),
        (
            "all-luby-often",
            Options {
                inprocess_interval: 25,
                first_reduce: 40,
                reduce_increment: 20,
                restarts: RestartPolicy::Luby { unit: 10 },
                ..all
            },
        ),
    ]
}

/// Tseitin parity formula on a random graph: each vertex's incident edge variables XOR to
/// its charge; unsatisfiable exactly when the total charge is odd on a connected graph.
fn tseitin(vertices: u32, extra_edges: u32, odd: bool, seed: u64) -> Cnf {
    let mut rng = SplitMix64::new(seed);
    let mut edges: Vec<(u32, u32)> = (1..vertices)
        .map(|v| (rng.below(v as u64) as u32, v))
        .collect();
    for _ in 0..extra_edges {
        let a = rng.below(vertices as u64) as u32;
        let b = rng.below(vertices as u64) as u32;
        if a != b {
            edges.push((a, b));
        }
    }
    let mut cnf = Cnf::new(edges.len() as u32);
    for v in 0..vertices {
        let incident: Vec<u32> = (0..edges.len() as u32)
            .filter(|&e| edges[e as usize].0 == v || edges[e as usize].1 == v)
            .collect();
        let charge = odd && v == 0;
        // All sign patterns of the incident edges with the wrong parity are excluded.
        for bits in 0u32..1 << incident.len() {
            if (bits.count_ones() % 2 == 1) != charge {
                // The clause falsified exactly by this assignment.
                let clause: Vec<Lit> = incident
                    .iter()
                    .enumerate()
                    .map(|(i, &e)| Var::new(e).lit(bits >> i & 1 == 0))
                    .collect();
                cnf.add_clause(&clause);
            }
        }
    }
    cnf
}

/// `cnf` plus `k` gadgets over fresh variables a, b, c: a → b, a → c, b ∧ c → ¬a, so
/// that `a` is a failed literal (probing finds ¬a), tied to the formula by (a ∨ x ∨ y).
fn with_failed_literals(mut cnf: Cnf, k: u32) -> Cnf {
    let n = cnf.num_vars();
    for i in 0..k {
        let a = Var::new(n + 3 * i).pos();
        let b = Var::new(n + 3 * i + 1).pos();
        let c = Var::new(n + 3 * i + 2).pos();
        cnf.add_clause(&[!a, b]);
        cnf.add_clause(&[!a, c]);
        cnf.add_clause(&[!b, !c, !a]);
        cnf.add_clause(&[a, Var::new(i % n).pos(), Var::new((i + 1) % n).neg()]);
    }
    cnf
}

/// `cnf` plus `k` equivalences `x ≡ ±y` between random variables (two binary clauses
/// each), so that substitution has work; chains of them may also make some `x ≡ ¬x`.
fn with_equivalences(mut cnf: Cnf, k: u32, rng: &mut SplitMix64) -> Cnf {
    let n = cnf.num_vars();
    for _ in 0..k {
        let x = Var::new(rng.below(n as u64) as u32).pos();
        let y = Var::new(rng.below(n as u64) as u32).lit(rng.coin());
        if x.var() != y.var() {
            cnf.add_clause(&[!x, y]);
            cnf.add_clause(&[x, !y]);
        }
    }
    cnf
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn random_formulas_every_config(seed in any::<u64>(), binary in any::<bool>()) {
        if rate().is_none() {
            return Ok(());
        }
        let mut rng = SplitMix64::new(seed);
        let cnf = random_formula(&mut rng, 1.5..6.0, 4);
        let mut answers = Vec::new();
        for (name, options) in configs() {
            let (r, _) = solve_checked(&cnf, &options, true, binary)
                .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            answers.push(r);
        }
        prop_assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    }

    #[test]
    fn formulas_with_equivalences_every_config(seed in any::<u64>(), k in 1u32..12) {
        if rate().is_none() {
            return Ok(());
        }
        let mut rng = SplitMix64::new(seed);
        let base = random_formula(&mut rng, 1.0..4.5, 4);
        let cnf = with_equivalences(base, k, &mut rng);
        let mut answers = Vec::new();
        for (name, options) in configs() {
            let (r, _) = solve_checked(&cnf, &options, true, seed % 2 == 0)
                .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            answers.push(r);
        }
        prop_assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    }

    #[test]
    fn parity_and_tseitin_every_config(n in 2u32..22, seed in any::<u64>(), odd in any::<bool>()) {
        if rate().is_none() {
            return Ok(());
        }
        let formulas = [parity_chains(n, seed), tseitin(3 + n / 2, n / 3, odd, seed)];
        for (i, cnf) in formulas.iter().enumerate() {
            for (name, options) in configs() {
                let (r, _) = solve_checked(cnf, &options, true, seed % 2 == 0)
                    .map_err(|e| TestCaseError::fail(format!("formula {i}, {name}: {e}")))?;
                let expected = if i == 0 || odd { SolveResult::Unsat } else { SolveResult::Sat };
                prop_assert_eq!(r, expected, "formula {}, {}", i, name);
            }
        }
    }

    #[test]
    fn planted_formulas_every_config(vars in 5u32..120, ratio in 1.0f64..6.0, seed in any::<u64>()) {
        if rate().is_none() {
            return Ok(());
        }
        let (cnf, _) = planted_3sat(vars, (vars as f64 * ratio) as usize, seed);
        for (name, options) in configs() {
            let (r, _) = solve_checked(&cnf, &options, false, false)
                .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            prop_assert_eq!(r, SolveResult::Sat, "{}", name);
        }
    }
}

#[test]
fn techniques_do_work_and_proofs_verify_on_harder_formulas() {
    if rate().is_none() {
        return;
    }
    // Formulas with thousands of conflicts, so that rounds run during the search too.
    let mut total = Stats::default();
    let formulas = [
        pigeonhole(6, 5),
        parity_chains(24, 3),
        tseitin(12, 5, true, 9),
        random_ksat(120, 512, 3, 4),
        random_ksat(150, 640, 3, 5),
        with_failed_literals(random_ksat(80, 300, 3, 6), 10),
        with_equivalences(random_ksat(120, 480, 3, 7), 30, &mut SplitMix64::new(7)),
    ];
    for (i, cnf) in formulas.iter().enumerate() {
        for (name, options) in configs() {
            let (_, stats) = solve_checked(cnf, &options, true, i % 2 == 0)
                .unwrap_or_else(|e| panic!("formula {i}, {name}: {e}"));
            if name == "off" {
                assert_eq!(stats.inprocessings, 0);
            }
            total.eliminated += stats.eliminated;
            total.subsumed += stats.subsumed;
            total.strengthened += stats.strengthened;
            total.inprocessings += stats.inprocessings;
            total.failed_literals += stats.failed_literals;
            total.vivified += stats.vivified;
            total.rephases += stats.rephases;
            total.reductions += stats.reductions;
            total.substituted += stats.substituted;
            total.chronological += stats.chronological;
        }
    }
    eprintln!("{total:?}");
    assert!(total.eliminated > 0 && total.subsumed > 0 && total.strengthened > 0);
    assert!(total.failed_literals > 0 && total.vivified > 0);
    assert!(total.rephases > 0 && total.reductions > 0 && total.substituted > 0);
    assert!(total.chronological > 0);
    assert!(total.inprocessings > formulas.len() as u64 * 4);
}

/// A fresh solver's answer to `cnf` plus the assumptions as units.
fn answer_with_units(cnf: &Cnf, assumptions: &[Lit]) -> SolveResult {
    let mut s = CdclSolver::with_options(Options {
        inprocess: false,
        ..eager()
    });
    s.add_cnf(cnf);
    if assumptions.iter().all(|&a| s.add_clause(&[a])) {
        s.solve()
    } else {
        SolveResult::Unsat
    }
}

#[test]
fn frozen_variables_are_never_eliminated_and_assumptions_stay_right() {
    let mut rng = SplitMix64::new(1234);
    let (mut restored, mut eliminated) = (0, 0);
    for case in 0..300 {
        let mut cnf = random_formula(&mut rng, 1.5..6.0, 4);
        if case % 3 == 1 {
            cnf = with_equivalences(cnf, 4, &mut rng);
        }
        let n = cnf.num_vars();
        let options = if case % 2 == 0 {
            eager()
        } else {
            Options {
                inprocess_interval: 10,
                ..eager()
            }
        };
        let mut s = CdclSolver::with_options(options);
        s.add_cnf(&cnf);
        let frozen: Vec<Var> = (0..n).filter(|_| rng.below(3) == 0).map(Var::new).collect();
        for &v in &frozen {
            s.freeze(v);
        }
        for call in 0..6 {
            // Assumptions over frozen variables mostly, now and then over any variable
            // (which may have been eliminated by an earlier call and must come back).
            let assumptions: Vec<Lit> = (0..rng.below(4))
                .map(|_| {
                    let v = if call % 3 == 2 || frozen.is_empty() {
                        Var::new(rng.below(n as u64) as u32)
                    } else {
                        frozen[rng.below(frozen.len() as u64) as usize]
                    };
                    v.lit(rng.coin())
                })
                .collect();
            let got = s.solve_with(&assumptions);
            for &v in &frozen {
                assert!(
                    !s.is_eliminated(v),
                    "case {case}: frozen {v} was eliminated"
                );
            }
            // (Once the clauses alone are UNSAT, nothing is restored any more.)
            for a in assumptions.iter().filter(|_| s.is_ok()) {
                assert!(
                    !s.is_eliminated(a.var()),
                    "case {case}: assumption eliminated"
                );
            }
            eliminated += s.num_eliminated();
            assert_eq!(
                got,
                answer_with_units(&cnf, &assumptions),
                "case {case} call {call}"
            );
            match got {
                SolveResult::Sat => {
                    check_model(&cnf, &s.model().unwrap()).unwrap();
                    assert!(assumptions.iter().all(|&a| s.value(a) == Some(true)));
                }
                SolveResult::Unsat => {
                    let failed = s.failed_assumptions().to_vec();
                    assert!(failed.iter().all(|f| assumptions.contains(f)));
                    assert_eq!(answer_with_units(&cnf, &failed), SolveResult::Unsat);
                }
                SolveResult::Unknown => unreachable!(),
            }
        }
        restored += s.stats().restored;
    }
    eprintln!("{eliminated} eliminated (summed over calls), {restored} restored");
    assert!(eliminated > 100, "elimination hardly ran: {eliminated}");
    assert!(
        restored > 0,
        "no assumption ever needed a restored variable"
    );
}

#[test]
fn clauses_added_after_elimination_restore_their_variables() {
    let mut rng = SplitMix64::new(99);
    let mut restored = 0;
    for case in 0..300 {
        let mut cnf = random_formula(&mut rng, 1.5..6.0, 4);
        if case % 3 == 1 {
            cnf = with_equivalences(cnf, 4, &mut rng);
        }
        let n = cnf.num_vars();
        let mut s = CdclSolver::with_options(eager());
        s.add_cnf(&cnf);
        for round in 0..5 {
            let got = s.solve();
            let expected = answer_with_units(&cnf, &[]);
            assert_eq!(got, expected, "case {case} round {round}");
            if got == SolveResult::Sat {
                check_model(&cnf, &s.model().unwrap()).unwrap();
            } else {
                break;
            }
            // New clauses preferably over eliminated variables.
            let elim: Vec<Var> = (0..n)
                .map(Var::new)
                .filter(|&v| s.is_eliminated(v))
                .collect();
            for _ in 0..1 + rng.below(3) {
                let len = 1 + rng.below(3) as usize;
                let clause: Vec<Lit> = (0..len)
                    .map(|i| {
                        let v = if i == 0 && !elim.is_empty() {
                            elim[rng.below(elim.len() as u64) as usize]
                        } else {
                            Var::new(rng.below(n as u64) as u32)
                        };
                        v.lit(rng.coin())
                    })
                    .collect();
                cnf.add_clause(&clause);
                s.add_clause(&clause);
            }
        }
        restored += s.stats().restored;
    }
    assert!(restored > 50, "only {restored} restorations");
}

/// An external solver's answer from its exit code (10 SAT, 20 UNSAT). Run without
/// `LD_LIBRARY_PATH`: under `cargo test --features rustsat-solvers` it names the RustSAT
/// build's own `libminisat.so.2`, which the system's minisat would load in place of its
/// own (and then answer INDETERMINATE, or grow without bound), as bench's `main` takes off
/// for the solvers it runs.
fn external(solver: &str, args: &[&str], input: &Path) -> SolveResult {
    let status = Command::new(solver)
        .env_remove("LD_LIBRARY_PATH")
        .args(args)
        .arg(input)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {solver}: {e}"))
        .status;
    match status.code() {
        Some(10) => SolveResult::Sat,
        Some(20) => SolveResult::Unsat,
        other => panic!("{solver} exited with {other:?} on {}", input.display()),
    }
}

#[test]
fn differential_against_minisat_and_cadical() {
    if !crate::support::external::require_all(&["minisat", "cadical"]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("f.cnf");
    let mut rng = SplitMix64::new(20_261_123);
    let configs = configs();
    let mut counts = [0; 2];
    for case in 0..240u64 {
        let cnf = match case % 4 {
            0 | 1 => random_formula(&mut rng, 1.5..6.0, 4),
            2 => tseitin(
                4 + rng.below(8) as u32,
                rng.below(6) as u32,
                rng.coin(),
                case,
            ),
            _ => {
                let vars = 20 + rng.below(60) as u32;
                random_ksat(
                    vars,
                    (vars as f64 * (3.5 + rng.next_f64())) as usize,
                    3,
                    case,
                )
            }
        };
        write_cnf(std::fs::File::create(&input).unwrap(), &cnf, &[]).unwrap();
        let minisat = external("/usr/bin/minisat", &["-verb=0"], &input);
        let cadical = external("/usr/bin/cadical", &["-q", "-n"], &input);
        assert_eq!(
            minisat, cadical,
            "case {case}: minisat and cadical disagree"
        );
        let (name, options) = &configs[case as usize % configs.len()];
        let (got, _) = solve_checked(&cnf, options, false, false)
            .unwrap_or_else(|e| panic!("case {case}, {name}: {e}"));
        assert_eq!(got, minisat, "case {case}, {name}");
        counts[usize::from(got == SolveResult::Unsat)] += 1;
    }
    assert!(counts[0] > 50 && counts[1] > 50, "unbalanced: {counts:?}");
}

/// Enumerates every model by blocking each one found, as `--count` does: with a plain
/// solver whose blocking clauses mention eliminated variables (they are restored), and
/// with native's session (`bench run`'s puzzle mode), whose blocking clauses sit behind
/// an activation literal that each call assumes. Both must find every model once.
#[test]
fn model_enumeration_with_blocking_clauses_counts_every_model() {
    use bench::solver::{Limits, SolverConfig, Status, by_name};
    let native = by_name("native", &SolverConfig::default()).unwrap();
    let mut rng = SplitMix64::new(2026);
    for case in 0..120 {
        let cnf = loop {
            let f = random_formula(&mut rng, 1.5..6.0, 4);
            if f.num_vars() <= 14 {
                break f;
            }
        };
        let n = cnf.num_vars();
        let expected = brute_force_count(&cnf);
        let block = |model: &dyn Fn(Var) -> bool| -> Vec<Lit> {
            (0..n)
                .map(|v| Var::new(v).lit(!model(Var::new(v))))
                .collect()
        };

        let mut s = CdclSolver::with_options(Options {
            inprocess_interval: 5,
            ..eager()
        });
        s.add_cnf(&cnf);
        let mut count = 0;
        while s.solve() == SolveResult::Sat {
            check_model(&cnf, &s.model().unwrap()).unwrap();
            count += 1;
            assert!(count <= expected, "case {case}: a model found twice");
            let clause = block(&|v| s.value(v.pos()) == Some(true));
            s.add_clause(&clause);
        }
        assert_eq!(count, expected, "case {case}: plain solver");

        let mut session = native.session(case + 1).unwrap();
        session.ensure_vars(n);
        for c in cnf.clauses() {
            session.add_clause(c);
        }
        let act = session.new_var();
        let mut count = 0;
        loop {
            let out = session.solve(&[act.pos()], &Limits::default());
            if out.status != Status::Sat {
                assert_eq!(out.status, Status::Unsat, "case {case}");
                break;
            }
            let full = out.model.unwrap();
            // The activation variable is the session's, not the formula's.
            let model =
                Model::from_values((0..n).map(|v| full.var_value(Var::new(v)) == Some(true)));
            check_model(&cnf, &model).unwrap();
            count += 1;
            assert!(
                count <= expected,
                "case {case}: session found a model twice"
            );
            let mut clause = block(&|v| model.var_value(v) == Some(true));
            clause.push(act.neg());
            session.add_clause(&clause);
        }
        assert_eq!(count, expected, "case {case}: session");
    }
}

#[test]
fn a_literal_equivalent_to_its_negation_is_unsat_with_a_verified_proof() {
    if rate().is_none() {
        return;
    }
    // a → b → ¬a and ¬a → c → a: a ≡ ¬a through binary clauses alone, plus a few clauses
    // over other variables; substitution finds it (it runs before elimination; no probing).
    let mut cnf = random_ksat(30, 60, 3, 11);
    let n = cnf.num_vars();
    let (a, b, c) = (
        Var::new(n).pos(),
        Var::new(n + 1).pos(),
        Var::new(n + 2).pos(),
    );
    for clause in [[!a, b], [!b, !a], [a, c], [!c, a]] {
        cnf.add_clause(&clause);
    }
    let options = Options {
        subsume: false,
        probe: false,
        vivify: false,
        ..eager()
    };
    for binary in [false, true] {
        let (r, stats) = solve_checked(&cnf, &options, true, binary).unwrap();
        assert_eq!(r, SolveResult::Unsat);
        assert_eq!(stats.conflicts, 0, "found before any search");
    }
}
