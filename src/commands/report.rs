//! `bench report`: charts and scores from results CSVs. STUB: replaced by the report issue.

use crate::cli::ReportArgs;

pub(super) fn run(_args: ReportArgs) -> anyhow::Result<i32> {
    anyhow::bail!("bench report is not built yet")
}
