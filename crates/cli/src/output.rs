//! Writing results: atomically to files, all at once to stdout.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically: into a temporary file in the same folder,
/// flushed to disk, then renamed over the target. On any error the previous file (if
/// any) is untouched, and an interrupted run leaves either the old or the new file.
/// An existing file's permissions are kept.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if path.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            format!("{} is a directory", path.display()),
        ));
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".toon-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if let Ok(meta) = std::fs::metadata(path) {
        tmp.as_file().set_permissions(meta.permissions())?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Produces output with `produce` and delivers it only if it succeeds: into a temporary
/// file renamed over `path` (atomic), or, for stdout (`None` or `-`), into memory and
/// then to stdout, so a failure prints nothing.
pub fn emit_with(
    path: Option<&Path>,
    produce: impl FnOnce(&mut dyn Write) -> Result<(), String>,
) -> Result<(), String> {
    match path {
        Some(p) if p != Path::new("-") => {
            let dir = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            if p.is_dir() {
                return Err(format!("{}: is a directory", p.display()));
            }
            let fail = |e: io::Error| format!("cannot write {}: {}", p.display(), describe_io(&e));
            let tmp = tempfile::Builder::new()
                .prefix(".toon-")
                .suffix(".tmp")
                .tempfile_in(dir)
                .map_err(fail)?;
            let mut w = io::BufWriter::new(tmp);
            produce(&mut w)?;
            let tmp = w.into_inner().map_err(|e| fail(e.into_error()))?;
            tmp.as_file().sync_all().map_err(fail)?;
            if let Ok(meta) = std::fs::metadata(p) {
                tmp.as_file()
                    .set_permissions(meta.permissions())
                    .map_err(fail)?;
            }
            tmp.persist(p).map_err(|e| fail(e.error))?;
            Ok(())
        }
        _ => {
            let mut buf = Vec::new();
            produce(&mut buf)?;
            emit(None, &buf).map_err(|e| format!("cannot write stdout: {}", describe_io(&e)))
        }
    }
}

/// Writes `bytes` to `path` atomically, or to stdout when `path` is `None`.
/// A closed stdout (e.g. `| head`) is not an error.
pub fn emit(path: Option<&Path>, bytes: &[u8]) -> io::Result<()> {
    match path {
        Some(p) if p != Path::new("-") => write_atomic(p, bytes),
        _ => {
            let mut out = io::stdout().lock();
            match out.write_all(bytes).and_then(|()| out.flush()) {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                other => other,
            }
        }
    }
}

/// Reads a whole input: a file, or stdin for `None` and `-`. Errors name the path.
pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, String> {
    match path {
        Some(p) if p != Path::new("-") => {
            if p.is_dir() {
                return Err(format!("{}: is a directory, not a file", p.display()));
            }
            std::fs::read(p).map_err(|e| format!("{}: {}", p.display(), describe_io(&e)))
        }
        _ => {
            let mut buf = Vec::new();
            io::Read::read_to_end(&mut io::stdin().lock(), &mut buf)
                .map_err(|e| format!("stdin: {}", describe_io(&e)))?;
            Ok(buf)
        }
    }
}

/// A short description of an I/O error, without the OS error number.
pub fn describe_io(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_keeps_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.toon");
        std::fs::write(&target, "old").unwrap();
        write_atomic(&target, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn writing_onto_a_directory_fails_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_atomic(dir.path(), b"x").is_err());
    }
}
