//! The paired statistics on paper: the pairs and the contributions as [`Table`]s (drawn by
//! `summary.md` and `index.html` alike), and for the page, the matrix of pairs, one row and
//! one column per configuration, each cell read from the row's side, significant
//! differences shaded.

use std::fmt::Write;

use maud::{Markup, html};

use crate::report::stats::contribution::Contribution;
use crate::report::stats::{ALPHA, Pair, Statistics};
use crate::report::table::{Align, Cell, Exporter, Html, Markdown, Table, markdown_text, seconds};

use Align::{Left, Right};

/// Seconds with a sign.
fn signed(v: f64) -> String {
    if v < 0.0 {
        format!("-{}", seconds(-v))
    } else {
        seconds(v)
    }
}

/// A p-value: four decimals, or two significant digits below 0.0001; one too small for a
/// double (it underflowed to 0) is shown as below the least normal double.
pub fn p_value(p: Option<f64>) -> String {
    match p {
        None => "–".into(),
        Some(p) if p < f64::MIN_POSITIVE => "< 2.2e-308".into(),
        Some(p) if p < 1e-4 => format!("{p:.1e}"),
        Some(p) => format!("{p:.4}"),
    }
}

/// The section's explanation.
fn note(s: &Statistics) -> String {
    format!(
        "{}. Per-instance PAR-2: the time if solved, else twice the timeout, over the \
         instances both ran; Δ = first − second (below 0: the first is faster), with its \
         {:.0} % {}. n ≠ 0: the non-zero differences the test ranks; W = min(R⁺, R⁻).",
        crate::report::stats::TEST,
        s.confidence * 100.0,
        s.interval_method
    )
}

/// Every pair, one row each.
pub fn pairs_table(s: &Statistics) -> Table {
    let columns = vec![
        ("first", Left),
        ("second", Left),
        ("instances", Right),
        ("first wins", Right),
        ("second wins", Right),
        ("ties", Right),
        ("PAR-2 first (s)", Right),
        ("PAR-2 second (s)", Right),
        ("Δ PAR-2 (s)", Right),
        ("interval (s)", Left),
        ("n ≠ 0", Right),
        ("W", Right),
        ("method", Left),
        ("p", Right),
        ("p (Holm)", Right),
    ];
    let rows = s
        .pairs
        .iter()
        .map(|p| {
            vec![
                Cell::Text(s.label(p.a)),
                Cell::Text(s.label(p.b)),
                Cell::Count(p.instances),
                Cell::Count(p.a_wins),
                Cell::Count(p.b_wins),
                Cell::Count(p.ties),
                Cell::Seconds(p.a_par2),
                Cell::Seconds(p.b_par2),
                Cell::Text(signed(p.par2_difference)),
                Cell::Text(format!(
                    "{} – {}",
                    signed(p.difference_low),
                    signed(p.difference_high)
                )),
                Cell::Count(p.wilcoxon.nonzero),
                Cell::Text(format!("{}", p.wilcoxon.statistic)),
                Cell::Text(p.wilcoxon.method.as_str().into()),
                Cell::Text(p_value(p.wilcoxon.p)),
                Cell::Text(p_value(p.p_holm)),
            ]
        })
        .collect();
    Table {
        columns,
        rows,
        note: across_modes(s),
    }
}

/// The note for pairs that compare two modes (None when no pair does).
fn across_modes(s: &Statistics) -> Option<String> {
    let crossed = s.pairs.iter().filter(|p| s.across_modes(p)).count();
    (crossed > 0).then(|| {
        format!(
            "{crossed} of {} pairs compare two modes (the mode follows each name): their \
             differences include what the modes cost (a child process's start, a session's \
             loaded rules and learnt clauses), not the solvers or encodings alone.",
            s.pairs.len()
        )
    })
}

/// Unique solves and VBS contributions, one row per solver (or solver × encoding).
pub fn contributions_table(contributions: &[Contribution]) -> Table {
    let encodings = contributions.iter().any(|c| c.encoding.is_some());
    let mut columns = vec![("solver", Left)];
    if encodings {
        columns.push(("encoding", Left));
    }
    columns.push(("mode", Left));
    columns.extend([
        ("solved", Right),
        ("unique", Right),
        ("VBS solved without", Right),
        ("VBS loses", Right),
        ("VBS PAR-2 without (s)", Right),
        ("VBS PAR-2 gain (s)", Right),
    ]);
    let rows = contributions
        .iter()
        .map(|c| {
            let mut row = vec![Cell::Text(c.solver.clone())];
            if encodings {
                row.push(Cell::Text(c.encoding.clone().unwrap_or_default()));
            }
            row.push(Cell::Text(c.mode.clone()));
            row.extend([
                Cell::Count(c.solved),
                Cell::Count(c.unique),
                Cell::Count(c.vbs_solved_without),
                Cell::Count(c.vbs_solved_lost),
                Cell::Seconds(c.vbs_par2_without),
                Cell::Seconds(c.vbs_par2_gain),
            ]);
            row
        })
        .collect();
    Table {
        columns,
        rows,
        note: Some(
            "Unique: solved by it and by nothing else. VBS without: the virtual best solver \
             of all the others, over the same instances; its PAR-2 gain is the PAR-2 without \
             minus the PAR-2 with everything."
                .into(),
        ),
    }
}

/// The section of `summary.md`.
pub fn markdown(s: &Statistics) -> String {
    let mut out = String::new();
    if !s.pairs.is_empty() {
        out.push_str("## Paired comparisons\n\n");
        let _ = writeln!(out, "{}\n", markdown_text(&note(s)));
        out += &Markdown.table(&pairs_table(s));
        out.push('\n');
    }
    if s.by_solver.len() > 1 {
        out.push_str("## Unique solves and contributions to the virtual best solver\n\n");
        out += &Markdown.table(&contributions_table(&s.by_solver));
        out.push('\n');
        if !s.by_configuration.is_empty() {
            out += &Markdown.table(&contributions_table(&s.by_configuration));
            out.push('\n');
        }
    }
    out
}

/// A pair read from configuration `row`'s side: (wins, losses, ties, Δ, low, high).
fn from_side(p: &Pair, row: usize) -> (usize, usize, usize, f64, f64, f64) {
    if p.a == row {
        (
            p.a_wins,
            p.b_wins,
            p.ties,
            p.par2_difference,
            p.difference_low,
            p.difference_high,
        )
    } else {
        (
            p.b_wins,
            p.a_wins,
            p.ties,
            -p.par2_difference,
            -p.difference_high,
            -p.difference_low,
        )
    }
}

/// The configurations in groups that share no instance with one another (the connected
/// parts of the pairs: puzzles and DIMACS files of a mixed run apart), each in order, the
/// groups by their first configuration; a configuration in no pair is left out.
fn groups(s: &Statistics) -> Vec<Vec<usize>> {
    let k = s.configurations.len();
    let mut part: Vec<usize> = (0..k).collect();
    fn root(part: &mut [usize], mut i: usize) -> usize {
        while part[i] != i {
            part[i] = part[part[i]];
            i = part[i];
        }
        i
    }
    for p in &s.pairs {
        let (a, b) = (root(&mut part, p.a), root(&mut part, p.b));
        part[a.max(b)] = a.min(b);
    }
    let paired: Vec<bool> = (0..k)
        .map(|i| s.pairs.iter().any(|p| p.a == i || p.b == i))
        .collect();
    let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
    for i in (0..k).filter(|&i| paired[i]) {
        let r = root(&mut part, i);
        match groups.iter_mut().find(|(g, _)| *g == r) {
            Some((_, members)) => members.push(i),
            None => groups.push((r, vec![i])),
        }
    }
    groups.into_iter().map(|(_, members)| members).collect()
}

/// The section of `index.html`: the matrix (one per group of configurations with instances
/// in common), then the pairs and the contributions in full.
pub fn html(s: &Statistics) -> Markup {
    let find = |i: usize, j: usize| s.pairs.iter().find(|p| (p.a, p.b) == (i.min(j), i.max(j)));
    html! {
        @if !s.pairs.is_empty() {
            h2 id="paired" { "Paired comparisons: Wilcoxon signed-rank test" }
            p class="note" { (note(s)) }
            p class="note" {
                "Each cell reads from its row: wins–losses–ties of the row against the column, \
                 the row's PAR-2 minus the column's with its interval, and the Holm-corrected p \
                 (a grey cell: no instance in common). "
                span style="background:#d9f2de;padding:0 4px" { "Green" }
                ": the row is faster, p (Holm) < " (ALPHA) "; "
                span style="background:#f9dcdc;padding:0 4px" { "red" }
                ": slower."
            }
            @if let Some(note) = across_modes(s) { p class="note" { (note) } }
            @let groups = groups(s);
            @if groups.len() > 1 {
                p class="note" {
                    "One matrix for each set of configurations that ran instances in common "
                    "(puzzles and DIMACS files apart)."
                }
            }
            @for group in &groups {
            div style="overflow-x:auto" { table class="matrix" {
                tr {
                    th {}
                    @for &j in group { th { (s.label(j)) } }
                }
                @for &i in group {
                    tr {
                        th { (s.label(i)) }
                        @for &j in group {
                            @if i == j {
                                td style="text-align:center;color:#999" { "—" }
                            } @else if let Some(p) = find(i, j) {
                                @let (w, l, t, d, lo, hi) = from_side(p, i);
                                @let significant = p.p_holm.is_some_and(|q| q < ALPHA);
                                @let shade = if significant && d < 0.0 {
                                    "white-space:nowrap;background:#d9f2de"
                                } else if significant && d > 0.0 {
                                    "white-space:nowrap;background:#f9dcdc"
                                } else {
                                    "white-space:nowrap"
                                };
                                td class="n" style=(shade) {
                                    (w) "–" (l) "–" (t) br;
                                    "Δ " (signed(d)) " s" br;
                                    small { "[" (signed(lo)) ", " (signed(hi)) "]" } br;
                                    "p " (p_value(p.p_holm))
                                }
                            } @else {
                                td style="background:#f6f6f6" title="no common instance" {}
                            }
                        }
                    }
                }
            } }
            }
            details {
                summary { "Every pair in full" }
                (Html.markup(&pairs_table(s)))
            }
        }
        @if s.by_solver.len() > 1 {
            h2 id="contributions" { "Unique solves and contributions to the virtual best solver" }
            (Html.markup(&contributions_table(&s.by_solver)))
            @if !s.by_configuration.is_empty() {
                (Html.markup(&contributions_table(&s.by_configuration)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::p_value;

    #[test]
    fn no_p_value_prints_as_zero() {
        assert_eq!(p_value(Some(0.0)), "< 2.2e-308");
        assert_eq!(p_value(Some(3.0e-12)), "3.0e-12");
        assert_eq!(p_value(Some(0.04321)), "0.0432");
        assert_eq!(p_value(None), "–");
    }

    /// Configurations with no instance in common get matrices of their own: the puzzles'
    /// and the DIMACS files' of a mixed run.
    #[test]
    fn a_mixed_run_has_a_matrix_per_kind() {
        use crate::report::test_rows::full_row;
        let mut rows = Vec::new();
        for i in 0..4 {
            for solver in ["a", "b"] {
                let t = 0.1 * (i + 1) as f64;
                for encoding in ["minimal", "extended"] {
                    rows.push(full_row(&format!("p.txt:{i}"), encoding, solver, "SAT", t));
                }
                rows.push(crate::results::Row {
                    kind: crate::results::InstanceKind::Cnf,
                    ..full_row(&format!("f{i}.cnf"), "dimacs", solver, "UNSAT", t)
                });
            }
        }
        let files =
            crate::report::render_report(&rows, &crate::report::ReportOptions::default()).unwrap();
        let page = files.iter().find(|f| f.name == "index.html").unwrap();
        let page = String::from_utf8_lossy(&page.bytes);
        let matrices: Vec<&str> = page.split("<table class=\"matrix\">").skip(1).collect();
        assert_eq!(matrices.len(), 2, "{page}");
        let heads = |m: &str| m[..m.find("</tr>").unwrap()].matches("<th>").count();
        assert_eq!(
            (heads(matrices[0]), heads(matrices[1])),
            (5, 3),
            "an empty corner each"
        );
        assert!(!matrices[0].contains("dimacs"));
    }
}
