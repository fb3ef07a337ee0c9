//! minisat-lib, glucose-lib and cadical-lib beside two busy loops, on one clause of ten
//! million literals and a pigeonhole formula: each row records at most its timeout plus
//! the 1 s the README promises, wherever the deadline falls (in reading, in loading the
//! long clause as one step, in the library's own preprocessing, or in the search). Run in
//! release by scripts/test.sh (`inprocess_lib::`).

use crate::support::loaded::assert_the_margin_holds_beside_busy_loops;

#[test]
fn library_rows_keep_to_the_promised_margin_beside_busy_loops() {
    assert_the_margin_holds_beside_busy_loops(
        &["minisat-lib", "glucose-lib", "cadical-lib"],
        &[1.0, 12.0],
    );
}
