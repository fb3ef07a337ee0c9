//! Gate-aware bounded variable elimination in `native` (option `elim_gates`): random
//! circuits of AND, OR, XOR, if-then-else and equivalence gates (Tseitin-encoded, so that
//! elimination finds gate definitions), under random constraints and as miters of two
//! differently built copies. Every model is checked against the ORIGINAL formula (the
//! reconstruction of variables eliminated against a gate), every UNSAT proof verified by
//! `rate`, answers compared with gates off and with simplification off, and eliminated
//! variables brought back by later clauses and assumptions.

use crate::support::native::{rate, solve_checked};

use bench::check::check_model;
use bench::cnf::{ClauseSink, Cnf, Lit, Var};
use bench::rng::SplitMix64;
use bench::solver::cdcl::{CdclSolver, Options, SolveResult};
use proptest::prelude::*;

/// A Tseitin encoding under construction: fresh variables for gate outputs.
struct Circuit {
    cnf: Cnf,
    next: u32,
}

impl Circuit {
    fn new(inputs: u32) -> Circuit {
        Circuit {
            cnf: Cnf::new(inputs),
            next: inputs,
        }
    }

    fn fresh(&mut self) -> Lit {
        self.next += 1;
        self.cnf.ensure_vars(self.next);
        Var::new(self.next - 1).pos()
    }

    fn and(&mut self, ins: &[Lit]) -> Lit {
        let x = self.fresh();
        for &a in ins {
            self.cnf.add_clause(&[!x, a]);
        }
        let mut long: Vec<Lit> = ins.iter().map(|&a| !a).collect();
        long.push(x);
        self.cnf.add_clause(&long);
        x
    }

    fn or(&mut self, ins: &[Lit]) -> Lit {
        let negated: Vec<Lit> = ins.iter().map(|&a| !a).collect();
        !self.and(&negated)
    }

    fn xor(&mut self, ins: &[Lit]) -> Lit {
        let x = self.fresh();
        let mut all = ins.to_vec();
        all.push(x);
        // Forbid every assignment of odd parity of (ins, x) being true... i.e. x = ⊕ ins:
        // the clauses falsified exactly by the assignments where x ≠ ⊕ ins.
        for bits in 0u32..1 << all.len() {
            if bits.count_ones() % 2 == 1 {
                let clause: Vec<Lit> = all
                    .iter()
                    .enumerate()
                    .map(|(k, &l)| if bits >> k & 1 == 1 { !l } else { l })
                    .collect();
                self.cnf.add_clause(&clause);
            }
        }
        x
    }

    fn ite(&mut self, c: Lit, t: Lit, e: Lit) -> Lit {
        let x = self.fresh();
        self.cnf.add_clause(&[!x, !c, t]);
        self.cnf.add_clause(&[!x, c, e]);
        self.cnf.add_clause(&[x, !c, !t]);
        self.cnf.add_clause(&[x, c, !e]);
        x
    }

    fn equiv(&mut self, a: Lit) -> Lit {
        let x = self.fresh();
        self.cnf.add_clause(&[!x, a]);
        self.cnf.add_clause(&[x, !a]);
        x
    }
}

/// One random gate: its kind and its input indices (into the signals so far) and signs.
#[derive(Clone, Debug)]
struct GateSpec {
    kind: u64,
    ins: Vec<(usize, bool)>,
}

/// A random netlist of `gates` gates over `inputs` inputs, each gate reading earlier
/// signals.
fn random_netlist(rng: &mut SplitMix64, inputs: u32, gates: u32) -> Vec<GateSpec> {
    (0..gates as usize)
        .map(|g| {
            let signals = inputs as usize + g;
            let kind = rng.below(5);
            let arity = match kind {
                0 | 1 => 2 + rng.below(3) as usize,
                2 => 2 + rng.below(2) as usize,
                3 => 3,
                _ => 1,
            };
            let mut ins: Vec<(usize, bool)> = Vec::new();
            while ins.len() < arity.min(signals) {
                let s = rng.below(signals as u64) as usize;
                if ins.iter().all(|&(t, _)| t != s) {
                    ins.push((s, rng.coin()));
                }
            }
            GateSpec { kind, ins }
        })
        .collect()
}

/// Builds `netlist` into `circuit` over `inputs`; `alternative` encodes each gate through
/// others (XOR by AND/OR, AND as a negated OR, ITE by AND/OR), so that two builds make a
/// miter whose halves differ in structure. Returns every signal.
fn build(
    circuit: &mut Circuit,
    inputs: &[Lit],
    netlist: &[GateSpec],
    alternative: bool,
) -> Vec<Lit> {
    let mut signals = inputs.to_vec();
    for g in netlist {
        let ins: Vec<Lit> = g
            .ins
            .iter()
            .map(|&(s, sign)| if sign { signals[s] } else { !signals[s] })
            .collect();
        let out = match (g.kind, ins.len(), alternative) {
            (_, 1, false) => circuit.equiv(ins[0]),
            (_, 1, true) => ins[0],
            (0, _, false) => circuit.and(&ins),
            (0, _, true) | (1, _, false) => {
                if g.kind == 0 {
                    let negated: Vec<Lit> = ins.iter().map(|&a| !a).collect();
                    !circuit.or(&negated)
                } else {
                    circuit.or(&ins)
                }
            }
            (1, _, true) => {
                let negated: Vec<Lit> = ins.iter().map(|&a| !a).collect();
                !circuit.and(&negated)
            }
            (2, _, false) => circuit.xor(&ins),
            (2, _, true) => {
                let mut acc = ins[0];
                for &b in &ins[1..] {
                    let l = circuit.and(&[acc, !b]);
                    let r = circuit.and(&[!acc, b]);
                    acc = circuit.or(&[l, r]);
                }
                acc
            }
            (_, 3, false) => circuit.ite(ins[0], ins[1], ins[2]),
            (_, _, true) if ins.len() == 3 => {
                let l = circuit.and(&[ins[0], ins[1]]);
                let r = circuit.and(&[!ins[0], ins[2]]);
                circuit.or(&[l, r])
            }
            _ => circuit.and(&ins),
        };
        signals.push(out);
    }
    signals
}

/// A random circuit under random constraints: a few clauses of 1–3 signals, mostly over
/// the last gates (SAT and UNSAT both occur).
fn constrained_circuit(seed: u64) -> Cnf {
    let mut rng = SplitMix64::new(seed);
    let inputs = 3 + rng.below(8) as u32;
    let gates = 5 + rng.below(40) as u32;
    let netlist = random_netlist(&mut rng, inputs, gates);
    let mut circuit = Circuit::new(inputs);
    let ins: Vec<Lit> = (0..inputs).map(|v| Var::new(v).pos()).collect();
    let signals = build(&mut circuit, &ins, &netlist, rng.below(4) == 0);
    for _ in 0..1 + rng.below(6) {
        let len = 1 + rng.below(3) as usize;
        let clause: Vec<Lit> = (0..len)
            .map(|_| {
                let from = if rng.coin() { signals.len() / 2 } else { 0 };
                let s = from + rng.below((signals.len() - from) as u64) as usize;
                if rng.coin() { signals[s] } else { !signals[s] }
            })
            .collect();
        circuit.cnf.add_clause(&clause);
    }
    circuit.cnf
}

/// A miter: the same random netlist built twice, plainly and through other gates, over
/// the same inputs, with some output pair asserted different (UNSAT).
fn miter(seed: u64) -> Cnf {
    let mut rng = SplitMix64::new(seed);
    let inputs = 3 + rng.below(6) as u32;
    let gates = 4 + rng.below(25) as u32;
    let netlist = random_netlist(&mut rng, inputs, gates);
    let mut circuit = Circuit::new(inputs);
    let ins: Vec<Lit> = (0..inputs).map(|v| Var::new(v).pos()).collect();
    let a = build(&mut circuit, &ins, &netlist, false);
    let b = build(&mut circuit, &ins, &netlist, true);
    // Some of the last outputs differ: OR of their XORs.
    let outs: Vec<Lit> = (0..3.min(gates as usize))
        .map(|k| {
            let i = a.len() - 1 - k;
            circuit.xor(&[a[i], b[i]])
        })
        .collect();
    circuit.cnf.add_clause(&outs);
    circuit.cnf
}

/// Configurations: elimination alone with gates, with a generous bound (so that most
/// gate variables go), native's defaults with gates on and off, and everything often.
fn configs() -> Vec<(&'static str, Options)> {
    let elim_only = Options {
        subsume: false,
        probe: false,
        vivify: false,
        equiv: false,
        elim_gates: true,
        ..Options::default()
    };
    vec![
        ("off", Options::plain()),
        ("elim+gates", elim_only.clone()),
        (
            "elim+gates, bound 16, no literal bound",
            Options {
                elim_bound: 16,
                elim_lit_bound: false,
                ..elim_only
            },
        ),
        (
            "defaults, gates on",
            Options {
                elim_gates: true,
                ..Options::default()
            },
        ),
        (
            "defaults, gates off",
            Options {
                elim_gates: false,
                ..Options::default()
            },
        ),
        (
            "gates, everything often",
            Options {
                elim_gates: true,
                elim_gate_bound: 8,
                ternary: true,
                inprocess_interval: 20,
                vivify: true,
                vivify_irred: true,
                first_reduce: 40,
                reduce_increment: 20,
                ..Options::default()
            },
        ),
    ]
}

/// Solves `cnf` in every configuration; all must agree (and with `expected` when given).
/// Returns the gate eliminations summed.
fn every_config(
    cnf: &Cnf,
    expected: Option<SolveResult>,
    binary: bool,
) -> Result<u64, TestCaseError> {
    let mut answers = Vec::new();
    let mut gates = 0;
    for (name, options) in configs() {
        let (r, stats) = solve_checked(cnf, &options, true, binary)
            .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
        if let Some(x) = expected {
            prop_assert_eq!(r, x, "{}", name);
        }
        if !options.elim_gates || !options.inprocess {
            prop_assert_eq!(stats.gate_eliminations, 0, "{}", name);
        }
        gates += stats.gate_eliminations;
        answers.push(r);
    }
    prop_assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    Ok(gates)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn constrained_circuits_every_config(seed in any::<u64>(), binary in any::<bool>()) {
        if rate().is_none() {
            return Ok(());
        }
        every_config(&constrained_circuit(seed), None, binary)?;
    }

    #[test]
    fn miters_are_unsat_with_verified_proofs(seed in any::<u64>(), binary in any::<bool>()) {
        if rate().is_none() {
            return Ok(());
        }
        every_config(&miter(seed), Some(SolveResult::Unsat), binary)?;
    }
}

#[test]
fn gates_are_found_and_used_on_circuits() {
    if rate().is_none() {
        return;
    }
    let mut gates = 0;
    for seed in 0..40 {
        gates += every_config(&constrained_circuit(seed), None, seed % 2 == 0).unwrap();
        gates += every_config(&miter(seed), Some(SolveResult::Unsat), seed % 2 == 1).unwrap();
    }
    assert!(gates > 200, "only {gates} gate eliminations");
}

/// A fresh solver's answer to `cnf` plus `assumptions` as units, without simplification.
fn plain_answer(cnf: &Cnf, assumptions: &[Lit]) -> SolveResult {
    let mut s = CdclSolver::with_options(Options::plain());
    s.add_cnf(cnf);
    if assumptions.iter().all(|&a| s.add_clause(&[a])) {
        s.solve()
    } else {
        SolveResult::Unsat
    }
}

#[test]
fn variables_eliminated_against_gates_come_back_for_clauses_and_assumptions() {
    let mut rng = SplitMix64::new(33);
    let (mut restored, mut gates) = (0, 0);
    for case in 0..200 {
        let mut cnf = constrained_circuit(case);
        let n = cnf.num_vars();
        let mut s = CdclSolver::with_options(Options {
            elim_gates: true,
            elim_bound: 4,
            inprocess_interval: 10,
            ..Options::default()
        });
        s.add_cnf(&cnf);
        for call in 0..5 {
            let assumptions: Vec<Lit> = (0..rng.below(3))
                .map(|_| Var::new(rng.below(n as u64) as u32).lit(rng.coin()))
                .collect();
            let got = s.solve_with(&assumptions);
            assert_eq!(
                got,
                plain_answer(&cnf, &assumptions),
                "case {case} call {call}"
            );
            if got == SolveResult::Sat {
                check_model(&cnf, &s.model().unwrap()).unwrap();
                assert!(assumptions.iter().all(|&a| s.value(a) == Some(true)));
            }
            // A clause over an eliminated variable, when there is one.
            let elim: Vec<Var> = (0..n)
                .map(Var::new)
                .filter(|&v| s.is_eliminated(v))
                .collect();
            if let Some(&v) = elim.get(rng.below(elim.len().max(1) as u64) as usize) {
                let w = Var::new(rng.below(n as u64) as u32);
                if w == v {
                    continue;
                }
                let clause = [v.lit(rng.coin()), w.lit(rng.coin())];
                cnf.add_clause(&clause);
                s.add_clause(&clause);
            }
        }
        restored += s.stats().restored;
        gates += s.stats().gate_eliminations;
    }
    assert!(
        gates > 100 && restored > 20,
        "{gates} gate eliminations, {restored} restored"
    );
}
