//! Bytes as lowercase hexadecimal and back: seats' tokens and certificates' fingerprints.

pub fn encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Exactly `2 N` hexadecimal digits (either case) as `N` bytes.
pub fn decode<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N {
        return None;
    }
    decode_all(text)?.try_into().ok()
}

/// An even number of hexadecimal digits (either case) as bytes (a relay's sealed messages).
pub fn decode_all(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok()).collect()
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
