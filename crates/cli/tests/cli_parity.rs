//! Our `toon` beside the reference CLI (`@toon-format/cli`, pinned in
//! `scripts/parity/package.json`) on the same invocations, and the table of what each
//! does: `docs/cli-parity.md` is this test's output (`UPDATE_PARITY=1` rewrites it; a
//! run that finds another table fails).
//!
//! Each case says whether the two must agree — same exit status, same stdout, same
//! output file, and after success the same stderr — or differ, with the reason (a
//! documented improvement). A case marked as agreeing that differs fails the test, and
//! so does one marked as differing that agrees (its note would be stale).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// One invocation: arguments, stdin, and `None` if both CLIs must agree or the reason
/// they differ.
struct Case {
    args: &'static [&'static str],
    stdin: Option<&'static str>,
    differs: Option<&'static str>,
}

const fn same(args: &'static [&'static str]) -> Case {
    Case {
        args,
        stdin: None,
        differs: None,
    }
}

const fn differs(args: &'static [&'static str], why: &'static str) -> Case {
    Case {
        args,
        stdin: None,
        differs: Some(why),
    }
}

const fn piped(args: &'static [&'static str], stdin: &'static str) -> Case {
    Case {
        args,
        stdin: Some(stdin),
        differs: None,
    }
}

const CASES: &[Case] = &[
    same(&["data.json"]),
    same(&["data.toon"]),
    same(&["users.json"]),
    piped(&[], r#"{"x":[1,2,3]}"#),
    piped(&["-"], r#"{"x":[1,2,3]}"#),
    piped(&["-d"], "x[3]: 1,2,3"),
    piped(&["--decode"], "x[3]: 1,2,3"),
    same(&["-e", "data.json"]),
    same(&["--encode", "data.json"]),
    same(&["-d", "data.toon"]),
    same(&["-e", "-d", "data.json"]),
    same(&["-ed", "data.json"]),
    same(&["--decode=true", "data.json"]),
    same(&["--decode=false", "data.toon"]),
    same(&["--encode=0", "data.json"]),
    same(&["users.json", "--delimiter", "|"]),
    same(&["users.json", "--delimiter", "\t"]),
    same(&["users.json", "--delimiter="]),
    same(&["users.json", "--delimiter", ","]),
    same(&["data.json", "--indent", "4"]),
    same(&["data.json", "--indent=4"]),
    same(&["data.json", "--indent="]),
    same(&["data.json", "--indent", "0"]),
    same(&["data.json", "--indent=2.5"]),
    same(&["data.toon", "--indent", "4"]),
    same(&["data.json", "--indent", "-1"]),
    same(&["data.json", "--indent=abc"]),
    same(&["loose.toon", "--no-strict"]),
    same(&["loose.toon", "--strict=false"]),
    same(&["loose.toon", "--strict"]),
    same(&["loose.toon"]),
    same(&["data.json", "--stats=false"]),
    same(&["data.json", "--no-stats"]),
    same(&["data.json", "-o", "out.toon"]),
    same(&["data.toon", "-o", "out.json"]),
    same(&["data.json", "--output", "out.toon"]),
    same(&["data.json", "-o"]),
    same(&["data.json", "other.json"]),
    same(&["data.json", "--bogus"]),
    same(&["missing.json"]),
    same(&["bad.toon"]),
    same(&["stats"]),
    same(&["plan"]),
    same(&["data.json", "--delimiter", ";"]),
    same(&["bad.json"]),
    differs(
        &["big.json"],
        "integers beyond 2^53 stay exact (the reference rounds them to the nearest double)",
    ),
    differs(
        &["data.json", "--stats"],
        "exact o200k_base counts (the reference prints estimates, `~N`)",
    ),
    differs(
        &["users.json", "--delimiter", "tab"],
        "`tab` (and `\\t`) name the tab delimiter; the reference takes only the character",
    ),
    differs(
        &["users.toon", "--jsonl"],
        "`--jsonl` (JSON Lines) is ours; the reference rejects the flag",
    ),
    differs(&["--version"], "each prints its own name and version"),
    differs(&["--help"], "each prints its own help"),
];

/// The inputs every case may name, written into a fresh folder.
const FILES: &[(&str, &str)] = &[
    (
        "data.json",
        r#"{"name":"Ada","tags":["x","y"],"nested":{"a":1,"b":[{"k":1},{"k":2}]},"n":1.5}"#,
    ),
    ("data.toon", "name: Ada\ntags[2]: x,y\nnested:\n  a: 1\n"),
    ("other.json", "[1]"),
    (
        "users.json",
        r#"{"users":[{"id":1,"name":"Ada","role":"admin"},{"id":2,"name":"Bob","role":"user"}]}"#,
    ),
    ("users.toon", "users[2]{id,name}:\n  1,Ada\n  2,Bob\n"),
    ("loose.toon", "a[3]: 1,2\nb: 1\n"),
    ("bad.toon", "a[2]: 1\n"),
    ("bad.json", "{'a': 1}"),
    ("big.json", r#"{"n":123456789012345678901234567890}"#),
    ("stats", r#"{"file":"named stats"}"#),
    ("plan", r#"{"file":"named plan"}"#),
];

/// What one CLI did.
#[derive(PartialEq)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// The output file's content, for `-o` cases.
    written: Option<String>,
}

impl Run {
    /// The one line the table shows: the exit status and the first line of output.
    fn summary(&self) -> String {
        let first = |s: &str| {
            s.lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_owned()
        };
        let line = if let Some(w) = &self.written {
            format!("file: {}", first(w))
        } else if !self.stdout.trim().is_empty() {
            first(&self.stdout)
        } else {
            first(&self.stderr)
        };
        let line: String = line
            .chars()
            .take(60)
            .map(|c| if c == '\t' { '→' } else { c })
            .collect();
        format!(
            "{} · `{}`",
            self.code.map_or("signal".into(), |c| format!("exit {c}")),
            line.replace('`', "'").replace('|', "\\|")
        )
    }

    /// Whether the two runs agree: the exit status, and after success stdout, the
    /// output file and stderr. After a failure only the status counts: messages are
    /// worded differently, and the reference leaves what it decoded before the error
    /// on stdout where ours prints nothing.
    fn agrees(&self, other: &Run) -> bool {
        self.code == other.code
            && (self.code != Some(0)
                || (self.stdout == other.stdout
                    && self.written == other.written
                    && self.stderr == other.stderr))
    }
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn run(mut cmd: Command, dir: &Path, case: &Case) -> Run {
    let _ = std::fs::remove_file(dir.join("out.toon"));
    let _ = std::fs::remove_file(dir.join("out.json"));
    cmd.args(case.args)
        .current_dir(dir)
        .stdin(if case.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn");
    if let Some(text) = case.stdin {
        use std::io::Write;
        let mut pipe = child.stdin.take().expect("stdin");
        let _ = pipe.write_all(text.as_bytes());
    }
    let o: Output = child.wait_with_output().expect("wait");
    let written = ["out.toon", "out.json"]
        .iter()
        .find_map(|n| std::fs::read_to_string(dir.join(n)).ok());
    // Paths in messages, relative to the folder the cases run in.
    let folder = format!("{}/", dir.display());
    let text = |bytes: &[u8]| strip_ansi(&String::from_utf8_lossy(bytes)).replace(&folder, "");
    Run {
        code: o.status.code(),
        stdout: text(&o.stdout),
        stderr: text(&o.stderr),
        written,
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The reference CLI's entry point, from `TOON_REFERENCE_CLI` or `scripts/parity`.
fn reference_cli() -> Option<PathBuf> {
    let path = std::env::var_os("TOON_REFERENCE_CLI")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            repo_root().join("scripts/parity/node_modules/@toon-format/cli/bin/toon.mjs")
        });
    path.is_file().then_some(path)
}

fn reference_command(entry: &Path) -> Command {
    let mut cmd = Command::new("node");
    cmd.arg("--import")
        .arg(repo_root().join("scripts/parity/polyfill.mjs"))
        .arg(entry);
    cmd
}

fn shown(args: &[&str]) -> String {
    let words: Vec<String> = args
        .iter()
        .map(|a| match *a {
            "" => "''".to_owned(),
            "\t" => "$'\\t'".to_owned(),
            a if a.contains([' ', '|', ';']) => format!("'{a}'"),
            a => a.to_owned(),
        })
        .collect();
    let mut line = String::from("toon");
    for w in words {
        line.push(' ');
        line.push_str(&w);
    }
    line.replace('|', "\\|")
}

#[test]
#[ignore = "needs Node.js and the reference CLI: `npm ci --prefix scripts/parity` (.ci/run installs it)"]
fn the_parity_table_is_what_both_clis_do() {
    let Some(entry) = reference_cli() else {
        panic!("the reference CLI is not installed: run `npm ci --prefix scripts/parity`");
    };
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in FILES {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    let version = Command::new("node")
        .arg(&entry)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let mut table = format!(
        "# The `toon` CLI beside the reference CLI\n\n\
         Generated by `crates/cli/tests/cli_parity.rs` (`UPDATE_PARITY=1 cargo test -p toon-cli --test cli_parity -- --ignored`),\n\
         which runs both on each invocation in a folder holding the inputs it names, and fails when a\n\
         row marked *same* differs or a row marked *differs* agrees. Reference: `@toon-format/cli`\n\
         {version} on Node.js. *Same* means the same exit status and, after success, the same stdout,\n\
         `-o` file and stderr. After a failure only the status is compared: our messages carry line,\n\
         column and a caret, and where the reference leaves what it decoded before the error on stdout\n\
         (or in the `-o` file), ours writes nothing.\n\n\
         | Invocation | Reference | toonkit | |\n|---|---|---|---|\n"
    );
    let mut wrong = Vec::new();
    for case in CASES {
        let ours = run(Command::new(env!("CARGO_BIN_EXE_toon")), dir.path(), case);
        let theirs = run(reference_command(&entry), dir.path(), case);
        let agree = ours.agrees(&theirs);
        let shown_case = match case.stdin {
            Some(text) => format!("`{}` ← `{}`", shown(case.args), text.replace('|', "\\|")),
            None => format!("`{}`", shown(case.args)),
        };
        match (agree, case.differs) {
            (true, None) => {}
            (false, Some(_)) => {}
            (false, None) => wrong.push(format!(
                "{shown_case}: expected the same, got\n  reference: {:?} {:?} {:?} {:?}\n  toonkit:   {:?} {:?} {:?} {:?}",
                theirs.code, theirs.stdout, theirs.stderr, theirs.written,
                ours.code, ours.stdout, ours.stderr, ours.written
            )),
            (true, Some(why)) => wrong.push(format!("{shown_case}: marked as differing ({why}) but both agree")),
        }
        let verdict = match case.differs {
            None => "same".to_owned(),
            Some(why) => format!("differs: {why}"),
        };
        table.push_str(&format!(
            "| {shown_case} | {} | {} | {verdict} |\n",
            theirs.summary(),
            ours.summary()
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let doc = repo_root().join("docs/cli-parity.md");
    if std::env::var_os("UPDATE_PARITY").is_some() {
        std::fs::write(&doc, &table).expect("write docs/cli-parity.md");
    }
    let committed = std::fs::read_to_string(&doc).unwrap_or_default();
    assert!(
        committed == table,
        "docs/cli-parity.md is not what the CLIs do now; rerun with UPDATE_PARITY=1:\n{table}"
    );
}
