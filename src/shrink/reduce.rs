//! Delta debugging of a formula against a test that says whether a candidate still fails:
//! drop clauses in chunks that halve (every chunk of a size tried before the size halves,
//! down to single clauses), then literals one at a time (a clause keeps at least one),
//! again until neither removes anything, then renumber the variables densely from 1. Each
//! step keeps a candidate only when the test says it still fails, so the result fails as
//! the input did and no single clause or literal of it can go (1-minimal).

/// A formula as the shrinker edits it: the variable count of its `p cnf` line and its
/// clauses in DIMACS literals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Formula {
    /// Variables in the header.
    pub num_vars: u32,
    /// The clauses, in order.
    pub clauses: Vec<Vec<i32>>,
}

impl Formula {
    /// The formula with the same clauses, its variables renumbered 1.. in order of first
    /// occurrence.
    pub fn renumbered(&self) -> Formula {
        let mut map = std::collections::HashMap::new();
        let clauses = self
            .clauses
            .iter()
            .map(|c| {
                c.iter()
                    .map(|&l| {
                        let next = map.len() as i32 + 1;
                        let v = *map.entry(l.unsigned_abs()).or_insert(next);
                        if l < 0 { -v } else { v }
                    })
                    .collect()
            })
            .collect();
        Formula {
            num_vars: map.len() as u32,
            clauses,
        }
    }

    /// The highest variable the clauses use.
    pub fn max_var_used(&self) -> u32 {
        self.clauses
            .iter()
            .flatten()
            .map(|l| l.unsigned_abs())
            .max()
            .unwrap_or(0)
    }
}

/// Shrinks `formula`, which `fails` must accept, keeping only candidates that `fails`
/// accepts too; `progress` hears a line after each pass.
pub fn shrink(
    formula: Formula,
    fails: &mut dyn FnMut(&Formula) -> bool,
    progress: &mut dyn FnMut(&str),
) -> Formula {
    let mut current = formula;
    for round in 1.. {
        let before = (current.clauses.len(), literals(&current));
        current = drop_clauses(current, fails);
        progress(&format!(
            "round {round}: {} clauses after dropping clauses",
            current.clauses.len()
        ));
        current = drop_literals(current, fails);
        progress(&format!(
            "round {round}: {} literals after dropping literals",
            literals(&current)
        ));
        if (current.clauses.len(), literals(&current)) == before {
            break;
        }
    }
    let dense = current.renumbered();
    if dense != current && fails(&dense) {
        return dense;
    }
    let trimmed = Formula {
        num_vars: current.max_var_used(),
        ..current.clone()
    };
    if trimmed.num_vars != current.num_vars && fails(&trimmed) {
        return trimmed;
    }
    current
}

fn literals(f: &Formula) -> usize {
    f.clauses.iter().map(Vec::len).sum()
}

/// Drops clauses in chunks: half the formula, then quarters, …, then one at a time; a
/// size is tried again while it removes something.
fn drop_clauses(mut f: Formula, fails: &mut dyn FnMut(&Formula) -> bool) -> Formula {
    let mut chunk = f.clauses.len().div_ceil(2).max(1);
    loop {
        let mut removed = false;
        let mut start = 0;
        while start < f.clauses.len() {
            let end = (start + chunk).min(f.clauses.len());
            let mut candidate = Formula {
                num_vars: f.num_vars,
                clauses: Vec::with_capacity(f.clauses.len() - (end - start)),
            };
            candidate.clauses.extend_from_slice(&f.clauses[..start]);
            candidate.clauses.extend_from_slice(&f.clauses[end..]);
            if fails(&candidate) {
                f = candidate;
                removed = true;
            } else {
                start = end;
            }
        }
        if !removed {
            if chunk == 1 {
                return f;
            }
            chunk = chunk.div_ceil(2);
        }
    }
}

/// Drops literals one at a time; a clause keeps at least one.
fn drop_literals(mut f: Formula, fails: &mut dyn FnMut(&Formula) -> bool) -> Formula {
    for c in 0..f.clauses.len() {
        let mut j = 0;
        while j < f.clauses[c].len() && f.clauses[c].len() > 1 {
            let mut candidate = f.clone();
            candidate.clauses[c].remove(j);
            if fails(&candidate) {
                f = candidate;
            } else {
                j += 1;
            }
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_pair_of_clauses_is_all_that_is_left() {
        // Fails while clauses `1 2 3` and `-4 5` are both there (as subsets of a clause).
        let mut clauses: Vec<Vec<i32>> = (1..=500).map(|i| vec![i, -(i + 1), i + 2]).collect();
        clauses.insert(137, vec![1, 2, 3, 9]);
        clauses.insert(402, vec![-4, 5, 6]);
        let formula = Formula {
            num_vars: 600,
            clauses,
        };
        let has = |f: &Formula, want: &[i32]| {
            f.clauses.iter().any(|c| want.iter().all(|l| c.contains(l)))
        };
        let mut tests = 0;
        let mut fails = |f: &Formula| {
            tests += 1;
            has(f, &[1, 2, 3]) && has(f, &[-4, 5])
        };
        let mut small = shrink(formula, &mut fails, &mut |_| {});
        // Variables 1-5 (the pair may come from other clauses that hold it).
        small.clauses.sort();
        assert_eq!(small.clauses, vec![vec![-4, 5], vec![1, 2, 3]]);
        assert_eq!(small.num_vars, 5);
        assert!(tests < 200, "{tests} tests");
    }

    #[test]
    fn variables_are_renumbered_when_the_failure_survives_it() {
        let formula = Formula {
            num_vars: 100,
            clauses: vec![vec![40, -70], vec![7], vec![-70, 99]],
        };
        // Fails while some clause has two literals.
        let mut fails = |f: &Formula| f.clauses.iter().any(|c| c.len() >= 2);
        let small = shrink(formula, &mut fails, &mut |_| {});
        assert_eq!(small.clauses.len(), 1);
        assert_eq!(small.num_vars, 2);
        assert_eq!(small.clauses[0].len(), 2);
    }
}
