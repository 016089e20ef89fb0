//! What to do after a tool failed: correct the call, retry it unchanged, or stop.

use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;
use serde_json::Value;

use crate::boundary::{Envelope, Failure, Reason};

/// What a failed call calls for (see [`classify`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Classified {
    /// The call was wrong in a way its error names (HTTP 400 or 422, a validation text, issues
    /// read from the error): correct it, from the source data, and call again.
    Correct,
    /// The failure is transient (HTTP 429, 500, 502, 503, 504, 408, a timeout): call again
    /// unchanged, after `after` when the tool said how long to wait.
    Retry {
        /// The wait the tool asked for (`Retry-After`), if it said.
        after: Option<Duration>,
    },
    /// Calling again cannot help (HTTP 401, 403, 404 and every other status).
    Stop,
    /// Nothing says which: no status, no validation text. A resolver's judgment decides
    /// (see [`super::Resolution::Transient`]); without one, the loop stops.
    Unknown,
}

/// The HTTP status a tool's error text states, and the wait it asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stated {
    /// The status: an RFC 9457 body's `status` (or `statusCode`, `status_code`), or a
    /// status written in the text (`HTTP 503`, `status 404`, `status code: 422`, a text
    /// beginning `503 Service Unavailable`).
    pub status: Option<u16>,
    /// `Retry-After` (or "retry after 3 seconds", "retry_after_ms": 250), capped at an hour.
    pub retry_after: Option<Duration>,
}

/// How much of an error text is read for its status: its head, where statuses are written.
const READ_CHARS: usize = 2000;

static STATUS_IN_TEXT: LazyLock<Regex> = LazyLock::new(|| {
    crate::foreign::regex(
        r"(?i)(?:\bHTTP(?:/[0-9](?:\.[0-9])?)?|\bstatus(?:[ _]?code)?)\s*[:=]?\s*([1-5][0-9]{2})\b",
    )
});
static STATUS_AT_START: LazyLock<Regex> =
    LazyLock::new(|| crate::foreign::regex(r"^\s*([1-5][0-9]{2})\s+[A-Z][a-z]"));
static RETRY_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    crate::foreign::regex(
        r#"(?i)retry[-_ ]after(_ms)?"?\s*[:=]?\s*([0-9]{1,7})\s*(ms|milliseconds?|s|secs?|seconds?)?\b"#,
    )
});
static VALIDATION_WORDS: LazyLock<Regex> = LazyLock::new(|| {
    crate::foreign::regex(
        r"(?i)\b(?:must(?: not)? be|is required|is invalid|invalid|expected|should be|greater than|less than|at least|at most|out of range|not allowed|not a valid)\b",
    )
});

/// The status and wait a tool's error text states.
///
/// ```
/// use std::time::Duration;
/// use toolgate::boundary::correction::stated;
///
/// let problem = r#"{"type": "about:blank", "title": "Too Many Requests", "status": 429, "retry_after": 2}"#;
/// assert_eq!(stated(problem).status, Some(429));
/// assert_eq!(stated(problem).retry_after, Some(Duration::from_secs(2)));
/// assert_eq!(stated("503 Service Unavailable").status, Some(503));
/// assert_eq!(stated("request failed: HTTP 404 not found").status, Some(404));
/// assert_eq!(stated("amount must be greater than 0").status, None);
/// ```
pub fn stated(text: &str) -> Stated {
    let head: &str = match text.char_indices().nth(READ_CHARS) {
        Some((end, _)) => &text[..end],
        None => text,
    };
    let mut stated = Stated::default();
    if let Some(body) = json_body(text) {
        stated.status = ["status", "statusCode", "status_code"]
            .iter()
            .find_map(|key| body.get(*key).and_then(Value::as_u64))
            .and_then(|status| u16::try_from(status).ok())
            .filter(|status| (100..600).contains(status));
    }
    if stated.status.is_none() {
        stated.status = [&*STATUS_AT_START, &*STATUS_IN_TEXT]
            .iter()
            .find_map(|pattern| pattern.captures(head))
            .and_then(|found| found[1].parse().ok());
    }
    stated.retry_after = RETRY_AFTER.captures(head).and_then(|found| {
        let amount: u64 = found[2].parse().ok()?;
        let millis = found.get(1).is_some()
            || found
                .get(3)
                .is_some_and(|unit| unit.as_str().to_ascii_lowercase().starts_with('m'));
        let wait = if millis {
            Duration::from_millis(amount)
        } else {
            Duration::from_secs(amount)
        };
        Some(wait.min(Duration::from_secs(3600)))
    });
    stated
}

/// A JSON object body, when the text is one (read whole up to the foreign limit).
fn json_body(text: &str) -> Option<serde_json::Map<String, Value>> {
    let trimmed = text.trim();
    if !trimmed.starts_with('{') || trimmed.len() > crate::foreign::MAX_FOREIGN_JSON_BYTES {
        return None;
    }
    match serde_json::from_str(trimmed) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// What a failed call's envelope calls for.
///
/// - `timeout` is transient; `tool_error` is read for an HTTP status (the status wins: it
///   is the server's own word on whether calling again can help), then for issues (parsed
///   from the error text by [`crate::foreign`]) or validation words, which call for a
///   correction; anything else is [`Classified::Unknown`].
/// - Every other reason is [`Classified::Stop`]: a refusal of the arguments is the
///   feedback layer's, the rest are the boundary's own decisions (budgets, middleware, an
///   unknown tool, a result that breaks its schema).
pub fn classify(envelope: &Envelope) -> Classified {
    match envelope.error.as_deref() {
        Some(error) => classify_failure(error).0,
        None => Classified::Stop,
    }
}

/// [`classify`] of a failure, with what its text stated (read once, for both).
pub(crate) fn classify_failure(error: &Failure) -> (Classified, Stated) {
    let stated = match error.reason {
        // What the boundary read of the whole text when it cut the message; an envelope
        // made elsewhere is read from its message.
        Reason::ToolError if error.http_status.is_some() || error.retry_after_ms.is_some() => {
            Stated {
                status: error.http_status,
                retry_after: error.retry_after_ms.map(Duration::from_millis),
            }
        }
        Reason::ToolError => stated(&error.message),
        _ => Stated::default(),
    };
    let classified = match error.reason {
        Reason::Timeout => Classified::Retry { after: None },
        Reason::ToolError => match stated.status {
            Some(400 | 422) => Classified::Correct,
            Some(408 | 429 | 500 | 502 | 503 | 504) => Classified::Retry {
                after: stated.retry_after,
            },
            Some(_) => Classified::Stop,
            None if !error.issues.is_empty() => Classified::Correct,
            None if VALIDATION_WORDS.is_match(&error.message) => Classified::Correct,
            None => Classified::Unknown,
        },
        _ => Classified::Stop,
    };
    (classified, stated)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(reason: Reason, message: &str) -> Envelope {
        Envelope::failure("t", Failure::new(reason, message), None)
    }

    #[test]
    fn statuses_decide_first() {
        for (message, wanted) in [
            (
                "HTTP 422: amount must be greater than 0",
                Classified::Correct,
            ),
            ("status 400", Classified::Correct),
            (
                r#"{"status": 503, "title": "Service Unavailable"}"#,
                Classified::Retry { after: None },
            ),
            (
                "429 Too Many Requests; Retry-After: 3",
                Classified::Retry {
                    after: Some(Duration::from_secs(3)),
                },
            ),
            (
                "HTTP/1.1 404 Not Found: amount must be positive",
                Classified::Stop,
            ),
            ("status code: 401", Classified::Stop),
            ("403 Forbidden", Classified::Stop),
            ("amount must be greater than 0", Classified::Correct),
            ("the ledger is closed", Classified::Unknown),
        ] {
            assert_eq!(
                classify(&failed(Reason::ToolError, message)),
                wanted,
                "{message}"
            );
        }
        assert_eq!(
            classify(&failed(Reason::Timeout, "took too long")),
            Classified::Retry { after: None }
        );
        assert_eq!(
            classify(&failed(Reason::Denied, "status 503")),
            Classified::Stop
        );
    }

    #[test]
    fn waits_are_read_in_their_unit_and_capped() {
        assert_eq!(
            stated("retry after 250 ms").retry_after,
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            stated(r#"{"retry_after_ms": 40}"#).retry_after,
            Some(Duration::from_millis(40))
        );
        assert_eq!(
            stated("Retry-After: 99999").retry_after,
            Some(Duration::from_secs(3600))
        );
        assert_eq!(stated("no wait").retry_after, None);
    }

    #[test]
    fn a_long_text_is_read_only_at_its_head() {
        let text = format!("{} HTTP 503", "x ".repeat(5000));
        assert_eq!(stated(&text).status, None);
    }
}
