//! OpenAI: the function tool's envelopes (Chat Completions and Responses) and strict mode's
//! rewrite ([`Flavour::OpenAiStrict`](crate::flavour::Flavour::OpenAiStrict), rules in
//! [`crate::flavour`]'s notes). The message shapes are in `toolgate::boundary::messages`
//! (`openai_chat.rs`, `openai_responses.rs`).

use crate::model::Json;

pub(crate) mod strict;

/// The key of the arguments schema (Gemini's `parameters` too).
pub(crate) const PARAMETERS: &str = "parameters";

/// The key of Chat Completions' function inside its tool.
pub(crate) const FUNCTION: &str = "function";

/// Chat Completions' function, taken out of its tool `{"type": "function", "function":
/// {...}}`; `None` for another shape (Responses' flat function is read as it is).
pub(crate) fn chat_function(members: &mut Vec<(String, Json)>) -> Option<Json> {
    let is_function = members
        .iter()
        .any(|(key, value)| key == "type" && value.as_str() == Some("function"));
    let index = members
        .iter()
        .position(|(key, value)| key == FUNCTION && matches!(value, Json::Object(_)))?;
    is_function.then(|| members.remove(index).1)
}

/// Chat Completions: `{"type": "function", "function": {name, description, parameters}}`,
/// with `"strict": true` in strict mode.
pub(crate) fn chat_definition(mut named: Vec<(String, Json)>, schema: Json, strict: bool) -> Json {
    named.push((PARAMETERS.to_owned(), schema));
    if strict {
        named.push(super::strict_member());
    }
    Json::Object(vec![
        ("type".to_owned(), Json::String("function".to_owned())),
        (FUNCTION.to_owned(), Json::Object(named)),
    ])
}

/// Responses: `{"type": "function", name, description, parameters, strict}`, flat. The
/// Responses API takes a function as strict when `strict` is left out, so it is always
/// written: `false` outside strict mode.
pub(crate) fn responses_definition(named: Vec<(String, Json)>, schema: Json, strict: bool) -> Json {
    let mut members = vec![("type".to_owned(), Json::String("function".to_owned()))];
    members.extend(named);
    members.push((PARAMETERS.to_owned(), schema));
    members.push(("strict".to_owned(), Json::Bool(strict)));
    Json::Object(members)
}
