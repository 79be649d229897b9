//! Bytes and tokens of one value in every [`Format`], with savings and advice.

use serde_json::json;
use toon::Value;

use crate::display::{savings_percent, tokens};
use crate::format::{Format, RenderError, render};
use crate::tokenizer::Tokenizer;

/// The size of one text: UTF-8 bytes and tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Size {
    /// Length in UTF-8 bytes.
    pub bytes: usize,
    /// Number of tokens.
    pub tokens: usize,
}

impl Size {
    /// Measures `text` with `tokenizer`.
    pub fn of(text: &str, tokenizer: &dyn Tokenizer) -> Size {
        Size {
            bytes: text.len(),
            tokens: tokenizer.count(text),
        }
    }

    fn to_json(self) -> serde_json::Value {
        json!({"bytes": self.bytes, "tokens": self.tokens})
    }
}

/// The sizes of one value in every format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The tokenizer's name, such as `o200k_base`.
    pub tokenizer: &'static str,
    /// `JSON.stringify(v, null, 2)`: the baseline of savings.
    pub json_pretty: Size,
    /// `JSON.stringify(v)`.
    pub json_compact: Size,
    /// YAML.
    pub yaml: Size,
    /// TOON, comma delimiter.
    pub toon: Size,
    /// TOON, tab delimiter.
    pub toon_tab: Size,
    /// TOON, pipe delimiter.
    pub toon_pipe: Size,
    /// CSV, when the data is flat.
    pub csv: Option<Size>,
}

/// Measures `value` in every format.
pub fn compare(value: &Value, tokenizer: &dyn Tokenizer) -> Result<Comparison, RenderError> {
    let measure = |format: Format| -> Result<Option<Size>, RenderError> {
        Ok(render(value, format)?.map(|text| Size::of(&text, tokenizer)))
    };
    let always =
        |format: Format| -> Result<Size, RenderError> { Ok(measure(format)?.unwrap_or_default()) };
    Ok(Comparison {
        tokenizer: tokenizer.name(),
        json_pretty: always(Format::JsonPretty)?,
        json_compact: always(Format::JsonCompact)?,
        yaml: always(Format::Yaml)?,
        toon: always(Format::Toon)?,
        toon_tab: always(Format::ToonTab)?,
        toon_pipe: always(Format::ToonPipe)?,
        csv: measure(Format::Csv)?,
    })
}

impl Comparison {
    /// The size in `format` (`None` only for CSV of non-flat data).
    pub fn get(&self, format: Format) -> Option<Size> {
        match format {
            Format::JsonPretty => Some(self.json_pretty),
            Format::JsonCompact => Some(self.json_compact),
            Format::Yaml => Some(self.yaml),
            Format::Toon => Some(self.toon),
            Format::ToonTab => Some(self.toon_tab),
            Format::ToonPipe => Some(self.toon_pipe),
            Format::Csv => self.csv,
        }
    }

    /// Token savings of `format` against pretty JSON, in percent.
    pub fn token_savings(&self, format: Format) -> Option<f64> {
        self.get(format)
            .map(|s| savings_percent(self.json_pretty.tokens, s.tokens))
    }

    /// The TOON delimiter variant with the fewest tokens (comma wins ties, then tab).
    pub fn best_toon(&self) -> (Format, Size) {
        [Format::Toon, Format::ToonTab, Format::ToonPipe]
            .into_iter()
            .filter_map(|f| self.get(f).map(|s| (f, s)))
            .fold((Format::Toon, self.toon), |best, cur| {
                if cur.1.tokens < best.1.tokens {
                    cur
                } else {
                    best
                }
            })
    }

    /// One line of advice: which delimiter to use, or whether TOON pays off at all.
    pub fn advice(&self) -> String {
        let (best, size) = self.best_toon();
        if size.tokens > self.json_compact.tokens {
            return format!(
                "compact JSON is {} smaller than TOON here: TOON pays off on uniform \
                 arrays of objects, this data has few",
                tokens(size.tokens - self.json_compact.tokens)
            );
        }
        let mut line = match best {
            Format::ToonTab => format!(
                "tab delimiter saves a further {} (toon --delimiter tab)",
                tokens(self.toon.tokens - size.tokens)
            ),
            Format::ToonPipe => format!(
                "pipe delimiter saves a further {} (toon --delimiter '|')",
                tokens(self.toon.tokens - size.tokens)
            ),
            _ => {
                let next = self.toon_tab.tokens.min(self.toon_pipe.tokens);
                if next == self.toon.tokens {
                    "the comma delimiter is as cheap as tab and pipe here".to_owned()
                } else {
                    format!(
                        "the default comma delimiter is cheapest ({} fewer than tab or pipe)",
                        tokens(next - self.toon.tokens)
                    )
                }
            }
        };
        if let Some(csv) = self.csv.filter(|c| c.tokens < size.tokens) {
            line.push_str(&format!(
                "; CSV is {} smaller still, but keeps no types or lengths",
                tokens(size.tokens - csv.tokens)
            ));
        }
        line
    }

    /// The figures as JSON with stable keys: `tokenizer`, then `json_pretty`,
    /// `json_compact`, `yaml`, `toon`, `toon_tab`, `toon_pipe`, `csv` (`null` when the
    /// data is not flat), each `{"bytes": …, "tokens": …}`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("tokenizer".into(), self.tokenizer.into());
        for format in Format::ALL {
            let size = self
                .get(format)
                .map_or(serde_json::Value::Null, Size::to_json);
            map.insert(format.key().into(), size);
        }
        serde_json::Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts one token per byte, so expectations can be computed by hand.
    struct Bytes;

    impl Tokenizer for Bytes {
        fn name(&self) -> &'static str {
            "bytes"
        }
        fn count(&self, text: &str) -> usize {
            text.len()
        }
    }

    fn sized(tokens: [usize; 7]) -> Comparison {
        let s = |t: usize| Size {
            bytes: t,
            tokens: t,
        };
        Comparison {
            tokenizer: "test",
            json_pretty: s(tokens[0]),
            json_compact: s(tokens[1]),
            yaml: s(tokens[2]),
            toon: s(tokens[3]),
            toon_tab: s(tokens[4]),
            toon_pipe: s(tokens[5]),
            csv: (tokens[6] > 0).then(|| s(tokens[6])),
        }
    }

    #[test]
    fn token_counts_read_well() {
        assert_eq!(tokens(1), "1 token");
        assert_eq!(tokens(0), "0 tokens");
        assert_eq!(tokens(5330), "5,330 tokens");
    }

    #[test]
    fn savings_are_relative_to_the_baseline() {
        assert_eq!(savings_percent(200, 150), 25.0);
        assert_eq!(savings_percent(100, 110), -10.0);
        assert_eq!(savings_percent(0, 5), 0.0);
    }

    #[test]
    fn advice_names_the_cheapest_delimiter() {
        assert_eq!(
            sized([100, 80, 90, 60, 55, 58, 0]).advice(),
            "tab delimiter saves a further 5 tokens (toon --delimiter tab)"
        );
        assert_eq!(
            sized([100, 80, 90, 60, 59, 57, 0]).advice(),
            "pipe delimiter saves a further 3 tokens (toon --delimiter '|')"
        );
        assert_eq!(
            sized([100, 80, 90, 60, 62, 61, 0]).advice(),
            "the default comma delimiter is cheapest (1 token fewer than tab or pipe)"
        );
        assert_eq!(
            sized([100, 80, 90, 60, 60, 61, 0]).advice(),
            "the comma delimiter is as cheap as tab and pipe here"
        );
    }

    #[test]
    fn advice_says_when_compact_json_wins() {
        let advice = sized([100, 50, 90, 60, 58, 59, 0]).advice();
        assert!(
            advice.starts_with("compact JSON is 8 tokens smaller"),
            "{advice}"
        );
    }

    #[test]
    fn advice_mentions_cheaper_csv() {
        let advice = sized([100, 80, 90, 60, 55, 58, 40]).advice();
        assert!(
            advice.ends_with("; CSV is 15 tokens smaller still, but keeps no types or lengths")
        );
    }

    #[test]
    fn json_output_has_every_key_in_order() {
        let c = sized([100, 80, 90, 60, 55, 58, 0]);
        let j = c.to_json();
        let keys: Vec<&str> = j
            .as_object()
            .map_or(vec![], |m| m.keys().map(|k| k.as_str()).collect());
        assert_eq!(
            keys,
            [
                "tokenizer",
                "json_pretty",
                "json_compact",
                "yaml",
                "toon",
                "toon_tab",
                "toon_pipe",
                "csv"
            ]
        );
        assert_eq!(j["csv"], serde_json::Value::Null);
        assert_eq!(j["toon_tab"], json!({"bytes": 55, "tokens": 55}));
    }

    #[test]
    fn compare_measures_every_format() -> Result<(), RenderError> {
        let v = toon::toon!({"rows": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]});
        let c = compare(&v, &Bytes)?;
        assert_eq!(c.tokenizer, "bytes");
        for format in Format::ALL {
            let text = render(&v, format)?.unwrap_or_default();
            assert_eq!(c.get(format).map(|s| s.bytes), Some(text.len()), "{format}");
        }
        assert_eq!(
            render(&v, Format::Csv)?.as_deref(),
            Some("id,name\n1,Ada\n2,Bob")
        );
        assert_eq!(
            c.csv,
            Some(Size {
                bytes: 19,
                tokens: 19
            })
        );
        assert!(c.toon.bytes < c.json_compact.bytes);
        Ok(())
    }
}
