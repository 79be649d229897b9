//! Numbers as they come back from TOON. TOON writes a number in its canonical form
//! (`5.0` and `1e3` are written `5` and `1000`), so a float whose canonical form is an
//! integer literal reads back as that integer. The markdown writers (workflow
//! markdown, the Cursor head) write numbers in this form, so a plan has one canonical
//! text before and after a trip through plan-model TOON, and the layout patch that
//! keeps a source's own number text (`5.0s`, `1e3`) holds for both; plans read back
//! from a patched text are compared with their numbers in this form.

use serde_json::{Number, Value};

use crate::model::Plan;

/// Deepest nesting walked; a plan deeper than this (which no reader produces: the
/// readers bound their depth lower) is left as it is below that level.
const MAX_DEPTH: usize = 1000;

/// `number` as TOON gives it back: an integer when its canonical TOON text is an
/// integer literal that fits 64 bits, otherwise unchanged.
pub fn number(n: &Number) -> Number {
    let Some(f) = n.as_f64().filter(|_| n.is_f64()) else {
        return n.clone();
    };
    let Some(canonical) = toon::value::Number::from_f64(f) else {
        return n.clone();
    };
    let mut text = String::new();
    canonical.write_canonical(&mut text);
    if let Ok(u) = text.parse::<u64>() {
        Number::from(u)
    } else if let Ok(i) = text.parse::<i64>() {
        Number::from(i)
    } else {
        n.clone()
    }
}

/// Gives every number in `value` its TOON form ([`number`]).
pub fn value(v: &mut Value) {
    walk(v, 0);
}

fn walk(v: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Number(n) => *n = number(n),
        Value::Array(a) => a.iter_mut().for_each(|x| walk(x, depth + 1)),
        Value::Object(o) => o.values_mut().for_each(|x| walk(x, depth + 1)),
        _ => {}
    }
}

/// The plan as it reads back from plan-model TOON: every number in its TOON form.
pub fn plan(p: &Plan) -> Plan {
    let Ok(mut tree) = serde_json::to_value(p) else {
        return p.clone();
    };
    value(&mut tree);
    serde_json::from_value(tree).unwrap_or_else(|_| p.clone())
}

/// Whether two plans are the same once their numbers are in TOON form.
pub fn same_plan(a: &Plan, b: &Plan) -> bool {
    a == b || plan(a) == plan(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialects::DialectId;
    use crate::syntax::format::{Document, Format};
    use serde_json::json;

    /// The forms are the ones a trip through plan-model TOON gives.
    #[test]
    fn numbers_take_the_form_a_plan_toon_trip_gives_them() {
        let numbers = json!([
            5.0,
            20.5,
            1e3,
            -0.0,
            -3.0,
            0.1,
            1e21,
            1e300,
            7,
            -7,
            18446744073709551615u64,
            1e19,
            3.5e-7,
            123456.0
        ]);
        let mut p = Plan::default();
        p.extra.insert("numbers".into(), numbers.clone());
        p.extra
            .insert("nested".into(), json!({ "a": [{ "b": 2.0 }] }));
        let plan_dialect = DialectId::PLAN.dialect();
        let text = plan_dialect.write(&p, Format::Toon).unwrap();
        let doc = Document::parse(&text, Format::Toon).unwrap();
        let back = plan_dialect.read(&doc).unwrap().plan;
        assert_ne!(back, p, "the trip changes some numbers: {text}");
        assert_eq!(plan(&p), back, "{text}");
        assert!(same_plan(&p, &back));
        assert_eq!(back.extra["nested"], json!({ "a": [{ "b": 2 }] }));
    }
}
