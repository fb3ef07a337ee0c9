//! A planning lower bound: the Gripper domain of the planning competitions (a robot with
//! two grippers carries `balls` balls from room A to room B) as a SAT-planning formula of
//! a given number of steps, one action a step (sequential plans), with preconditions,
//! effects and explanatory frame axioms. The shortest plan takes `3·balls − 1` steps for
//! an even number of balls and `3·balls` for an odd one (pick two, move, drop two, move
//! back); asked for one step fewer the formula is unsatisfiable, and proving it means
//! ruling out every interleaving of the interchangeable balls and grippers, as a planner
//! does when it proves its plan optimal (the competitions' `*_lb_*` instances).
//!
//! Variables per time point: where the robot is, and where each ball is (room A, room B,
//! gripper 0 or gripper 1: exactly one); per step: move, or pick/drop ball b with gripper g
//! in room r (at most one of them).

use crate::cnf::{ClauseSink, Cnf, Lit, Var};

/// The length of the shortest plan for `balls` balls.
pub fn gripper_optimum(balls: usize) -> usize {
    if balls.is_multiple_of(2) {
        3 * balls - 1
    } else {
        3 * balls
    }
}

/// Gripper with `balls` balls and a plan of `steps` steps (unsatisfiable below
/// [`gripper_optimum`], satisfiable from it on).
pub fn gripper(balls: usize, steps: usize) -> Cnf {
    let n = balls;
    let mut next = 0u32;
    let mut fresh = |count: usize| -> Vec<Lit> {
        let v: Vec<Lit> = (0..count)
            .map(|i| Var::new(next + i as u32).pos())
            .collect();
        next += count as u32;
        v
    };
    // robot[t]: the robot is in room A at time t. loc[t][b*4 + l]: ball b is at l
    // (0 room A, 1 room B, 2 + g gripper g).
    let robot = fresh(steps + 1);
    let loc: Vec<Vec<Lit>> = (0..=steps).map(|_| fresh(4 * n)).collect();
    // Actions of step t: mv[t]; act[t][((b*2 + g)*2 + r)*2 + d]: d = 0 pick, 1 drop, of
    // ball b with gripper g in room r.
    let mv = fresh(steps);
    let act: Vec<Vec<Lit>> = (0..steps).map(|_| fresh(8 * n)).collect();
    let a =
        |t: usize, b: usize, g: usize, r: usize, d: usize| act[t][((b * 2 + g) * 2 + r) * 2 + d];
    let in_room = |t: usize, r: usize| if r == 0 { robot[t] } else { !robot[t] };
    let mut cnf = Cnf::new(next);
    for at_t in &loc {
        for l in at_t.chunks_exact(4) {
            cnf.add_clause(l);
            for i in 0..4 {
                for j in i + 1..4 {
                    cnf.add_clause(&[!l[i], !l[j]]);
                }
            }
        }
    }
    for t in 0..steps {
        // At most one action.
        let mut all: Vec<Lit> = act[t].clone();
        all.push(mv[t]);
        for i in 0..all.len() {
            for j in i + 1..all.len() {
                cnf.add_clause(&[!all[i], !all[j]]);
            }
        }
        // Moving flips the room; the room changes only by moving.
        cnf.add_clause(&[!mv[t], robot[t], robot[t + 1]]);
        cnf.add_clause(&[!mv[t], !robot[t], !robot[t + 1]]);
        cnf.add_clause(&[mv[t], robot[t], !robot[t + 1]]);
        cnf.add_clause(&[mv[t], !robot[t], robot[t + 1]]);
        for b in 0..n {
            for g in 0..2 {
                for r in 0..2 {
                    let pick = a(t, b, g, r, 0);
                    let drop = a(t, b, g, r, 1);
                    // Pick: robot and ball in room r, gripper g empty; then ball in g.
                    cnf.add_clause(&[!pick, in_room(t, r)]);
                    cnf.add_clause(&[!pick, loc[t][4 * b + r]]);
                    for other in 0..n {
                        cnf.add_clause(&[!pick, !loc[t][4 * other + 2 + g]]);
                    }
                    cnf.add_clause(&[!pick, loc[t + 1][4 * b + 2 + g]]);
                    // Drop: robot in room r, ball in g; then ball in room r.
                    cnf.add_clause(&[!drop, in_room(t, r)]);
                    cnf.add_clause(&[!drop, loc[t][4 * b + 2 + g]]);
                    cnf.add_clause(&[!drop, loc[t + 1][4 * b + r]]);
                }
            }
            // Frame axioms: a ball leaves a place, or arrives at one, only by an action.
            for l in 0..4 {
                let (leave, arrive): (Vec<Lit>, Vec<Lit>) = if l < 2 {
                    (
                        (0..2).map(|g| a(t, b, g, l, 0)).collect(),
                        (0..2).map(|g| a(t, b, g, l, 1)).collect(),
                    )
                } else {
                    (
                        (0..2).map(|r| a(t, b, l - 2, r, 1)).collect(),
                        (0..2).map(|r| a(t, b, l - 2, r, 0)).collect(),
                    )
                };
                let mut c = vec![!loc[t][4 * b + l], loc[t + 1][4 * b + l]];
                c.extend(leave);
                cnf.add_clause(&c);
                let mut c = vec![loc[t][4 * b + l], !loc[t + 1][4 * b + l]];
                c.extend(arrive);
                cnf.add_clause(&c);
            }
        }
    }
    // Start: robot and balls in room A (grippers empty); goal: every ball in room B.
    cnf.add_clause(&[robot[0]]);
    for b in 0..n {
        cnf.add_clause(&[loc[0][4 * b]]);
        cnf.add_clause(&[loc[steps][4 * b + 1]]);
    }
    cnf
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::cdcl::{CdclSolver, SolveResult};

    /// The optimum is a plan, one step fewer is none.
    #[test]
    fn the_optimum_is_tight() {
        for balls in 1..=4 {
            let opt = gripper_optimum(balls);
            for (steps, want) in [(opt, SolveResult::Sat), (opt - 1, SolveResult::Unsat)] {
                let cnf = gripper(balls, steps);
                let mut s = CdclSolver::new();
                s.add_cnf(&cnf);
                assert_eq!(s.solve(), want, "{balls} balls, {steps} steps");
                if want == SolveResult::Sat {
                    let m = s.model().unwrap();
                    assert!(
                        cnf.clauses()
                            .all(|c| c.iter().any(|&l| m.lit_value(l) == Some(true)))
                    );
                }
            }
        }
    }
}
