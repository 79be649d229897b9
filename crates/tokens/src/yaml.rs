//! YAML text of a [`Value`], written by `serde-saphyr`.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use toon::Value;

/// Stack kept free before descending one level; a level of `serde-saphyr` uses far less.
const RED_ZONE: usize = 128 * 1024;
/// Size of each extra stack segment allocated when the current one runs low.
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// The YAML text of `value` (block style, as `serde-saphyr` writes it by default).
pub fn to_yaml(value: &Value) -> Result<String, String> {
    serde_saphyr::to_string(&AsYaml(value)).map_err(|e| e.to_string())
}

/// Serializes a [`Value`] for `serde-saphyr`; deep documents grow the stack instead of
/// overflowing it.
struct AsYaml<'a>(&'a Value);

impl Serialize for AsYaml<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, || match self.0 {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    serializer.serialize_u64(u)
                } else if let Some(i) = n.as_i64() {
                    serializer.serialize_i64(i)
                } else {
                    // Floats, and integers beyond 64 bits (rounded, as JavaScript's
                    // YAML writers see them).
                    serializer.serialize_f64(n.as_f64())
                }
            }
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&AsYaml(item))?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                for (k, v) in map {
                    out.serialize_entry(k, &AsYaml(v))?;
                }
                out.end()
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_block_yaml() -> Result<(), String> {
        let v =
            toon::toon!({"name": "Ada", "tags": ["x", "z"], "count": 3, "f": 1.5, "none": null});
        let yaml = to_yaml(&v)?;
        assert!(yaml.contains("name: Ada\n"), "{yaml}");
        assert!(yaml.contains("- x\n"), "{yaml}");
        assert!(yaml.contains("count: 3\n"), "{yaml}");
        assert!(yaml.contains("f: 1.5\n"), "{yaml}");
        assert!(yaml.contains("none: null"), "{yaml}");
        Ok(())
    }

    #[test]
    fn quotes_strings_that_would_change_type() -> Result<(), String> {
        let v = toon::toon!({"a": "true", "b": "42", "c": "x: y", "d": "y"});
        let back: serde_json::Value =
            serde_saphyr::from_str(&to_yaml(&v)?).map_err(|e| e.to_string())?;
        assert_eq!(
            back,
            serde_json::json!({"a": "true", "b": "42", "c": "x: y", "d": "y"})
        );
        Ok(())
    }

    #[test]
    fn deep_nesting_does_not_overflow() -> Result<(), String> {
        let mut v = Value::Null;
        for _ in 0..2000 {
            v = Value::Array(vec![v]);
        }
        let yaml = to_yaml(&v)?;
        assert!(yaml.contains("null"));
        Ok(())
    }
}
