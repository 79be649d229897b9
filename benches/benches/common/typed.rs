//! Typed Rust structs for every dataset, to time encoding from and decoding straight to
//! `#[derive(Serialize, Deserialize)]` types (`toon::to_string`, `toon::from_str`).
//!
//! Field names follow the generators in `toon_benches::datasets` (camelCase keys, the
//! same key order), so serialising a struct gives the same document as the generated
//! value; keyed collections use `IndexMap` to keep their order.

use std::fmt::Debug;

use indexmap::IndexMap;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use toon_benches::datasets::Dataset;

/// A dataset's root type: what the typed benchmarks encode and decode.
pub trait Typed: Serialize + DeserializeOwned + PartialEq + Debug {}

impl<T: Serialize + DeserializeOwned + PartialEq + Debug> Typed for T {}

/// Something to do with a dataset's root type, chosen at run time by [`with_typed`]
/// (a closure that is generic over the type).
pub trait TypedFn {
    /// What the action returns.
    type Output;
    /// Runs the action with `T` as the dataset's root type.
    fn call<T: Typed>(self) -> Self::Output;
}

/// Runs `action` with the root type of `dataset`.
pub fn with_typed<F: TypedFn>(dataset: Dataset, action: F) -> F::Output {
    match dataset {
        Dataset::Employees => action.call::<EmployeesDoc>(),
        Dataset::Orders => action.call::<OrdersDoc>(),
        Dataset::Analytics => action.call::<AnalyticsDoc>(),
        Dataset::Events => action.call::<EventsDoc>(),
        Dataset::Config => action.call::<ConfigDoc>(),
        Dataset::Flags => action.call::<FlagsDoc>(),
        Dataset::Contacts => action.call::<ContactsDoc>(),
        Dataset::Tickets => action.call::<TicketsDoc>(),
    }
}

/// `{"employees": [...]}`.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct EmployeesDoc {
    employees: Vec<Employee>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Employee {
    id: u64,
    name: String,
    email: String,
    department: String,
    salary: i64,
    years_experience: i64,
    active: bool,
}

/// `{"orders": [...]}`.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct OrdersDoc {
    orders: Vec<Order>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Order {
    order_id: String,
    customer: Customer,
    items: Vec<LineItem>,
    subtotal: f64,
    tax: f64,
    total: f64,
    status: String,
    order_date: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Customer {
    id: i64,
    name: String,
    email: String,
    phone: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct LineItem {
    sku: String,
    name: String,
    quantity: i64,
    price: f64,
}

/// `{"metrics": [...]}`.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct AnalyticsDoc {
    metrics: Vec<Metric>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Metric {
    date: String,
    views: i64,
    clicks: i64,
    conversions: i64,
    revenue: f64,
    bounce_rate: f64,
}

/// `{"logs": [...]}`.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct EventsDoc {
    logs: Vec<LogEntry>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct LogEntry {
    timestamp: String,
    level: String,
    endpoint: String,
    status_code: i64,
    response_time: i64,
    user_id: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<LogError>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct LogError {
    message: String,
    code: String,
    retryable: bool,
}

/// The deployment configuration.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct ConfigDoc {
    app: App,
    services: IndexMap<String, Service>,
    observability: Observability,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct App {
    name: String,
    version: String,
    environment: String,
    region: Region,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Region {
    primary: String,
    failover: Failover,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Failover {
    region: String,
    mode: String,
    health_check: HealthCheck,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct HealthCheck {
    path: String,
    interval: Interval,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Interval {
    seconds: i64,
    jitter: MinMax,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct MinMax {
    min: i64,
    max: i64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Service {
    image: Image,
    replicas: Replicas,
    resources: Resources,
    network: Network,
    env: Env,
    probes: Probes,
    depends_on: Vec<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Image {
    repository: String,
    tag: String,
    pull_policy: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Replicas {
    min: i64,
    max: i64,
    autoscale: Autoscale,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Autoscale {
    enabled: bool,
    targets: Targets,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Targets {
    cpu: Utilization,
    memory: Utilization,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Utilization {
    utilization: i64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Resources {
    limits: CpuMemory,
    requests: CpuMemory,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct CpuMemory {
    cpu: String,
    memory: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Network {
    ports: Vec<Port>,
    ingress: Ingress,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Port {
    name: String,
    port: i64,
    protocol: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Ingress {
    enabled: bool,
    host: String,
    tls: Tls,
    annotations: Annotations,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Tls {
    enabled: bool,
    secret_name: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Annotations {
    #[serde(rename = "nginx.ingress.kubernetes.io/proxy-body-size")]
    proxy_body_size: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
struct Env {
    log_level: String,
    max_connections: String,
    cache_ttl_seconds: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Probes {
    liveness: Probe,
    readiness: Probe,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Probe {
    http: HttpProbe,
    period_seconds: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    failure_threshold: Option<i64>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct HttpProbe {
    path: String,
    port: i64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Observability {
    logging: Logging,
    metrics: Metrics,
    tracing: Tracing,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Logging {
    level: String,
    format: String,
    sinks: Sinks,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Sinks {
    stdout: Enabled,
    file: FileSink,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Enabled {
    enabled: bool,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct FileSink {
    enabled: bool,
    path: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Metrics {
    enabled: bool,
    exporter: Exporter,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Exporter {
    kind: String,
    port: i64,
    scrape: Scrape,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Scrape {
    interval: String,
    timeout: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Tracing {
    enabled: bool,
    sampler: Sampler,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Sampler {
    #[serde(rename = "type")]
    kind: String,
    ratio: f64,
}

/// `{"flags": {"<name>": {...}, ...}}`.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct FlagsDoc {
    flags: IndexMap<String, Flag>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Flag {
    enabled: bool,
    rollout: i64,
    owner: String,
    created_at: String,
    description: String,
}

/// `{"contacts": [...]}`.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct ContactsDoc {
    contacts: Vec<Contact>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Contact {
    id: u64,
    name: String,
    email: String,
    address: Address,
    plan: Plan,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Address {
    street: String,
    city: String,
    postal_code: String,
    country: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Plan {
    tier: String,
    seats: i64,
    renews_on: String,
}

/// `{"tickets": [...]}`.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
pub struct TicketsDoc {
    tickets: Vec<Ticket>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Ticket {
    id: u64,
    subject: String,
    status: String,
    opened_at: String,
    body: String,
}
