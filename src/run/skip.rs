//! An input left out of a run, located (file, and line when the fault is one line of a
//! file), and the inputs left out said briefly: one fault repeated on many lines of a file
//! (`--format line` on a CSV corpus fails every line the same way) is one message, "80
//! lines: side 1 is out of range (2 to 1000), first at pairs-4x4.csv:3", not 80.

use std::fmt;

use crate::puzzle::format::PuzzleError;

/// One input left out of a run, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    /// The file as the user named it (empty when the message names it itself).
    pub file: String,
    /// The 1-based line, when the fault is on one line of the file.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl Skip {
    /// A fault of a whole file.
    pub fn file(file: impl Into<String>, message: impl Into<String>) -> Skip {
        Skip {
            file: file.into(),
            line: None,
            message: message.into(),
        }
    }

    /// A fault whose message already names where it is.
    pub fn said(message: impl Into<String>) -> Skip {
        Skip::file("", message)
    }

    /// `FILE:LINE` or `FILE`: where the fault is.
    fn at(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}", self.file),
            None => self.file.clone(),
        }
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.file.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.at(), self.message)
        }
    }
}

impl From<PuzzleError> for Skip {
    fn from(e: PuzzleError) -> Skip {
        Skip {
            file: e.file,
            line: Some(e.line).filter(|&l| l > 0),
            message: e.message,
        }
    }
}

/// The skips said briefly, in the order of their first appearance: a fault that stands
/// alone as it is (`FILE:LINE: message`), one that repeats as `N lines: message, first at
/// FILE:LINE` (or `N inputs: …` when not every one is a line of a file).
pub fn summarise(skips: &[Skip]) -> Vec<String> {
    let mut groups: Vec<(&str, Vec<&Skip>)> = Vec::new();
    for s in skips {
        match groups.iter_mut().find(|(m, _)| *m == s.message) {
            Some((_, group)) => group.push(s),
            None => groups.push((&s.message, vec![s])),
        }
    }
    groups
        .into_iter()
        .map(|(message, group)| match group.as_slice() {
            [one] => one.to_string(),
            [first, ..] => {
                let what = if group.iter().all(|s| s.line.is_some()) {
                    "lines"
                } else {
                    "inputs"
                };
                let at = match first.at() {
                    at if at.is_empty() => String::new(),
                    at => format!(", first at {at}"),
                };
                format!("{} {what}: {message}{at}", group.len())
            }
            [] => String::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(file: &str, line: usize, message: &str) -> Skip {
        Skip {
            file: file.into(),
            line: Some(line),
            message: message.into(),
        }
    }

    #[test]
    fn repeats_are_one_message_with_the_first_place() {
        let mut skips: Vec<Skip> = (3..83).map(|l| line("p.csv", l, "side 1")).collect();
        skips.insert(1, Skip::file("q.txt", "no puzzle"));
        skips.push(line("r.txt", 7, "other"));
        assert_eq!(
            summarise(&skips),
            [
                "80 lines: side 1, first at p.csv:3",
                "q.txt: no puzzle",
                "r.txt:7: other"
            ]
        );
        let mixed = [Skip::file("a.txt", "bad"), line("b.txt", 2, "bad")];
        assert_eq!(summarise(&mixed), ["2 inputs: bad, first at a.txt"]);
        assert_eq!(Skip::said("x.cnf:2: bad").to_string(), "x.cnf:2: bad");
    }
}
