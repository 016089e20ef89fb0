//! Arbitrary argument text for four run-time tools (`DynamicTool`): the first byte picks the
//! tool, the rest is the argument text.
//!
//! - It never panics.
//! - `Ok`: `serde_json::to_vec` of the value decodes again to a value equal under JSON
//!   Schema's numeric equality (`toolgate_core::values::json_equal`), with no repair other than
//!   `default`.
//! - `Err`: the report is non-empty and capped (≤ 101 issues), and the retry hint's JSON is
//!   valid with ≤ 3 `missing_fields`, ≤ 3 `fields` and a question of ≤ 300 characters.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use toolgate::DynamicTool;
use toolgate_fuzz::{check_decodes_again, check_rejected};

/// MCP: `inputSchema` with `$defs`/`$ref` (one recursive), `anyOf`, formats, closed objects.
const MCP_EVENT: &str = r##"{
  "name": "create_event",
  "description": "Create a calendar event and invite people.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "title": {"type": "string", "minLength": 1, "maxLength": 100, "description": "Short title of the event"},
      "start": {"type": "string", "format": "date-time", "description": "When the event starts"},
      "duration_minutes": {"type": "integer", "minimum": 5, "maximum": 1440, "default": 30},
      "attendees": {"type": "array", "items": {"$ref": "#/$defs/Person"}, "maxItems": 10, "uniqueItems": true},
      "location": {"anyOf": [{"type": "string", "minLength": 1}, {"$ref": "#/$defs/Place"}], "description": "An address or coordinates"},
      "reminder": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
      "agenda": {"$ref": "#/$defs/Item"},
      "visibility": {"type": "string", "enum": ["public", "private", "confidential"]}
    },
    "required": ["title", "start"],
    "additionalProperties": false,
    "$defs": {
      "Person": {
        "type": "object",
        "description": "Someone to invite",
        "properties": {
          "email": {"type": "string", "format": "email"},
          "name": {"type": "string", "maxLength": 64},
          "optional": {"type": "boolean", "default": false}
        },
        "required": ["email"]
      },
      "Place": {
        "type": "object",
        "properties": {
          "lat": {"type": "number", "minimum": -90, "maximum": 90},
          "lon": {"type": "number", "minimum": -180, "maximum": 180}
        },
        "required": ["lat", "lon"],
        "additionalProperties": false
      },
      "Item": {
        "type": "object",
        "properties": {
          "topic": {"type": "string"},
          "minutes": {"type": "integer", "exclusiveMinimum": 0},
          "sub": {"type": "array", "items": {"$ref": "#/$defs/Item"}, "maxItems": 5}
        },
        "required": ["topic"]
      }
    }
  }
}"##;

/// BFCL's dialect: `dict`, `float`, `optional: true`, enums and defaults (one of them the
/// string `"false"` on a boolean, as BFCL writes it).
const BFCL_HOTEL: &str = r##"{
  "name": "hotel.search",
  "description": "Search hotels in a city.",
  "parameters": {
    "type": "dict",
    "properties": {
      "city": {"type": "string", "description": "City name, e.g. Paris"},
      "nights": {"type": "integer", "description": "Number of nights", "default": 1},
      "budget": {"type": "float", "description": "Most to pay per night", "optional": true},
      "stars": {"type": "integer", "enum": [1, 2, 3, 4, 5], "optional": true},
      "sort": {"type": "string", "enum": ["price", "rating", "distance"], "default": "price"},
      "amenities": {"type": "array", "items": {"type": "string", "enum": ["wifi", "pool", "gym", "parking"]}, "optional": true},
      "pets": {"type": "boolean", "description": "Pets allowed", "default": "false"},
      "filters": {
        "type": "dict",
        "properties": {
          "max_distance_km": {"type": "float", "description": "Distance to the centre"},
          "free_cancellation": {"type": "boolean", "optional": true}
        },
        "required": ["max_distance_km"],
        "optional": true
      },
      "extra": {"type": "any", "optional": true}
    },
    "required": ["city", "nights", "sort"]
  }
}"##;

/// OpenAI: `oneOf` of objects told apart by a `const` tag, `multipleOf`, a nullable type.
const OPENAI_PAYMENT: &str = r##"{
  "type": "function",
  "function": {
    "name": "send_payment",
    "description": "Send money to someone.",
    "parameters": {
      "type": "object",
      "properties": {
        "amount": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.01},
        "currency": {"type": "string", "enum": ["EUR", "USD", "GBP"]},
        "method": {
          "oneOf": [
            {"type": "object", "properties": {"kind": {"const": "card"}, "number": {"type": "string", "pattern": "^[0-9]{16}$"}}, "required": ["kind", "number"], "additionalProperties": false},
            {"type": "object", "properties": {"kind": {"const": "iban"}, "iban": {"type": "string", "minLength": 15, "maxLength": 34}}, "required": ["kind", "iban"], "additionalProperties": false}
          ]
        },
        "memo": {"type": ["string", "null"], "maxLength": 140},
        "when": {"type": "string", "format": "date"}
      },
      "required": ["amount", "currency", "method"]
    }
  }
}"##;

/// A bare draft-07 schema: `definitions`, maps (`additionalProperties` schemas), integer
/// formats, nested arrays.
const BARE_TABLE: &str = r##"{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "put_table",
  "type": "object",
  "properties": {
    "name": {"type": "string", "pattern": "^[a-z_][a-z0-9_]*$"},
    "rows": {"type": "array", "items": {"type": "array", "items": {"type": "number"}, "maxItems": 4}, "maxItems": 16},
    "labels": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 255}},
    "owner": {"$ref": "#/definitions/User"},
    "id": {"type": "integer", "format": "int64"},
    "ratio": {"type": "number", "minimum": 0, "exclusiveMaximum": 1}
  },
  "required": ["name", "rows"],
  "definitions": {
    "User": {"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}, "ip": {"type": "string", "format": "ipv4"}}, "required": ["id"]}
  }
}"##;

const DEFINITIONS: [&str; 4] = [MCP_EVENT, BFCL_HOTEL, OPENAI_PAYMENT, BARE_TABLE];

fn tools() -> &'static [DynamicTool] {
    static TOOLS: OnceLock<Vec<DynamicTool>> = OnceLock::new();
    toolgate_fuzz::dynamic_tools(&TOOLS, &DEFINITIONS)
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let tools = tools();
    let tool = &tools[pick as usize % tools.len()];
    match tool.decode_bytes(text) {
        Ok(decoded) => check_decodes_again(tool, &decoded.value, tool.model().name()),
        Err(rejected) => check_rejected(&rejected, text),
    }
});
