//! Time-series analytics: one row of daily metrics per day, numbers only.

use serde_json::{Value, json};

use super::common::money;
use crate::calendar::{DAY_2025_01_01, date};
use crate::rng::Rng;

/// The fixed seed of this dataset.
const SEED: u64 = 0x0E31_0003;

/// `{"metrics": [...]}` with `days` consecutive daily rows from 2025-01-01.
pub fn analytics(days: usize) -> Value {
    let mut rng = Rng::new(SEED);
    let rows: Vec<Value> = (0..days)
        .map(|d| {
            // A weekly cycle plus noise, so the numbers look like traffic.
            let weekday = (d % 7) as i64;
            let base = 4000 + 600 * (3 - (weekday - 3).abs());
            let views = base + rng.range(-800, 800);
            let clicks = views * rng.range(8, 15) / 100;
            let conversions = clicks * rng.range(2, 9) / 100;
            let revenue_cents = conversions * rng.range(2500, 9000);
            let bounce_per_mille = rng.range(280, 620);
            json!({
                "date": date(DAY_2025_01_01 + d as i64),
                "views": views,
                "clicks": clicks,
                "conversions": conversions,
                "revenue": money(revenue_cents),
                "bounceRate": bounce_per_mille as f64 / 1000.0,
            })
        })
        .collect();
    json!({ "metrics": rows })
}
