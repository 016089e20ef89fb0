//! [`DynamicTool`]: a tool built at run time from a schema that arrives over the wire (tools
//! discovered from an MCP server or a registry), decoding into `serde_json::Value` with the
//! same rules, repairs and issues as generated code; and [`ToolCache`], so a hot path does
//! not rebuild the same tool.

use crate::streaming::StreamDecoder;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::decode::{
    decode_text_refused, decode_value_refused, Decoded, HintModel, Options, Rejected,
};
use crate::model::{SchemaErrors, ToolModel};
use crate::{Constraint, Issue, Path, Report};

/// A tool whose schema is known only at run time.
///
/// ```
/// use toolgate_core::DynamicTool;
///
/// let tool = DynamicTool::from_definition(&serde_json::json!({
///     "name": "get_weather",
///     "inputSchema": {"type": "object", "properties": {
///         "lat": {"type": "number", "minimum": -90, "maximum": 90},
///         "units": {"type": "string", "enum": ["metric", "imperial"]}},
///         "required": ["lat"]}
/// })).unwrap();
/// let decoded = tool.decode(r#"```json
/// {"lat": "48.85", "units": "Metric", "extra": 1}
/// ```"#).unwrap();
/// assert_eq!(decoded.value, serde_json::json!({"lat": 48.85, "units": "metric", "extra": 1}));
/// let rules: Vec<&str> = decoded.repairs.iter().map(|r| r.rule.as_str()).collect();
/// assert_eq!(rules, ["json_text", "string_to_number", "enum_case"]);
/// ```
#[derive(Clone, Debug)]
pub struct DynamicTool {
    model: Arc<ToolModel>,
    options: Options,
}

impl DynamicTool {
    /// A tool from its definition (OpenAI, MCP, Anthropic or BFCL) or a bare schema.
    pub fn from_definition(definition: &Value) -> Result<Self, SchemaErrors> {
        Ok(Self::from_model(ToolModel::from_definition(definition)?))
    }

    /// A tool from a model.
    pub fn from_model(model: ToolModel) -> Self {
        DynamicTool {
            model: Arc::new(model),
            options: Options::default(),
        }
    }

    /// The same tool with other decoding options.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// The tool model.
    pub fn model(&self) -> &ToolModel {
        &self.model
    }

    /// Decodes argument text: repaired where lossless, every issue otherwise.
    pub fn decode(&self, text: &str) -> Result<Decoded<Value>, Rejected> {
        self.decode_bytes(text.as_bytes())
    }

    /// Decodes argument bytes.
    pub fn decode_bytes(&self, bytes: &[u8]) -> Result<Decoded<Value>, Rejected> {
        decode_text_refused(&self.model, bytes, &self.options)
            .map_err(|refused| refused.with_model(HintModel::Shared(Arc::clone(&self.model))))
    }

    /// A decoder of one call whose arguments stream in (see [`crate::streaming`]): its
    /// `finish` is [`DynamicTool::decode_bytes`] of every byte fed.
    pub fn stream_decoder(&self) -> StreamDecoder<'_> {
        StreamDecoder::dynamic(self)
    }

    /// The options the tool decodes with.
    pub(crate) fn options(&self) -> &Options {
        &self.options
    }

    /// The tool model, shared (for a refusal's hint).
    pub(crate) fn shared_model(&self) -> Arc<ToolModel> {
        Arc::clone(&self.model)
    }

    /// Decodes arguments already parsed as JSON.
    pub fn decode_value(&self, value: &Value) -> Result<Decoded<Value>, Rejected> {
        decode_value_refused(&self.model, value, &self.options)
            .map_err(|refused| refused.with_model(HintModel::Shared(Arc::clone(&self.model))))
    }

    /// The text to hand on for arguments this tool accepted: `sent` is the text decoded,
    /// `decoded` what [`DynamicTool::decode`] gave for it. A call that was not repaired
    /// ([`Decoded::is_repaired`]: defaults filled in do not count) is handed on as it was
    /// sent, byte for byte; a repaired call is its text with only the repaired members
    /// written again (`json_text`: the value alone; see the rules in `decode/splice.rs`).
    ///
    /// What it writes is checked: this tool reads it back valid as sent (no repair) as the
    /// same value. `None` where that fails (a log past [`MAX_REPAIRS`](crate::decode::MAX_REPAIRS),
    /// a key too long to be logged whole): the caller writes the value itself.
    ///
    /// ```
    /// use toolgate_core::DynamicTool;
    ///
    /// let tool = DynamicTool::from_definition(&serde_json::json!({"name": "t", "parameters": {
    ///     "type": "object", "properties": {"n": {"type": "integer"}, "id": {}}}})).unwrap();
    /// let sent = r#"{ "id": 1.23456789012345678901234567890e29, "n": "5" }"#;
    /// let decoded = tool.decode(sent).unwrap();
    /// assert_eq!(
    ///     tool.repaired_text(sent, &decoded).as_deref(),
    ///     Some(r#"{ "id": 1.23456789012345678901234567890e29, "n": 5 }"#)
    /// );
    /// ```
    pub fn repaired_text(&self, sent: &str, decoded: &Decoded<Value>) -> Option<String> {
        if !decoded.is_repaired() {
            return Some(sent.to_owned());
        }
        if decoded.repairs_left_out > 0 {
            return None;
        }
        let text = crate::decode::splice::splice(sent, &decoded.repairs, &decoded.value)?;
        let again = self.decode(&text).ok()?;
        (!again.is_repaired() && again.value == decoded.value).then_some(text)
    }
}

/// The refusal for a schema that cannot be used: one issue with constraint `schema`, naming
/// the keyword's JSON pointer (in `expected`) and the reason.
pub fn schema_refusal(errors: &SchemaErrors) -> Report {
    let mut report = Report::new();
    let first = errors.0.first();
    let more = errors.0.len().saturating_sub(1);
    let mut message = match first {
        Some(error) => format!("the tool's schema cannot be used: {error}"),
        None => "the tool's schema cannot be used".to_owned(),
    };
    if more > 0 {
        message.push_str(&format!(" (and {more} more)"));
    }
    let mut issue = Issue::new(Path::root(), Constraint::Schema, message);
    if let Some(error) = first {
        issue = issue.with_expected(Value::String(error.pointer.clone()));
    }
    report.push(issue);
    report
}

/// Tools built from definitions, kept by the definition's text so each is built once (a
/// definition that cannot be used is kept too, with its errors).
///
/// The cache is bounded, so a long-running process fed ever new definitions (a gateway, a
/// scorer reading a registry) stays flat: it keeps at most `max_tools` definitions and at most
/// `max_text_bytes` bytes of definition text, and evicts the least recently used first. The
/// defaults are [`ToolCache::DEFAULT_MAX_TOOLS`] and [`ToolCache::DEFAULT_MAX_TEXT_BYTES`];
/// [`ToolCache::with_limits`] sets others. A definition longer than `max_text_bytes` is built
/// each time and never kept. Failed definitions count against the same bounds.
///
/// ```
/// use toolgate_core::ToolCache;
///
/// let cache = ToolCache::new();
/// let text = r#"{"name": "ping", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}"#;
/// let first = cache.get_text(text).unwrap();
/// let again = cache.get_text(text).unwrap();
/// assert!(std::sync::Arc::ptr_eq(&first, &again));
/// assert_eq!(cache.len(), 1);
/// ```
///
/// With a bound of two tools, the third evicts the least recently used:
///
/// ```
/// use toolgate_core::ToolCache;
///
/// let cache = ToolCache::with_limits(2, ToolCache::DEFAULT_MAX_TEXT_BYTES);
/// let a = cache.get_text(r#"{"type": "object", "description": "a"}"#).unwrap();
/// cache.get_text(r#"{"type": "object", "description": "b"}"#).unwrap();
/// cache.get_text(r#"{"type": "object", "description": "a"}"#).unwrap(); // a is used again
/// cache.get_text(r#"{"type": "object", "description": "c"}"#).unwrap(); // b goes
/// assert_eq!(cache.len(), 2);
/// let a_again = cache.get_text(r#"{"type": "object", "description": "a"}"#).unwrap();
/// assert!(std::sync::Arc::ptr_eq(&a, &a_again));
/// ```
#[derive(Debug)]
pub struct ToolCache {
    entries: Mutex<Entries>,
    max_tools: usize,
    max_text_bytes: usize,
}

/// What a cache entry holds: the tool, or why its definition cannot be used.
type Built = Result<Arc<DynamicTool>, SchemaErrors>;

/// The cached definitions, by text and by last use.
#[derive(Debug, Default)]
struct Entries {
    by_text: HashMap<Arc<str>, Entry>,
    /// Definition texts by the tick of their last use: the first is the one to evict.
    by_last_use: BTreeMap<u64, Arc<str>>,
    /// Counts uses; each lookup gets a new tick.
    clock: u64,
    /// Bytes of definition text kept.
    text_bytes: usize,
}

#[derive(Debug)]
struct Entry {
    built: Built,
    last_use: u64,
}

impl Entries {
    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// The entry for `text`, marked as used now.
    fn use_entry(&mut self, text: &str) -> Option<Built> {
        let now = self.tick();
        let entry = self.by_text.get_mut(text)?;
        let previous = std::mem::replace(&mut entry.last_use, now);
        if let Some(key) = self.by_last_use.remove(&previous) {
            self.by_last_use.insert(now, key);
        }
        Some(entry.built.clone())
    }

    fn insert(&mut self, text: &str, built: Built) {
        let now = self.tick();
        let key: Arc<str> = Arc::from(text);
        self.text_bytes += key.len();
        self.by_last_use.insert(now, Arc::clone(&key));
        self.by_text.insert(
            key,
            Entry {
                built,
                last_use: now,
            },
        );
    }

    fn evict_least_recently_used(&mut self) {
        if let Some((_, key)) = self.by_last_use.pop_first() {
            self.by_text.remove(&key);
            self.text_bytes -= key.len();
        }
    }
}

impl Default for ToolCache {
    fn default() -> Self {
        Self::with_limits(Self::DEFAULT_MAX_TOOLS, Self::DEFAULT_MAX_TEXT_BYTES)
    }
}

impl ToolCache {
    /// How many definitions a cache keeps by default: 1024.
    pub const DEFAULT_MAX_TOOLS: usize = 1024;

    /// How many bytes of definition text a cache keeps by default: 8 MiB. (The tools built
    /// from them take a small multiple of that.)
    pub const DEFAULT_MAX_TEXT_BYTES: usize = 8 << 20;

    /// An empty cache with the default bounds.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty cache that keeps at most `max_tools` definitions and `max_text_bytes` bytes of
    /// definition text (a bound of 0 keeps nothing: every lookup builds).
    ///
    /// ```
    /// use toolgate_core::ToolCache;
    ///
    /// let cache = ToolCache::with_limits(100, 1 << 20);
    /// for n in 0..1000 {
    ///     let _ = cache.get_text(&format!(r#"{{"type": "object", "description": "{n}"}}"#));
    /// }
    /// assert_eq!(cache.len(), 100);
    /// ```
    pub fn with_limits(max_tools: usize, max_text_bytes: usize) -> Self {
        ToolCache {
            entries: Mutex::new(Entries::default()),
            max_tools,
            max_text_bytes,
        }
    }

    /// The tool for this definition text, built on first use (properties keep the text's
    /// order).
    pub fn get_text(&self, definition: &str) -> Result<Arc<DynamicTool>, SchemaErrors> {
        self.get_or_build(definition, || ToolModel::from_definition_text(definition))
    }

    /// The tool for this definition, built on first use.
    pub fn get(&self, definition: &Value) -> Result<Arc<DynamicTool>, SchemaErrors> {
        self.get_or_build(&definition.to_string(), || {
            ToolModel::from_definition(definition)
        })
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn get_or_build(
        &self,
        key: &str,
        build: impl FnOnce() -> Result<ToolModel, SchemaErrors>,
    ) -> Built {
        if let Some(built) = self.entries().use_entry(key) {
            return built;
        }
        // Built without the lock, so one slow definition does not hold up the others.
        let built: Built = build().map(|model| Arc::new(DynamicTool::from_model(model)));
        if self.max_tools == 0 || key.len() > self.max_text_bytes {
            return built;
        }
        let mut entries = self.entries();
        if let Some(already) = entries.use_entry(key) {
            // Another thread built it meanwhile: keep one tool per definition.
            return already;
        }
        while entries.by_text.len() >= self.max_tools
            || entries.text_bytes + key.len() > self.max_text_bytes
        {
            entries.evict_least_recently_used();
        }
        entries.insert(key, built.clone());
        built
    }

    /// How many definitions are cached (at most the cache's `max_tools`).
    pub fn len(&self) -> usize {
        self.entries().by_text.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many bytes of definition text are cached (at most the cache's `max_text_bytes`).
    pub fn text_bytes(&self) -> usize {
        self.entries().text_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn definition(n: usize) -> String {
        format!(
            r#"{{"type": "object", "properties": {{"n": {{"type": "integer"}}}}, "description": "tool {n:05}"}}"#
        )
    }

    /// A definition the reader refuses (`contentEncoding` is not supported).
    fn unusable_definition(n: usize) -> String {
        format!(
            r#"{{"type": "object", "properties": {{"x": {{"type": "string", "if": {{}}}}}}, "description": "tool {n:05}"}}"#
        )
    }

    #[test]
    fn many_distinct_tools_keep_the_cache_at_its_bound() {
        let cache = ToolCache::new();
        for n in 0..ToolCache::DEFAULT_MAX_TOOLS * 3 {
            cache.get_text(&definition(n)).unwrap();
            assert!(cache.len() <= ToolCache::DEFAULT_MAX_TOOLS);
        }
        assert_eq!(cache.len(), ToolCache::DEFAULT_MAX_TOOLS);
    }

    #[test]
    fn the_least_recently_used_tool_is_evicted_first() {
        let cache = ToolCache::with_limits(3, usize::MAX);
        let first = cache.get_text(&definition(0)).unwrap();
        let second = cache.get_text(&definition(1)).unwrap();
        cache.get_text(&definition(2)).unwrap();
        // 0 is used again, so 1 is now the least recently used.
        assert!(Arc::ptr_eq(
            &first,
            &cache.get_text(&definition(0)).unwrap()
        ));
        cache.get_text(&definition(3)).unwrap();
        assert_eq!(cache.len(), 3);
        assert!(Arc::ptr_eq(
            &first,
            &cache.get_text(&definition(0)).unwrap()
        ));
        let second_rebuilt = cache.get_text(&definition(1)).unwrap();
        assert!(
            !Arc::ptr_eq(&second, &second_rebuilt),
            "1 was evicted and built again"
        );
        assert_eq!(cache.len(), 3);
    }

    #[test]
    fn failed_definitions_count_against_the_bound() {
        let cache = ToolCache::with_limits(10, usize::MAX);
        for n in 0..100 {
            assert!(cache.get_text(&unusable_definition(n)).is_err());
            assert!(cache.len() <= 10);
        }
        assert_eq!(cache.len(), 10);
        // The errors are kept like tools: asking again gives the same errors.
        let again = cache.get_text(&unusable_definition(99)).unwrap_err();
        assert_eq!(again, cache.get_text(&unusable_definition(99)).unwrap_err());
    }

    #[test]
    fn the_text_bound_evicts_by_bytes() {
        let size = definition(0).len();
        let cache = ToolCache::with_limits(usize::MAX, size * 4);
        for n in 0..100 {
            cache.get_text(&definition(n)).unwrap();
            assert!(cache.text_bytes() <= size * 4);
        }
        assert_eq!(cache.len(), 4);
        assert_eq!(cache.text_bytes(), size * 4);
    }

    #[test]
    fn a_definition_longer_than_the_text_bound_is_built_but_not_kept() {
        let cache = ToolCache::with_limits(10, 20);
        let tool = cache.get_text(&definition(0)).unwrap();
        assert_eq!(
            tool.decode(r#"{"n": "5"}"#).unwrap().value,
            serde_json::json!({"n": 5})
        );
        assert!(cache.is_empty());
        assert_eq!(cache.text_bytes(), 0);
    }

    #[test]
    fn a_bound_of_zero_tools_keeps_nothing() {
        let cache = ToolCache::with_limits(0, usize::MAX);
        let first = cache.get_text(&definition(0)).unwrap();
        let again = cache.get_text(&definition(0)).unwrap();
        assert!(!Arc::ptr_eq(&first, &again));
        assert!(cache.is_empty());
    }

    #[test]
    fn values_and_texts_share_the_bound() {
        let cache = ToolCache::with_limits(2, usize::MAX);
        for n in 0..5 {
            let value: Value = serde_json::from_str(&definition(n)).unwrap();
            cache.get(&value).unwrap();
            cache.get_text(&definition(n)).unwrap();
            assert!(cache.len() <= 2);
        }
        assert_eq!(cache.len(), 2);
    }
}
