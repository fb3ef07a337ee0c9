//! The DPLL baseline `dpll`: unit propagation, chronological backtracking, a MOMS-style
//! branching rule, and no learning — the algorithm of Davis, Putnam, Logemann and
//! Loveland (1962) as the seed projects implemented it, kept as a yardstick for `native`.
//!
//! The search keeps an explicit stack of decisions. Propagation uses two watched literals
//! (the same invariant as CDCL, without blockers), so backtracking costs nothing but
//! unassigning the trail. On a conflict the most recent decision not yet flipped is
//! flipped (its other branch is then a forced, not a free, choice); when none is left the
//! formula is unsatisfiable. Branching follows MOMS (maximum occurrences in clauses of
//! minimum size): among the unsatisfied clauses with the fewest unassigned literals, take
//! the variable occurring most often in both signs, and try first the sign occurring more. That scan is linear in the
//! formula, which is fine for a baseline and for puzzles that propagation mostly solves.

use std::sync::atomic::Ordering;

use crate::cnf::{Cnf, Model};
use crate::solver::{Limits, Outcome, Solver, Status};

/// `dpll` as a [`Solver`].
#[derive(Clone, Debug, Default)]
pub struct DpllSolver;

impl Solver for DpllSolver {
    fn name(&self) -> &str {
        "dpll"
    }

    fn in_process(&self) -> bool {
        true
    }

    fn solve(&self, cnf: &Cnf, limits: &Limits) -> Outcome {
        super::measured(limits, || {
            let clocks = super::Clocks::starting_now(limits.timeout, limits.cpu_limit);
            let mut dpll = Dpll::new(cnf);
            let status = dpll.run(limits, clocks);
            let mut outcome = match status {
                Status::Sat => Outcome::sat(Model::from_values(
                    dpll.vals.iter().step_by(2).map(|&v| v == 1),
                )),
                Status::Unknown => {
                    Outcome::stopped_by(limits, clocks.passed().unwrap_or(super::LimitHit::Wall))
                }
                s => Outcome::new(s),
            };
            outcome.stats = vec![
                ("decisions".to_string(), dpll.decisions),
                ("conflicts".to_string(), dpll.conflicts),
                ("propagations".to_string(), dpll.propagations),
            ];
            outcome
        })
    }
}

/// The DPLL search state.
struct Dpll {
    /// Clause literals (codes), one clause after another; the two watches first.
    lits: Vec<u32>,
    /// `starts[i]..starts[i+1]` is clause i.
    starts: Vec<usize>,
    /// `watches[l]`: clauses watching literal code `l`, visited when `l` turns false.
    watches: Vec<Vec<u32>>,
    /// Per literal code: 1 true, -1 false, 0 unassigned.
    vals: Vec<i8>,
    /// Assigned literals (codes) in order; also the propagation queue.
    trail: Vec<u32>,
    /// Open decisions: (trail length before it, literal, true once flipped).
    stack: Vec<(usize, u32, bool)>,
    /// First trail literal not propagated yet.
    qhead: usize,
    /// Unit clauses of the input, asserted before the search.
    units: Vec<u32>,
    /// The input holds an empty clause.
    empty: bool,
    /// Scratch: occurrences of each literal in the shortest open clauses (MOMS).
    score: Vec<u32>,
    /// Decisions made.
    decisions: u64,
    /// Conflicts met.
    conflicts: u64,
    /// Literals propagated.
    propagations: u64,
}

impl Dpll {
    fn new(cnf: &Cnf) -> Dpll {
        let n = cnf.num_vars() as usize;
        let mut d = Dpll {
            lits: Vec::with_capacity(cnf.num_lits()),
            starts: vec![0],
            watches: vec![Vec::new(); 2 * n],
            vals: vec![0; 2 * n],
            trail: Vec::with_capacity(n),
            stack: Vec::new(),
            qhead: 0,
            units: Vec::new(),
            empty: false,
            score: vec![0; 2 * n],
            decisions: 0,
            conflicts: 0,
            propagations: 0,
        };
        for clause in cnf.clauses() {
            let mut c: Vec<u32> = clause.iter().map(|l| l.code() as u32).collect();
            c.sort_unstable();
            c.dedup();
            if c.windows(2).any(|w| w[0] ^ 1 == w[1]) {
                continue; // a tautology constrains nothing
            }
            match c.len() {
                0 => d.empty = true,
                1 => d.units.push(c[0]),
                _ => {
                    let i = (d.starts.len() - 1) as u32;
                    d.watches[c[0] as usize].push(i);
                    d.watches[c[1] as usize].push(i);
                    d.lits.extend_from_slice(&c);
                    d.starts.push(d.lits.len());
                }
            }
        }
        d
    }

    fn assign(&mut self, l: u32) {
        self.vals[l as usize] = 1;
        self.vals[(l ^ 1) as usize] = -1;
        self.trail.push(l);
    }

    /// Unit propagation; false on a conflict.
    fn propagate(&mut self) -> bool {
        while self.qhead < self.trail.len() {
            let false_lit = self.trail[self.qhead] ^ 1;
            self.qhead += 1;
            self.propagations += 1;
            let mut ws = std::mem::take(&mut self.watches[false_lit as usize]);
            let mut i = 0;
            let mut ok = true;
            while i < ws.len() {
                let c = ws[i] as usize;
                let (s, e) = (self.starts[c], self.starts[c + 1]);
                if self.lits[s] == false_lit {
                    self.lits.swap(s, s + 1);
                }
                let first = self.lits[s];
                if self.vals[first as usize] == 1 {
                    i += 1;
                    continue;
                }
                if let Some(k) = (s + 2..e).find(|&k| self.vals[self.lits[k] as usize] != -1) {
                    let l = self.lits[k];
                    self.lits.swap(s + 1, k);
                    self.watches[l as usize].push(c as u32);
                    ws.swap_remove(i);
                    continue;
                }
                i += 1;
                if self.vals[first as usize] == -1 {
                    ok = false;
                    break;
                }
                self.assign(first);
            }
            self.watches[false_lit as usize] = ws;
            if !ok {
                self.qhead = self.trail.len();
                return false;
            }
        }
        true
    }

    /// MOMS: the most frequent literal of the shortest unsatisfied clauses.
    fn pick_branch(&mut self) -> Option<u32> {
        let mut best_len = usize::MAX;
        let mut touched: Vec<u32> = Vec::new();
        for c in 0..self.starts.len() - 1 {
            let clause = &self.lits[self.starts[c]..self.starts[c + 1]];
            if clause.iter().any(|&l| self.vals[l as usize] == 1) {
                continue;
            }
            let open = clause
                .iter()
                .filter(|&&l| self.vals[l as usize] == 0)
                .count();
            if open == 0 || open > best_len {
                continue;
            }
            if open < best_len {
                best_len = open;
                for &l in &touched {
                    self.score[l as usize] = 0;
                }
                touched.clear();
            }
            for &l in clause {
                if self.vals[l as usize] == 0 {
                    if self.score[l as usize] == 0 {
                        touched.push(l);
                    }
                    self.score[l as usize] += 1;
                }
            }
        }
        // Score each variable of those clauses by f(x)·f(¬x) first (balanced variables,
        // Freeman's POSIT rule: both branches shorten clauses), then by f(x) + f(¬x), and
        // try first the literal that satisfies more of them.
        let mut best: Option<(u64, u32)> = None;
        for &l in &touched {
            let (pos, neg) = (
                self.score[(l & !1) as usize] as u64,
                self.score[(l | 1) as usize] as u64,
            );
            let key = ((pos * neg) << 32) + pos + neg;
            let lit = if pos >= neg { l & !1 } else { l | 1 };
            if best.is_none_or(|(k, b)| key > k || (key == k && lit < b)) {
                best = Some((key, lit));
            }
        }
        let best = best.map(|(_, lit)| lit);
        for &l in &touched {
            self.score[l as usize] = 0;
        }
        // Every clause satisfied: give the variables still open any value.
        best.or_else(|| {
            (0..self.vals.len() as u32)
                .step_by(2)
                .find(|&l| self.vals[l as usize] == 0)
        })
    }

    /// Undoes the trail down to `len`.
    fn backtrack(&mut self, len: usize) {
        for &l in &self.trail[len..] {
            self.vals[l as usize] = 0;
            self.vals[(l ^ 1) as usize] = 0;
        }
        self.trail.truncate(len);
        self.qhead = len;
    }

    fn run(&mut self, limits: &Limits, clocks: super::Clocks) -> Status {
        if self.empty {
            return Status::Unsat;
        }
        for i in 0..self.units.len() {
            let u = self.units[i];
            match self.vals[u as usize] {
                0 => self.assign(u),
                -1 => return Status::Unsat,
                _ => {}
            }
        }
        let mut steps = 0u64;
        loop {
            steps += 1;
            if steps.is_multiple_of(64)
                && (clocks.passed().is_some()
                    || limits
                        .interrupt
                        .as_ref()
                        .is_some_and(|f| f.load(Ordering::Relaxed)))
            {
                return Status::Unknown;
            }
            if !self.propagate() {
                self.conflicts += 1;
                // Flip the latest decision whose other branch is still untried.
                loop {
                    match self.stack.pop() {
                        None => return Status::Unsat,
                        Some((len, lit, false)) => {
                            self.backtrack(len);
                            self.stack.push((len, lit ^ 1, true));
                            self.assign(lit ^ 1);
                            break;
                        }
                        Some((_, _, true)) => {}
                    }
                }
                continue;
            }
            match self.pick_branch() {
                None => return Status::Sat,
                Some(l) => {
                    self.decisions += 1;
                    self.stack.push((self.trail.len(), l, false));
                    self.assign(l);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_formulas() {
        let sat =
            Cnf::from_dimacs_clauses(3, &[vec![1, 2], vec![-1, 3], vec![-2, -3], vec![-3, 2, 1]]);
        let out = DpllSolver.solve(&sat, &Limits::default());
        assert_eq!(out.status, Status::Sat);
        assert!(crate::check::check_model(&sat, out.model.as_ref().unwrap()).is_ok());
        let unsat =
            Cnf::from_dimacs_clauses(2, &[vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]]);
        assert_eq!(
            DpllSolver.solve(&unsat, &Limits::default()).status,
            Status::Unsat
        );
        let empty = Cnf::from_dimacs_clauses(1, &[vec![1], vec![]]);
        assert_eq!(
            DpllSolver.solve(&empty, &Limits::default()).status,
            Status::Unsat
        );
        let units = Cnf::from_dimacs_clauses(2, &[vec![1], vec![-1]]);
        assert_eq!(
            DpllSolver.solve(&units, &Limits::default()).status,
            Status::Unsat
        );
    }
}
