//! Input lines read with a bound: a controller (or `/dev/zero`) may send a
//! line that never ends, and memory must not follow it. The first
//! [`MAX_LINE_BYTES`] of a line are kept; the rest is read and dropped up
//! to its newline, and the line is answered `? line too long`.

use std::io::{self, BufRead};

/// The longest command line kept, newline included: 1 MiB, far beyond any
/// command (a 25x25 `set_free_handicap` list is under 2 KiB).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, with its newline when it had one.
    Complete(Vec<u8>),
    /// A line longer than the bound: its first bytes only (enough for the
    /// id), the rest skipped.
    TooLong(Vec<u8>),
    /// The end of input.
    End,
}

/// Reads the next line of `input`, keeping at most `limit` bytes of it.
///
/// # Errors
/// The reader's errors (an interrupted read is retried).
pub fn read_line(input: &mut impl BufRead, limit: usize) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong(line),
                (false, true) => Line::End,
                (false, false) => Line::Complete(line),
            });
        }
        let newline = buf.iter().position(|&b| b == b'\n');
        let taken = newline.map_or(buf.len(), |i| i + 1);
        if !too_long {
            let room = limit.saturating_sub(line.len());
            let kept = taken.min(room);
            line.extend_from_slice(&buf[..kept]);
            too_long = kept < taken;
        }
        input.consume(taken);
        if newline.is_some() {
            return Ok(if too_long {
                Line::TooLong(line)
            } else {
                Line::Complete(line)
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    fn lines(input: &[u8], limit: usize, buffer: usize) -> Vec<Line> {
        let mut reader = BufReader::with_capacity(buffer, input);
        let mut all = Vec::new();
        loop {
            let line = read_line(&mut reader, limit).unwrap();
            let end = line == Line::End;
            all.push(line);
            if end {
                return all;
            }
        }
    }

    #[test]
    fn lines_within_the_bound_are_whole() {
        for buffer in [1, 3, 64] {
            assert_eq!(
                lines(b"name\n\nplay b D4", 16, buffer),
                [
                    Line::Complete(b"name\n".to_vec()),
                    Line::Complete(b"\n".to_vec()),
                    Line::Complete(b"play b D4".to_vec()),
                    Line::End
                ]
            );
        }
    }

    #[test]
    fn a_long_line_keeps_its_start_and_the_next_line_reads() {
        for buffer in [1, 4, 8192] {
            let mut input = b"7 ".to_vec();
            input.extend(std::iter::repeat_n(b'x', 100));
            input.extend_from_slice(b"\nname\n");
            assert_eq!(
                lines(&input, 10, buffer),
                [
                    Line::TooLong(b"7 xxxxxxxx".to_vec()),
                    Line::Complete(b"name\n".to_vec()),
                    Line::End
                ]
            );
        }
        // Exactly at the bound, newline included, is whole.
        assert_eq!(
            lines(b"abc\n", 4, 2),
            [Line::Complete(b"abc\n".to_vec()), Line::End]
        );
        assert_eq!(
            lines(b"abcd\n", 4, 2),
            [Line::TooLong(b"abcd".to_vec()), Line::End]
        );
    }

    #[test]
    fn an_endless_line_costs_no_more_than_the_bound() {
        let mut zeros = io::repeat(0).take(50 * MAX_LINE_BYTES as u64);
        let mut reader = BufReader::new(&mut zeros);
        match read_line(&mut reader, MAX_LINE_BYTES).unwrap() {
            Line::TooLong(start) => assert_eq!(start.len(), MAX_LINE_BYTES),
            other => panic!("{other:?}"),
        }
        assert_eq!(read_line(&mut reader, MAX_LINE_BYTES).unwrap(), Line::End);
    }
}
