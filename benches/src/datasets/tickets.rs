//! Support tickets with long free-text fields full of commas, colons and quotes, which
//! TOON (and CSV) must quote and escape.

use serde_json::{Value, json};

use crate::calendar::{DAY_2025_01_01, timestamp};
use crate::rng::Rng;
use crate::words::{TICKET_PHRASES, TICKET_SUBJECTS};

/// The fixed seed of this dataset.
const SEED: u64 = 0x0E31_0008;

/// `{"tickets": [...]}` with `count` tickets, each with a body of three to eight phrases.
pub fn tickets(count: usize) -> Value {
    let mut rng = Rng::new(SEED);
    let mut clock = DAY_2025_01_01 * 86_400;
    let rows: Vec<Value> = (1..=count)
        .map(|id| {
            clock += rng.range(60, 7200);
            let phrases = rng.range(3, 8);
            let mut body = String::new();
            for i in 0..phrases {
                if i > 0 {
                    body.push_str(if rng.chance(0.25) { "\n" } else { ". " });
                }
                let phrase = *rng.pick(&TICKET_PHRASES);
                body.push_str(phrase);
            }
            json!({
                "id": id,
                "subject": rng.pick(&TICKET_SUBJECTS),
                "status": rng.pick(&["open", "pending", "solved", "closed"]),
                "openedAt": timestamp(clock),
                "body": body,
            })
        })
        .collect();
    json!({ "tickets": rows })
}
