//! `allOf`, merged into one schema where the merge means the same as the conjunction.
//!
//! The model has no intersection, so the reader folds `allOf` members into their parent
//! schema object, keyword by keyword, and reads the result. A merge is made only where it
//! is exact:
//!
//! - a keyword in one part only is kept; the same keyword with the same value in several
//!   parts is kept once;
//! - `properties` are joined (a property declared in two parts must be declared alike),
//!   `required` names are joined;
//! - descriptions, titles, the other annotations and unknown keywords (no constraint, see
//!   [`keywords::constrains_nothing`]) keep the first one written: the parent's, then the
//!   members' in order;
//! - a `true` member adds nothing; a `false` member makes the whole schema `false`;
//! - anything else is refused with the pointer of the `allOf`: the same keyword with
//!   different values (`minimum` 1 and 2: the reader does not pick the tighter), and
//!   `additionalProperties` beside `properties` of another part (in JSON Schema it does not
//!   see the other part's properties, so the merge would allow keys the conjunction
//!   refuses), and likewise `items` beside another part's `prefixItems` and
//!   `additionalItems` beside another part's `items`.
//!
//! Errors in the merged keywords name the pointer of the parent schema.

use super::*;

impl Reader {
    /// The parent schema with its `allOf` folded in, or `None` (with errors) when the merge
    /// would not mean the same.
    pub(super) fn merge_all_of(
        &mut self,
        members: &[(String, Json)],
        pointer: &str,
    ) -> Option<Json> {
        let at = format!("{pointer}/allOf");
        let mut parts: Vec<Vec<(String, Json)>> = Vec::new();
        if !self.flatten(members, &at, &mut parts) {
            return Some(Json::Bool(false));
        }
        let has = |part: &Vec<(String, Json)>, key: &str| part.iter().any(|(k, _)| k == key);
        // A keyword that applies to what another keyword of its own schema leaves over.
        const BLIND: [(&str, &str, &str); 3] = [
            (
                "additionalProperties",
                "properties",
                "each `additionalProperties` sees only its own member's properties",
            ),
            (
                "items",
                "prefixItems",
                "each `items` sees only its own member's `prefixItems`",
            ),
            (
                "additionalItems",
                "items",
                "each `additionalItems` sees only its own member's `items`",
            ),
        ];
        for (rest, first, why) in BLIND {
            let blind = parts.iter().enumerate().any(|(i, part)| {
                has(part, rest)
                    && parts
                        .iter()
                        .enumerate()
                        .any(|(j, other)| i != j && has(other, first))
            });
            if blind {
                self.error(&at, format!("`allOf` with `{rest}` beside the `{first}` of another member is not merged ({why})"));
                return None;
            }
        }
        let mut merged: Vec<(String, Json)> = Vec::new();
        let mut ok = true;
        for part in parts {
            for (key, value) in part {
                let Some(position) = merged.iter().position(|(k, _)| *k == key) else {
                    merged.push((key, value));
                    continue;
                };
                let existing = &mut merged[position].1;
                match key.as_str() {
                    _ if *existing == value => {}
                    "properties" => ok &= self.join_properties(existing, value, &at),
                    "required" => ok &= self.join_required(existing, value, &at),
                    key if keywords::constrains_nothing(key) => {}
                    key => {
                        self.error(
                            &at,
                            format!("`allOf` members give `{key}` different values; not merged"),
                        );
                        ok = false;
                    }
                }
            }
        }
        ok.then_some(Json::Object(merged))
    }

    /// The parent (without `allOf`) and every member, nested `allOf`s flattened, as parts to
    /// merge. `false` when a member is the `false` schema.
    fn flatten(
        &mut self,
        members: &[(String, Json)],
        at: &str,
        parts: &mut Vec<Vec<(String, Json)>>,
    ) -> bool {
        let mut own = Vec::new();
        let mut all_of = None;
        for (key, value) in members {
            if key == "allOf" {
                all_of = Some(value);
            } else {
                own.push((key.clone(), value.clone()));
            }
        }
        parts.push(own);
        let Some(all_of) = all_of else { return true };
        let Json::Array(items) = all_of else {
            self.error(at, "`allOf` must be an array of schemas");
            return true;
        };
        for (index, item) in items.iter().enumerate() {
            match item {
                Json::Bool(true) => {}
                Json::Bool(false) => return false,
                Json::Object(members) => {
                    if !self.flatten(members, &format!("{at}/{index}/allOf"), parts) {
                        return false;
                    }
                }
                other => self.error(
                    &format!("{at}/{index}"),
                    format!("a schema must be an object, not {}", other.type_name()),
                ),
            }
        }
        true
    }

    fn join_properties(&mut self, existing: &mut Json, more: Json, at: &str) -> bool {
        let (Json::Object(existing), Json::Object(more)) = (existing, more) else {
            self.error(at, "`properties` must be an object");
            return false;
        };
        for (name, schema) in more {
            match existing.iter().find(|(n, _)| *n == name) {
                Some((_, same)) if *same == schema => {}
                Some(_) => {
                    self.error(
                        at,
                        format!(
                            "`allOf` members declare property {name:?} differently; not merged"
                        ),
                    );
                    return false;
                }
                None => existing.push((name, schema)),
            }
        }
        true
    }

    fn join_required(&mut self, existing: &mut Json, more: Json, at: &str) -> bool {
        let (Json::Array(existing), Json::Array(more)) = (existing, more) else {
            self.error(at, "`required` must be an array of names");
            return false;
        };
        for name in more {
            if !existing.contains(&name) {
                existing.push(name);
            }
        }
        true
    }
}
