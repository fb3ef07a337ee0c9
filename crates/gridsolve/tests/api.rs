//! The public API's edges: shapes refused with typed errors, givens of the wrong length or
//! with values out of range refused, and the shape accessors.

use gridsolve::{InputError, Kind, Limit, MAX_SIDE, Shape, ShapeError, Solver};

#[test]
fn shapes_are_checked() {
    assert_eq!(Shape::sudoku(0), Err(ShapeError::ZeroSide));
    assert_eq!(Shape::sudoku(10), Err(ShapeError::NotASquare { side: 10 }));
    assert_eq!(
        Shape::latin(65),
        Err(ShapeError::TooLarge {
            side: 65,
            max: MAX_SIDE
        })
    );
    assert_eq!(
        Shape::sudoku(81),
        Err(ShapeError::TooLarge { side: 81, max: 64 })
    );
    let pair = Shape::sudoku_pair(16).unwrap();
    assert_eq!(
        (
            pair.kind(),
            pair.side(),
            pair.box_side(),
            pair.boards(),
            pair.cells()
        ),
        (Kind::SudokuPair, 16, Some(4), 2, 512)
    );
    assert_eq!(Shape::latin(7).unwrap().box_side(), None);
    assert!(Shape::sudoku(64).is_ok() && Shape::latin(64).is_ok());
}

#[test]
fn givens_are_checked() {
    let mut s = Solver::new(Shape::sudoku(4).unwrap());
    assert_eq!(
        s.solve(&[0; 15], Limit::first()),
        Err(InputError::WrongLength {
            expected: 16,
            got: 15
        })
    );
    let mut g = [0u16; 16];
    g[3] = 5;
    assert_eq!(
        s.solve(&g, Limit::first()),
        Err(InputError::ValueOutOfRange {
            index: 3,
            value: 5,
            side: 4
        })
    );
    let mut nine = Solver::new(Shape::sudoku(9).unwrap());
    let mut g = [0u16; 81];
    g[80] = 10;
    assert!(nine.solve(&g, Limit::first()).is_err());
}
