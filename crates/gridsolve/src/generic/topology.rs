//! The constraint layout of any shape for the generic engine: its units (rows, columns
//! and boxes of each board, as lists of cell indices), each cell's peers (the cells that
//! must hold a different value, including the other board's cell of a pair), and the
//! box–line segments used by locked candidates.

use crate::shape::{Kind, Shape};

/// Units, peers and segments of one shape, built once per solver.
pub(crate) struct Topology {
    /// Values per unit (the side).
    pub n: usize,
    /// Cells in all boards.
    pub cells: usize,
    /// Board count (1 or 2).
    pub boards: usize,
    /// Box side for sudoku kinds, 0 for Latin squares.
    pub k: usize,
    /// The bit set of all values.
    pub full: u64,
    /// Units, flattened: unit `u` is `units[u * n..(u + 1) * n]`.
    pub units: Vec<u32>,
    /// Peers of cell `c`: `peers[peer_start[c]..peer_start[c + 1]]`.
    pub peer_start: Vec<u32>,
    /// Peer lists, flattened.
    pub peers: Vec<u32>,
}

impl Topology {
    /// The layout of `shape`.
    pub(crate) fn new(shape: &Shape) -> Topology {
        let n = shape.side();
        let k = shape.box_side().unwrap_or(0);
        let boards = shape.boards();
        let cells = shape.cells();
        let mut units = Vec::new();
        for b in 0..boards {
            let base = b * n * n;
            for r in 0..n {
                units.extend((0..n).map(|c| (base + r * n + c) as u32));
            }
            for c in 0..n {
                units.extend((0..n).map(|r| (base + r * n + c) as u32));
            }
            if let Some(k) = std::num::NonZeroUsize::new(k) {
                for bx in 0..n {
                    let (r0, c0) = ((bx / k) * k.get(), (bx % k) * k.get());
                    units.extend((0..n).map(|i| (base + (r0 + i / k) * n + c0 + i % k) as u32));
                }
            }
        }
        let (peer_start, peers) = peer_lists(shape, n, k);
        Topology {
            n,
            cells,
            boards,
            k,
            full: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
            units,
            peer_start,
            peers,
        }
    }

    /// The number of units.
    pub(crate) fn unit_count(&self) -> usize {
        self.units.len() / self.n
    }

    /// The cells of unit `u`.
    #[inline]
    pub(crate) fn unit(&self, u: usize) -> &[u32] {
        &self.units[u * self.n..(u + 1) * self.n]
    }

    /// The peers of cell `c`.
    #[inline]
    pub(crate) fn peers_of(&self, c: usize) -> &[u32] {
        &self.peers[self.peer_start[c] as usize..self.peer_start[c + 1] as usize]
    }
}

/// Each cell's peers: same row, column or box of its board, and for a pair the cell at
/// the same place on the other board.
fn peer_lists(shape: &Shape, n: usize, k: usize) -> (Vec<u32>, Vec<u32>) {
    let per_board = n * n;
    let mut start = Vec::with_capacity(shape.cells() + 1);
    let mut peers = Vec::new();
    for b in 0..shape.boards() {
        let base = b * per_board;
        for cell in 0..per_board {
            start.push(peers.len() as u32);
            let (r, c) = (cell / n, cell % n);
            for other in 0..per_board {
                let (r2, c2) = (other / n, other % n);
                let same_box = k > 0 && r / k == r2 / k && c / k == c2 / k;
                if other != cell && (r == r2 || c == c2 || same_box) {
                    peers.push((base + other) as u32);
                }
            }
            if shape.kind() == Kind::SudokuPair {
                peers.push(((1 - b) * per_board + cell) as u32);
            }
        }
    }
    start.push(peers.len() as u32);
    (start, peers)
}
