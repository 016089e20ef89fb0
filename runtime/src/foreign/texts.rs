//! Error lists given as text: pydantic's exception text, python-jsonschema's error text,
//! zod 4's `prettifyError`, AJV's `errorsText`, Go's `encoding/json` and go-playground
//! validator, serde (plain and `serde_path_to_error`), and plain sentences (Joi, Spring,
//! Laravel, Rails, jsonschema messages, "amount must be greater than 0").

use serde_json::{Map, Value};
use toolgate_core::{Constraint, Issue, Path, Segment};

use super::sentence::{classify, json_type};
use super::structured::{custom, issue, pydantic_entry, sentence_issue};
use super::values::{literal, number, path, subscripts};
use super::{ForeignFormat, MAX_FOREIGN_ISSUES};

patterns! {
    PYDANTIC_HEAD = r"^\d+ validation errors? for \S+";
    PYDANTIC_LINE = r"^\s+(?P<msg>.*?) \[type=(?P<type>[\w.]+)(?:, input_value=(?P<input>.*), input_type=\w+)?\]$";
    JSONSCHEMA_KEYWORD = r"^Failed validating '(?P<k>\w+)'";
    JSONSCHEMA_AT = r"^On instance(?P<path>(?:\[.*?\])*):$";
    GO_TYPE = r"^json: cannot unmarshal (?P<v>\w+)(?: (?P<num>\S+))? into Go (?:struct field (?P<s>\w+)\.(?P<f>\S+)|value) of type (?P<t>\S+)";
    GO_UNKNOWN = r#"^json: unknown field "(?P<k>[^"]*)""#;
    GO_VALIDATOR = r"Key: '(?P<ns>[^']*)' Error:Field validation for '[^']*' failed on the '(?P<tag>[^']*)' tag";
    SERDE_POSITION = r" at line \d+ column \d+$";
    SERDE = r"^(?:(?P<path>[^\s:]+): )?(?P<msg>(?:missing field|unknown field|unknown variant|invalid type|invalid value|invalid length|duplicate field)\b.*)$";
    SERDE_TYPE = r"^invalid (?:type|value): (?P<kind>[a-z ]+?)(?: `(?P<tick>.*?)`| (?P<quoted>\x22.*\x22))?, expected (?P<want>.+)$";
    SERDE_SYNTAX = r"^(?:EOF while parsing|expected value|expected `|trailing (?:characters|comma)|key must be a string|invalid escape|invalid number|control character)";
    QUOTED = r#"['"`](?P<k>[^'"`]+)['"`]"#;
    PREFIX_PATH = r"^(?P<p>[\w./\[\]-]+): (?P<m>.+)$";
    JOI_SUBJECT = r#"^"(?P<p>[^"]+)" (?P<m>.+)$"#;
    LARAVEL_SUBJECT = r"^The (?P<p>.+?) field (?P<m>.+)$";
    WORD_SUBJECT = r"^(?P<p>[A-Za-z_][\w.\[\]-]*) (?P<m>(?:must|is|should|can't|cannot|has|needs|may)\b.*)$";
    STATUS_PREFIX = r"^(?i:HTTP(?:/[0-9](?:\.[0-9])?)?\s+|status(?:\s+code)?[:\s]+|error\s+)?[1-5][0-9]{2}(?:\s+[A-Za-z][A-Za-z ]{0,40}?)?\s*[:\-–]\s+";
    NAMED_PARAMETER = r#"(?i)(?:parameter|field|property|argument)s?[:\s]+['"`]?(?P<p>[\w.\[\]-]+)"#;
}

/// Reads an error text, if it has one of the known forms.
pub(crate) fn read(text: &str) -> Option<(ForeignFormat, Vec<Issue>)> {
    if PYDANTIC_HEAD.is_match(text) {
        return Some((ForeignFormat::PydanticText, pydantic_text(text)));
    }
    if text.contains("\nFailed validating '") {
        return Some((ForeignFormat::PythonJsonschema, python_jsonschema(text)));
    }
    if text.starts_with("✖ ") {
        return Some((ForeignFormat::ZodText, zod_text(text)));
    }
    if text.starts_with("json: ") {
        return go_json(text).map(|issues| (ForeignFormat::GoJson, issues));
    }
    if GO_VALIDATOR.is_match(text) {
        return Some((ForeignFormat::GoValidator, go_validator(text)));
    }
    if text.starts_with("data/") || text.starts_with("data ") || text.starts_with("data.") {
        return Some((ForeignFormat::AjvText, ajv_text(text)));
    }
    if let Some(found) = serde(text) {
        return Some(found);
    }
    let issues = plain(text);
    (!issues.is_empty()).then_some((ForeignFormat::PlainText, issues))
}

fn pydantic_text(text: &str) -> Vec<Issue> {
    /// A location line longer than this is no field's path.
    const MAX_LOCATION_BYTES: usize = 512;
    let mut issues = Vec::new();
    let mut location: Option<&str> = None;
    for line in text.lines().skip(1) {
        if !line.starts_with(' ') {
            let line = line.trim();
            location = (line.len() <= MAX_LOCATION_BYTES).then_some(line);
            continue;
        }
        let (Some(at), Some(found)) = (location, PYDANTIC_LINE.captures(line)) else {
            continue;
        };
        let mut entry = Map::new();
        entry.insert("type".into(), found["type"].into());
        entry.insert("msg".into(), found["msg"].into());
        let loc: Vec<Value> = path(at)
            .segments()
            .iter()
            .map(|segment| match segment {
                Segment::Key(key) => Value::from(key.clone()),
                Segment::Index(index) => Value::from(*index),
            })
            .collect();
        entry.insert("loc".into(), Value::Array(loc));
        // pydantic shortens a long input's repr (its first 25 and last 24 characters around
        // `...`): such a text is not the value sent, so it is not given as `got`.
        let input = found.name("input").map(|i| i.as_str());
        let shortened = input.is_some_and(|i| i.len() > 50 && i.contains("..."));
        if let Some(input) = input.filter(|_| !shortened).and_then(literal) {
            entry.insert("input".into(), input);
        }
        issues.push(pydantic_entry(&entry));
        if issues.len() == MAX_FOREIGN_ISSUES {
            break;
        }
    }
    issues
}

/// `str(error)` of python-jsonschema's `ValidationError` (one or several, one after another).
fn python_jsonschema(text: &str) -> Vec<Issue> {
    struct Block<'t> {
        message: Vec<&'t str>,
        keyword: Option<String>,
        at: Path,
        got: Vec<&'t str>,
    }
    let mut blocks: Vec<Block<'_>> = Vec::new();
    let mut reading_got = false;
    for line in text.lines() {
        let indented = line.starts_with(' ');
        if let Some(found) = JSONSCHEMA_KEYWORD.captures(line) {
            if let Some(block) = blocks.last_mut() {
                block.keyword = Some(found["k"].to_owned());
            }
            reading_got = false;
        } else if let Some(found) = JSONSCHEMA_AT.captures(line) {
            if let Some(block) = blocks.last_mut() {
                block.at = subscripts(&found["path"]);
            }
            reading_got = true;
        } else if indented {
            if reading_got {
                if let Some(block) = blocks.last_mut() {
                    block.got.push(line.trim());
                }
            }
        } else if !line.trim().is_empty() {
            let continues = blocks
                .last()
                .is_some_and(|block| block.keyword.is_none() && !block.message.is_empty());
            if continues {
                if let Some(block) = blocks.last_mut() {
                    block.message.push(line);
                }
            } else {
                if blocks.len() == MAX_FOREIGN_ISSUES {
                    break;
                }
                blocks.push(Block {
                    message: vec![line],
                    keyword: None,
                    at: Path::root(),
                    got: Vec::new(),
                });
                reading_got = false;
            }
        }
    }
    blocks
        .into_iter()
        .map(|block| {
            let message = block.message.join(" ");
            let mut issue = keyed(sentence_issue(block.at, &message), &message);
            if let Some(constraint) = block.keyword.and_then(|k| k.parse::<Constraint>().ok()) {
                issue.constraint = constraint;
            }
            if issue.constraint != Constraint::Required {
                issue.got = literal(&block.got.join(" ")).or(issue.got);
            }
            issue
        })
        .collect()
}

fn zod_text(text: &str) -> Vec<Issue> {
    let mut issues: Vec<Issue> = Vec::new();
    for line in text.lines() {
        if let Some(message) = line.strip_prefix("✖ ") {
            if issues.len() == MAX_FOREIGN_ISSUES {
                break;
            }
            issues.push(keyed(sentence_issue(Path::root(), message), message));
        } else if let Some(at) = line.trim().strip_prefix("→ at ") {
            if let Some(issue) = issues.last_mut() {
                issue.path = path(at);
            }
        }
    }
    issues
}

/// The JSON type a Go type means (`[]string` → array, `*int` → integer); `None` for a named
/// type (`time.Time`, a `string` type of the tool's own), whose JSON form the text does not say.
fn go_type(name: &str) -> Option<&'static str> {
    let name = name.trim_start_matches('*');
    if name.starts_with("[]") || name.starts_with('[') {
        Some("array")
    } else if name.starts_with("map[") {
        Some("object")
    } else {
        json_type(name.trim_end_matches(|c: char| c.is_ascii_digit())).or_else(|| json_type(name))
    }
}

fn go_json(text: &str) -> Option<Vec<Issue>> {
    let first = text.lines().next().unwrap_or_default();
    if let Some(found) = GO_TYPE.captures(first) {
        let at = found
            .name("f")
            .map_or_else(Path::root, |f| path(f.as_str()));
        let mut issue = Issue::new(at, Constraint::Type, first.to_owned());
        issue.expected = go_type(&found["t"]).map(Value::from);
        issue.got = found.name("num").and_then(|n| number(n.as_str()));
        return Some(vec![issue]);
    }
    if let Some(found) = GO_UNKNOWN.captures(first) {
        let at = Path::root().key(found["k"].to_owned());
        return Some(vec![Issue::new(
            at,
            Constraint::AdditionalProperties,
            first.to_owned(),
        )]);
    }
    let syntax = first.contains("invalid character") || first.contains("unexpected end of JSON");
    syntax.then(|| {
        vec![Issue::new(
            Path::root(),
            Constraint::Syntax,
            first.to_owned(),
        )]
    })
}

fn go_validator(text: &str) -> Vec<Issue> {
    GO_VALIDATOR
        .captures_iter(text)
        .take(MAX_FOREIGN_ISSUES)
        .map(|found| {
            // The namespace starts with the struct's name: the path is what follows it.
            let namespace = &found["ns"];
            let at = path(namespace.split_once('.').map_or("", |(_, rest)| rest));
            let tag = &found["tag"];
            let (constraint, expected) = match tag {
                "required" | "required_if" | "required_with" | "required_without" => {
                    (Constraint::Required, None)
                }
                "gt" => (Constraint::ExclusiveMinimum, None),
                "gte" | "min" => (Constraint::Minimum, None),
                "lt" => (Constraint::ExclusiveMaximum, None),
                "lte" | "max" => (Constraint::Maximum, None),
                "oneof" => (Constraint::Enum, None),
                "unique" => (Constraint::UniqueItems, None),
                "email" | "url" | "uri" | "uuid" | "uuid4" | "datetime" | "ip" | "ipv4"
                | "ipv6" | "hostname" => {
                    let format = match tag {
                        "url" => "uri",
                        "uuid4" => "uuid",
                        "datetime" => "date-time",
                        "ip" => "ipv4",
                        other => other,
                    };
                    (Constraint::Format, Some(Value::from(format)))
                }
                _ => (Constraint::Custom, None),
            };
            let mut issue = Issue::new(at, constraint, found[0].to_owned());
            issue.expected = expected;
            issue
        })
        .collect()
}

fn ajv_text(text: &str) -> Vec<Issue> {
    // `errorsText` joins `data<instancePath> <message>` with ", ".
    let mut issues = Vec::new();
    for part in split_keeping(text, ", data", "data".len())
        .into_iter()
        .take(MAX_FOREIGN_ISSUES)
    {
        let part = part.strip_prefix("data").unwrap_or(part);
        let (at, message) = part.split_once(' ').unwrap_or((part, ""));
        issues.push(keyed(sentence_issue(path(at), message), message));
    }
    issues
}

/// `text` cut at each `separator`, its last `keep` bytes kept at the start of the next part
/// (`", data"` keeping 4 keeps `data`).
fn split_keeping<'t>(text: &'t str, separator: &str, keep: usize) -> Vec<&'t str> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (at, _) in text.match_indices(separator) {
        parts.push(&text[start..at]);
        start = at + separator.len() - keep;
    }
    parts.push(&text[start..]);
    parts
}

/// A serde (serde_json) error, with `serde_path_to_error`'s path when it has one.
fn serde(text: &str) -> Option<(ForeignFormat, Vec<Issue>)> {
    let first = text.lines().next().unwrap_or_default().trim();
    let bare = SERDE_POSITION.replace(first, "");
    if SERDE_SYNTAX.is_match(&bare) {
        let issue = Issue::new(Path::root(), Constraint::Syntax, first.to_owned());
        return Some((ForeignFormat::SerdeJson, vec![issue]));
    }
    let found = SERDE.captures(&bare)?;
    let (format, at) = match found.name("path") {
        Some(at) => (ForeignFormat::SerdePathToError, path(at.as_str())),
        None => (ForeignFormat::SerdeJson, Path::root()),
    };
    let message = &found["msg"];
    let named = || QUOTED.captures(message).map(|k| k["k"].to_owned());
    // serde_path_to_error's path ends at an unknown key, and before a missing one.
    let with_key = |at: Path| match named() {
        Some(key) if !matches!(at.segments().last(), Some(Segment::Key(last)) if *last == key) => {
            at.key(key)
        }
        _ => at,
    };
    let mut issue = if message.starts_with("missing field") {
        Issue::new(with_key(at), Constraint::Required, message.to_owned())
    } else if message.starts_with("unknown field") {
        Issue::new(
            with_key(at),
            Constraint::AdditionalProperties,
            message.to_owned(),
        )
    } else if message.starts_with("unknown variant") {
        let mut issue = Issue::new(at, Constraint::Enum, message.to_owned());
        issue.got = named().map(Value::from);
        // `expected one of `a`, `b`, `c``, or with two variants `expected `a` or `b``.
        issue.expected = message
            .split_once("expected ")
            .map(|(_, values)| values.strip_prefix("one of ").unwrap_or(values))
            .and_then(super::sentence::listed_values)
            .map(Value::Array);
        issue
    } else if let Some(typed) = SERDE_TYPE.captures(message) {
        serde_type(at, message, &typed)
    } else {
        custom(at, message)
    };
    issue.message = first.to_owned();
    Some((format, vec![issue]))
}

/// `invalid type: string "ten", expected i64`, `invalid value: integer `500`, expected u8`.
fn serde_type(at: Path, message: &str, typed: &regex::Captures<'_>) -> Issue {
    let got = match (typed.name("tick"), typed.name("quoted")) {
        (Some(tick), _) => number(tick.as_str()).or_else(|| literal(tick.as_str())),
        (None, Some(quoted)) => literal(quoted.as_str()),
        (None, None) => None,
    };
    let want = typed["want"].trim();
    let want_type = want
        .split_whitespace()
        .find_map(json_type)
        .or_else(|| want.starts_with("struct").then_some("object"));
    // A value of the right type out of an integer type's range: the range is the bound.
    if message.starts_with("invalid value") {
        if let (Some(Value::Number(n)), Some(range)) = (&got, integer_range(want)) {
            if let Some(n) = n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)) {
                let (constraint, bound) = if n < range.0 {
                    (Constraint::Minimum, range.0)
                } else {
                    (Constraint::Maximum, range.1)
                };
                let mut issue = Issue::new(at, constraint, message.to_owned());
                issue.expected = number(&bound.to_string());
                issue.got = got;
                return issue;
            }
        }
    }
    let mut issue = match want_type {
        Some(json) => {
            let mut issue = Issue::new(at, Constraint::Type, message.to_owned());
            issue.expected = Some(Value::from(json));
            issue
        }
        None => custom(at, message),
    };
    issue.got = got;
    issue
}

/// The range of a Rust integer type named in serde's "expected" (`u8`, `i32`, ...).
fn integer_range(want: &str) -> Option<(i128, i128)> {
    Some(match want.trim() {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, u64::MAX.into()),
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => (i64::MIN.into(), i64::MAX.into()),
        _ => return None,
    })
}

/// For `required` and `additionalProperties`, the key a message names (`'phone' is a required
/// property`, `('extra' was unexpected)`) added to the path, where the path does not end with
/// it already.
fn keyed(mut issue: Issue, message: &str) -> Issue {
    if !matches!(
        issue.constraint,
        Constraint::Required | Constraint::AdditionalProperties
    ) {
        return issue;
    }
    let quoted = QUOTED
        .captures_iter(message)
        .last()
        .map(|found| found["k"].to_owned());
    if let Some(key) = quoted {
        let ends_with =
            matches!(issue.path.segments().last(), Some(Segment::Key(last)) if *last == key);
        if !ends_with && !key.contains(' ') {
            issue.path = issue.path.key(key);
        }
    }
    issue.got = None;
    issue
}

/// Plain sentences, one a line or joined by `. ` (Joi's message), each about one field.
fn plain(text: &str) -> Vec<Issue> {
    let mut issues = Vec::new();
    for line in text.lines() {
        // An HTTP status in front ("HTTP 422: ...", "400 Bad Request: ...") is no subject.
        let line = STATUS_PREFIX
            .find(line)
            .map_or(line, |prefix| &line[prefix.end()..]);
        for sentence in split_keeping(line, ". \"", 1) {
            let sentence = sentence.trim().trim_end_matches('.');
            if sentence.is_empty() {
                continue;
            }
            if let Some(issue) = plain_sentence(sentence) {
                issues.push(issue);
                if issues.len() == MAX_FOREIGN_ISSUES {
                    return issues;
                }
            }
        }
    }
    issues
}

fn plain_sentence(sentence: &str) -> Option<Issue> {
    let subject = [
        &*JOI_SUBJECT,
        &*LARAVEL_SUBJECT,
        &*PREFIX_PATH,
        &*WORD_SUBJECT,
    ]
    .iter()
    .enumerate()
    .find_map(|(form, pattern)| pattern.captures(sentence).map(|found| (form, found)));
    match subject {
        Some((form, found)) => {
            let at = path(&found["p"]);
            let message = found.name("m").map_or(sentence, |m| m.as_str());
            let issue = sentence_issue(at, message);
            // Joi's subject is the quoted path itself; other forms may name a key in quotes.
            Some(if form == 0 {
                issue
            } else {
                keyed(issue, message)
            })
        }
        None => {
            let found = classify(sentence)?;
            let at = NAMED_PARAMETER
                .captures(sentence)
                .map_or_else(Path::root, |p| path(&p["p"]));
            Some(keyed(issue(at, found, sentence), sentence))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        assert!(!every_pattern().is_empty());
    }

    #[test]
    fn plain_sentences_name_their_field() {
        for (text, at, constraint) in [
            (
                "amount must be greater than 0",
                "amount",
                Constraint::ExclusiveMinimum,
            ),
            (
                "HTTP 422: amount must be greater than 0",
                "amount",
                Constraint::ExclusiveMinimum,
            ),
            (
                "400 Bad Request: amount must be greater than 0",
                "amount",
                Constraint::ExclusiveMinimum,
            ),
            (
                "The max price field must be at least 1.",
                "max price",
                Constraint::Minimum,
            ),
            (
                "amount: must be greater than 0",
                "amount",
                Constraint::ExclusiveMinimum,
            ),
            (
                "Missing required parameter: amount",
                "amount",
                Constraint::Required,
            ),
            (
                "\"contact.phone\" is required",
                "contact.phone",
                Constraint::Required,
            ),
        ] {
            let issues = plain(text);
            assert_eq!(issues.len(), 1, "{text}");
            assert_eq!(issues[0].path, path(at), "{text}");
            assert_eq!(issues[0].constraint, constraint, "{text}");
        }
        assert!(plain("insufficient funds").is_empty());
    }
}
