//! A folder of plans converted into another folder: which files are plans, which of
//! them are in the folder's dialect, and the file each one is written to. The command
//! line's `toon plan convert FOLDER -o OUT` and Python's `convert_folder` both take
//! their plan of work from here, so they name, skip and refuse the same files.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::dialects::DialectId;
use crate::problem::{ErrorKind, PlanError};
use crate::reading::{ReadOptions, read_file};
use crate::syntax::format::Format;

/// The extensions of plan files (lower case, with the dot), longest match first where
/// one ends another.
const PLAN_EXTENSIONS: [&str; 7] = [
    ".markdown",
    ".json",
    ".yaml",
    ".yml",
    ".toon",
    ".mdc",
    ".md",
];

/// One plan file of a folder and what becomes of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FolderEntry {
    /// The plan file, under the source folder.
    pub source: PathBuf,
    /// The file it is written to, under the target folder at the same relative path.
    pub target: PathBuf,
    /// When the file is in another dialect than most of the folder's plans (a workflow
    /// plan among Cursor plans): that dialect. Such a file is reported, not converted.
    pub foreign_dialect: Option<DialectId>,
}

/// The work of converting a folder: every plan file with its target, in name order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FolderPlan {
    /// The dialect most of the folder's plans are in (the one asked for, when the
    /// reading options name one); `None` when no file could be read.
    pub dialect: Option<DialectId>,
    /// The format every target is written in.
    pub format: Format,
    /// The files, in path order.
    pub entries: Vec<FolderEntry>,
}

/// Plans the conversion of every plan file under `source` (recursively, hidden entries
/// skipped) to dialect `to` in `format` (the dialect's natural format when `None`),
/// each written under `target` at its relative path with the name [`output_name`]
/// gives. Fails when `source` is not a folder or holds no plan file, when `target` is
/// a file, names a file (`out.toon`), is `source` itself, or when a target would write
/// over a source or two sources would write one target. `options` read each file to
/// tell its dialect.
///
/// ```
/// use toon_plan::{DialectId, Format, ReadOptions, folder};
/// let dir = std::env::temp_dir().join(format!("toon-plan-folder-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("src"))?;
/// std::fs::write(dir.join("src/a.plan.md"), "---\nname: A\ntodos:\n  - id: x\n    content: X\n    status: pending\n---\n")?;
/// let work = folder::plan(&dir.join("src"), &dir.join("out"), DialectId::PLAN, Some(Format::Toon), &ReadOptions::default())?;
/// assert_eq!(work.entries[0].target, dir.join("out/a.plan.toon"));
/// assert_eq!(work.dialect, Some(DialectId::CURSOR));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn plan(
    source: &Path,
    target: &Path,
    to: DialectId,
    format: Option<Format>,
    options: &ReadOptions,
) -> Result<FolderPlan, PlanError> {
    let refuse = |message: String| Err(PlanError::new(ErrorKind::Output, message));
    if !source.is_dir() {
        return refuse(format!("{}: not a folder", source.display()));
    }
    if target.exists() && !target.is_dir() {
        return refuse(format!("{}: exists and is not a folder", target.display()));
    }
    // A new output named like a file (`out.toon`) is a file meant, not a folder.
    if !target.exists()
        && let Some(named) = Format::from_path(target)
    {
        return refuse(format!(
            "{}: a folder converts into a folder, and this names a {named} file",
            target.display()
        ));
    }
    let files = plan_files(source)
        .map_err(|e| PlanError::new(ErrorKind::Unreadable, format!("{}: {e}", source.display())))?;
    if files.is_empty() {
        return refuse(format!(
            "{}: no plan files (.md, .json, .yaml, .toon) found",
            source.display()
        ));
    }
    if same_file(target, source) {
        return refuse(format!(
            "{}: is the input folder: refusing to write over the plans in it",
            target.display()
        ));
    }
    let format = format.unwrap_or_else(|| to.dialect().natural_format());
    let targets: Vec<PathBuf> = files
        .iter()
        .map(|path| {
            let rel = path.strip_prefix(source).unwrap_or(path);
            target
                .join(rel.parent().unwrap_or(Path::new("")))
                .join(output_name(path, to, format))
        })
        .collect();
    if let Some(clash) = target_clash(&files, &targets) {
        return refuse(format!("{clash}: nothing written"));
    }
    let (dialect, foreign) = folder_dialect(&files, options);
    let entries = files
        .into_iter()
        .zip(targets)
        .map(|(source, target)| FolderEntry {
            foreign_dialect: foreign.get(&source).copied(),
            source,
            target,
        })
        .collect();
    Ok(FolderPlan {
        dialect,
        format,
        entries,
    })
}

/// Plan files under a folder (recursively), in path order: regular files (through
/// links) named with a plan format's extension; hidden entries skipped.
pub fn plan_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let e = e?;
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.is_file() && Format::from_path(&p).is_some() {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The name a plan file is written under: its name less its format's extension, plus
/// the target format's (`name.plan.md` ↔ `name.plan.toon`, `x.json` → `x.toon`), or
/// the name the dialect gives new files (`PLAN-<random>.yaml` for composite plans).
///
/// ```
/// use std::path::Path;
/// use toon_plan::{DialectId, Format, folder::output_name};
/// assert_eq!(output_name(Path::new("t/auth.plan.md"), DialectId::PLAN, Format::Toon), "auth.plan.toon");
/// assert!(output_name(Path::new("x.json"), DialectId::COMPOSITE, Format::Yaml).starts_with("PLAN-"));
/// ```
pub fn output_name(input: &Path, to: DialectId, format: Format) -> String {
    if let Some(name) = to.dialect().new_file_name(format) {
        return name;
    }
    let name = input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    let stem_len = PLAN_EXTENSIONS
        .iter()
        .find(|ext| lower.ends_with(*ext))
        .map_or(name.len(), |ext| name.len() - ext.len());
    format!("{}.{}", &name[..stem_len], format.extension())
}

/// A target that would write over a source, or that two sources would both write.
fn target_clash(sources: &[PathBuf], targets: &[PathBuf]) -> Option<String> {
    let by_identity: HashMap<FileIdentity, &Path> = sources
        .iter()
        .filter_map(|s| Some((file_identity(s)?, s.as_path())))
        .collect();
    let mut seen: BTreeMap<&Path, &Path> = BTreeMap::new();
    for (source, target) in sources.iter().zip(targets) {
        if let Some(other) = file_identity(target).and_then(|id| by_identity.get(&id)) {
            return Some(format!(
                "{} would be written over the input {}",
                target.display(),
                other.display()
            ));
        }
        if let Some(first) = seen.insert(target, source) {
            return Some(format!(
                "{} and {} would both be written to {}",
                first.display(),
                source.display(),
                target.display()
            ));
        }
    }
    None
}

/// The folder's dialect and the files in another: the one asked for in `options`,
/// else the dialect most of the files are in (a tie goes to the one seen first).
fn folder_dialect(
    files: &[PathBuf],
    options: &ReadOptions,
) -> (Option<DialectId>, BTreeMap<PathBuf, DialectId>) {
    let mut foreign = BTreeMap::new();
    if options.dialect.is_some() {
        return (options.dialect, foreign);
    }
    let dialects: Vec<(&PathBuf, DialectId)> = files
        .iter()
        .filter_map(|p| Some((p, read_file(p, options).ok()?.dialect)))
        .collect();
    let mut counts: Vec<(DialectId, usize)> = Vec::new();
    for (_, d) in &dialects {
        match counts.iter_mut().find(|(c, _)| c == d) {
            Some((_, n)) => *n += 1,
            None => counts.push((*d, 1)),
        }
    }
    let main = counts.iter().rev().max_by_key(|(_, n)| *n).map(|(d, _)| *d);
    for (p, d) in dialects {
        if Some(d) != main {
            foreign.insert(p.clone(), d);
        }
    }
    (main, foreign)
}

/// What makes a file that one file under any of its names: device and inode on Unix,
/// the canonical path elsewhere.
#[cfg(unix)]
type FileIdentity = (u64, u64);
#[cfg(not(unix))]
type FileIdentity = PathBuf;

/// The identity of the existing file `path` names, following links; found by `stat`
/// alone, never by opening it (opening a FIFO waits for a writer).
fn file_identity(path: &Path) -> Option<FileIdentity> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path).ok()
    }
}

/// Whether two paths name one existing file, following links.
fn same_file(a: &Path, b: &Path) -> bool {
    file_identity(a).is_some_and(|id| file_identity(b) == Some(id))
}
