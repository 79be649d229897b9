//! An output file named on the command line (`-o PATH`, a plan output folder's
//! files), written with the effect of the shell's `> PATH` once the output is whole.
//!
//! - The path is resolved through symlinks (chains, dangling links included): the file
//!   a link names receives the output, and the link stays a link.
//! - An existing file is opened for writing first, so a file the user may not write is
//!   refused with the error `>` gives, before any work.
//! - The output is produced into a temporary file beside the resolved target, which
//!   then replaces the target by a rename (atomic: a reader sees the old file or the
//!   new one) after taking the target's owner, group and mode. Where a rename would not
//!   have `>`'s effect — the file has other hard links, the folder is not writable, or
//!   the target's owner cannot be given to a new file — the output is staged in the
//!   system's temporary folder and copied into the target file itself.
//! - Devices, FIFOs and sockets (`/dev/null`, a named pipe) are written in place.
//! - A temporary file never outlives the run (errors, SIGINT, SIGTERM, SIGHUP), and
//!   errors name the output file, never a temporary path.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

use super::cleanup::Registration;

/// How many symlinks a path may pass through (Linux's own limit).
const MAX_LINKS: usize = 40;

/// A resolved output path, checked as `>` checks it.
#[derive(Debug)]
pub struct Destination {
    target: Target,
}

#[derive(Debug)]
enum Target {
    /// A device, FIFO or socket: written in place.
    Device(PathBuf),
    /// An existing regular file, open for writing (the permission check `>` makes).
    File {
        real: PathBuf,
        file: File,
        meta: Metadata,
    },
    /// A file to create.
    New(PathBuf),
}

impl Destination {
    /// Resolves `path` through symlinks and checks it can be written: not a folder, a
    /// writable file or a new file in an existing folder, and none of `inputs` (compared
    /// as files: the same file through another name or link is the same).
    pub fn resolve(path: &Path, inputs: &[&Path]) -> io::Result<Destination> {
        // An existing target is found by the kernel (which also follows /proc's links
        // to open files, as `/dev/stdout` is); a new one through the links that lead
        // to it.
        let target = match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            Ok(meta) if meta.is_file() => {
                if inputs.iter().any(|input| is_same_file(&meta, input)) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "it is an input of this conversion: refusing to write over it (name another output file)",
                    ));
                }
                let file = OpenOptions::new().write(true).open(path)?;
                let real = fs::canonicalize(path)?;
                Target::File { real, file, meta }
            }
            Ok(_) => Target::Device(path.to_owned()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let real = follow_links(path)?;
                let folder = folder_of(&real);
                match fs::metadata(folder) {
                    Ok(m) if m.is_dir() => Target::New(real),
                    Ok(_) => {
                        return Err(io::Error::new(
                            io::ErrorKind::NotADirectory,
                            format!("{} is not a folder", folder.display()),
                        ));
                    }
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        return Err(io::Error::new(
                            io::ErrorKind::NotFound,
                            format!("no such folder: {}", folder.display()),
                        ));
                    }
                    Err(e) => return Err(e),
                }
            }
            Err(e) => return Err(e),
        };
        Ok(Destination { target })
    }

    /// Writes what `produce` writes, if it succeeds: nothing reaches the target when
    /// `produce` fails. `Err(Left)` is `produce`'s own error; `Err(Right)` an error of
    /// the output (a full disk, a permission), whether it surfaced inside `produce` or
    /// while committing.
    pub fn write_with<E>(
        self,
        produce: impl FnOnce(&mut dyn Write) -> Result<(), E>,
    ) -> Result<(), Either<E, io::Error>> {
        if let Target::Device(real) = &self.target {
            let mut held = Vec::new();
            produce(&mut held).map_err(Either::Left)?;
            return write_device(real, &held).map_err(Either::Right);
        }
        let stage = Stage::new(&self.target).map_err(Either::Right)?;
        let mut out = Recorder::new(io::BufWriter::with_capacity(64 * 1024, stage.file()));
        let produced = produce(&mut out);
        let flushed = out.flush();
        if let Some(e) = out.error.take() {
            return Err(Either::Right(e));
        }
        produced.map_err(Either::Left)?;
        flushed.map_err(Either::Right)?;
        drop(out);
        stage.commit(self.target).map_err(Either::Right)
    }

    /// Writes `bytes`.
    pub fn write_bytes(self, bytes: &[u8]) -> io::Result<()> {
        self.write_with(|w| w.write_all(bytes))
            .map_err(|e| match e {
                Either::Left(e) | Either::Right(e) => e,
            })
    }
}

/// One of two errors: see [`Destination::write_with`].
#[derive(Debug)]
pub enum Either<L, R> {
    /// The producer's error.
    Left(L),
    /// The output's error.
    Right(R),
}

/// Whether `path` names the file `meta` describes (same device and inode on Unix).
/// Compared by `stat` alone: the `same-file` crate opens both paths, which blocks on
/// a FIFO given as an input until something writes to it.
fn is_same_file(meta: &Metadata, path: &Path) -> bool {
    let Ok(other) = fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.dev() == other.dev() && meta.ino() == other.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (meta, other);
        false
    }
}

/// Whether `a` and `b` name the same existing file (through links, other names, or
/// hard links).
pub fn same_file(a: &Path, b: &Path) -> bool {
    fs::metadata(a).is_ok_and(|meta| is_same_file(&meta, b))
}

/// The path `path` leads to through symlinks (the last link's target, existing or not).
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_owned();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&at)?;
                at = if to.is_absolute() {
                    to
                } else {
                    folder_of(&at).join(to)
                };
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// The folder holding `path` (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `bytes` into an existing device or pipe.
fn write_device(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = OpenOptions::new().write(true).open(path)?;
    f.write_all(bytes)?;
    f.flush()
}

/// Where the output is produced before it reaches the target.
struct Stage {
    temp: tempfile::NamedTempFile,
    registration: Registration,
    /// Copy into the target file (`true`), or rename over it.
    in_place: bool,
}

impl Stage {
    fn new(target: &Target) -> io::Result<Stage> {
        match target {
            Target::New(real) => Stage::beside(real, false),
            Target::File { real, meta, .. } => match Stage::beside(real, true) {
                Ok(mut stage) => {
                    stage.in_place = !takes_place_of(stage.temp.as_file(), meta);
                    Ok(stage)
                }
                // The folder is not writable (the file may be): stage elsewhere.
                Err(_) => Stage::private(),
            },
            Target::Device(_) => unreachable!("devices are written without a stage"),
        }
    }

    /// A temporary file in the target's folder, as readable as any new file there.
    fn beside(real: &Path, in_place: bool) -> io::Result<Stage> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(".toon-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let temp = builder.tempfile_in(folder_of(real)).map_err(bare)?;
        let registration = Registration::new(temp.path());
        Ok(Stage {
            temp,
            registration,
            in_place,
        })
    }

    /// A private temporary file in the system's temporary folder, copied into the
    /// target when complete.
    fn private() -> io::Result<Stage> {
        let temp = tempfile::Builder::new()
            .prefix(".toon-")
            .suffix(".tmp")
            .tempfile()
            .map_err(bare)?;
        let registration = Registration::new(temp.path());
        Ok(Stage {
            temp,
            registration,
            in_place: true,
        })
    }

    fn file(&self) -> &File {
        self.temp.as_file()
    }

    /// Delivers the staged output to the target, with signals held off.
    fn commit(self, target: Target) -> io::Result<()> {
        let Stage {
            temp,
            registration,
            in_place,
        } = self;
        match target {
            Target::New(real) => {
                temp.as_file().sync_all()?;
                registration.finish(|| temp.persist(&real).map(drop).map_err(|e| e.error))
            }
            Target::File { real, file, .. } if !in_place => {
                temp.as_file().sync_all()?;
                drop(file);
                registration.finish(|| temp.persist(&real).map(drop).map_err(|e| e.error))
            }
            Target::File { mut file, .. } => registration.finish(|| {
                let mut staged = temp.as_file();
                staged.rewind()?;
                file.set_len(0)?;
                io::copy(&mut staged, &mut file)?;
                file.sync_all()
            }),
            Target::Device(_) => unreachable!("devices are written without a stage"),
        }
    }
}

/// Gives the temporary file the target's owner, group and mode, so that renaming it
/// over the target has `>`'s effect; `false` if that cannot be (other hard links to
/// the target, or an owner this user cannot give).
fn takes_place_of(temp: &File, meta: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() != 1 {
            return false;
        }
        let Ok(own) = temp.metadata() else {
            return false;
        };
        if (own.uid(), own.gid()) != (meta.uid(), meta.gid())
            && std::os::unix::fs::fchown(temp, Some(meta.uid()), Some(meta.gid())).is_err()
        {
            return false;
        }
        temp.set_permissions(meta.permissions()).is_ok()
    }
    #[cfg(not(unix))]
    {
        temp.set_permissions(meta.permissions()).is_ok()
    }
}

/// The I/O error without the temporary path `tempfile` adds to its messages.
fn bare(e: io::Error) -> io::Error {
    if matches!(
        e.kind(),
        io::ErrorKind::PermissionDenied | io::ErrorKind::NotFound
    ) {
        return io::Error::from(e.kind());
    }
    let text = e.to_string();
    let text = text.split(" at path ").next().unwrap_or(&text);
    let text = text.split(" (os error").next().unwrap_or(text);
    io::Error::new(e.kind(), text.to_owned())
}

/// A writer that remembers the first error of the writer beneath it, so an error of
/// the output is reported as the output's even when the producer wraps it in its own.
struct Recorder<W: Write> {
    inner: W,
    error: Option<io::Error>,
}

impl<W: Write> Recorder<W> {
    fn new(inner: W) -> Self {
        Recorder { inner, error: None }
    }

    fn note<T>(&mut self, r: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &r
            && self.error.is_none()
        {
            self.error = Some(io::Error::new(e.kind(), bare_text(e)));
        }
        r
    }
}

fn bare_text(e: &io::Error) -> String {
    let text = e.to_string();
    text.split(" (os error").next().unwrap_or(&text).to_owned()
}

impl<W: Write> Write for Recorder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let r = self.inner.write(buf);
        self.note(r)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let r = self.inner.write_all(buf);
        self.note(r)
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.inner.flush();
        self.note(r)
    }
}
