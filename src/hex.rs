//! Bytes as lowercase hexadecimal and back: seats' tokens and certificates' fingerprints.

pub fn encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Exactly `2 N` hexadecimal digits (either case) as `N` bytes.
pub fn decode<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut bytes = [0u8; N];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn bytes_go_to_hex_and_back_and_other_lengths_or_digits_are_refused() {
        let text = super::encode(&[0x00, 0xab, 0x7f]);
        assert_eq!(text, "00ab7f");
        assert_eq!(super::decode::<3>(&text), Some([0x00, 0xab, 0x7f]));
        assert_eq!(super::decode::<3>("00AB7F"), Some([0x00, 0xab, 0x7f]));
        assert_eq!(super::decode::<3>("00ab7"), None);
        assert_eq!(super::decode::<3>("00ab7g"), None);
        assert_eq!(super::decode::<2>("00ab7f"), None);
    }
}
