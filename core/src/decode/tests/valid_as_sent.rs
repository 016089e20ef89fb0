//! Issue 43 §1 and §2, properties over generated schemas and instances.
//!
//! - **Valid as sent passes untouched.** For any schema and any instance the value checker
//!   (JSON Schema's judgement) accepts, every road (the stream, the tree walk, `decode_value`)
//!   answers the instance as sent: no issue, no repair, the same value. The class: a call
//!   the schema takes, with keys that fold to declared fields (`Query` beside `query`, two
//!   declared names that fold alike), near misses, unions and nested objects, open and closed.
//! - **The one exception, near misses.** An undeclared key that is a near miss of a field the
//!   call left out (the "did you mean" rule finds it) is what the model meant for that field:
//!   renamed by `key_case` where it folds to it alone (its value then judged there), refused
//!   with its "did you mean" otherwise — never accepted as sent. A call without such keys passes untouched with the
//!   default options too; with [`NearMisses::Undeclared`] and `key_case` off, every valid call
//!   does.

use proptest::prelude::*;

use super::*;
use crate::model::UnionMode;
use crate::suggest;

/// A schema and what its values look like, to generate both.
#[derive(Clone, Debug)]
enum Shape {
    Text,
    Integer,
    Boolean,
    Anything,
    Choice(Vec<&'static str>),
    List(Box<Shape>),
    Object {
        fields: Vec<(String, bool, Shape)>,
        extra: Extra,
    },
    AnyOf(Vec<Shape>),
}

#[derive(Clone, Debug)]
enum Extra {
    Allowed,
    Denied,
    Typed(Box<Shape>),
}

/// Names that fold alike or nearly: the keys a model gets wrong.
const NAMES: [&str; 12] = [
    "query",
    "Query",
    "user_name",
    "userName",
    "labels",
    "label",
    "id",
    "ID",
    "limit",
    "lmit",
    "order_by",
    "sort",
];

/// Undeclared keys: other spellings of the names, near misses and strangers.
const STRANGERS: [&str; 16] = [
    "QUERY",
    "qeury",
    "user-name",
    "usr_name",
    "lables",
    "labls",
    "Labels",
    "Id",
    "LIMIT",
    "limt",
    "orderBy",
    "ordr_by",
    "sortt",
    "srot",
    "color",
    "extra",
];

fn shape() -> impl Strategy<Value = Shape> {
    let leaf = prop_oneof![
        Just(Shape::Text),
        Just(Shape::Integer),
        Just(Shape::Boolean),
        Just(Shape::Anything),
        Just(Shape::Choice(vec!["economy", "business"])),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            inner.clone().prop_map(|item| Shape::List(Box::new(item))),
            (
                proptest::sample::subsequence(NAMES.to_vec(), 1..5),
                proptest::collection::vec((any::<bool>(), inner.clone()), 5),
                prop_oneof![
                    2 => Just(Extra::Allowed),
                    1 => Just(Extra::Denied),
                    1 => inner.clone().prop_map(|s| Extra::Typed(Box::new(s))),
                ],
            )
                .prop_map(|(names, kinds, extra)| Shape::Object {
                    fields: names
                        .into_iter()
                        .zip(kinds)
                        .map(|(name, (required, shape))| (name.to_owned(), required, shape))
                        .collect(),
                    extra,
                }),
            proptest::collection::vec(inner, 2..4).prop_map(Shape::AnyOf),
        ]
    })
}

fn schema_of(shape: &Shape) -> Schema {
    match shape {
        Shape::Text => Schema::string(),
        Shape::Integer => Schema::integer(),
        Shape::Boolean => Schema::boolean(),
        Shape::Anything => Schema::any(),
        Shape::Choice(values) => {
            Schema::enumeration(values.iter().map(|v| EnumValue::new(*v)).collect())
        }
        Shape::List(item) => Schema::array(schema_of(item)),
        Shape::Object { fields, extra } => {
            let fields = fields
                .iter()
                .map(|(name, required, shape)| match required {
                    true => Field::required(name.clone(), schema_of(shape)),
                    false => Field::optional(name.clone(), schema_of(shape)),
                })
                .collect();
            let object = Schema::object(fields);
            match extra {
                Extra::Allowed => object,
                Extra::Denied => object.deny_unknown_fields(),
                Extra::Typed(values) => object.additional(schema_of(values)),
            }
        }
        Shape::AnyOf(variants) => {
            Schema::union(UnionMode::AnyOf, variants.iter().map(schema_of).collect())
        }
    }
}

/// A small deterministic generator, seeded by proptest, for the instance.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// What an instance holds of the one exception: undeclared keys that are near misses of
/// fields left out.
#[derive(Default)]
struct NearMisses {
    /// Surely: a near miss of a field its own object left out, outside unions.
    surely: bool,
    /// Perhaps: inside a union, any key near a name of the schema its object left out (an
    /// alternative that takes the value as sent may still hold one).
    perhaps: bool,
}

/// Every field name of `shape`.
fn names_of(shape: &Shape, names: &mut Vec<String>) {
    match shape {
        Shape::List(item) => names_of(item, names),
        Shape::Object { fields, extra } => {
            for (name, _, shape) in fields {
                names.push(name.clone());
                names_of(shape, names);
            }
            if let Extra::Typed(values) = extra {
                names_of(values, names);
            }
        }
        Shape::AnyOf(variants) => variants.iter().for_each(|v| names_of(v, names)),
        _ => {}
    }
}

/// An instance of `shape` (mostly valid; the checker has the last word), noting the near
/// misses it holds (`names`: every field name of the schema).
fn instance(
    shape: &Shape,
    rng: &mut Rng,
    near: &mut NearMisses,
    in_union: bool,
    names: &[String],
) -> Value {
    match shape {
        Shape::Text => json!(["a", "Query", "5", "true", "{\"a\":1}"][rng.below(5)]),
        Shape::Integer => json!([0, -3, 42][rng.below(3)]),
        Shape::Boolean => json!(rng.below(2) == 0),
        Shape::Anything => [
            json!("x"),
            json!(1.5),
            json!(null),
            json!({"Query": 1}),
            json!([1, "2"]),
        ][rng.below(5)]
        .clone(),
        Shape::Choice(values) => json!(values[rng.below(values.len())]),
        Shape::List(item) => (0..rng.below(3))
            .map(|_| instance(item, rng, near, in_union, names))
            .collect(),
        Shape::Object { fields, extra } => {
            let mut object = serde_json::Map::new();
            for (name, required, shape) in fields {
                if *required || rng.below(2) == 0 {
                    object.insert(name.clone(), instance(shape, rng, near, in_union, names));
                }
            }
            if !matches!(extra, Extra::Denied) {
                for _ in 0..rng.below(4) {
                    let key = STRANGERS[rng.below(STRANGERS.len())];
                    if object.contains_key(key) || fields.iter().any(|(name, _, _)| name == key) {
                        continue;
                    }
                    let value = match extra {
                        Extra::Typed(values) => instance(values, rng, near, in_union, names),
                        _ => json!("v"),
                    };
                    let own = fields.iter().map(|(name, _, _)| name.as_str());
                    if !in_union
                        && suggest::nearest(key, own).is_some_and(|n| !object.contains_key(n))
                    {
                        near.surely = true;
                        near.perhaps = true;
                    }
                    object.insert(key.to_owned(), value);
                }
            }
            if in_union {
                let left_out = |key: &str| {
                    let absent = names
                        .iter()
                        .map(String::as_str)
                        .filter(|n| *n != key && !object.contains_key(*n));
                    suggest::nearest(key, absent).is_some()
                };
                near.perhaps |= object.keys().any(|key| left_out(key));
            }
            Value::Object(object)
        }
        Shape::AnyOf(variants) => {
            let chosen = &variants[rng.below(variants.len())];
            instance(chosen, rng, near, true, names)
        }
    }
}

/// Every road's answer for `sent`.
fn roads(
    model: &ToolModel,
    sent: &Value,
    options: &Options,
) -> Vec<Result<Decoded<Value>, Rejected>> {
    let text = serde_json::to_string(sent).unwrap();
    let mut answers = vec![
        decode_text(model, text.as_bytes(), options),
        decode_text_by_tree(model, text.as_bytes(), options),
        decode_value(model, sent, options),
    ];
    answers.extend(decode_text_by_stream(model, text.as_bytes(), options));
    answers
}

fn untouched(answer: &Result<Decoded<Value>, Rejected>, sent: &Value) -> Result<(), String> {
    match answer {
        Ok(decoded) if decoded.repairs.is_empty() && decoded.value == *sent => Ok(()),
        Ok(decoded) => Err(format!(
            "changed to {} with {:?}",
            decoded.value, decoded.repairs
        )),
        Err(rejected) => Err(format!("refused: {}", rejected.report)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a_call_valid_as_sent_passes_every_road_untouched(
        shape in shape(),
        seed in any::<u64>(),
    ) {
        // An object at the root, as a tool's arguments are.
        let root = match shape {
            Shape::Object { .. } => shape,
            other => Shape::Object {
                fields: vec![("query".to_owned(), false, other)],
                extra: Extra::Allowed,
            },
        };
        let model = ToolModel::new("t", None, schema_of(&root), Default::default());
        let mut rng = Rng(seed);
        let mut names = Vec::new();
        names_of(&root, &mut names);
        let mut near = NearMisses::default();
        let sent = instance(&root, &mut rng, &mut near, false, &names);
        prop_assume!(model.check_against(model.input(), &sent).is_ok());

        let as_schema = Options {
            near_misses: crate::decode::NearMisses::Undeclared,
            ..Options::default().without(Rule::KeyCase)
        };
        for answer in roads(&model, &sent, &as_schema) {
            prop_assert_eq!(untouched(&answer, &sent), Ok(()), "{}", sent);
        }
        for answer in roads(&model, &sent, &Options::default()) {
            if !near.perhaps {
                prop_assert_eq!(untouched(&answer, &sent), Ok(()), "{}", sent);
                continue;
            }
            if !near.surely {
                continue;
            }
            // What the model meant for a field it left out is never taken as sent: renamed
            // to the field (`key_case`, its value then judged there) or refused.
            if let Ok(decoded) = &answer {
                prop_assert!(
                    decoded.repairs.iter().any(|r| r.rule == Rule::KeyCase),
                    "{} accepted as {} with {:?}", sent, decoded.value, decoded.repairs
                );
            }
        }
    }
}

/// A near miss of `name`: one edit (a letter dropped, doubled or swapped with the next), or
/// another case and separators.
fn near_miss_of(name: &str, how: usize, at: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    let at = at % chars.len();
    let mut out = chars.clone();
    match how % 4 {
        0 if chars.len() > 3 => {
            out.remove(at);
        }
        1 => out.insert(at, chars[at]),
        2 if at + 1 < chars.len() && chars[at] != chars[at + 1] => out.swap(at, at + 1),
        _ => return name.to_uppercase().replace('_', "-"),
    }
    out.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Issue 43 §2: an undeclared key one edit from a field the call left out (`lables` for
    /// `labels`), in an object that takes undeclared keys (kept as sent, or under
    /// `additionalProperties`), at the root or nested, is never accepted as sent on any road:
    /// refused with that field as its "did you mean", or renamed by `key_case` where it
    /// folds to it. With [`NearMisses::Undeclared`] it is an undeclared key like any other;
    /// beside the field itself it is one too.
    #[test]
    fn a_near_miss_of_a_field_left_out_is_never_dropped_or_kept_silently(
        names in proptest::sample::subsequence(
            vec!["labels", "query", "user_name", "order_by", "limit", "destination"], 2..5),
        missed in any::<proptest::sample::Index>(),
        how in 0..4usize,
        at in 0..20usize,
        nested in any::<bool>(),
        typed_extra in any::<bool>(),
        field_given in any::<bool>(),
    ) {
        let missed = missed.get(&names).to_string();
        let key = near_miss_of(&missed, how, at);
        prop_assume!(key != missed);
        let fields: Vec<Field> =
            names.iter().map(|n| Field::optional(*n, Schema::string())).collect();
        let object = Schema::object(fields);
        let object = if typed_extra { object.additional(Schema::string()) } else { object };
        let mut call = serde_json::Map::new();
        for name in &names {
            if *name != missed || field_given {
                call.insert(name.to_string(), json!("v"));
            }
        }
        call.insert(key.clone(), json!("meant"));
        let (input, sent, path) = if nested {
            let input = Schema::object(vec![Field::required("filter", object)]);
            (input, json!({"filter": call}), format!("filter.{key}"))
        } else {
            (object, Value::Object(call), key.clone())
        };
        let model = ToolModel::new("t", None, input, Default::default());
        prop_assert!(model.check_against(model.input(), &sent).is_ok());
        let folds = suggest::fold_eq(&key, &missed);
        for answer in roads(&model, &sent, &Options::default()) {
            match (&answer, field_given) {
                (_, true) => prop_assert_eq!(untouched(&answer, &sent), Ok(())),
                (Ok(decoded), false) => {
                    prop_assert!(folds, "{} accepted as {}", sent, decoded.value);
                    prop_assert_eq!(decoded.repairs.len(), 1);
                    prop_assert_eq!(decoded.repairs[0].rule, Rule::KeyCase);
                }
                (Err(rejected), false) => {
                    prop_assert!(!folds);
                    let issues = rejected.report.issues();
                    prop_assert_eq!(issues.len(), 1);
                    prop_assert_eq!(issues[0].path.shown().to_string(), path.clone());
                    prop_assert_eq!(issues[0].constraint, Constraint::AdditionalProperties);
                    let wanted = format!("(did you mean {missed:?}?)");
                    prop_assert!(issues[0].message.ends_with(&wanted), "{}", issues[0].message);
                }
            }
        }
        let options = Options {
            near_misses: crate::decode::NearMisses::Undeclared,
            ..Options::default()
        };
        if !folds {
            for answer in roads(&model, &sent, &options) {
                prop_assert_eq!(untouched(&answer, &sent), Ok(()));
            }
        }
    }
}
