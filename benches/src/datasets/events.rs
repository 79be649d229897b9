//! Semi-uniform event logs: most entries share one shape, failed requests carry an extra
//! nested `error` object, so the array is not a table.

use serde_json::{Value, json};

use crate::calendar::{DAY_2025_01_01, timestamp};
use crate::rng::Rng;
use crate::words::{ENDPOINTS, ERROR_MESSAGES};

/// The fixed seed of this dataset.
const SEED: u64 = 0x0E31_0004;

/// `{"logs": [...]}` with `count` entries a few seconds apart; about one in five failed.
pub fn events(count: usize) -> Value {
    let mut rng = Rng::new(SEED);
    let mut clock = DAY_2025_01_01 * 86_400 + 8 * 3600;
    let rows: Vec<Value> = (0..count)
        .map(|_| {
            clock += rng.range(1, 20);
            let failed = rng.chance(0.2);
            let status = if failed {
                *rng.pick(&[500, 502, 503, 504, 429, 413])
            } else {
                *rng.pick(&[200, 200, 200, 201, 204, 304])
            };
            let level = if failed {
                "error"
            } else if rng.chance(0.1) {
                "warn"
            } else {
                "info"
            };
            let mut entry = json!({
                "timestamp": timestamp(clock),
                "level": level,
                "endpoint": rng.pick(&ENDPOINTS),
                "statusCode": status,
                "responseTime": rng.range(3, if failed { 30_000 } else { 900 }),
                "userId": rng.range(1000, 9999),
            });
            if failed {
                let error = json!({
                    "message": rng.pick(&ERROR_MESSAGES),
                    "code": format!("E{}", rng.range(1000, 1999)),
                    "retryable": rng.chance(0.5),
                });
                if let Some(obj) = entry.as_object_mut() {
                    obj.insert("error".into(), error);
                }
            }
            entry
        })
        .collect();
    json!({ "logs": rows })
}
