//! An input opened once and sniffed from the bytes it gave: a file, standard input (`-`),
//! a pipe (`/dev/stdin`, a shell's `<(…)`), or a named pipe (FIFO).
//!
//! A pipe gives its bytes once: what decides how to read it (a compression magic number,
//! a `p cnf` header) is taken from the first bytes read, which are then handed to the
//! reader ahead of the rest, never read again from the source. A named pipe that no
//! program writes to would make `open` wait for a writer for ever: it is waited for a
//! moment ([`FIFO_WAIT`]), then refused with a message saying so.

use std::fs::{File, OpenOptions};
use std::io::{self, Cursor, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// How many bytes are read ahead to decide what an input is (an xz magic number is 6).
pub const HEAD: usize = 6;

/// How long a named pipe is given to have a writer before it is refused.
pub const FIFO_WAIT: Duration = Duration::from_secs(1);

/// The argument that means standard input.
pub const STDIN: &str = "-";

/// True for the argument `-` (standard input).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN
}

/// What kind of thing an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A regular file: it can be read again, and its size is known.
    File,
    /// Standard input, a pipe, a FIFO or a device: its bytes come once.
    Stream,
}

/// An input opened once, its first bytes read ahead.
pub struct Input {
    kind: InputKind,
    size: Option<u64>,
    head: Vec<u8>,
    rest: Box<dyn Read + Send>,
}

impl Input {
    /// Opens `path` (`-`: standard input) and reads its first [`HEAD`] bytes (fewer only
    /// at the end of the input). A FIFO without a writer is refused after [`FIFO_WAIT`];
    /// a folder or a socket is refused at once.
    pub fn open(path: &Path) -> io::Result<Input> {
        if is_stdin(path) {
            return Input::new(InputKind::Stream, None, Box::new(io::stdin()));
        }
        let meta = std::fs::metadata(path)?;
        let ft = meta.file_type();
        if ft.is_dir() {
            return Err(io::Error::other("a folder, not a file"));
        }
        if ft.is_socket() {
            return Err(io::Error::other("a socket, not a file"));
        }
        if ft.is_fifo() {
            return Input::new(InputKind::Stream, None, Box::new(open_fifo(path)?));
        }
        let file = File::open(path)?;
        if ft.is_file() {
            Input::new(InputKind::File, Some(meta.len()), Box::new(file))
        } else {
            // A character or block device (`/dev/zero`): read as a stream, never sized.
            Input::new(InputKind::Stream, None, Box::new(file))
        }
    }

    fn new(
        kind: InputKind,
        size: Option<u64>,
        mut rest: Box<dyn Read + Send>,
    ) -> io::Result<Input> {
        let mut head = Vec::with_capacity(HEAD);
        while head.len() < HEAD {
            let mut buf = [0u8; HEAD];
            match rest.read(&mut buf[..HEAD - head.len()]) {
                Ok(0) => break,
                Ok(n) => head.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(Input {
            kind,
            size,
            head,
            rest,
        })
    }

    /// A file, or a stream whose bytes come once.
    pub fn kind(&self) -> InputKind {
        self.kind
    }

    /// The size of a regular file (None for a stream).
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// The first bytes ([`HEAD`] of them, fewer only if the input is shorter).
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// True if the first bytes are a gzip or xz magic number.
    pub fn is_compressed(&self) -> bool {
        is_compressed(&self.head)
    }

    /// The whole input from its first byte: the bytes read ahead, then the rest.
    pub fn into_read(self) -> impl Read + Send {
        Cursor::new(self.head).chain(self.rest)
    }
}

/// True if `head` opens with a gzip or xz magic number.
pub fn is_compressed(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b]) || head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0])
}

/// Opens a FIFO for reading, waiting at most [`FIFO_WAIT`] for a program to write to it.
fn open_fifo(path: &Path) -> io::Result<File> {
    let (tx, rx) = mpsc::channel();
    let owned = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(File::open(&owned));
    });
    match rx.recv_timeout(FIFO_WAIT) {
        Ok(opened) => opened,
        Err(_) => {
            // The opener waits for a writer: be one for a moment, so that it returns (a
            // non-blocking open for writing succeeds, as a reader is waiting).
            let _ = OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(path);
            Err(io::Error::new(
                io::ErrorKind::WouldBlock,
                format!(
                    "a named pipe (FIFO) that no program writes to (waited {} s): bench reads \
                     a FIFO only while a program writes to it; or pipe the input to `-`",
                    FIFO_WAIT.as_secs()
                ),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_comes_back_first_and_once() {
        let dir = std::env::temp_dir().join(format!("cnf-core-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        std::fs::write(&path, b"p cnf 1 1\n1 0\n").unwrap();
        let input = Input::open(&path).unwrap();
        assert_eq!(input.kind(), InputKind::File);
        assert_eq!(input.head(), b"p cnf ");
        let mut all = String::new();
        input.into_read().read_to_string(&mut all).unwrap();
        assert_eq!(all, "p cnf 1 1\n1 0\n");
        std::fs::write(&path, b"ab").unwrap();
        assert_eq!(Input::open(&path).unwrap().head(), b"ab");
        assert!(Input::open(&dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_fifo_without_a_writer_is_refused() {
        let dir = std::env::temp_dir().join(format!("cnf-core-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("f");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the path we pass, which lives for the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = Input::open(&fifo).err().expect("refused");
        assert!(e.to_string().contains("no program writes to"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
