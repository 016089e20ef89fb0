//! A typed tool's result written as JSON without recursing past a bound, however the result
//! is built (issue 43 §7).
//!
//! `serde_json::to_value` has no depth limit: a result nested 10,000 levels (a linked list
//! of boxes) overflowed the stack inside it, before any check could look at the value. The
//! result is instead written as text by serde_json with a formatter that stops the writing
//! past [`MAX_RESULT_DEPTH`] levels — the tool's own `Serialize` stops with it, since every
//! level it opens goes through the formatter — then read back within the same limit. The formatter also refuses what `to_value` refuses and what the read back
//! would round: an `i128` or `u128` beyond `i64::MIN..=u64::MAX`.

use std::cell::Cell;
use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::Value;

use super::MAX_RESULT_DEPTH;

/// Why a result could not be written as a `Value`.
#[derive(Debug)]
pub(crate) enum Unwritten {
    /// Nested past [`MAX_RESULT_DEPTH`].
    TooDeep,
    /// serde could not write it (a map with keys that are not strings, an integer beyond
    /// what a `Value` carries, the tool's own `Serialize` failing): why.
    Failed(String),
}

/// `result` as a `Value`, written within [`MAX_RESULT_DEPTH`] levels.
pub(crate) fn to_value_within_depth<O: Serialize>(result: &O) -> Result<Value, Unwritten> {
    let fault = Cell::new(None);
    let mut bytes = Vec::new();
    let formatter = Bounded {
        depth: 0,
        fault: &fault,
    };
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    if let Err(error) = result.serialize(&mut serializer) {
        return Err(match fault.take() {
            Some(Fault::TooDeep) => Unwritten::TooDeep,
            Some(Fault::Uncarried(digits)) => Unwritten::Failed(format!(
                "the integer {digits} is beyond what a JSON value carries exactly"
            )),
            None => Unwritten::Failed(error.to_string()),
        });
    }
    // Read back by toolgate's reader, whose depth limit is the writer's (serde_json's own
    // stops a level short of it): the text is strict JSON, so the lenient reader reads it
    // as a strict one does.
    let text = std::str::from_utf8(&bytes).map_err(|error| Unwritten::Failed(error.to_string()))?;
    toolgate_core::decode::read_lenient_value(text, MAX_RESULT_DEPTH)
        .map(toolgate_core::model::Json::into_value)
        .map_err(|error| Unwritten::Failed(error.to_string()))
}

/// What stopped the writing.
enum Fault {
    TooDeep,
    Uncarried(String),
}

/// serde_json's compact writing, stopped past [`MAX_RESULT_DEPTH`] levels or at an integer
/// beyond `i64::MIN..=u64::MAX`.
struct Bounded<'f> {
    depth: usize,
    fault: &'f Cell<Option<Fault>>,
}

impl Bounded<'_> {
    fn enter(&mut self) -> io::Result<()> {
        self.depth += 1;
        if self.depth > MAX_RESULT_DEPTH {
            self.fault.set(Some(Fault::TooDeep));
            return Err(io::Error::other("nested too deeply"));
        }
        Ok(())
    }

    fn uncarried(&self, digits: String) -> io::Error {
        self.fault.set(Some(Fault::Uncarried(digits)));
        io::Error::other("an integer beyond what a JSON value carries")
    }
}

impl Formatter for Bounded<'_> {
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.enter()?;
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"]")
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.enter()?;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth -= 1;
        writer.write_all(b"}")
    }

    fn write_i128<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: i128) -> io::Result<()> {
        match i64::try_from(value) {
            Ok(value) => self.write_i64(writer, value),
            Err(_) => match u64::try_from(value) {
                Ok(value) => self.write_u64(writer, value),
                Err(_) => Err(self.uncarried(value.to_string())),
            },
        }
    }

    fn write_u128<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: u128) -> io::Result<()> {
        match u64::try_from(value) {
            Ok(value) => self.write_u64(writer, value),
            Err(_) => Err(self.uncarried(value.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list of any length, built of boxes: its `Serialize` recurses once per level.
    #[derive(Serialize)]
    struct Link {
        next: Option<Box<Link>>,
    }

    fn chain(levels: usize) -> Link {
        let mut link = Link { next: None };
        for _ in 1..levels {
            link = Link {
                next: Some(Box::new(link)),
            };
        }
        link
    }

    /// Drops a chain without recursing.
    fn drop_chain(mut link: Link) {
        while let Some(next) = link.next.take() {
            link = *next;
        }
    }

    proptest::proptest! {
        /// However deep a result is built, writing it never recurses past the bound: within
        /// it, the value is the one `to_value` gives; past it, `TooDeep` (10,000 and
        /// 100,000 levels overflowed the stack in `to_value`).
        #[test]
        fn a_result_of_any_depth_is_written_or_too_deep(levels in 1..200_000usize) {
            let link = chain(levels);
            match to_value_within_depth(&link) {
                Ok(value) => {
                    proptest::prop_assert!(levels <= MAX_RESULT_DEPTH);
                    proptest::prop_assert_eq!(value, serde_json::to_value(&link).unwrap());
                }
                Err(Unwritten::TooDeep) => proptest::prop_assert!(levels > MAX_RESULT_DEPTH),
                Err(Unwritten::Failed(why)) => proptest::prop_assert!(false, "{}", why),
            }
            drop_chain(link);
        }

        /// Integers of every width: carried ones written exactly, others refused, never
        /// rounded.
        #[test]
        fn integers_of_every_width_are_exact_or_refused(n in proptest::num::i128::ANY, wide in proptest::num::u128::ANY) {
            for (written, carried) in [
                (to_value_within_depth(&n), (i64::MIN as i128..=u64::MAX as i128).contains(&n)),
                (to_value_within_depth(&wide), wide <= u64::MAX as u128),
            ] {
                match written {
                    Ok(value) => {
                        proptest::prop_assert!(carried);
                        proptest::prop_assert!(value.is_i64() || value.is_u64());
                    }
                    Err(_) => proptest::prop_assert!(!carried),
                }
            }
        }
    }
}
