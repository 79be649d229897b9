//! Uniform employee records: one flat table, TOON's best case (and CSV's).

use serde_json::{Value, json};

use super::common::{email, full_name};
use crate::rng::Rng;
use crate::words::DEPARTMENTS;

/// The fixed seed of this dataset.
const SEED: u64 = 0x0E31_0001;

/// `{"employees": [...]}` with `count` records of seven primitive fields each.
pub fn employees(count: usize) -> Value {
    let mut rng = Rng::new(SEED);
    let rows: Vec<Value> = (1..=count)
        .map(|id| {
            let name = full_name(&mut rng);
            let department = rng.pick(&DEPARTMENTS);
            json!({
                "id": id,
                "name": name,
                "email": email(&mut rng, &name, id),
                "department": department,
                "salary": rng.range(45, 180) * 1000,
                "yearsExperience": rng.range(0, 30),
                "active": rng.chance(0.9),
            })
        })
        .collect();
    json!({ "employees": rows })
}
