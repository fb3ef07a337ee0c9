//! The stop condition: an interrupt flag already set, or a deadline already past, ends a
//! search with `Status::Stopped` on every engine; a flag left unset changes nothing.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use common::nine_puzzles;
use gridsolve::{Limit, Shape, Solver, Status, Stop};

fn shapes() -> Vec<(Shape, Vec<u16>)> {
    vec![
        (Shape::sudoku(9).unwrap(), nine_puzzles()[0].clone()),
        (Shape::sudoku(16).unwrap(), vec![0; 256]),
        (Shape::latin(12).unwrap(), vec![0; 144]),
        (Shape::sudoku_pair(9).unwrap(), vec![0; 162]),
    ]
}

#[test]
fn a_set_interrupt_stops_every_engine() {
    let flag = AtomicBool::new(true);
    for (shape, givens) in shapes() {
        let a = Solver::new(shape)
            .solve_until(&givens, Limit::all(), Stop::never().interrupt(&flag))
            .unwrap();
        assert_eq!(a.status, Status::Stopped);
        assert!(!a.complete);
    }
}

#[test]
fn a_past_deadline_stops_every_engine() {
    let past = Instant::now()
        .checked_sub(Duration::from_millis(1))
        .unwrap_or_else(Instant::now);
    for (shape, givens) in shapes() {
        let a = Solver::new(shape)
            .solve_until(&givens, Limit::all(), Stop::never().deadline(past))
            .unwrap();
        assert_eq!(a.status, Status::Stopped);
    }
}

#[test]
fn an_unset_interrupt_and_a_far_deadline_change_nothing() {
    let flag = AtomicBool::new(false);
    let far = Instant::now() + Duration::from_secs(3600);
    let shape = Shape::sudoku(9).unwrap();
    let mut s = Solver::new(shape);
    for p in nine_puzzles() {
        let stop = Stop::never().interrupt(&flag).deadline(far);
        let a = s.solve_until(&p, Limit::at_most(2), stop).unwrap();
        assert_eq!((a.status, a.count), (Status::Solved, 1));
    }
}
