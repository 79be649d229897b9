//! Word lists the datasets draw from.

/// Given names.
pub const FIRST_NAMES: [&str; 32] = [
    "Ada",
    "Alan",
    "Grace",
    "Linus",
    "Margaret",
    "Dennis",
    "Barbara",
    "Ken",
    "Frances",
    "Edsger",
    "Katherine",
    "John",
    "Radia",
    "Tim",
    "Hedy",
    "Donald",
    "Sophie",
    "Guido",
    "Annie",
    "Bjarne",
    "Jean",
    "Niklaus",
    "Mary",
    "Yukihiro",
    "Karen",
    "Brian",
    "Lynn",
    "James",
    "Shafi",
    "Leslie",
    "Carol",
    "Rasmus",
];

/// Family names.
pub const LAST_NAMES: [&str; 32] = [
    "Lovelace",
    "Turing",
    "Hopper",
    "Torvalds",
    "Hamilton",
    "Ritchie",
    "Liskov",
    "Thompson",
    "Allen",
    "Dijkstra",
    "Johnson",
    "McCarthy",
    "Perlman",
    "Berners-Lee",
    "Lamarr",
    "Knuth",
    "Wilson",
    "van Rossum",
    "Easley",
    "Stroustrup",
    "Sammet",
    "Wirth",
    "Keller",
    "Matsumoto",
    "Spärck Jones",
    "Kernighan",
    "Conway",
    "Gosling",
    "Goldwasser",
    "Lamport",
    "Shaw",
    "Lerdorf",
];

/// Company departments.
pub const DEPARTMENTS: [&str; 8] = [
    "Engineering",
    "Sales",
    "Marketing",
    "Finance",
    "Operations",
    "Support",
    "Legal",
    "Research",
];

/// Email domains.
pub const DOMAINS: [&str; 6] = [
    "example.com",
    "example.org",
    "mail.example.net",
    "corp.example",
    "example.co.uk",
    "acme.example",
];

/// Cities with their country codes.
pub const CITIES: [(&str, &str); 16] = [
    ("Berlin", "DE"),
    ("London", "GB"),
    ("Paris", "FR"),
    ("Madrid", "ES"),
    ("Rome", "IT"),
    ("Amsterdam", "NL"),
    ("Vienna", "AT"),
    ("Zürich", "CH"),
    ("New York", "US"),
    ("San Francisco", "US"),
    ("Toronto", "CA"),
    ("São Paulo", "BR"),
    ("Tokyo", "JP"),
    ("Seoul", "KR"),
    ("Sydney", "AU"),
    ("Cape Town", "ZA"),
];

/// Street names.
pub const STREETS: [&str; 12] = [
    "Main Street",
    "Oak Avenue",
    "Station Road",
    "Harbour View",
    "Mill Lane",
    "Church Street",
    "Park Road",
    "High Street",
    "Elm Way",
    "Market Square",
    "River Walk",
    "Hill Crescent",
];

/// Products with their unit price in cents.
pub const PRODUCTS: [(&str, u32); 16] = [
    ("Mechanical Keyboard", 12999),
    ("Wireless Mouse", 2999),
    ("USB-C Hub", 4599),
    ("27-inch Monitor", 32900),
    ("Laptop Stand", 3999),
    ("Noise-Cancelling Headphones", 24999),
    ("Webcam 1080p", 6999),
    ("Desk Lamp", 2499),
    ("Ergonomic Chair", 45900),
    ("Standing Desk", 59900),
    ("Cable Organizer", 1299),
    ("Portable SSD 1TB", 10999),
    ("Microphone", 8999),
    ("Docking Station", 18999),
    ("Mouse Pad XL", 1999),
    ("Screen Cleaner Kit", 899),
];

/// Order states.
pub const ORDER_STATUSES: [&str; 5] = ["pending", "paid", "shipped", "delivered", "refunded"];

/// API endpoints.
pub const ENDPOINTS: [&str; 10] = [
    "/api/users",
    "/api/users/{id}",
    "/api/orders",
    "/api/orders/{id}",
    "/api/products",
    "/api/search",
    "/api/auth/login",
    "/api/auth/refresh",
    "/api/reports/daily",
    "/health",
];

/// Error messages of failed requests.
pub const ERROR_MESSAGES: [&str; 6] = [
    "upstream timed out after 30s",
    "connection reset by peer",
    "invalid token: signature mismatch",
    "rate limit exceeded",
    "database deadlock detected",
    "payload too large",
];

/// Adjectives, for flag and service names.
pub const ADJECTIVES: [&str; 16] = [
    "new", "fast", "smart", "dark", "legacy", "instant", "beta", "unified", "async", "bulk",
    "live", "secure", "simple", "global", "mobile", "batch",
];

/// Nouns, for flag and service names.
pub const NOUNS: [&str; 16] = [
    "checkout",
    "search",
    "billing",
    "onboarding",
    "dashboard",
    "export",
    "invoices",
    "profile",
    "pricing",
    "reports",
    "sync",
    "upload",
    "inbox",
    "gateway",
    "cache",
    "ledger",
];

/// Team names.
pub const TEAMS: [&str; 6] = [
    "payments", "growth", "platform", "identity", "data", "mobile",
];

/// Subscription tiers with seats range.
pub const TIERS: [&str; 4] = ["free", "starter", "business", "enterprise"];

/// Phrases for support tickets; many hold commas, colons or quotes.
pub const TICKET_PHRASES: [&str; 16] = [
    "I tried logging in, but the page just reloads",
    "Error: \"session expired\" appears after 5 minutes",
    "The export button says: Not available",
    "Steps: open settings, click Billing, then Save",
    "it worked yesterday; today it doesn't",
    "our admin (Jane) can't see the invoices tab",
    "the CSV has an extra column, \"notes\", at the end",
    "Expected: 3 items, got: 4",
    "we use SSO - Okta, specifically",
    "see attached screenshot [image.png]",
    "Priority: high - blocking payroll",
    "the date shows as 2025-01-02, not 02/01/2025",
    "Version 4.2.1, Chrome 126, macOS",
    "pressing \"Retry\" does nothing",
    "Any update? It's been 3 days",
    "Thanks, that fixed it!",
];

/// Ticket subjects.
pub const TICKET_SUBJECTS: [&str; 8] = [
    "Login loop after password reset",
    "Invoice totals off by one cent",
    "Export: missing rows",
    "\"Access denied\" on shared folder",
    "Slow dashboard, 30s+ load",
    "Webhook retries, duplicates",
    "Feature request: dark mode",
    "Question - API limits?",
];
