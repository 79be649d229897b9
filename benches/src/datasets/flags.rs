//! Feature flags keyed by name: an object whose values all have the same fields (a
//! "keyed table"), which plain TOON writes as nested objects, not as a table.

use serde_json::{Value, json};

use crate::calendar::{DAY_2025_01_01, date};
use crate::rng::Rng;
use crate::words::{ADJECTIVES, NOUNS, TEAMS};

/// The fixed seed of this dataset.
const SEED: u64 = 0x0E31_0006;

/// `{"flags": {"<name>": {...}, ...}}` with `count` flags.
pub fn flags(count: usize) -> Value {
    let mut rng = Rng::new(SEED);
    let mut map = serde_json::Map::new();
    for n in 0..count {
        let adjective = rng.pick(&ADJECTIVES);
        let noun = rng.pick(&NOUNS);
        let name = format!("{adjective}-{noun}-{n}");
        let enabled = rng.chance(0.6);
        let rollout = if enabled {
            *rng.pick(&[5, 10, 25, 50, 100, 100])
        } else {
            0
        };
        map.insert(
            name,
            json!({
                "enabled": enabled,
                "rollout": rollout,
                "owner": rng.pick(&TEAMS),
                "createdAt": date(DAY_2025_01_01 + rng.range(0, 364)),
                "description": format!("{adjective} {noun} experience"),
            }),
        );
    }
    json!({ "flags": map })
}
