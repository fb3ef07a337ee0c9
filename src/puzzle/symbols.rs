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

#[cfg(test)]
mod tests {
    use super::*;

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
