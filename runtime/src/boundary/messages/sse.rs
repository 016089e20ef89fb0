//! Server-sent events as providers stream them: `event:` and `data:` lines, a blank line
//! ending each event (lines end in `\n`, `\r\n` or `\r`; `:` comments, keep-alives, are
//! skipped; several `data:` lines join with `\n`), read from bytes in any pieces. Gemini's
//! API without `alt=sse` streams a JSON array of answers instead: a stream whose first byte
//! is `[` is read as that, each element one event.
//!
//! Bounded: an event's data past [`MAX_EVENT_BYTES`] is an error, never a growing buffer.

/// Most bytes of one event's data (a whole Gemini answer, a Responses `.done` with a call's
/// whole arguments).
pub const MAX_EVENT_BYTES: usize = 8 << 20;

/// One event of a stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// Its `event:` name (empty where it has none).
    pub name: String,
    /// Its data, the `data:` lines joined with `\n`.
    pub data: String,
}

/// How the stream is framed, known from its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Framing {
    Unknown,
    Sse,
    /// A JSON array of objects: the depth inside the array, whether inside a string, and
    /// whether the last byte escaped the next.
    JsonArray {
        depth: usize,
        in_string: bool,
        escaped: bool,
    },
}

/// Reads events from a stream's bytes, in any pieces.
#[derive(Debug)]
pub struct SseReader {
    framing: Framing,
    /// The bytes of the line (or the JSON element) not ended yet.
    line: Vec<u8>,
    /// A `\r` ended the last line: a `\n` right after it belongs to it.
    after_cr: bool,
    name: String,
    data: String,
    has_data: bool,
    /// Whether an event was too long (then [`SseReader::feed`] says so once).
    overflow: bool,
}

impl Default for SseReader {
    fn default() -> Self {
        Self::new()
    }
}

impl SseReader {
    /// A reader of a stream from its start.
    pub fn new() -> Self {
        SseReader {
            framing: Framing::Unknown,
            line: Vec::new(),
            after_cr: false,
            name: String::new(),
            data: String::new(),
            has_data: false,
            overflow: false,
        }
    }

    /// The events `bytes` complete; `Err` once an event passes [`MAX_EVENT_BYTES`] or is
    /// not UTF-8.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, String> {
        let mut events = Vec::new();
        for &byte in bytes {
            if self.framing == Framing::Unknown {
                if byte.is_ascii_whitespace() {
                    continue;
                }
                self.framing = if byte == b'[' {
                    Framing::JsonArray {
                        depth: 0,
                        in_string: false,
                        escaped: false,
                    }
                } else {
                    Framing::Sse
                };
                if byte == b'[' {
                    continue;
                }
            }
            match self.framing {
                Framing::JsonArray { .. } => self.array_byte(byte, &mut events)?,
                _ => self.sse_byte(byte, &mut events)?,
            }
            if self.overflow {
                return Err(format!("an event of more than {MAX_EVENT_BYTES} bytes"));
            }
        }
        Ok(events)
    }

    /// The stream closed: an event whose blank line never came is dropped, as the
    /// server-sent events standard says (a stream cut inside an event's data would otherwise
    /// hand on half of it); so is a JSON element not closed.
    pub fn close(&mut self) {
        self.line.clear();
        self.data.clear();
        self.has_data = false;
    }

    fn sse_byte(&mut self, byte: u8, events: &mut Vec<SseEvent>) -> Result<(), String> {
        let after_cr = std::mem::replace(&mut self.after_cr, false);
        match byte {
            b'\n' if after_cr => {}
            b'\n' | b'\r' => {
                self.after_cr = byte == b'\r';
                if self.line.is_empty() {
                    self.dispatch(events);
                } else {
                    self.end_line()?;
                }
            }
            _ => {
                if self.line.len() + self.data.len() >= MAX_EVENT_BYTES {
                    self.overflow = true;
                } else {
                    self.line.push(byte);
                }
            }
        }
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), String> {
        let line = std::mem::take(&mut self.line);
        let line = String::from_utf8(line).map_err(|_| "an event line is not UTF-8".to_owned())?;
        if line.starts_with(':') {
            return Ok(());
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_str(), ""),
        };
        match field {
            "event" => self.name = value.to_owned(),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            _ => {}
        }
        Ok(())
    }

    fn dispatch(&mut self, events: &mut Vec<SseEvent>) {
        if self.has_data {
            events.push(SseEvent {
                name: std::mem::take(&mut self.name),
                data: std::mem::take(&mut self.data),
            });
        }
        self.name.clear();
        self.has_data = false;
    }

    fn array_byte(&mut self, byte: u8, events: &mut Vec<SseEvent>) -> Result<(), String> {
        let Framing::JsonArray {
            depth,
            in_string,
            escaped,
        } = &mut self.framing
        else {
            return Ok(());
        };
        if *depth == 0 && byte != b'{' {
            // Commas, white space and the closing `]` between elements.
            return Ok(());
        }
        if self.line.len() >= MAX_EVENT_BYTES {
            self.overflow = true;
            return Ok(());
        }
        self.line.push(byte);
        if *in_string {
            match (*escaped, byte) {
                (true, _) => *escaped = false,
                (false, b'\\') => *escaped = true,
                (false, b'"') => *in_string = false,
                _ => {}
            }
            return Ok(());
        }
        match byte {
            b'"' => *in_string = true,
            b'{' | b'[' => *depth += 1,
            b'}' | b']' => {
                *depth -= 1;
                if *depth == 0 {
                    let element = std::mem::take(&mut self.line);
                    let data = String::from_utf8(element)
                        .map_err(|_| "an answer is not UTF-8".to_owned())?;
                    events.push(SseEvent {
                        name: String::new(),
                        data,
                    });
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(stream: &str, size: usize) -> Vec<SseEvent> {
        let mut reader = SseReader::new();
        let mut events = Vec::new();
        for piece in stream.as_bytes().chunks(size) {
            events.extend(reader.feed(piece).unwrap());
        }
        reader.close();
        events
    }

    #[test]
    fn events_are_read_in_any_pieces() {
        // The last event's blank line never comes: it is dropped.
        let stream = ": keep-alive\r\nevent: content_block_delta\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\ndata: [DONE]\n\ndata: last";
        for size in 1..stream.len() {
            let events = read(stream, size);
            assert_eq!(events.len(), 2, "{size}");
            assert_eq!(events[0].name, "content_block_delta");
            assert_eq!(events[0].data, "{\"a\":\n1}");
            assert_eq!(events[1].data, "[DONE]");
        }
    }

    #[test]
    fn a_json_array_stream_is_read_element_by_element() {
        let stream = "[{\"a\": \"}\\\"]\"},\r\n{\"b\": [1, {\"c\": 2}]}\n]";
        for size in 1..stream.len() {
            let events = read(stream, size);
            let data: Vec<&str> = events.iter().map(|event| event.data.as_str()).collect();
            assert_eq!(
                data,
                ["{\"a\": \"}\\\"]\"}", "{\"b\": [1, {\"c\": 2}]}"],
                "{size}"
            );
        }
    }

    #[test]
    fn an_event_past_the_limit_is_an_error() {
        let mut reader = SseReader::new();
        let long = vec![b'x'; MAX_EVENT_BYTES + 1];
        assert!(reader.feed(b"data: ").is_ok());
        assert!(reader.feed(&long).is_err());
    }
}
