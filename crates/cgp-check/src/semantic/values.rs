//! The grammars the rules test strings against (digests are
//! `cgp_schema::digest`): protocol timestamps,
//! embedding fingerprints, and the token estimate of a budget.

/// The dimension an embedding fingerprint `<model-id>/<dimensions>[/<normalization>]`
/// states, when its second part is a decimal integer (SPEC.md E1).
pub fn fingerprint_dimension(fingerprint: &str) -> Option<usize> {
    let part = fingerprint.split('/').nth(1)?;
    if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    part.parse().ok()
}

/// Whether `text` is a protocol timestamp, `YYYY-MM-DDTHH:MM:SS[.F]Z` in UTC
/// with calendar-valid fields (SPEC.md F4).
pub fn is_protocol_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    let Some(head) = bytes.get(..19) else {
        return false;
    };
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = head.get(range)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        part.iter()
            .try_fold(0u32, |acc, digit| Some(acc * 10 + u32::from(digit - b'0')))
    };
    let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if separators
        .iter()
        .any(|&(index, expected)| head.get(index) != Some(&expected))
    {
        return false;
    }
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        digits(0..4),
        digits(5..7),
        digits(8..10),
        digits(11..13),
        digits(14..16),
        digits(17..19),
    ) else {
        return false;
    };
    let rest = bytes.get(19..).unwrap_or_default();
    let rest_ok = match rest {
        [b'Z'] => true,
        [b'.', fraction @ .., b'Z'] => {
            !fraction.is_empty() && fraction.iter().all(u8::is_ascii_digit)
        }
        _ => false,
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let month_days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    rest_ok && (1..=month_days).contains(&day) && hour <= 23 && minute <= 59 && second <= 60
}

/// Whether protocol timestamp `a` names a later instant than `b`; `None` when
/// either is not a protocol timestamp (SPEC.md F4, CGP-AS-OF). The profile spells every
/// instant one way, so the date and time compare as text; the fractions compare
/// digit by digit, a missing one being the smallest.
pub fn is_later(a: &str, b: &str) -> Option<bool> {
    fn parts(text: &str) -> Option<(&str, &str)> {
        if !is_protocol_timestamp(text) {
            return None;
        }
        let head = text.get(..19)?;
        let fraction = text
            .get(19..)?
            .trim_start_matches('.')
            .trim_end_matches('Z')
            .trim_end_matches('0');
        Some((head, fraction))
    }
    Some(parts(a)? > parts(b)?)
}

/// The budget cost of `content`: ⌈UTF-8 bytes ÷ 4⌉, and 0 without content
/// (SPEC.md B3).
pub fn budget_tokens(content: Option<&str>) -> u64 {
    content.map_or(0, |text| (text.len() as u64).div_ceil(4))
}

pub(super) fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}
