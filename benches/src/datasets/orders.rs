//! E-commerce orders: a nested customer object and a table of line items per order.

use serde_json::{Value, json};

use super::common::{email, full_name, money, phone};
use crate::calendar::{DAY_2025_01_01, date};
use crate::rng::Rng;
use crate::words::{ORDER_STATUSES, PRODUCTS};

/// The fixed seed of this dataset.
const SEED: u64 = 0x0E31_0002;

/// `{"orders": [...]}` with `count` orders of one to five line items each.
pub fn orders(count: usize) -> Value {
    let mut rng = Rng::new(SEED);
    let rows: Vec<Value> = (1..=count)
        .map(|n| {
            let customer_id = rng.range(1, (count as i64 / 3).max(1));
            let name = full_name(&mut rng);
            let lines = rng.range(1, 5);
            let mut subtotal = 0i64;
            let items: Vec<Value> = (0..lines)
                .map(|_| {
                    let (index, &(product, cents)) = rng.pick_indexed(&PRODUCTS);
                    let quantity = rng.range(1, 4);
                    subtotal += i64::from(cents) * quantity;
                    json!({
                        "sku": format!("SKU-{:04}", index * 37 + 1000),
                        "name": product,
                        "quantity": quantity,
                        "price": money(i64::from(cents)),
                    })
                })
                .collect();
            let tax = subtotal * 8 / 100;
            json!({
                "orderId": format!("ORD-{n:06}"),
                "customer": {
                    "id": customer_id,
                    "name": name,
                    "email": email(&mut rng, &name, customer_id as usize),
                    "phone": phone(&mut rng),
                },
                "items": items,
                "subtotal": money(subtotal),
                "tax": money(tax),
                "total": money(subtotal + tax),
                "status": rng.pick(&ORDER_STATUSES),
                "orderDate": date(DAY_2025_01_01 + rng.range(0, 364)),
            })
        })
        .collect();
    json!({ "orders": rows })
}
