//! Newline-delimited messages read in bounded memory: MCP's stdio framing.
//!
//! A line is kept up to a cap (`max`); past it the kept part is handed on as [`Line::Cut`]
//! (so its id can still be read and the request answered) and the rest of the line is
//! skipped as it is read, never held. Reading is cancel-safe, as rmcp asks of a transport's
//! `receive` (it is polled inside a `select!`): every state lives in the reader, and bytes
//! are taken from the buffer only once they are copied or skipped.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// What [`Lines::next`] read.
#[derive(Debug)]
pub(crate) enum Line {
    /// A whole line is in [`Lines::text`].
    Whole,
    /// A line longer than the cap: its first `max` bytes are in [`Lines::text`], the rest
    /// is skipped.
    Cut,
    /// The stream ended (a last line without its newline is dropped, as a message cut
    /// short).
    End,
    /// Reading failed.
    Failed(std::io::Error),
}

/// A reader of lines of at most `max` bytes.
#[derive(Debug)]
pub(crate) struct Lines<R> {
    read: R,
    line: Vec<u8>,
    max: usize,
    /// The rest of a cut line is still to be skipped.
    skipping: bool,
    /// The line in `line` was handed on: the next read starts a new one.
    handed: bool,
}

impl<R> Lines<R> {
    pub(crate) fn new(read: R, max: usize) -> Self {
        Lines {
            read,
            line: Vec::new(),
            max,
            skipping: false,
            handed: false,
        }
    }

    /// The reader, given back (a line part read is dropped).
    pub(crate) fn into_inner(self) -> R {
        self.read
    }

    /// The cap on a line, in bytes.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// The text of the line last read: without its line end (`\n` or `\r\n`) or a
    /// byte-order mark.
    pub(crate) fn text(&self) -> &[u8] {
        let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
    }
}

impl<R: AsyncBufRead + Unpin> Lines<R> {
    /// Reads the next line.
    pub(crate) async fn next(&mut self) -> Line {
        if self.handed {
            self.line.clear();
            self.handed = false;
        }
        loop {
            let (taken, ended) = {
                let available = match self.read.fill_buf().await {
                    Ok(available) => available,
                    Err(error) => return Line::Failed(error),
                };
                if available.is_empty() {
                    return Line::End;
                }
                let newline = available.iter().position(|&byte| byte == b'\n');
                let through = newline.map_or(available.len(), |at| at + 1);
                if !self.skipping {
                    // Room for `max` bytes and the line's end.
                    let room = self.max + 1 - self.line.len();
                    self.line.extend_from_slice(&available[..through.min(room)]);
                }
                (through, newline.is_some())
            };
            self.read.consume(taken);
            if self.skipping {
                if ended {
                    self.skipping = false;
                }
                continue;
            }
            if ended && self.line.last() == Some(&b'\n') {
                self.handed = true;
                return Line::Whole;
            }
            if self.line.len() > self.max {
                // The cap is passed before the line's end: hand on what is kept, skip the
                // rest.
                self.line.truncate(self.max);
                self.skipping = !ended;
                self.handed = true;
                return Line::Cut;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &[u8], max: usize, chunk: usize) -> Vec<(String, Vec<u8>)> {
        let reader = tokio_test_reader(input, chunk);
        let mut lines = Lines::new(reader, max);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut read = Vec::new();
            loop {
                match lines.next().await {
                    Line::Whole => read.push(("whole".to_owned(), lines.text().to_vec())),
                    Line::Cut => read.push(("cut".to_owned(), lines.text().to_vec())),
                    Line::End => return read,
                    Line::Failed(error) => panic!("{error}"),
                }
            }
        })
    }

    /// A reader handing out `chunk` bytes at a time.
    fn tokio_test_reader(input: &[u8], chunk: usize) -> impl AsyncBufRead + Unpin {
        tokio::io::BufReader::with_capacity(chunk, std::io::Cursor::new(input.to_vec()))
    }

    #[test]
    fn lines_are_read_whole_and_cut_at_the_cap() {
        let input = b"{\"a\":1}\r\n0123456789abcdef\n\xEF\xBB\xBFx\nlast";
        for chunk in [1, 3, 64] {
            let read = read_all(input, 10, chunk);
            let expected = [
                ("whole", &b"{\"a\":1}"[..]),
                ("cut", b"0123456789"),
                ("whole", b"x"),
            ];
            assert_eq!(read.len(), 3, "chunk {chunk}: {read:?}");
            for ((kind, text), (want_kind, want_text)) in read.iter().zip(expected) {
                assert_eq!((kind.as_str(), text.as_slice()), (want_kind, want_text));
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn a_line_never_holds_more_than_the_cap(
            lengths in proptest::collection::vec(0..300usize, 1..6),
            max in 1..100usize,
            chunk in 1..50usize,
        ) {
            let mut input = Vec::new();
            for (number, length) in lengths.iter().enumerate() {
                input.extend(std::iter::repeat_n(b'a' + number as u8, *length));
                input.push(b'\n');
            }
            let read = read_all(&input, max, chunk);
            proptest::prop_assert_eq!(read.len(), lengths.len());
            for ((kind, text), length) in read.iter().zip(&lengths) {
                proptest::prop_assert!(text.len() <= max);
                proptest::prop_assert_eq!(kind == "cut", *length > max);
            }
        }
    }
}
