//! The page's per-instance table: who solved what. One row per instance and encoding, one
//! column per solver, each cell the answer and its time; a few lines of inline script
//! sort it by any column (times numerically, unsolved runs as PAR-2 counts them) and
//! filter its rows by words typed in a box, with no server and no library. Beyond
//! [`MAX_ROWS`] rows the table shows the first ones and says so, linking [`CSV_NAME`],
//! the whole table written beside the page ([`csv`]).

use maud::{Markup, PreEscaped, html};

use crate::report::outcome::{Answer, Outcome};
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

/// The table's rows: the outcomes of one instance and encoding each, in file order
/// (`hard.txt:2` before `hard.txt:10`), from `outcomes` ordered by instance, encoding,
/// solver.
pub fn table_rows<'o, 'a>(outcomes: &'o [Outcome<'a>]) -> Vec<&'o [Outcome<'a>]> {
    let mut rows: Vec<&[Outcome]> = outcomes
        .chunk_by(|a, b| (a.instance, a.encoding) == (b.instance, b.encoding))
        .collect();
    rows.sort_by(|a, b| {
        natural(a[0].instance)
            .cmp(&natural(b[0].instance))
            .then(a[0].encoding.cmp(b[0].encoding))
    });
    rows
}

/// The whole table as CSV ([`CSV_NAME`]): instance, encoding, solved by, then per solver
/// its answer and time in seconds (the median over repetitions; empty when unsolved or
/// not run: the answer says which).
pub fn csv(rows: &[&[Outcome]], solvers: &[String]) -> anyhow::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::with_capacity(rows.len() * 32 * solvers.len()));
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
    let mut record: Vec<String> = Vec::with_capacity(header.len());
    for row in rows {
        record.clear();
        record.push(csv_cell(row[0].instance));
        record.push(csv_cell(row[0].encoding));
        record.push(row.iter().filter(|o| o.answer.solved()).count().to_string());
        for s in solvers {
            match row.iter().find(|o| o.solver == s) {
                None => record.extend(["".into(), "".into()]),
                Some(o) => {
                    record.push(word(o.answer).into());
                    record.push(if o.answer.solved() {
                        crate::results::format_seconds(o.time)
                    } else {
                        String::new()
                    });
                }
            }
        }
        w.write_record(&record)?;
    }
    Ok(w.into_inner().map_err(|e| e.into_error())?)
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
    rows: &[&[Outcome]],
    solvers: &[String],
    modes: &crate::report::mode::Modes,
    time_words: &str,
) -> Markup {
    let shown = rows.len().min(MAX_ROWS);
    let counted = rows
        .iter()
        .flat_map(|r| r.iter())
        .any(|o| o.solutions.is_some());
    html! {
        p class="note" {
            "Each cell: the answer and its " (time_words) " in seconds (the median over "
            "repetitions"
            @if counted { "; with --count, the first solve's, then the solutions counted and the time of the whole count" }
            "). Click a heading to sort (unsolved runs sort as twice the timeout, "
            "as PAR-2 counts them); type words to keep the rows that contain them all "
            "(an instance, a solver's answer: " code { "TIMEOUT" } ", " code { "WRONG" } ")."
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
                        td { (row[0].instance) }
                        td { (row[0].encoding) }
                        td class="t" data-v=(row.iter().filter(|o| o.answer.solved()).count()) {
                            (row.iter().filter(|o| o.answer.solved()).count())
                        }
                        @for s in solvers {
                            (cell(row.iter().find(|o| o.solver == s)))
                        }
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
    let par2 = if o.answer.solved() {
        o.time
    } else {
        2.0 * o.timeout
    };
    let class = match o.answer {
        Answer::Sat | Answer::Unsat => "t",
        Answer::Timeout | Answer::Error => "t unsolved",
        Answer::Wrong => "t wrong",
    };
    let word = word(o.answer);
    html! {
        td class=(class) data-v=(format!("{par2:e}")) {
            @if o.answer.solved() { (word) " " (seconds(o.time)) } @else { (word) }
            @if let Some(n) = o.solutions {
                br; span class="count" {
                    (n) (if n == 1 { " solution" } else { " solutions" })
                    @if let Some(t) = o.count_time { " in " (seconds(t)) " s" }
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
