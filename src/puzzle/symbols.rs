//! The symbol alphabet of the line and grid formats: values 1–9 are `1`–`9`, 10–35 are
//! `A`–`Z`, 36–61 are `a`–`z`; a blank is `0` or `.`. Sides over 61 need integer formats.

/// The largest value a single symbol can write.
pub const MAX_SYMBOL_VALUE: u16 = 61;

/// The value of a symbol: `Some(0)` for a blank, `Some(v)` for 1..=61, `None` otherwise.
pub fn symbol_value(c: char) -> Option<u16> {
    match c {
        '0' | '.' => Some(0),
        '1'..='9' => Some(c as u16 - '0' as u16),
        'A'..='Z' => Some(c as u16 - 'A' as u16 + 10),
        'a'..='z' => Some(c as u16 - 'a' as u16 + 36),
        _ => None,
    }
}

/// The symbol of a value (0 = blank, written `0`); `None` above 61.
pub fn value_symbol(v: u16) -> Option<char> {
    Some(match v {
        0 => '0',
        1..=9 => (b'0' + v as u8) as char,
        10..=35 => (b'A' + (v - 10) as u8) as char,
        36..=61 => (b'a' + (v - 36) as u8) as char,
        _ => return None,
    })
}

/// Another alphabet a corpus writes its values in (`--alphabet`): its i-th symbol is the
/// value i + 1, as 16×16 sets that write 1..16 as `A`–`P`. Files are read by translating
/// these symbols into the default ones first, and written by translating back. `.` is
/// always a blank, and `0` too unless the alphabet uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alphabet {
    /// The symbols (ASCII), value 1 first.
    symbols: [u8; MAX_SYMBOL_VALUE as usize],
    /// How many.
    len: usize,
}

impl Alphabet {
    /// An alphabet from its symbols in value order (`ABCDEFGHIJKLMNOP`), or the name
    /// `letters` (`A`–`Z`, then `a`–`z`).
    pub fn parse(s: &str) -> Result<Alphabet, String> {
        let symbols: String = match s {
            "letters" => ('A'..='Z').chain('a'..='z').collect(),
            _ => s.to_string(),
        };
        if let Some(c) = symbols.chars().find(|c| !c.is_ascii_alphanumeric()) {
            return Err(format!("`{c}` cannot be a symbol: letters and digits only"));
        }
        if symbols.len() < 2 || symbols.len() > MAX_SYMBOL_VALUE as usize {
            return Err(format!(
                "an alphabet lists the symbols of 1, 2, 3, … in order (2 to {MAX_SYMBOL_VALUE} of them, as `ABCDEFGHIJKLMNOP`), or is `letters`"
            ));
        }
        let mut out = Alphabet {
            symbols: [0; MAX_SYMBOL_VALUE as usize],
            len: symbols.len(),
        };
        for (i, b) in symbols.bytes().enumerate() {
            if symbols.as_bytes()[..i].contains(&b) {
                return Err(format!("`{}` appears twice in the alphabet", b as char));
            }
            out.symbols[i] = b;
        }
        Ok(out)
    }

    /// The symbols in value order, as [`Alphabet::parse`] reads them back.
    pub fn symbols(&self) -> String {
        String::from_utf8_lossy(&self.symbols[..self.len]).into_owned()
    }

    /// `text` with this alphabet's symbols replaced by the default ones of the same values
    /// (and `0`, if this alphabet has it, by its value's symbol: blanks are then `.`).
    pub fn to_default(&self, text: &str) -> String {
        let mut map: [Option<char>; 128] = [None; 128];
        for (i, &b) in self.symbols[..self.len].iter().enumerate() {
            map[b as usize] = value_symbol(i as u16 + 1);
        }
        text.chars()
            .map(|c| {
                if c.is_ascii() {
                    map[c as usize].unwrap_or(c)
                } else {
                    c
                }
            })
            .collect()
    }

    /// `text` in default symbols written in this alphabet (blanks as `.` when the alphabet
    /// uses `0`).
    pub fn from_default(&self, text: &str) -> String {
        let uses_zero = self.symbols[..self.len].contains(&b'0');
        text.chars()
            .map(|c| match symbol_value(c) {
                Some(0) if uses_zero => '.',
                Some(v) if v >= 1 && (v as usize) <= self.len => {
                    self.symbols[v as usize - 1] as char
                }
                _ => c,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_alphabets_translate_both_ways() {
        let letters = Alphabet::parse("ABCDEFGHIJKLMNOP").unwrap();
        assert_eq!(letters.to_default("AP.0J"), "1G.0A");
        assert_eq!(letters.from_default("1G.0A"), "AP.0J");
        let hex = Alphabet::parse("0123456789ABCDEF").unwrap();
        assert_eq!(hex.to_default("0F.A"), "1G.B");
        assert_eq!(hex.from_default("1G0B"), "0F.A");
        assert_eq!(Alphabet::parse("letters").unwrap().to_default("Z"), "Q");
        assert!(Alphabet::parse("AA").unwrap_err().contains("twice"));
        assert!(Alphabet::parse("A,B").is_err());
    }

    #[test]
    fn alphabet_round_trips() {
        for v in 0..=MAX_SYMBOL_VALUE {
            assert_eq!(symbol_value(value_symbol(v).unwrap()), Some(v));
        }
        assert_eq!(symbol_value('.'), Some(0));
        assert_eq!(symbol_value('G'), Some(16));
        assert_eq!(symbol_value('P'), Some(25));
        assert_eq!(symbol_value('#'), None);
        assert_eq!(value_symbol(62), None);
    }
}
