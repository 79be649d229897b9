use serde_json::{Value, json};

use super::*;

fn rows<'a>(v: &'a Value, key: &str) -> &'a Vec<Value> {
    static EMPTY: Vec<Value> = Vec::new();
    v[key].as_array().unwrap_or(&EMPTY)
}

fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

#[test]
fn every_dataset_is_deterministic() {
    for d in Dataset::ALL {
        assert_eq!(d.generate_json(25), d.generate_json(25), "{d:?}");
    }
}

#[test]
fn the_random_stream_is_pinned() {
    // If this changes, every figure in benches/results/token-efficiency.md changes too:
    // regenerate the report in the same change.
    assert_eq!(
        employees(2),
        json!({"employees": [
            {"id": 1, "name": "Edsger Allen", "email": "edsger.allen1@example.co.uk",
             "department": "Finance", "salary": 151000, "yearsExperience": 18, "active": false},
            {"id": 2, "name": "James Allen", "email": "james.allen2@example.co.uk",
             "department": "Marketing", "salary": 147000, "yearsExperience": 24, "active": true},
        ]})
    );
}

#[test]
fn counts_are_honoured() {
    for d in Dataset::ALL {
        let v = d.generate_json(17);
        let n = match d {
            Dataset::Config => v["services"].as_object().map_or(0, |m| m.len()),
            Dataset::Flags => v["flags"].as_object().map_or(0, |m| m.len()),
            _ => v
                .as_object()
                .and_then(|m| m.values().next())
                .and_then(Value::as_array)
                .map_or(0, Vec::len),
        };
        assert_eq!(n, 17, "{d:?}");
    }
}

#[test]
fn employees_are_flat_and_uniform() {
    let v = employees(50);
    let r = rows(&v, "employees");
    assert_eq!(r.len(), 50);
    for row in r {
        let obj = row.as_object().map(|m| m.len());
        assert_eq!(obj, Some(7));
        assert!(
            row.as_object()
                .is_some_and(|m| m.values().all(|x| !x.is_object() && !x.is_array()))
        );
    }
}

#[test]
fn orders_nest_customers_and_items_and_add_up() {
    let v = orders(40);
    for order in rows(&v, "orders") {
        assert!(order["customer"].is_object());
        let items = rows(order, "items");
        assert!((1..=5).contains(&items.len()));
        let cents = |x: &Value| (x.as_f64().unwrap_or(f64::NAN) * 100.0).round() as i64;
        let sum: i64 = items
            .iter()
            .map(|i| cents(&i["price"]) * i["quantity"].as_i64().unwrap_or(0))
            .sum();
        assert_eq!(sum, cents(&order["subtotal"]));
        assert_eq!(
            cents(&order["subtotal"]) + cents(&order["tax"]),
            cents(&order["total"])
        );
    }
}

#[test]
fn analytics_has_one_row_per_consecutive_day() {
    let v = analytics(400);
    let r = rows(&v, "metrics");
    assert_eq!(
        r.first().map(|x| x["date"].clone()),
        Some(json!("2025-01-01"))
    );
    assert_eq!(
        r.get(365).map(|x| x["date"].clone()),
        Some(json!("2026-01-01"))
    );
    for row in r {
        assert!(row["clicks"].as_i64() <= row["views"].as_i64());
    }
}

#[test]
fn events_are_semi_uniform() {
    let v = events(200);
    let r = rows(&v, "logs");
    let with_error = r.iter().filter(|e| e.get("error").is_some()).count();
    assert!(with_error > 10 && with_error < 100, "{with_error}");
    assert!(
        r.iter()
            .filter(|e| e.get("error").is_some())
            .all(|e| e["level"] == "error")
    );
    let stamps: Vec<&str> = r.iter().filter_map(|e| e["timestamp"].as_str()).collect();
    assert!(
        stamps.windows(2).all(|w| w[0] < w[1]),
        "timestamps increase"
    );
}

#[test]
fn config_is_deep() {
    let v = config(5);
    assert!(depth(&v) >= 7, "depth {}", depth(&v));
}

#[test]
fn flags_are_a_keyed_table() {
    let v = flags(30);
    let map = v["flags"].as_object().cloned().unwrap_or_default();
    assert_eq!(map.len(), 30);
    let keys = |x: &Value| x.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>());
    let first = map.values().next().and_then(keys);
    assert!(first.is_some());
    assert!(map.values().all(|x| keys(x) == first));
}

#[test]
fn contacts_have_nested_groups() {
    let v = contacts(20);
    for c in rows(&v, "contacts") {
        assert_eq!(c["address"].as_object().map(|m| m.len()), Some(4));
        assert_eq!(c["plan"].as_object().map(|m| m.len()), Some(3));
    }
}

#[test]
fn tickets_need_quoting() {
    let v = tickets(60);
    let bodies: String = rows(&v, "tickets")
        .iter()
        .filter_map(|t| t["body"].as_str())
        .collect();
    for c in [',', ':', '"', '\n'] {
        assert!(bodies.contains(c), "no {c:?} in bodies");
    }
}

#[test]
fn sized_datasets_land_near_the_target() {
    for d in Dataset::ALL {
        for target in [20_000, 100_000] {
            let count = d.count_for_bytes(target);
            let len = pretty_len(&d.generate_json(count));
            let ratio = len as f64 / target as f64;
            assert!(
                (0.9..1.1).contains(&ratio),
                "{d:?} at {target}: {len} bytes ({count} units)"
            );
        }
    }
}
