//! Contacts with nested field groups: every record has the same `address` and `plan`
//! sub-objects, so the data is uniform but not flat.

use serde_json::{Value, json};

use super::common::{email, full_name};
use crate::calendar::{DAY_2025_01_01, date};
use crate::rng::Rng;
use crate::words::{CITIES, STREETS, TIERS};

/// The fixed seed of this dataset.
const SEED: u64 = 0x0E31_0007;

/// `{"contacts": [...]}` with `count` contacts.
pub fn contacts(count: usize) -> Value {
    let mut rng = Rng::new(SEED);
    let rows: Vec<Value> = (1..=count)
        .map(|id| {
            let name = full_name(&mut rng);
            let (city, country) = *rng.pick(&CITIES);
            let (tier_index, tier) = rng.pick_indexed(&TIERS);
            let seats = rng.range(1, 5) * 10_i64.pow(tier_index as u32);
            json!({
                "id": id,
                "name": name,
                "email": email(&mut rng, &name, id),
                "address": {
                    "street": format!("{} {}", rng.range(1, 250), rng.pick(&STREETS)),
                    "city": city,
                    "postalCode": format!("{:05}", rng.range(1000, 99_999)),
                    "country": country,
                },
                "plan": {
                    "tier": tier,
                    "seats": seats,
                    "renewsOn": date(DAY_2025_01_01 + rng.range(30, 730)),
                },
            })
        })
        .collect();
    json!({ "contacts": rows })
}
