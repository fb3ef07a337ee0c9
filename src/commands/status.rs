//! `bench status`: runs done and to do in a study, per shard and in total.

use crate::cli::StatusArgs;
use crate::study::{plan, status};

pub(super) fn run(args: StatusArgs) -> anyhow::Result<i32> {
    let p = plan::read(&args.study)?;
    print!("{}", status::text(&status::status(&args.study, &p)));
    Ok(0)
}
