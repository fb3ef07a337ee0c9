//! The self-describing first line of every DIMACS file bench writes:
//! `c bench kind=sudoku side=9 box=3 encoding=extended amo=pairwise givens=0004000…`.
//!
//! Keys and values, no spaces inside values, so `bench solve` and `bench check` can decode
//! a model back into grids without the puzzle file. `givens` is the first board row-major in
//! the line symbols (`0` = blank) when the side is at most 61, else integers joined by
//! `,`; a pair adds `givens2` for the second board.

use std::collections::BTreeMap;

use super::{Amo, EncodeOptions, Encoding};
use crate::puzzle::symbols::{MAX_SYMBOL_VALUE, symbol_value, value_symbol};
use crate::puzzle::{Grid, Kind, Puzzle};

/// What the `c bench` line says: the puzzle (its givens) and how it was encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchHeader {
    /// The puzzle with its givens.
    pub puzzle: Puzzle,
    /// The encoding.
    pub opts: EncodeOptions,
}

fn board_token(grid: &Grid) -> String {
    if grid.side() <= MAX_SYMBOL_VALUE as usize {
        grid.cells()
            .iter()
            .map(|&v| value_symbol(v).expect("value within side"))
            .collect()
    } else {
        grid.cells()
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn parse_board(side: usize, token: &str) -> Result<Grid, String> {
    let cells: Vec<u16> = if side <= MAX_SYMBOL_VALUE as usize {
        token
            .chars()
            .map(|c| symbol_value(c).ok_or_else(|| format!("`{c}` is not a symbol")))
            .collect::<Result<_, _>>()?
    } else {
        token
            .split(',')
            .map(|t| t.parse().map_err(|_| format!("`{t}` is not a value")))
            .collect::<Result<_, _>>()?
    };
    let len = cells.len();
    Grid::from_cells(side, cells).ok_or_else(|| {
        format!("{len} cells with values up to {side} do not make a {side}×{side} board")
    })
}

impl BenchHeader {
    /// The comment text (without the leading `c `).
    pub fn to_comment(&self) -> String {
        let p = &self.puzzle;
        let mut s = format!("bench kind={} side={}", p.kind(), p.side());
        if let Some(k) = p.box_size() {
            s += &format!(" box={k}");
        }
        s += &format!(
            " encoding={} amo={}",
            self.opts.encoding,
            self.opts.amo.as_str()
        );
        s += &format!(" givens={}", board_token(&p.boards()[0]));
        if let Some(second) = p.boards().get(1) {
            s += &format!(" givens2={}", board_token(second));
        }
        s
    }

    /// Reads the comment text back (with or without the leading `c `).
    pub fn parse(text: &str) -> Result<BenchHeader, String> {
        let text = text.strip_prefix("c ").unwrap_or(text);
        let mut words = text.split_ascii_whitespace();
        if words.next() != Some("bench") {
            return Err("not a `c bench` line".into());
        }
        let fields: BTreeMap<&str, &str> = words.filter_map(|w| w.split_once('=')).collect();
        let get = |k: &str| {
            fields
                .get(k)
                .copied()
                .ok_or_else(|| format!("the bench line has no `{k}=`"))
        };
        let kind = Kind::parse(get("kind")?).ok_or("unknown kind")?;
        let side: usize = get("side")?.parse().map_err(|_| "bad side")?;
        let encoding = Encoding::parse(get("encoding")?).ok_or("unknown encoding")?;
        let amo = Amo::parse(get("amo")?).ok_or("unknown amo")?;
        let mut boards = vec![parse_board(side, get("givens")?)?];
        if kind == Kind::Pair {
            boards.push(parse_board(side, get("givens2")?)?);
        }
        let puzzle = Puzzle::new(kind, boards).map_err(|e| e.to_string())?;
        Ok(BenchHeader {
            puzzle,
            opts: EncodeOptions { encoding, amo },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut p = Puzzle::empty(Kind::Pair, 4).unwrap();
        p.boards_mut()[0].set(0, 0, 3);
        p.boards_mut()[1].set(3, 3, 4);
        let h = BenchHeader {
            puzzle: p,
            opts: EncodeOptions {
                encoding: Encoding::Pruned,
                amo: Amo::Sequential,
            },
        };
        let text = h.to_comment();
        assert_eq!(
            text,
            "bench kind=pair side=4 box=2 encoding=pruned amo=sequential givens=3000000000000000 givens2=0000000000000004"
        );
        assert_eq!(BenchHeader::parse(&text).unwrap(), h);
        let mut big = Puzzle::empty(Kind::Latin, 70).unwrap();
        big.boards_mut()[0].set(1, 1, 70);
        let h = BenchHeader {
            puzzle: big,
            opts: EncodeOptions::default(),
        };
        assert_eq!(BenchHeader::parse(&h.to_comment()).unwrap(), h);
    }
}
