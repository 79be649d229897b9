//! A deeply nested configuration: objects inside objects, few arrays, little repetition
//! of shape — TOON's weakest case.

use serde_json::{Value, json};

use crate::rng::Rng;
use crate::words::{ADJECTIVES, NOUNS, TEAMS};

/// The fixed seed of this dataset.
const SEED: u64 = 0x0E31_0005;

/// A deployment configuration with `services` services, each nested six levels deep.
pub fn config(services: usize) -> Value {
    let mut rng = Rng::new(SEED);
    let mut names: Vec<String> = Vec::with_capacity(services);
    let mut map = serde_json::Map::new();
    for n in 0..services {
        let name = format!("{}-{}-{n}", rng.pick(&ADJECTIVES), rng.pick(&NOUNS));
        let depends: Vec<Value> = names
            .iter()
            .rev()
            .take(rng.range(0, 2) as usize)
            .map(|d| Value::from(d.as_str()))
            .collect();
        map.insert(name.clone(), service(&mut rng, &name, depends));
        names.push(name);
    }
    json!({
        "app": {
            "name": "toonkit-demo",
            "version": "3.2.1",
            "environment": "production",
            "region": {
                "primary": "eu-west-1",
                "failover": {
                    "region": "us-east-1",
                    "mode": "active-passive",
                    "healthCheck": {
                        "path": "/health",
                        "interval": {"seconds": 10, "jitter": {"min": 0, "max": 3}},
                    },
                },
            },
        },
        "services": map,
        "observability": {
            "logging": {"level": "info", "format": "json", "sinks": {"stdout": {"enabled": true}, "file": {"enabled": false, "path": "/var/log/app.log"}}},
            "metrics": {"enabled": true, "exporter": {"kind": "prometheus", "port": 9090, "scrape": {"interval": "15s", "timeout": "5s"}}},
            "tracing": {"enabled": true, "sampler": {"type": "ratio", "ratio": 0.1}},
        },
    })
}

fn service(rng: &mut Rng, name: &str, depends_on: Vec<Value>) -> Value {
    let cpu = 250 * rng.range(1, 8);
    let memory = 256 * rng.range(1, 16);
    let port = 8000 + rng.range(0, 99);
    json!({
        "image": {
            "repository": format!("registry.example/{}/{name}", rng.pick(&TEAMS)),
            "tag": format!("v{}.{}.{}", rng.range(1, 4), rng.range(0, 20), rng.range(0, 9)),
            "pullPolicy": if rng.chance(0.7) { "IfNotPresent" } else { "Always" },
        },
        "replicas": {
            "min": rng.range(1, 3),
            "max": rng.range(4, 20),
            "autoscale": {
                "enabled": rng.chance(0.6),
                "targets": {
                    "cpu": {"utilization": rng.range(50, 85)},
                    "memory": {"utilization": rng.range(60, 90)},
                },
            },
        },
        "resources": {
            "limits": {"cpu": format!("{}m", cpu * 2), "memory": format!("{}Mi", memory * 2)},
            "requests": {"cpu": format!("{cpu}m"), "memory": format!("{memory}Mi")},
        },
        "network": {
            "ports": [{"name": "http", "port": port, "protocol": "TCP"}],
            "ingress": {
                "enabled": rng.chance(0.5),
                "host": format!("{name}.example.com"),
                "tls": {"enabled": true, "secretName": format!("{name}-tls")},
                "annotations": {
                    "nginx.ingress.kubernetes.io/proxy-body-size": format!("{}m", rng.range(1, 50)),
                },
            },
        },
        "env": {
            "LOG_LEVEL": if rng.chance(0.8) { "info" } else { "debug" },
            "MAX_CONNECTIONS": rng.range(10, 500).to_string(),
            "CACHE_TTL_SECONDS": rng.range(30, 3600).to_string(),
        },
        "probes": {
            "liveness": {"http": {"path": "/healthz", "port": port}, "periodSeconds": 10},
            "readiness": {"http": {"path": "/ready", "port": port}, "periodSeconds": 5, "failureThreshold": 3},
        },
        "dependsOn": depends_on,
    })
}
