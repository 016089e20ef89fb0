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
    /// was skipped as it was read (and [`Lines::cut_id`] is the line's `id` wherever it was).
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
    /// The `id` of a line past the cap, found while it is read.
    id_scan: IdScan,
}

impl<R> Lines<R> {
    pub(crate) fn new(read: R, max: usize) -> Self {
        Lines {
            read,
            line: Vec::new(),
            max,
            skipping: false,
            handed: false,
            id_scan: IdScan::default(),
        }
    }

    /// The text of the `id` member of the last line cut at the cap, wherever in the line it
    /// was (after a long `result`, say): the line is scanned as it is skipped, keeping only
    /// the id.
    pub(crate) fn cut_id(&self) -> Option<&[u8]> {
        self.id_scan.found.as_deref()
    }

    /// Whether the last line cut at the cap has a top-level `method` member, wherever it was
    /// in the line (a request or a notification, not an answer).
    pub(crate) fn cut_has_method(&self) -> bool {
        self.id_scan.method
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
            let (taken, ended, over) = {
                let available = match self.read.fill_buf().await {
                    Ok(available) => available,
                    Err(error) => return Line::Failed(error),
                };
                if available.is_empty() {
                    return Line::End;
                }
                let newline = available.iter().position(|&byte| byte == b'\n');
                let through = newline.map_or(available.len(), |at| at + 1);
                let chunk = &available[..through];
                // Room for `max` bytes and the line's end.
                let room = (self.max + 1).saturating_sub(self.line.len());
                let over = !self.skipping && chunk.len() > room;
                if self.skipping {
                    self.id_scan.feed(chunk);
                } else if over {
                    // The cap is passed in this chunk: the line is scanned for its id from
                    // its start, and kept up to the cap.
                    self.id_scan = IdScan::default();
                    self.id_scan.feed(&self.line);
                    self.id_scan.feed(chunk);
                    self.line.extend_from_slice(&chunk[..room]);
                } else {
                    self.line.extend_from_slice(chunk);
                }
                (through, newline.is_some(), over)
            };
            self.read.consume(taken);
            if self.skipping {
                if ended {
                    self.skipping = false;
                    self.handed = true;
                    return Line::Cut;
                }
                continue;
            }
            if !over && ended {
                self.handed = true;
                return Line::Whole;
            }
            if over || self.line.len() > self.max {
                if !over {
                    self.id_scan = IdScan::default();
                    self.id_scan.feed(&self.line);
                }
                // Hand on what is kept once the rest of the line is skipped (scanned for
                // the id as it is read, never held).
                self.line.truncate(self.max);
                if ended {
                    self.handed = true;
                    return Line::Cut;
                }
                self.skipping = true;
            }
        }
    }
}

/// Most bytes of an id [`IdScan`] keeps (an id longer than this is not found).
const MAX_ID_BYTES: usize = 1024;

/// A scan of one message's text, fed in pieces, for the value of its top-level `id` member
/// (a string or a number: the ids JSON-RPC allows), in constant memory.
#[derive(Debug, Default)]
struct IdScan {
    /// Open objects and arrays.
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// At depth 1: what the next string is (a key, when a member starts).
    expect: Expect,
    /// The key being read (its first bytes: enough to tell `id` and `method`).
    key: Vec<u8>,
    /// A top-level `method` member was met: the line is a request or a notification.
    method: bool,
    /// The id's text, while it is read.
    value: Option<Vec<u8>>,
    found: Option<Vec<u8>>,
}

#[derive(Debug, Default, PartialEq)]
enum Expect {
    #[default]
    Key,
    Colon {
        id: bool,
    },
    Value {
        id: bool,
    },
    Other,
}

impl IdScan {
    fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.byte(byte);
        }
    }

    fn byte(&mut self, byte: u8) {
        if let Some(value) = &mut self.value {
            let ends = if value.first() == Some(&b'"') {
                // The string's own end is decided below.
                false
            } else {
                matches!(byte, b',' | b'}' | b' ' | b'\t' | b'\r' | b'\n')
            };
            if ends {
                self.found = self.value.take();
                return;
            }
            if value.len() < MAX_ID_BYTES {
                value.push(byte);
            } else {
                self.value = None;
                self.expect = Expect::Other;
            }
        }
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if byte == b'\\' {
                self.escaped = true;
            } else if byte == b'"' {
                self.in_string = false;
                if self.depth == 1 {
                    self.string_ended();
                }
                return;
            }
            if self.depth == 1 && self.expect == Expect::Key && self.key.len() <= 6 {
                self.key.push(byte);
            }
            return;
        }
        match byte {
            b'"' => {
                self.in_string = true;
                self.key.clear();
                if self.depth == 1 {
                    if let Expect::Value { id: true } = self.expect {
                        self.value = Some(vec![b'"']);
                    }
                }
            }
            b'{' | b'[' => {
                self.depth += 1;
                if self.depth == 2 {
                    self.expect = Expect::Other;
                }
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 1 {
                    self.expect = Expect::Other;
                }
            }
            b':' if self.depth == 1 => {
                if let Expect::Colon { id } = self.expect {
                    self.expect = Expect::Value { id };
                }
            }
            b',' if self.depth == 1 => self.expect = Expect::Key,
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ if self.depth == 1 => {
                if let Expect::Value { id } = self.expect {
                    self.expect = Expect::Other;
                    if id {
                        self.value = Some(vec![byte]);
                    }
                }
            }
            _ => {}
        }
    }

    /// A string at depth 1 ended: a key, or the id's value.
    fn string_ended(&mut self) {
        match self.expect {
            Expect::Key => {
                self.method |= self.key == b"method";
                self.expect = Expect::Colon {
                    id: self.key == b"id",
                };
            }
            Expect::Value { id } => {
                self.expect = Expect::Other;
                if id {
                    // The closing quote was kept with the rest.
                    self.found = self.value.take();
                }
            }
            _ => {}
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

    /// The cut id of each line `input` holds, read with a cap of `max` bytes.
    fn cut_ids(input: &[u8], max: usize, chunk: usize) -> Vec<Option<Vec<u8>>> {
        let mut lines = Lines::new(tokio_test_reader(input, chunk), max);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut ids = Vec::new();
            loop {
                match lines.next().await {
                    Line::Whole => ids.push(None),
                    Line::Cut => ids.push(lines.cut_id().map(<[u8]>::to_vec)),
                    Line::End => return ids,
                    Line::Failed(error) => panic!("{error}"),
                }
            }
        })
    }

    proptest::proptest! {
        /// A line past the cap gives its `id` wherever the member is (after a long
        /// `result`, between nested values with `"id"` keys and strings holding quotes and
        /// brackets), whatever the id's form and however the line arrives.
        #[test]
        fn the_id_of_a_cut_line_is_found_wherever_it_is(
            id in proptest::prop_oneof![
                proptest::strategy::Just("1.0".to_owned()),
                proptest::strategy::Just("-0".to_owned()),
                proptest::strategy::Just("18446744073709551616".to_owned()),
                "-?[0-9]{1,20}",
                r#""([a-z\]\[{}:,]|\\"){0,12}""#,
            ],
            before in proptest::collection::vec(0..4usize, 0..4),
            after in proptest::collection::vec(0..4usize, 0..4),
            max in 8..64usize,
            chunk in 1..40usize,
        ) {
            let member = |kind: usize| match kind {
                0 => format!(r#""result":{{"text":"{}","id":"x"}}"#, "a".repeat(100)),
                1 => r#""jsonrpc" : "2.0""#.to_owned(),
                2 => r#""error":{"code":-32000,"data":["\"id\":", {"id": 5}]}"#.to_owned(),
                _ => r#""ids":[1,2,3]"#.to_owned(),
            };
            let mut members: Vec<String> = before.iter().map(|kind| member(*kind)).collect();
            members.push(format!(r#""id" : {id}"#));
            members.extend(after.iter().map(|kind| member(*kind)));
            members.push(format!(r#""padding":"{}""#, "p".repeat(80)));
            let line = format!("{{{}}}\n", members.join(","));
            let ids = cut_ids(line.as_bytes(), max, chunk);
            proptest::prop_assert_eq!(ids, vec![Some(id.into_bytes())]);
        }

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
