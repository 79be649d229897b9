//! `-o PATH` has the effect of `> PATH` once the conversion has succeeded, for the codec
//! and for plan conversion alike: links followed and kept, hard links shared, owner and
//! mode kept, permissions checked as `>` checks them, a writable file in a read-only
//! folder written, no temporary file left behind by an error or a signal, a full disk
//! reported against the output file, and an output that is an input refused.
//!
//! The cases that need another user run the binary as `nobody` and are skipped (with
//! the reason printed) when this process is not root; the full-disk case mounts a small
//! tmpfs in a private mount namespace (`unshare`) and is skipped where that is refused.

#![cfg(unix)]
// Each case runs the codec (index 0) and plan convert (index 1) and compares with what
// that command writes: the index names the command.
#![allow(clippy::needless_range_loop)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const NOBODY: u32 = 65534;

/// A folder with a JSON input and a plan input, and the two ways to write to `-o`.
struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("in.json"), r#"{"a":[1,2],"b":"x"}"#).unwrap();
        std::fs::write(
            dir.path().join("p.json"),
            r#"{"dag":[{"id":"a","tool":"t","query":"q","dependencies":[]}]}"#,
        )
        .unwrap();
        Setup { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The codec's and plan convert's command lines writing to `out`.
    fn commands(&self, out: &Path) -> [Vec<String>; 2] {
        let s = |p: PathBuf| p.to_str().expect("utf-8 path").to_owned();
        let out = out.to_str().expect("utf-8 path").to_owned();
        [
            vec![s(self.path("in.json")), "-o".into(), out.clone()],
            vec![
                "plan".into(),
                "convert".into(),
                s(self.path("p.json")),
                "--to".into(),
                "plan".into(),
                "--format".into(),
                "toon".into(),
                "-o".into(),
                out,
            ],
        ]
    }

    /// What each command writes to a plain new file, for comparison.
    fn expected(&self) -> [Vec<u8>; 2] {
        let stdout = self.path("stdout-reference");
        let outs = self.commands(&stdout).map(|args| {
            let o = run(&args, None);
            assert!(o.status.success(), "{args:?}: {}", err(&o));
            std::fs::read(&stdout).unwrap()
        });
        std::fs::remove_file(&stdout).unwrap();
        outs
    }

    /// Names in the folder that look like our temporary files.
    fn temporaries(&self) -> Vec<String> {
        temporaries_in(self.dir.path())
    }
}

fn temporaries_in(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".toon-"))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs `toon`, as `user` (through `setpriv`, with no supplementary groups) if given.
fn run(args: &[String], user: Option<u32>) -> Output {
    as_user(env!("CARGO_BIN_EXE_toon"), user)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("run toon")
}

/// A command running `program` as `user` (or as this process's user).
fn as_user(program: &str, user: Option<u32>) -> Command {
    match user {
        None => Command::new(program),
        Some(uid) => {
            let mut cmd = Command::new("setpriv");
            cmd.args([
                format!("--reuid={uid}"),
                format!("--regid={uid}"),
                "--clear-groups".to_owned(),
                program.to_owned(),
            ]);
            cmd
        }
    }
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Whether the binary can run as `nobody` here (root, and a path `nobody` can reach);
/// prints why not.
fn can_run_as_nobody(why: &str) -> bool {
    if !is_root() {
        eprintln!("skipped ({why}): needs root to run the binary as nobody");
        return false;
    }
    let o = run(&["--version".to_owned()], Some(NOBODY));
    if !o.status.success() {
        eprintln!("skipped ({why}): nobody cannot run the test binary here");
        return false;
    }
    true
}

#[test]
fn links_at_the_output_stay_links_and_their_target_is_written() {
    let s = Setup::new();
    let expected = s.expected();
    for i in 0..2 {
        let real = s.path(&format!("real{i}.toon"));
        std::fs::write(&real, "old").unwrap();
        let link = s.path(&format!("link{i}.toon"));
        let link2 = s.path(&format!("link-to-link{i}.toon"));
        std::os::unix::fs::symlink(&real, &link).unwrap();
        std::os::unix::fs::symlink(&link, &link2).unwrap();
        let dangling = s.path(&format!("dangling{i}.toon"));
        let nowhere = s.path(&format!("not-yet{i}.toon"));
        std::os::unix::fs::symlink(&nowhere, &dangling).unwrap();
        for out in [&link, &link2] {
            std::fs::write(&real, "old").unwrap();
            let args = &s.commands(out)[i];
            let o = run(args, None);
            assert!(o.status.success(), "{args:?}: {}", err(&o));
            assert!(std::fs::symlink_metadata(out).unwrap().is_symlink());
            assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
            assert_eq!(std::fs::read(&real).unwrap(), expected[i], "{args:?}");
        }
        let args = &s.commands(&dangling)[i];
        let o = run(args, None);
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        assert!(std::fs::symlink_metadata(&dangling).unwrap().is_symlink());
        assert_eq!(std::fs::read(&nowhere).unwrap(), expected[i]);
    }
    assert_eq!(s.temporaries(), Vec::<String>::new());
}

#[test]
fn links_inside_a_plan_output_folder_are_followed() {
    let s = Setup::new();
    let plans = s.path("plans");
    std::fs::create_dir(&plans).unwrap();
    std::fs::copy(s.path("p.json"), plans.join("p.json")).unwrap();
    let out = s.path("out");
    std::fs::create_dir(&out).unwrap();
    let elsewhere = s.path("elsewhere.toon");
    std::fs::write(&elsewhere, "old").unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("p.toon")).unwrap();
    let args: Vec<String> = [
        "plan",
        "convert",
        plans.to_str().unwrap(),
        "--to",
        "plan",
        "--format",
        "toon",
        "-o",
        out.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    let o = run(&args, None);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        std::fs::symlink_metadata(out.join("p.toon"))
            .unwrap()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&elsewhere).unwrap(), s.expected()[1]);
}

#[test]
fn hard_links_stay_shared() {
    let s = Setup::new();
    let expected = s.expected();
    for i in 0..2 {
        let a = s.path(&format!("a{i}.toon"));
        let b = s.path(&format!("b{i}.toon"));
        std::fs::write(&a, "old").unwrap();
        std::fs::hard_link(&a, &b).unwrap();
        let args = &s.commands(&a)[i];
        let o = run(args, None);
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        assert_eq!(std::fs::read(&b).unwrap(), expected[i], "{args:?}");
        assert_eq!(std::fs::metadata(&a).unwrap().nlink(), 2);
    }
    assert_eq!(s.temporaries(), Vec::<String>::new());
}

#[test]
fn owner_and_mode_stay_as_they_were() {
    if !is_root() {
        eprintln!("skipped (owner and mode): needs root to give a file to nobody");
        return;
    }
    let s = Setup::new();
    for i in 0..2 {
        let out = s.path(&format!("theirs{i}.toon"));
        std::fs::write(&out, "old").unwrap();
        std::os::unix::fs::chown(&out, Some(NOBODY), Some(NOBODY)).unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
        let args = &s.commands(&out)[i];
        let o = run(args, None);
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        let meta = std::fs::metadata(&out).unwrap();
        assert_eq!((meta.uid(), meta.gid()), (NOBODY, NOBODY), "{args:?}");
        assert_eq!(meta.mode() & 0o7777, 0o640, "{args:?}");
        assert_ne!(std::fs::read(&out).unwrap(), b"old");
    }
}

/// A world-writable folder `nobody` works in, holding files it may not write.
fn shared_folder(s: &Setup) -> PathBuf {
    std::fs::set_permissions(s.dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    for name in ["in.json", "p.json"] {
        std::fs::set_permissions(s.path(name), std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    s.dir.path().to_owned()
}

#[test]
fn files_the_user_may_not_write_are_refused_as_the_shell_refuses_them() {
    if !can_run_as_nobody("permissions") {
        return;
    }
    let s = Setup::new();
    shared_folder(&s);
    // (owner, mode): root's read-only file, root's 644 file, the user's own 444 file.
    for (owner, mode) in [(0, 0o444), (0, 0o644), (NOBODY, 0o444)] {
        for i in 0..2 {
            let out = s.path(&format!("f{owner}-{mode:o}-{i}.toon"));
            std::fs::write(&out, "old").unwrap();
            std::os::unix::fs::chown(&out, Some(owner), Some(owner)).unwrap();
            std::fs::set_permissions(&out, std::fs::Permissions::from_mode(mode)).unwrap();
            // What `>` says, as this user.
            let shell = as_user("sh", Some(NOBODY))
                .arg("-c")
                .arg("printf x > \"$1\"")
                .arg("sh")
                .arg(&out)
                .output()
                .unwrap();
            assert!(!shell.status.success(), "the shell may write it: bad setup");
            let args = &s.commands(&out)[i];
            let o = run(args, Some(NOBODY));
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", err(&o));
            assert!(
                err(&o).contains(&format!(
                    "cannot write {}: permission denied",
                    out.display()
                )),
                "{args:?}: {}",
                err(&o)
            );
            assert_eq!(std::fs::read(&out).unwrap(), b"old");
            let meta = std::fs::metadata(&out).unwrap();
            assert_eq!((meta.uid(), meta.mode() & 0o777), (owner, mode));
        }
    }
    assert_eq!(s.temporaries(), Vec::<String>::new());
}

#[test]
fn a_writable_file_in_a_read_only_folder_is_written() {
    if !can_run_as_nobody("read-only folder") {
        return;
    }
    let s = Setup::new();
    shared_folder(&s);
    let expected = s.expected();
    let folder = s.path("locked");
    std::fs::create_dir(&folder).unwrap();
    for i in 0..2 {
        let out = folder.join(format!("mine{i}.toon"));
        std::fs::write(&out, "old").unwrap();
        std::os::unix::fs::chown(&out, Some(NOBODY), Some(NOBODY)).unwrap();
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        let args = &s.commands(&out)[i];
        let o = run(args, Some(NOBODY));
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        assert_eq!(std::fs::read(&out).unwrap(), expected[i]);
        let meta = std::fs::metadata(&out).unwrap();
        assert_eq!(meta.uid(), NOBODY);
        // A new file there is refused, as `>` refuses it.
        let new = folder.join(format!("new{i}.toon"));
        let o = run(&s.commands(&new)[i], Some(NOBODY));
        assert_eq!(o.status.code(), Some(1));
        assert!(
            err(&o).contains("permission denied") && !err(&o).contains(".toon-"),
            "{}",
            err(&o)
        );
    }
    assert_eq!(temporaries_in(&folder), Vec::<String>::new());
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let s = Setup::new();
    let inputs = [s.path("in.json"), s.path("p.json")];
    let before = inputs.clone().map(|p| std::fs::read(p).unwrap());
    let link = s.path("link.json");
    let hard = s.path("hard.json");
    for i in 0..2 {
        let _ = std::fs::remove_file(&link);
        let _ = std::fs::remove_file(&hard);
        std::os::unix::fs::symlink(&inputs[i], &link).unwrap();
        std::fs::hard_link(&inputs[i], &hard).unwrap();
        for out in [&inputs[i], &link, &hard] {
            // The plan conversion writes JSON, as the output's name says.
            let args: Vec<String> = s.commands(out)[i]
                .iter()
                .map(|a| {
                    if a == "toon" {
                        "json".to_owned()
                    } else {
                        a.clone()
                    }
                })
                .collect();
            let args = &args;
            let o = run(args, None);
            assert_eq!(o.status.code(), Some(1), "{args:?}");
            assert!(err(&o).contains("input"), "{args:?}: {}", err(&o));
            assert_eq!(std::fs::read(&inputs[i]).unwrap(), before[i], "{args:?}");
        }
    }
}

/// A big TOON document (a table of `rows` rows) for streamed decoding.
fn big_toon(rows: usize) -> String {
    let mut s = format!("items[{rows}]{{id,name}}:\n");
    for i in 0..rows {
        s.push_str(&format!("  {i},item number {i}\n"));
    }
    s
}

#[test]
fn a_signal_during_the_write_leaves_no_temporary_file() {
    // The decoder reads from a FIFO and writes as it goes: with half the input sent,
    // the temporary file exists and is growing; then the signal arrives.
    let s = Setup::new();
    let fifo = s.path("in.toon");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let text = big_toon(200_000);
    let (head, _) = text.split_at(text.len() / 2);
    for (signal, name) in [(15, "TERM"), (2, "INT"), (1, "HUP")] {
        let out = s.path("out.json");
        std::fs::write(&out, "old").unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_toon"))
            .args([fifo.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .env("TOON_WHOLE_TEXT_LIMIT", "0")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        std::io::Write::write_all(&mut writer, head.as_bytes()).unwrap();
        // Wait until the output has started (the temporary file holds data).
        let started = (0..500).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            s.temporaries()
                .iter()
                .any(|t| std::fs::metadata(s.path(t)).is_ok_and(|m| m.len() > 0))
        });
        assert!(started, "SIG{name}: no temporary output appeared");
        Command::new("kill")
            .args([format!("-{name}"), child.id().to_string()])
            .status()
            .unwrap();
        let status = child.wait_with_output().unwrap().status;
        drop(writer);
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(signal), "SIG{name}: {status:?}");
        assert_eq!(s.temporaries(), Vec::<String>::new(), "SIG{name}");
        assert_eq!(std::fs::read(&out).unwrap(), b"old", "SIG{name}");
    }
}

/// A tool DAG plan of `tasks` independent searches (about 90 bytes of JSON each).
fn tool_dag(tasks: usize) -> String {
    let steps: Vec<String> = (0..tasks)
        .map(|i| {
            format!(
                r#"{{"id":"t{i}","tool":"search","query":"what happened in the year {i}","dependencies":[]}}"#
            )
        })
        .collect();
    format!(r#"{{"dag":[{}]}}"#, steps.join(","))
}

#[test]
fn a_signal_during_a_plan_conversion_leaves_the_old_file_or_the_new_one() {
    let s = Setup::new();
    std::fs::write(s.path("p.json"), tool_dag(20_000)).unwrap();
    let out = s.path("out.toon");
    let args = &s.commands(&out)[1];
    let full = {
        let o = run(args, None);
        assert!(o.status.success(), "{}", err(&o));
        std::fs::read(&out).unwrap()
    };
    for delay_ms in [0, 10, 50, 100, 200, 400, 800] {
        std::fs::write(&out, "old").unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_toon"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        Command::new("kill")
            .args(["-TERM".to_owned(), child.id().to_string()])
            .status()
            .unwrap();
        child.wait_with_output().unwrap();
        let now = std::fs::read(&out).unwrap();
        assert!(now == b"old" || now == full, "delay {delay_ms} ms: partial");
        assert_eq!(s.temporaries(), Vec::<String>::new(), "delay {delay_ms} ms");
    }
}

#[test]
fn a_full_device_is_reported_against_the_output() {
    if !is_root() {
        eprintln!("skipped (full device): mknod needs root");
        return;
    }
    let s = Setup::new();
    let full = s.path("full");
    // The kernel's /dev/full (char 1,7): every write fails with ENOSPC.
    if !Command::new("mknod")
        .args([full.to_str().unwrap(), "c", "1", "7"])
        .status()
        .is_ok_and(|st| st.success())
    {
        eprintln!("skipped (full device): mknod refused");
        return;
    }
    for args in s.commands(&full) {
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            err(&o).contains(&format!(
                "cannot write {}: No space left on device",
                full.display()
            )),
            "{args:?}: {}",
            err(&o)
        );
    }
}

#[test]
fn a_full_disk_keeps_the_old_file_and_names_the_output() {
    let s = Setup::new();
    // Output larger than the 64 KiB file system: encoding, decoding, plan conversion.
    let mut big = String::from("[");
    for i in 0..20_000 {
        if i > 0 {
            big.push(',');
        }
        big.push_str(&format!("{{\"id\":{i},\"name\":\"item {i}\"}}"));
    }
    big.push(']');
    std::fs::write(s.path("in.json"), &big).unwrap();
    std::fs::write(s.path("in.toon"), big_toon(20_000)).unwrap();
    std::fs::write(s.path("p.json"), tool_dag(4_000)).unwrap();
    let mount = s.path("small");
    std::fs::create_dir(&mount).unwrap();
    let out = mount.join("out");
    let toon = env!("CARGO_BIN_EXE_toon");
    let mut commands = s.commands(&out).to_vec();
    commands.push(vec![
        s.path("in.toon").to_str().unwrap().to_owned(),
        "-o".into(),
        out.to_str().unwrap().to_owned(),
    ]);
    for args in commands {
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        let script = format!(
            "mount -t tmpfs -o size=64k tmpfs '{m}' || exit 90; printf old > '{o}'; '{toon}' {args}; echo \"rc=$?\"; cat '{o}'; echo; ls -A '{m}'",
            m = mount.display(),
            o = out.display(),
            args = quoted.join(" ")
        );
        let o = Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c", &script])
            .output();
        let o = match o {
            Ok(o) if o.status.code() != Some(90) && o.status.success() => o,
            _ => {
                eprintln!("skipped (full disk): cannot mount a tmpfs in a private namespace");
                return;
            }
        };
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = err(&o);
        assert!(
            stdout.starts_with("rc=1\nold\nout\n"),
            "{args:?}: {stdout}\n{stderr}"
        );
        assert!(
            stderr.contains(&format!(
                "cannot write {}: No space left on device",
                out.display()
            )),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains(".toon-"), "{args:?}: {stderr}");
    }
}

/// A link to `/proc/self/fd/1` (what `/dev/stdout` is) writes to the process's stdout
/// and stays a link; the system's own `/dev/stdout` is never used by a test.
#[test]
fn a_link_to_the_standard_output_writes_to_it() {
    if !Path::new("/proc/self/fd/1").exists() {
        eprintln!("skipped (stdout link): no /proc here");
        return;
    }
    let s = Setup::new();
    let expected = s.expected();
    let link = s.path("stdout");
    std::os::unix::fs::symlink("/proc/self/fd/1", &link).unwrap();
    for (i, args) in s.commands(&link).iter().enumerate() {
        let o = run(args, None);
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        assert_eq!(o.stdout, expected[i], "{args:?}");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    }
    assert_eq!(s.temporaries(), Vec::<String>::new());
}

/// The output is checked before the input is read, as `>` is opened before the command
/// runs: reading from a pipe nobody writes to would wait forever.
#[test]
fn an_unwritable_output_is_refused_before_the_input_is_read() {
    if !can_run_as_nobody("refused first") {
        return;
    }
    let s = Setup::new();
    shared_folder(&s);
    let fifo = s.path("never.json");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::fs::set_permissions(&fifo, std::fs::Permissions::from_mode(0o666)).unwrap();
    let out = s.path("root-only.toon");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut child = as_user(env!("CARGO_BIN_EXE_toon"), Some(NOBODY))
        .args([fifo.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(1),
        "waited for the input instead of refusing the output"
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"old");
}
