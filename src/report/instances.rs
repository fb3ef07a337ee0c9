//! The page's per-instance table: who solved what. One row per instance and encoding, one
//! column per solver, each cell the answer and its time; a dedicated solver, which solves
//! the puzzle under no encoding, has its cell in each encoding row of the instance. A few
//! lines of inline script sort it by any column (times numerically, unsolved runs as
//! PAR-2 counts them) and filter its rows by words typed in a box, with no server and no
//! library. Beyond [`MAX_ROWS`] rows the table shows the first ones and says so, linking
//! [`CSV_NAME`], the whole table written beside the page ([`csv`]).

use maud::{Markup, PreEscaped, html};

use crate::report::outcome::{Answer, Outcome};
use crate::report::rows::Name;
use crate::report::table::seconds;

/// The most rows the page holds (each a few hundred bytes per solver).
pub const MAX_ROWS: usize = 5000;

/// The file beside the page that holds the whole table.
pub const CSV_NAME: &str = "instances.csv";

/// Sorting and filtering: a header click sorts by its column (again: the other way), the
/// box keeps the rows that contain every word typed.
const SCRIPT: &str = r#"(function(){
var t=document.getElementById("instances"),b=t.tBodies[0],f=document.getElementById("instances-filter"),last=-1,dir=1;
function key(c){var v=c.getAttribute("data-v");return v===null?c.textContent:v===""?Infinity:parseFloat(v);}
Array.prototype.forEach.call(t.tHead.rows[0].cells,function(h,i){h.addEventListener("click",function(){
dir=(last===i)?-dir:1;last=i;var rows=Array.prototype.slice.call(b.rows);
rows.sort(function(x,y){var a=key(x.cells[i]),c=key(y.cells[i]);
return dir*(typeof a==="number"?a-c:String(a).localeCompare(String(c),undefined,{numeric:true}));});
rows.forEach(function(r){b.appendChild(r);});});});
f.addEventListener("input",function(){var words=f.value.toLowerCase().split(/\s+/).filter(Boolean);
Array.prototype.forEach.call(b.rows,function(r){var s=r.textContent.toLowerCase();
r.hidden=!words.every(function(w){return s.indexOf(w)>=0;});});});
})();"#;

/// The section's style.
pub const STYLE: &str = "\
#instances th{cursor:pointer;user-select:none}#instances th:hover{background:#e4e4e4}
#instances td.t{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
#instances td.unsolved{color:#8a5a00}#instances td.wrong{color:#c00000;font-weight:bold}
#instances td.none{color:#999}#instances th .mode,#instances .count{font-weight:normal;font-size:12px;color:#555}#instances-filter{font-size:14px;padding:3px 6px;width:24em}";

/// The encoding column of a dedicated solver's outcomes (`run::unit::NO_ENCODING`): it
/// solves the puzzle itself, under no encoding.
pub const DEDICATED_ENCODING: &str = "none";

/// One row of the table: an instance under one encoding, with the outcomes of the
/// instance's dedicated solvers (encoding [`DEDICATED_ENCODING`]) beside the SAT solvers'
/// of that encoding. A dedicated solver's run belongs to the instance, not to an
/// encoding, so its cell stands in every encoding row of the instance; an instance only
/// dedicated solvers ran has one row, of encoding `none`.
#[derive(Clone, Copy, Debug)]
pub struct TableRow<'o> {
    /// The outcomes of the row's encoding.
    own: &'o [Outcome],
    /// The dedicated solvers' outcomes of the instance (empty when `own` holds them).
    dedicated: &'o [Outcome],
}

impl<'o> TableRow<'o> {
    /// The instance id.
    pub fn instance(&self) -> &'static str {
        self.own[0].instance().as_str()
    }

    /// The encoding (`none` for a row of dedicated solvers alone).
    pub fn encoding(&self) -> &'static str {
        self.own[0].encoding().as_str()
    }

    /// The outcome of `solver` in this row, if it ran.
    pub fn of(&self, solver: &str) -> Option<&'o Outcome> {
        self.outcomes().find(|o| o.solver() == solver)
    }

    /// The outcome of `solver` in this row, if it ran (names compare as numbers).
    pub fn of_name(&self, solver: Name) -> Option<&'o Outcome> {
        self.outcomes().find(|o| o.solver() == solver)
    }

    /// Every outcome of the row.
    pub fn outcomes(&self) -> impl Iterator<Item = &'o Outcome> + use<'o> {
        self.own.iter().chain(self.dedicated)
    }

    /// How many of the row's solvers solved it.
    pub fn solved_by(&self) -> usize {
        self.outcomes().filter(|o| o.answer().solved()).count()
    }
}

/// The table's rows (see [`TableRow`]) in file order (`hard.txt:2` before `hard.txt:10`),
/// then by encoding, from `outcomes` ordered by instance, encoding, solver.
pub fn table_rows<'o>(outcomes: &'o [Outcome]) -> Vec<TableRow<'o>> {
    let mut rows: Vec<TableRow> = Vec::new();
    // Names are interned: the same text is one name.
    for instance in outcomes.chunk_by(|a, b| a.key() == b.key() && a.instance() == b.instance()) {
        let chunks: Vec<&[Outcome]> = instance
            .chunk_by(|a, b| a.encoding() == b.encoding())
            .collect();
        let (dedicated, encoded): (Vec<&[Outcome]>, Vec<&[Outcome]>) = chunks
            .into_iter()
            .partition(|c| c[0].encoding() == DEDICATED_ENCODING);
        let dedicated: &[Outcome] = dedicated.first().copied().unwrap_or(&[]);
        if encoded.is_empty() {
            rows.push(TableRow {
                own: dedicated,
                dedicated: &[],
            });
        }
        rows.extend(encoded.into_iter().map(|own| TableRow { own, dedicated }));
    }
    // Ranked once per instance id and encoding (ids equal in natural order share a rank),
    // then sorted by the ranks and, within them, the order met.
    let mut ids: crate::report::rows::NameMap<Name, u32> = Default::default();
    let mut encodings: Vec<Name> = Vec::new();
    for r in &rows {
        ids.entry(r.own[0].instance()).or_insert(0);
        let e = r.own[0].encoding();
        if !encodings.contains(&e) {
            encodings.push(e);
        }
    }
    let mut sorted: Vec<Name> = ids.keys().copied().collect();
    sorted.sort_unstable_by(|a, b| natural(a).cmp(&natural(b)));
    let mut rank = 0;
    for (i, id) in sorted.iter().enumerate() {
        if i > 0 && natural(&sorted[i - 1]) != natural(id) {
            rank += 1;
        }
        ids.insert(*id, rank);
    }
    encodings.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
    let key = |r: &TableRow| {
        let e = r.own[0].encoding();
        let e = encodings.iter().position(|&x| x == e).unwrap_or(0);
        (ids[&r.own[0].instance()], e)
    };
    let mut keyed: Vec<((u32, usize), u32)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (key(r), i as u32))
        .collect();
    keyed.sort_unstable();
    keyed.iter().map(|&(_, i)| rows[i as usize]).collect()
}

/// The whole table as CSV ([`CSV_NAME`]): instance, encoding, solved by, then per solver
/// its answer and time in seconds (the median over repetitions; empty when unsolved or
/// not run: the answer says which).
pub fn csv(rows: &[TableRow], solvers: &[String]) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    write_csv(&mut bytes, rows, solvers)?;
    Ok(bytes)
}

/// Writes [`csv`]'s table to `out` as it goes (a study's table is not held in memory).
pub fn write_csv(
    out: &mut dyn std::io::Write,
    rows: &[TableRow],
    solvers: &[String],
) -> anyhow::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    let mut header = vec![
        "instance".to_string(),
        "encoding".into(),
        "solved_by".into(),
    ];
    for s in solvers {
        header.push(csv_cell(s));
        header.push(format!("{}_s", csv_cell(s)));
    }
    w.write_record(&header)?;
    // Field by field, with no text made a cell: a study's table has millions of them.
    let names: Vec<Name> = solvers.iter().map(|s| Name::new(s)).collect();
    let mut number = String::new();
    for row in rows {
        for name in [row.instance(), row.encoding()] {
            let escaped = crate::text::escape_controls(name);
            w.write_field(crate::text::spreadsheet_cell(&escaped).as_bytes())?;
        }
        number.clear();
        {
            use std::fmt::Write;
            let _ = write!(number, "{}", row.solved_by());
        }
        w.write_field(&number)?;
        for &s in &names {
            match row.of_name(s) {
                None => {
                    w.write_field("")?;
                    w.write_field("")?;
                }
                Some(o) => {
                    w.write_field(word(o.answer()))?;
                    number.clear();
                    if o.answer().solved() {
                        crate::results::push_seconds(&mut number, o.time);
                    }
                    w.write_field(&number)?;
                }
            }
        }
        w.write_record(None::<&[u8]>)?;
    }
    w.flush()?;
    Ok(())
}

/// A name as a CSV cell: control characters written as `\xNN`, a spreadsheet formula as
/// text.
fn csv_cell(name: &str) -> String {
    crate::text::spreadsheet_cell(&crate::text::escape_controls(name)).into_owned()
}

/// An answer as the table writes it.
fn word(answer: Answer) -> &'static str {
    match answer {
        Answer::Sat => "SAT",
        Answer::Unsat => "UNSAT",
        Answer::Timeout => "TIMEOUT",
        Answer::Error => "ERROR",
        Answer::Wrong => "WRONG",
    }
}

/// The table of `rows` (from [`table_rows`]), one column per solver; beyond [`MAX_ROWS`]
/// the first ones, and a link to [`CSV_NAME`].
pub fn section(
    rows: &[TableRow],
    solvers: &[String],
    modes: &crate::report::mode::Modes,
    time_words: &str,
) -> Markup {
    let shown = rows.len().min(MAX_ROWS);
    let counted = rows
        .iter()
        .flat_map(|r| r.outcomes())
        .any(|o| o.solutions().is_some());
    let beside = rows.iter().any(|r| !r.dedicated.is_empty());
    html! {
        p class="note" {
            "Each cell: the answer and its " (time_words) " in seconds (the median over "
            "repetitions"
            @if counted { "; with --count, the first solve's, then the solutions counted and the time of the whole count" }
            "). Click a heading to sort (unsolved runs sort as twice the timeout, "
            "as PAR-2 counts them); type words to keep the rows that contain them all "
            "(an instance, a solver's answer: " code { "TIMEOUT" } ", " code { "WRONG" } ")."
            @if beside {
                " A dedicated solver solves the puzzle itself, under no encoding: its cell "
                "stands in each encoding's row of the instance."
            }
        }
        @if shown < rows.len() {
            p class="note" {
                "The first " (shown) " of " (rows.len()) " instance rows; "
                a href=(CSV_NAME) { (CSV_NAME) } " holds them all, results.csv every run."
            }
        }
        p { input id="instances-filter" type="search" placeholder="filter: words to match"; }
        table id="instances" {
            thead {
                tr {
                    th { "instance" }
                    th { "encoding" }
                    th { "solved by" }
                    @for s in solvers { th { (s) br; span class="mode" { (modes.of_solver(s)) } } }
                }
            }
            tbody {
                @for row in &rows[..shown] {
                    tr {
                        td { (row.instance()) }
                        td { (row.encoding()) }
                        td class="t" data-v=(row.solved_by()) { (row.solved_by()) }
                        @for s in solvers { (cell(row.of(s))) }
                    }
                }
            }
        }
        script { (PreEscaped(SCRIPT)) }
    }
}

/// One solver's cell: answer and time, or a dash where it did not run.
fn cell(outcome: Option<&Outcome>) -> Markup {
    let Some(o) = outcome else {
        return html! { td class="t none" data-v="" { "–" } };
    };
    let par2 = if o.answer().solved() {
        o.time
    } else {
        2.0 * o.timeout()
    };
    let class = match o.answer() {
        Answer::Sat | Answer::Unsat => "t",
        Answer::Timeout | Answer::Error => "t unsolved",
        Answer::Wrong => "t wrong",
    };
    let word = word(o.answer());
    html! {
        td class=(class) data-v=(format!("{par2:e}")) {
            @if o.answer().solved() { (word) " " (seconds(o.time)) } @else { (word) }
            @if let Some(n) = o.solutions() {
                br; span class="count" {
                    (n) (if n == 1 { " solution" } else { " solutions" })
                    @if let Some(t) = o.count_time() { " in " (seconds(t)) " s" }
                }
            }
        }
    }
}

/// An instance id as (name, line) when it ends in `:LINE`, so lines sort as numbers.
fn natural(id: &str) -> (&str, Option<u64>) {
    match id.rsplit_once(':') {
        Some((name, line)) => match line.parse() {
            Ok(n) => (name, Some(n)),
            Err(_) => (id, None),
        },
        None => (id, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::outcome::outcomes;
    use crate::report::score::Scoring;
    use crate::report::test_rows::row;

    /// A dedicated solver's outcome (encoding `none`) joins each encoding row of its
    /// instance; an instance it alone ran keeps a row of its own.
    #[test]
    fn the_dedicated_solver_shares_the_instance_row() {
        let rows = vec![
            row("p.txt:1", "none", "gridsolve", "SAT", 0.001),
            row("p.txt:1", "minimal", "native", "SAT", 0.01),
            row("p.txt:1", "extended", "native", "TIMEOUT", 10.0),
            row("p.txt:2", "none", "gridsolve", "SAT", 0.002),
            row("p.txt:10", "extended", "native", "SAT", 0.03),
        ];
        let outcomes = outcomes(&rows, Scoring::default());
        let table = table_rows(&outcomes);
        let shown: Vec<(&str, &str, usize, bool)> = table
            .iter()
            .map(|r| {
                let gs = r.of("gridsolve").is_some();
                (r.instance(), r.encoding(), r.solved_by(), gs)
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("p.txt:1", "extended", 1, true),
                ("p.txt:1", "minimal", 2, true),
                ("p.txt:2", "none", 1, true),
                ("p.txt:10", "extended", 1, false),
            ]
        );
        let solvers = ["gridsolve".to_string(), "native".to_string()];
        let csv = String::from_utf8(csv(&table, &solvers).unwrap()).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[1], "p.txt:1,extended,1,SAT,0.001,TIMEOUT,");
        assert_eq!(lines[2], "p.txt:1,minimal,2,SAT,0.001,SAT,0.01");
        assert_eq!(lines[3], "p.txt:2,none,1,SAT,0.002,,");
        let modes = crate::report::mode::Modes::of(&rows);
        let page = section(&table, &solvers, &modes, "wall time").into_string();
        assert!(page.contains("its cell stands in each encoding"), "{page}");
        assert_eq!(page.matches("<tr>").count(), 5);
    }
}
