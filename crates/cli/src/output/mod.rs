//! Writing results: to files as `>` would, once complete ([`Destination`]); to stdout
//! all at once, or, for streamed output beyond [`STDOUT_HOLD`] bytes, as it comes.
//! Reading inputs, and naming them in messages.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::failure::Failure;

mod cleanup;
mod destination;

pub use destination::{Destination, Either, same_file};

/// Writes `bytes` to the file `path` names, as `> path` would once the output is whole
/// (see [`Destination`]): links followed, owner, mode and hard links kept, a file the
/// user may not write refused.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    Destination::resolve(path, &[])?.write_bytes(bytes)
}

/// Where a command's output goes: stdout, or a file named with `-o`, resolved and
/// checked (as `>` checks it) before any work is done.
#[derive(Debug)]
pub enum Sink {
    /// Standard output.
    Stdout,
    /// The file `named` (as the user wrote it, for messages) leads to.
    File {
        /// The path as given.
        named: PathBuf,
        /// Where it leads.
        destination: Box<Destination>,
    },
}

impl Sink {
    /// The output `path` names (`None` or `-` is stdout), refused if it is a folder, a
    /// file this user may not write, or one of `inputs`.
    pub fn open(path: Option<&Path>, inputs: &[&Path]) -> Result<Sink, Failure> {
        match named_file(path) {
            Some(p) => {
                let destination = Destination::resolve(p, inputs)
                    .map_err(|e| io_failure(format!("cannot write {}", p.display()), &e))?;
                Ok(Sink::File {
                    named: p.to_owned(),
                    destination: Box::new(destination),
                })
            }
            _ => Ok(Sink::Stdout),
        }
    }
}

/// Produces output with `produce` and delivers it only if it succeeds: to the file (see
/// [`Destination`]), or, for stdout, into memory and then to stdout, so a failure
/// prints nothing. Errors of the output name it (`cannot write out.toon: No space left
/// on device`).
pub fn emit_with(
    sink: Sink,
    produce: impl FnOnce(&mut dyn Write) -> Result<(), Failure>,
) -> Result<(), Failure> {
    match sink {
        Sink::File { named, destination } => destination.write_with(produce).map_err(|e| match e {
            Either::Left(failure) => failure,
            Either::Right(e) => io_failure(format!("cannot write {}", named.display()), &e),
        }),
        Sink::Stdout => {
            let mut buf = Vec::new();
            produce(&mut buf)?;
            emit(None, &buf).map_err(|e| io_failure("cannot write stdout", &e))
        }
    }
}

/// Streamed output held back on stdout until it is known to succeed: output up to this
/// size is printed only after success (all or nothing); beyond it, output streams.
pub const STDOUT_HOLD: usize = 8 * 1024 * 1024;

/// Like [`emit_with`] for output produced as a stream: a file is still written
/// atomically (any size), but stdout holds only the first [`STDOUT_HOLD`] bytes; a
/// larger output starts streaming then, so an error after that point leaves partial
/// output on stdout (the error still goes to stderr with exit code 1). A closed stdout
/// (e.g. `| head`) stops the work without an error.
pub fn emit_streaming(
    sink: Sink,
    produce: impl FnOnce(&mut dyn Write) -> Result<(), Failure>,
) -> Result<(), Failure> {
    match sink {
        Sink::File { .. } => emit_with(sink, produce),
        Sink::Stdout => {
            let mut w = HoldingWriter::new(io::stdout().lock(), STDOUT_HOLD);
            let result = produce(&mut w);
            if w.closed {
                return Ok(());
            }
            result?;
            match w.finish() {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                other => other.map_err(|e| io_failure("cannot write stdout", &e)),
            }
        }
    }
}

/// A writer that holds output in memory up to `limit` bytes, then passes it on.
pub struct HoldingWriter<W: Write> {
    out: io::BufWriter<W>,
    held: Vec<u8>,
    limit: usize,
    streaming: bool,
    /// The output was closed (broken pipe).
    pub closed: bool,
}

impl<W: Write> HoldingWriter<W> {
    /// Holds up to `limit` bytes before writing to `out`.
    pub fn new(out: W, limit: usize) -> Self {
        HoldingWriter {
            out: io::BufWriter::with_capacity(64 * 1024, out),
            held: Vec::new(),
            limit,
            streaming: false,
            closed: false,
        }
    }

    /// Whether output has started to pass through.
    #[cfg(test)]
    pub fn is_streaming(&self) -> bool {
        self.streaming
    }

    fn pass(&mut self, buf: &[u8]) -> io::Result<()> {
        let r = self.out.write_all(buf);
        if let Err(e) = &r
            && e.kind() == io::ErrorKind::BrokenPipe
        {
            self.closed = true;
        }
        r
    }

    /// Writes out what is held and flushes (after success).
    pub fn finish(mut self) -> io::Result<()> {
        let held = std::mem::take(&mut self.held);
        self.pass(&held)?;
        self.out.flush()
    }
}

impl<W: Write> Write for HoldingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.streaming {
            self.pass(buf)?;
            return Ok(buf.len());
        }
        self.held.extend_from_slice(buf);
        if self.held.len() > self.limit {
            self.streaming = true;
            let held = std::mem::take(&mut self.held);
            self.pass(&held)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.streaming {
            self.out.flush()
        } else {
            Ok(())
        }
    }
}

/// Opens an input for reading as a stream: a file, or stdin for `None` and `-`. Errors
/// name the path.
pub fn open_input(path: Option<&Path>) -> Result<Box<dyn io::BufRead>, Failure> {
    match named_file(path) {
        Some(p) => {
            if p.is_dir() {
                return Err(Failure::new(format!(
                    "{}: is a directory, not a file",
                    p.display()
                )));
            }
            let file =
                std::fs::File::open(p).map_err(|e| io_failure(p.display().to_string(), &e))?;
            Ok(Box::new(io::BufReader::with_capacity(64 * 1024, file)))
        }
        _ => Ok(Box::new(io::BufReader::with_capacity(
            64 * 1024,
            io::stdin().lock(),
        ))),
    }
}

/// Writes `bytes` to the file `path` names (see [`write_file`]), or to stdout when
/// `path` is `None` or `-`. A closed stdout (e.g. `| head`) is not an error.
pub fn emit(path: Option<&Path>, bytes: &[u8]) -> io::Result<()> {
    match named_file(path) {
        Some(p) => write_file(p, bytes),
        _ => {
            let mut out = io::stdout().lock();
            match out.write_all(bytes).and_then(|()| out.flush()) {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
                other => other,
            }
        }
    }
}

/// The file `path` names: `None` for the standard input or output (no path, or `-`).
pub fn named_file(path: Option<&Path>) -> Option<&Path> {
    path.filter(|p| *p != Path::new("-"))
}

/// How an input is named in messages and reports: its path, or `<stdin>` for `-` or
/// no path.
pub(crate) fn input_name(path: Option<&Path>) -> String {
    match named_file(path) {
        Some(p) => p.display().to_string(),
        _ => "<stdin>".to_owned(),
    }
}

/// What an input is called in messages about it as a whole: `file`, or `input` for the
/// standard input (`-` or no path).
pub(crate) fn input_kind(path: Option<&Path>) -> &'static str {
    match named_file(path) {
        Some(_) => "file",
        None => "input",
    }
}

/// Reads a whole input: a file, or stdin for `None` and `-`. Errors name the path.
pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, Failure> {
    match named_file(path) {
        Some(p) => {
            if p.is_dir() {
                return Err(Failure::new(format!(
                    "{}: is a directory, not a file",
                    p.display()
                )));
            }
            std::fs::read(p).map_err(|e| io_failure(p.display().to_string(), &e))
        }
        _ => {
            let mut buf = Vec::new();
            io::Read::read_to_end(&mut io::stdin().lock(), &mut buf)
                .map_err(|e| io_failure("stdin", &e))?;
            Ok(buf)
        }
    }
}

/// `what: <short description of e>`, with `e` as the cause `--verbose` shows.
pub fn io_failure(what: impl fmt::Display, e: &io::Error) -> Failure {
    Failure::new(format!("{what}: {}", describe_io(e))).caused_by(e)
}

/// A short description of an I/O error, without the OS error number: the message of
/// an error made with one, or the kind of an operating system's error.
pub fn describe_io(e: &io::Error) -> String {
    if e.raw_os_error().is_none() && e.get_ref().is_some() {
        return e.to_string();
    }
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
    #[cfg(unix)]
    fn new_files_get_the_usual_permissions_and_old_ones_keep_theirs() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = tempfile::tempdir().unwrap();
        // What any tool's new file gets here: 0666 less the umask.
        let usual = dir.path().join("usual");
        std::fs::File::create(&usual).unwrap();
        let new = dir.path().join("new.toon");
        write_file(&new, b"x").unwrap();
        assert_eq!(mode(&new), mode(&usual));
        let streamed = dir.path().join("streamed.json");
        emit_with(Sink::open(Some(&streamed), &[]).unwrap(), |w| {
            w.write_all(b"{}").map_err(|e| io_failure("test", &e))
        })
        .unwrap();
        assert_eq!(mode(&streamed), mode(&usual));
        std::fs::set_permissions(&new, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_file(&new, b"y").unwrap();
        assert_eq!(mode(&new), 0o600);
    }

    #[test]
    fn atomic_write_replaces_and_keeps_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.toon");
        std::fs::write(&target, "old").unwrap();
        write_file(&target, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn holding_writer_holds_small_output_and_streams_large() {
        let mut sink = Vec::new();
        {
            let mut w = HoldingWriter::new(&mut sink, 10);
            w.write_all(b"12345").unwrap();
            assert!(!w.is_streaming());
            w.finish().unwrap();
        }
        assert_eq!(sink, b"12345");
        let mut sink = Vec::new();
        {
            let mut w = HoldingWriter::new(&mut sink, 10);
            w.write_all(b"123456").unwrap();
            w.write_all(b"7890ab").unwrap();
            assert!(w.is_streaming());
            w.write_all(b"c").unwrap();
            w.finish().unwrap();
        }
        assert_eq!(sink, b"1234567890abc");
    }

    #[test]
    fn writing_onto_a_directory_fails_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_file(dir.path(), b"x").is_err());
    }
}
