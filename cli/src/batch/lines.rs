//! Reading the batch's input a line at a time without ever holding more than a cap of a line:
//! the rest of a longer line is read and dropped as it streams by.

use std::io::{self, BufRead};

/// How [`read_line_capped`] found the next line.
#[derive(Debug, PartialEq, Eq)]
pub enum LineRead {
    /// There is no more input.
    End,
    /// The whole line, without its `\n`, is in the buffer.
    Whole,
    /// The line is `length` bytes (without its `\n`), more than the cap: the buffer holds its
    /// first `cap` bytes, and the rest was read and dropped.
    TooLong { length: u64 },
}

/// Reads the next line of `input` into `line` (cleared first), keeping at most `cap` bytes
/// of it. The buffer never grows beyond `cap` bytes of capacity here, however long the line.
pub fn read_line_capped(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<LineRead> {
    line.clear();
    let mut length: u64 = 0;
    let mut read_anything = false;
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            // The input ends: a last line without `\n` is a line too.
            return Ok(if !read_anything {
                LineRead::End
            } else {
                judge(length, cap)
            });
        }
        read_anything = true;
        let newline = available.iter().position(|&byte| byte == b'\n');
        let content = &available[..newline.unwrap_or(available.len())];
        keep_within_cap(line, content, cap);
        length += content.len() as u64;
        let consumed = content.len() + usize::from(newline.is_some());
        input.consume(consumed);
        if newline.is_some() {
            return Ok(judge(length, cap));
        }
    }
}

fn judge(length: u64, cap: usize) -> LineRead {
    if length > cap as u64 {
        LineRead::TooLong { length }
    } else {
        LineRead::Whole
    }
}

/// Appends what fits of `bytes` under `cap`, growing `line` no further than `cap`.
fn keep_within_cap(line: &mut Vec<u8>, bytes: &[u8], cap: usize) {
    let room = cap.saturating_sub(line.len());
    let kept = &bytes[..bytes.len().min(room)];
    let needed = line.len() + kept.len();
    if needed > line.capacity() {
        let grown = needed.max(line.capacity() * 2).min(cap);
        line.reserve_exact(grown - line.len());
    }
    line.extend_from_slice(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    #[test]
    fn a_huge_line_is_never_buffered_beyond_the_cap() {
        const CAP: usize = 1 << 20;
        const HUGE: u64 = 64 << 20;
        let huge_line = std::io::repeat(b'a').take(HUGE);
        let mut input = BufReader::new(huge_line.chain(&b"\nnext\n"[..]));
        let mut line = Vec::new();
        assert_eq!(
            read_line_capped(&mut input, &mut line, CAP).unwrap(),
            LineRead::TooLong { length: HUGE }
        );
        assert_eq!(line.len(), CAP);
        assert!(line.capacity() <= CAP, "capacity {}", line.capacity());
        assert!(line.iter().all(|&byte| byte == b'a'));
        // The rest of the huge line was dropped: the next line reads whole.
        assert_eq!(
            read_line_capped(&mut input, &mut line, CAP).unwrap(),
            LineRead::Whole
        );
        assert_eq!(line, b"next");
        assert_eq!(
            read_line_capped(&mut input, &mut line, CAP).unwrap(),
            LineRead::End
        );
    }

    #[test]
    fn a_line_of_exactly_the_cap_is_whole_and_one_more_byte_is_too_long() {
        // A one-byte buffer makes the line arrive in many small reads.
        let mut input = BufReader::with_capacity(1, &b"abcd\nabcde\nxy"[..]);
        let mut line = Vec::new();
        assert_eq!(
            read_line_capped(&mut input, &mut line, 4).unwrap(),
            LineRead::Whole
        );
        assert_eq!(line, b"abcd");
        assert_eq!(
            read_line_capped(&mut input, &mut line, 4).unwrap(),
            LineRead::TooLong { length: 5 }
        );
        assert_eq!(line, b"abcd");
        assert_eq!(
            read_line_capped(&mut input, &mut line, 4).unwrap(),
            LineRead::Whole
        );
        assert_eq!(line, b"xy", "a last line without a newline is a line");
        assert_eq!(
            read_line_capped(&mut input, &mut line, 4).unwrap(),
            LineRead::End
        );
    }

    #[test]
    fn empty_lines_are_lines() {
        let mut input = &b"\n\n"[..];
        let mut line = b"left over".to_vec();
        for _ in 0..2 {
            assert_eq!(
                read_line_capped(&mut input, &mut line, 10).unwrap(),
                LineRead::Whole
            );
            assert!(line.is_empty());
        }
        assert_eq!(
            read_line_capped(&mut input, &mut line, 10).unwrap(),
            LineRead::End
        );
    }
}
