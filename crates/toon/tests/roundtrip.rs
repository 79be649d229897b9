//! Round-trip properties: for any value, every delimiter and indent size,
//! `decode(encode(v)) == v` and `encode(decode(encode(v))) == encode(v)`.
//!
//! The generators favour what is hard for TOON: strings that need quoting or look like
//! numbers, literals or headers; uniform arrays of objects (tables) with nested field
//! groups; keyed objects (keyed tables); empty containers; arrays of arrays; deep nesting.

use proptest::prelude::*;
use toon::{DecodeOptions, EncodeOptions};

mod strategies;

use strategies::{delimiter, value};

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn decode_inverts_encode(v in value(), d in delimiter(), indent in 1usize..5) {
        let enc = EncodeOptions::default().with_delimiter(d).with_indent_size(indent);
        let dec = DecodeOptions::default().with_indent_size(indent);
        let text = toon::encode_value_with(&v, &enc).expect("encodes");
        let back = toon::decode_value_with(&text, &dec);
        prop_assert!(back.is_ok(), "decode failed: {:?}\n{}", back, text);
        let back = back.expect("checked");
        prop_assert_eq!(&back, &v, "text:\n{}", text);
        let again = toon::encode_value_with(&back, &enc).expect("encodes");
        prop_assert_eq!(again, text);
    }

    #[test]
    fn non_strict_decode_agrees_on_encoder_output(v in value(), d in delimiter()) {
        let text = toon::encode_value_with(&v, &EncodeOptions::default().with_delimiter(d)).expect("encodes");
        let lenient = toon::decode_value_with(&text, &DecodeOptions::default().with_strict(false));
        prop_assert_eq!(lenient.ok(), Some(v));
    }

    #[test]
    fn decoder_never_panics(s in "[ -~\\t\\n\u{FEFF}]{0,80}", strict in any::<bool>()) {
        let _ = toon::decode_value_with(&s, &DecodeOptions::default().with_strict(strict));
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&"  ".repeat(i));
        text.push_str("k:\n");
    }
    let e = toon::decode_value(&text).expect_err("too deep");
    assert_eq!(e.kind(), toon::ErrorKind::Depth);
    let ok = toon::decode_value_with(&text, &DecodeOptions::default().with_max_depth(5000));
    assert!(ok.is_ok());
}
