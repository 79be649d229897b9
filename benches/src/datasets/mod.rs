//! Deterministic benchmark datasets: the same arguments give the same data, byte for
//! byte, on every machine (see [`crate::rng`]).
//!
//! Each generator takes a count (records, days, services or flags) and returns a
//! `serde_json::Value` with keys in a fixed order; [`Dataset`] lists them all, converts
//! to [`toon::Value`], and picks a count for a target size:
//!
//! ```
//! use toon_benches::datasets::{Dataset, employees};
//!
//! let small = employees(3);
//! assert_eq!(small["employees"].as_array().map(Vec::len), Some(3));
//!
//! // About 100 KB of pretty JSON; use 10_000_000 for the large variant.
//! let (count, value) = Dataset::Employees.sized(100_000);
//! assert!(count > 100);
//! assert!(value.is_container());
//! ```

mod analytics;
mod common;
mod config;
mod contacts;
mod employees;
mod events;
mod flags;
mod orders;
mod tickets;

pub use analytics::analytics;
pub use config::config;
pub use contacts::contacts;
pub use employees::employees;
pub use events::events;
pub use flags::flags;
pub use orders::orders;
pub use tickets::tickets;

/// One of the generated datasets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dataset {
    /// [`employees`]: uniform flat records.
    Employees,
    /// [`orders`]: orders with a nested customer and a table of items.
    Orders,
    /// [`analytics`]: daily metrics, a numeric time series.
    Analytics,
    /// [`events`]: semi-uniform logs, some entries with a nested error.
    Events,
    /// [`config`]: a deeply nested configuration.
    Config,
    /// [`flags`]: feature flags keyed by name (a keyed table).
    Flags,
    /// [`contacts`]: contacts with nested address and plan groups.
    Contacts,
    /// [`tickets`]: support tickets with long strings that need quotes.
    Tickets,
}

impl Dataset {
    /// Every dataset, in report order.
    pub const ALL: [Dataset; 8] = [
        Dataset::Employees,
        Dataset::Orders,
        Dataset::Analytics,
        Dataset::Events,
        Dataset::Config,
        Dataset::Flags,
        Dataset::Contacts,
        Dataset::Tickets,
    ];

    /// A short identifier, such as `employees`.
    pub fn slug(self) -> &'static str {
        match self {
            Dataset::Employees => "employees",
            Dataset::Orders => "orders",
            Dataset::Analytics => "analytics",
            Dataset::Events => "events",
            Dataset::Config => "config",
            Dataset::Flags => "flags",
            Dataset::Contacts => "contacts",
            Dataset::Tickets => "tickets",
        }
    }

    /// A title for reports.
    pub fn title(self) -> &'static str {
        match self {
            Dataset::Employees => "Uniform employee records",
            Dataset::Orders => "E-commerce orders with nested structures",
            Dataset::Analytics => "Time-series analytics",
            Dataset::Events => "Semi-uniform event logs",
            Dataset::Config => "Deeply nested configuration",
            Dataset::Flags => "Feature flags keyed by name (keyed tabular)",
            Dataset::Contacts => "Contacts with nested address/plan groups (nested field groups)",
            Dataset::Tickets => "Support tickets with long strings needing quotes",
        }
    }

    /// What the count passed to [`Dataset::generate`] counts.
    pub fn unit(self) -> &'static str {
        match self {
            Dataset::Employees => "employees",
            Dataset::Orders => "orders",
            Dataset::Analytics => "days",
            Dataset::Events => "log entries",
            Dataset::Config => "services",
            Dataset::Flags => "flags",
            Dataset::Contacts => "contacts",
            Dataset::Tickets => "tickets",
        }
    }

    /// The dataset with `count` units, as JSON.
    pub fn generate_json(self, count: usize) -> serde_json::Value {
        match self {
            Dataset::Employees => employees(count),
            Dataset::Orders => orders(count),
            Dataset::Analytics => analytics(count),
            Dataset::Events => events(count),
            Dataset::Config => config(count),
            Dataset::Flags => flags(count),
            Dataset::Contacts => contacts(count),
            Dataset::Tickets => tickets(count),
        }
    }

    /// The dataset with `count` units.
    pub fn generate(self, count: usize) -> toon::Value {
        toon::Value::from(self.generate_json(count))
    }

    /// The count whose pretty JSON (2-space indent) is closest to `target_bytes` from
    /// below or just above, found by measuring a sample and scaling; at least 1.
    pub fn count_for_bytes(self, target_bytes: usize) -> usize {
        const SAMPLE: usize = 64;
        let fixed = pretty_len(&self.generate_json(0));
        let sample = pretty_len(&self.generate_json(SAMPLE));
        let per_unit = (sample.saturating_sub(fixed) / SAMPLE).max(1);
        let mut count = (target_bytes.saturating_sub(fixed) / per_unit).max(1);
        // One correction step: per-unit sizes grow slowly with the count (longer ids).
        let actual = pretty_len(&self.generate_json(count));
        if actual > 0 && count > SAMPLE {
            count = ((count as f64) * (target_bytes as f64) / (actual as f64)).round() as usize;
        }
        count.max(1)
    }

    /// The dataset at about `target_bytes` of pretty JSON: `(count, value)`.
    pub fn sized(self, target_bytes: usize) -> (usize, toon::Value) {
        let count = self.count_for_bytes(target_bytes);
        (count, self.generate(count))
    }
}

/// Length of `JSON.stringify(value, null, 2)`.
fn pretty_len(value: &serde_json::Value) -> usize {
    serde_json::to_string_pretty(value).map_or(0, |s| s.len())
}

#[cfg(test)]
mod tests;
