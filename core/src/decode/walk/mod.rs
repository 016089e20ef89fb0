//! The walk: one pass over the JSON tree with the schema, repairing where a rule allows and
//! checking every constraint with the [`Checker`]'s checks.

use std::cell::{Cell, OnceCell};
use std::rc::Rc;

use serde_json::Value;

mod containers;
mod integers;
mod object;
mod scalars;
mod stream;
mod unions;

pub(crate) use containers::filled_default;
pub use containers::separated_items;
pub(crate) use object::{null_as_absent, KeyStep, ObjectRun};
pub(crate) use stream::{stream_text, stream_value, Streamed, Walked};

use super::{read_lenient_value, Options, Repair, Rule, MAX_TRIAL_NODES, MAX_UNION_TRIALS};
use crate::check::{Checker, Step};
use crate::issue::shorten;
use crate::model::{Json, Kind, Schema, ToolModel};
use crate::plan::Node;
use crate::{Constraint, Report};

pub(crate) struct Decoder<'m> {
    checker: Checker<'m>,
    model: &'m ToolModel,
    options: Options,
    repairs: Vec<Repair>,
    depth: usize,
    /// Union alternatives still allowed to be tried, JSON nodes trials may still read and
    /// whether some trial nested past
    /// [`MAX_NESTED_TRIALS`]: shared with trial decoders, made at the first trial (a walk
    /// that meets no union allocates none).
    shared: Option<Rc<SharedTrials>>,
    /// Unions nested at the value being decoded (a union in a union, through references):
    /// none of them reads anything, so a schema that refers back to itself through them
    /// would recurse forever. Back to 0 inside containers and in an item `wrap_in_array`
    /// wraps (a member of the array it makes).
    nested_trials: usize,
    /// Unions and wraps (`wrap_in_array`) nested at the value, wraps included: a value is
    /// wrapped only while this is below [`MAX_NESTED_TRIALS`], so an array of itself
    /// (`A = array of A`) stops wrapping. Back to 0 inside containers.
    nested_total: usize,
}

/// The trials nested outside a container, kept while its members are walked
/// ([`Decoder::enter`], [`Decoder::leave`]).
#[derive(Clone, Copy)]
pub(crate) struct Nesting {
    unions: usize,
    total: usize,
}

/// What a decoder and its trial decoders share: what union trials may still do while one
/// value is decoded (alternatives tried, [`MAX_UNION_TRIALS`], and values read again by
/// trials, [`MAX_TRIAL_NODES`]) and whether some trial nested past [`MAX_NESTED_TRIALS`].
/// Once a budget runs out, every union around the value is refused with a `limit` issue: the
/// answer never rests on the alternatives that happened to be tried.
struct SharedTrials {
    trials_left: Cell<usize>,
    nodes_left: Cell<usize>,
    nesting_exceeded: Cell<bool>,
    /// The `schema` issue's message once the cap was hit (made once: it looks for cycles).
    nesting_message: OnceCell<String>,
    /// Bytes of JSON the defaults filled in may still add to the value (see
    /// [`Decoder::spend_default`]), and whether they already ran out (said once).
    default_bytes_left: Cell<usize>,
    defaults_ran_out: Cell<bool>,
    /// Pairs of characters the near-miss checks may still measure (see
    /// [`Decoder::near_miss`]), and whether they already ran out (said once).
    near_miss_cells_left: Cell<usize>,
    near_misses_ran_out: Cell<bool>,
}

impl SharedTrials {
    fn new(default_bytes: usize) -> Self {
        SharedTrials {
            trials_left: Cell::new(MAX_UNION_TRIALS),
            nodes_left: Cell::new(MAX_TRIAL_NODES),
            nesting_exceeded: Cell::new(false),
            nesting_message: OnceCell::new(),
            default_bytes_left: Cell::new(default_bytes),
            defaults_ran_out: Cell::new(false),
            near_miss_cells_left: Cell::new(crate::suggest::MOST_NEAR_MISS_CELLS),
            near_misses_ran_out: Cell::new(false),
        }
    }

    /// Spends `amount` from `left`; `false` (nothing spent) when not that much is left.
    fn spend(left: &Cell<usize>, amount: usize) -> bool {
        match left.get().checked_sub(amount) {
            Some(rest) => {
                left.set(rest);
                true
            }
            None => false,
        }
    }
}

/// Most unions nested at one value (unions within unions, through references, without
/// reading anything), and most unions and wraps (`wrap_in_array`) together. Real schemas
/// nest a few; the schema reader refuses a schema that nests unions deeper, so only a
/// schema built in code reaches it (one that refers back to itself, `A = anyOf[A,
/// integer]`, at once). Wrapping stops at it without an issue of its own: past it, the value
/// is not wrapped (a `type` issue), so a tree (`A = anyOf[array of A, integer]`) answers
/// any value.
pub(crate) const MAX_NESTED_TRIALS: usize = super::MAX_NESTED_UNIONS;

/// What a string that may hold JSON gave.
pub(super) enum InnerJson {
    /// Its JSON value.
    Read(Json),
    /// It holds no JSON value (or not the one wanted).
    NotJson,
    /// Its JSON nests deeper than the room left: a `limit`, not a `type` issue.
    TooDeep,
}

/// The compact text of `json` for a `json_text` log entry, cut as [`shorten`] cuts (the
/// entry's `to` is that text, a string).
pub(super) fn json_text_logged(json: &Json) -> String {
    crate::issue::compact_json_text(json)
}

impl<'m> Decoder<'m> {
    pub(crate) fn new(model: &'m ToolModel, options: &Options, repairs: Vec<Repair>) -> Self {
        let checker = Checker::with_report(model, Report::with_cap(options.max_issues));
        Self::with_checker(checker, options.clone(), repairs)
    }

    /// A decoder that writes its issues into `checker`, at the checker's path.
    fn with_checker(checker: Checker<'m>, options: Options, repairs: Vec<Repair>) -> Self {
        Decoder {
            model: checker.model(),
            checker,
            options,
            repairs,
            depth: 0,
            shared: None,
            nested_trials: 0,
            nested_total: 0,
        }
    }

    /// A decoder that checks a JSON value as [`Checker::check_value`] does: every repair off
    /// but `float_to_integer` (JSON Schema counts `1.0` as an integer), its issues written
    /// into `checker` at the checker's path. A value is checked by the same walk, and so by
    /// the same structural rules (names, aliases, duplicates, unions and their budget,
    /// unknown keys), as arguments are decoded.
    pub(crate) fn checking(checker: Checker<'m>) -> Self {
        let options = Options::strict().with(super::Rule::FloatToInteger);
        Self::with_checker(checker, options, Vec::new())
    }

    /// Checks `value` against `schema` (see [`Decoder::checking`]). A value nested deeper
    /// than [`super::MAX_DEPTH`] containers is a `limit` issue, as arguments are; it is
    /// measured without recursion before anything recurses into it.
    pub(crate) fn check(&mut self, value: &Value, schema: &'m Schema) {
        if crate::model::value_depth(value) > super::MAX_DEPTH {
            let message = super::too_deep_message(super::MAX_DEPTH);
            let expected = Some(super::MAX_DEPTH.into());
            self.checker
                .issue(Constraint::Limit, message, expected, None);
            return;
        }
        self.decode(Json::from(value), Node::of(self.model, schema));
    }

    /// Puts the decoder at `path` (the typed reader keeps its own path, and hands it over
    /// before each value it has decided).
    pub(crate) fn set_path(&mut self, path: impl IntoIterator<Item = Step<'m>>) {
        self.checker.set_path(path);
    }

    /// The typed reader's way into the rules: `json`, one value it read at `node`, `depth`
    /// containers deep, decided as every walk decides it (repaired and logged, or refused with
    /// its issues written). `None` where it is refused.
    pub(crate) fn decide_read(
        &mut self,
        depth: usize,
        json: Json,
        node: Node<'m>,
    ) -> Option<Value> {
        self.depth = depth;
        let before = self.checker.issue_count();
        let value = self.decode(json, node);
        value.filter(|_| self.checker.issue_count() == before)
    }

    /// The issues written so far (not those past the report's cap).
    pub(crate) fn issues(&self) -> &[crate::Issue] {
        self.checker.issues()
    }

    /// The repairs logged so far.
    pub(crate) fn repairs(&self) -> &[Repair] {
        &self.repairs
    }

    /// The path of the value being decided.
    pub(crate) fn path(&self) -> crate::Path {
        self.checker.path()
    }

    /// How many issues were found so far.
    pub(crate) fn issue_count(&self) -> usize {
        self.checker.issue_count()
    }

    /// The checker back, with the issues found.
    pub(crate) fn into_checker(self) -> Checker<'m> {
        self.checker
    }

    /// Spends one union trial; at the end of the budget, a `limit` issue and `false` (every
    /// union that cannot be tried says so: a value is never dropped without an issue).
    ///
    /// A trial also costs the values it reads again (`size`, in JSON nodes), from a second
    /// shared budget of [`MAX_TRIAL_NODES`]: ten thousand trials of a large value would
    /// otherwise read it ten thousand times.
    fn spend_trial(&mut self, size: usize) -> bool {
        let shared = self.shared();
        if !SharedTrials::spend(&shared.nodes_left, size) {
            let message = format!(
                "the arguments need more than {MAX_TRIAL_NODES} values read again to try union alternatives"
            );
            self.checker.issue(
                Constraint::Limit,
                message,
                Some(MAX_TRIAL_NODES.into()),
                None,
            );
            return false;
        }
        if !SharedTrials::spend(&shared.trials_left, 1) {
            let message =
                format!("the arguments need more than {MAX_UNION_TRIALS} union alternatives tried");
            self.checker.issue(
                Constraint::Limit,
                message,
                Some(MAX_UNION_TRIALS.into()),
                None,
            );
            return false;
        }
        true
    }

    /// What this decoder shares with its trials (made now if no trial was made before).
    fn shared(&mut self) -> Rc<SharedTrials> {
        let default_bytes = self.options.max_bytes;
        let shared = self
            .shared
            .get_or_insert_with(|| Rc::new(SharedTrials::new(default_bytes)));
        Rc::clone(shared)
    }

    /// Spends the bytes of the member a default about to be filled in makes (its field's
    /// name and the default) from what the defaults of one call may add: as many bytes of JSON as the argument text may have
    /// ([`Options::max_bytes`], 1 MiB by default). A default is copied into the value once
    /// per absent field, so without this an 8 KB text of two thousand `{}` items whose
    /// schema gives each a 100 KB default would become 200 MB: the value a call decodes to
    /// is at most its text and this much more. Past it, one `limit` issue (the call is
    /// refused, never handed on without the defaults its schema promises) and `false`.
    pub(super) fn spend_default(&mut self, name: &str, default: &Value) -> bool {
        let shared = self.shared();
        if shared.defaults_ran_out.get() {
            return false;
        }
        // The member it makes: `"name":default,` (a long name filled many times counts too).
        let bytes =
            crate::values::compact_json_len(name) + crate::values::compact_json_len(default) + 2;
        if SharedTrials::spend(&shared.default_bytes_left, bytes) {
            return true;
        }
        shared.defaults_ran_out.set(true);
        let most = self.options.max_bytes;
        let message = format!(
            "the defaults of the fields left out would add more than {most} bytes to the arguments"
        );
        self.checker
            .issue(Constraint::Limit, message, Some(most.into()), None);
        false
    }

    /// The field of `object` (its key table `keys`) whose name `key` (undeclared) is a near
    /// miss of, by the "did you mean" rule ([`crate::suggest::nearest`]), against the
    /// object's names folded once. A name that cannot be near by its length or its
    /// characters costs a few comparisons; the edit distances measured for one call share
    /// [`crate::suggest::MOST_NEAR_MISS_CELLS`] pairs of characters with its trial decoders.
    /// Past them, `Err`: a `limit` issue, written once (the call is refused, never handed
    /// on with a key that was not looked at). Only keys built to resemble the names without
    /// being near them get there.
    pub(super) fn near_miss(
        &mut self,
        key: &str,
        object: &crate::model::ObjectSchema,
        keys: &crate::plan::KeyTable,
    ) -> Result<Option<usize>, ()> {
        let shared = self.shared();
        if shared.near_misses_ran_out.get() {
            return Err(());
        }
        let mut cells_left = shared.near_miss_cells_left.get();
        let found =
            keys.with_folded_names(object, |names| names.nearest_within(key, &mut cells_left));
        shared.near_miss_cells_left.set(cells_left);
        if let Some(near) = found {
            return Ok(near);
        }
        shared.near_misses_ran_out.set(true);
        let most = crate::suggest::MOST_NEAR_MISS_CELLS;
        let message = format!(
            "the undeclared keys need more than {most} pairs of characters compared to tell whether they are near misses of the fields left out"
        );
        self.checker
            .issue(Constraint::Limit, message, Some(most.into()), None);
        Err(())
    }

    /// Whether some trial nested past [`MAX_NESTED_TRIALS`].
    fn nesting_exceeded(&self) -> bool {
        self.shared
            .as_ref()
            .is_some_and(|shared| shared.nesting_exceeded.get())
    }

    /// A decoder for trying a value at the current path without touching this one's report.
    fn trial(&mut self, options: Options) -> Decoder<'m> {
        let shared = self.shared();
        Decoder {
            checker: self.checker.fork(),
            model: self.model,
            options,
            repairs: Vec::new(),
            depth: self.depth,
            shared: Some(shared),
            nested_trials: self.nested_trials + 1,
            nested_total: self.nested_total + 1,
        }
    }

    /// Whether `wrap_in_array` may wrap the value once more (see [`MAX_NESTED_TRIALS`]).
    fn may_wrap(&self) -> bool {
        self.nested_total < MAX_NESTED_TRIALS && !self.nesting_exceeded()
    }

    /// A trial decoder for the item a wrap makes: a member of the array, at which no union
    /// is nested yet.
    fn wrap_trial(&mut self) -> Decoder<'m> {
        let mut trial = self.trial(self.options.clone());
        trial.nested_trials = 0;
        trial
    }

    /// Whether another union may nest at this value; a `schema` issue when not.
    ///
    /// Once the cap is hit anywhere, every union and wrap around it fails with the same
    /// issue, up to the decoder whose report is kept: the answer never depends on which
    /// alternatives the cap cut off.
    fn may_nest_trial(&mut self) -> bool {
        if self.nested_trials < MAX_NESTED_TRIALS && !self.nesting_exceeded() {
            return true;
        }
        self.shared().nesting_exceeded.set(true);
        self.nesting_issue();
        false
    }

    /// The `schema` issue of a schema that nests unions past the cap: it names the limit,
    /// and says the schema refers back to itself only when it does (a definition reaches
    /// itself through references and unions alone, see `read::cycles`).
    fn nesting_issue(&mut self) {
        let shared = self.shared();
        let model = self.model;
        let message = shared
            .nesting_message
            .get_or_init(|| nesting_message(model))
            .clone();
        self.checker.issue(
            Constraint::Schema,
            message,
            Some(MAX_NESTED_TRIALS.into()),
            None,
        );
    }

    /// Runs `walk` over the members of a container: they are other values, so trials nest
    /// from 0 again there.
    fn in_members<T>(&mut self, walk: impl FnOnce(&mut Self) -> T) -> T {
        let outer = self.enter();
        let result = walk(self);
        self.leave(outer);
        result
    }

    /// Steps into the members of a container: one deeper, no trials nested there yet.
    /// Returns the trials nested outside, for [`Decoder::leave`].
    fn enter(&mut self) -> Nesting {
        self.depth += 1;
        Nesting {
            unions: std::mem::replace(&mut self.nested_trials, 0),
            total: std::mem::replace(&mut self.nested_total, 0),
        }
    }

    /// Steps back out of a container's members.
    fn leave(&mut self, outer: Nesting) {
        self.depth -= 1;
        self.nested_trials = outer.unions;
        self.nested_total = outer.total;
    }

    pub(crate) fn finish(self) -> (Report, Vec<Repair>) {
        (self.checker.into_report(), self.repairs)
    }

    fn allows(&self, rule: Rule) -> bool {
        self.options.allows(rule)
    }

    /// Logs a repair at position `mark` of the log: before the repairs its own reading led
    /// to (a `json_text` inside a `json_string`, say), which were logged first.
    fn repair_at(&mut self, mark: usize, rule: Rule, from: Value, to: Value) {
        let repair = Repair {
            path: self.checker.path(),
            rule,
            from: shorten(from),
            to: shorten(to),
        };
        self.repairs.insert(mark, repair);
    }

    fn repair(&mut self, rule: Rule, from: Value, to: Value) {
        self.repairs.push(Repair {
            path: self.checker.path(),
            rule,
            from: shorten(from),
            to: shorten(to),
        });
    }

    fn type_issue(&mut self, schema: &Schema, got: Value) -> Option<Value> {
        self.checker.type_issue(schema, &schema.kind, got);
        None
    }

    /// A string that should hold a JSON object or array: read strictly, else leniently
    /// (then logged as `json_text` too), with the nesting still allowed at this depth.
    /// `arguments`: the string is the whole arguments (a root string, `double_encoded`), the
    /// model's argument text sent inside a JSON string, so it is read as argument text is
    /// (a fence or prose around the one value too, [`super::read_lenient`]); a string
    /// inside the arguments holds one value from its first character to its last.
    fn inner_json(&mut self, text: &str, arguments: bool) -> InnerJson {
        let room = self
            .options
            .max_depth
            .min(super::MAX_DEPTH)
            .saturating_sub(self.depth);
        let first = match super::read_whole(text, room) {
            Ok(json) => return InnerJson::Read(json),
            Err(super::StrictError::TooDeep) => return InnerJson::TooDeep,
            Err(super::StrictError::NotStrict(first)) => first,
            Err(super::StrictError::NumberOutOfRange) => None,
        };
        if !self.allows(Rule::JsonText) {
            return InnerJson::NotJson;
        }
        let read = if arguments {
            super::text::read_lenient_from(text, room, first).map(|(json, _)| json)
        } else {
            read_lenient_value(text, room)
        };
        let json = match read {
            Ok(json) => json,
            Err(super::TextError::TooDeep) => return InnerJson::TooDeep,
            Err(_) => return InnerJson::NotJson,
        };
        self.repair(
            Rule::JsonText,
            crate::issue::shorten_str(text),
            Value::String(json_text_logged(&json)),
        );
        InnerJson::Read(json)
    }

    /// A `limit` issue for JSON text inside a string that nests deeper than the containers
    /// around the string leave room for.
    fn too_deep_in_string(&mut self) -> Option<Value> {
        let max_depth = self.options.max_depth.min(super::MAX_DEPTH);
        let message = format!(
            "the JSON text in this string nests more than {max_depth} objects and arrays (with the containers around it)"
        );
        self.checker
            .issue(Constraint::Limit, message, Some(max_depth.into()), None);
        None
    }

    /// The arguments: a JSON string of an object is read from inside (`double_encoded`); a
    /// string at the root is never read by `json_string`, so switching `double_encoded` off
    /// refuses it.
    pub(crate) fn root(&mut self, json: Json) -> Option<Value> {
        let plan = self.model.plan();
        let input = plan.node(plan.root());
        let Json::String(text) = &json else {
            return self.decode(json, input);
        };
        let resolved = self.resolved(input)?;
        if !matches!(resolved.kind, Kind::Object(_) | Kind::Map(_)) {
            return self.decode(json, input);
        }
        if self.allows(Rule::DoubleEncoded) {
            let mark = self.repairs.len();
            match self.inner_json(text, true) {
                InnerJson::Read(inner @ Json::Object(_)) => {
                    self.repair_at(
                        mark,
                        Rule::DoubleEncoded,
                        Value::String(text.clone()),
                        inner.to_value(),
                    );
                    return self.decode(inner, input);
                }
                InnerJson::TooDeep => return self.too_deep_in_string(),
                InnerJson::Read(_) | InnerJson::NotJson => self.repairs.truncate(mark),
            }
        }
        self.type_issue(resolved, json.into_value())
    }

    /// Decodes one value. `None` always comes with an issue: containers leave a refused
    /// member out, and the issue is what says so.
    fn decode(&mut self, json: Json, node: Node<'m>) -> Option<Value> {
        let before = self.checker.issue_count();
        let value = self.decode_kind(json, node);
        if value.is_none() && self.checker.issue_count() == before {
            debug_assert!(false, "a value was refused without an issue");
            self.checker.issue(
                Constraint::Schema,
                "the value could not be read",
                None,
                None,
            );
        }
        value
    }

    /// The schema describing `node`'s values; `None`, with a `schema` issue, where its
    /// references lead nowhere.
    fn resolved(&mut self, node: Node<'m>) -> Option<&'m Schema> {
        if node.resolved.is_none() {
            self.checker.unresolved(node.schema);
        }
        node.resolved
    }

    fn decode_kind(&mut self, json: Json, node: Node<'m>) -> Option<Value> {
        let resolved = self.resolved(node)?;
        if json == Json::Null {
            if node.accepts_null {
                self.checker.check_const(resolved, || Value::Null);
                return Some(Value::Null);
            }
            // A union may take null in an alternative (`oneOf: [{oneOf: [{type: null}]}]`),
            // an enum as one of its values: they judge it below.
            let judged_below = match &resolved.kind {
                Kind::Union(_) => true,
                Kind::Enum(enumeration) => enumeration.contains(&Value::Null),
                _ => false,
            };
            if !judged_below {
                return self.type_issue(resolved, Value::Null);
            }
        }
        // An integer written beyond what a `Value` carries: an integer schema names the bound
        // it passes, a string takes its text as sent (`scalar_to_string`) and a union's
        // alternatives decide; anywhere else it would be rounded into a float: refused.
        if let Some(digits) = integers::uncarried_literal(&json) {
            if !matches!(
                resolved.kind,
                Kind::Integer(_) | Kind::String(_) | Kind::Union(_)
            ) {
                let digits = digits.to_owned();
                self.refuse_uncarried(&digits, json.into_value());
                return None;
            }
        }
        // A `const` is compared with a float-spelled integer as its digits say.
        let exact = resolved
            .constant
            .as_ref()
            .and_then(|_| integers::float_spelled_integer(&json))
            .and_then(integers::carried);
        let value = match &resolved.kind {
            Kind::Any => self.any_value(json),
            Kind::Null | Kind::Never | Kind::Ref(_) => self.type_issue(resolved, json.into_value()),
            Kind::Boolean => self.boolean(json, resolved),
            Kind::Integer(_) | Kind::Number(_) => self.number(json, resolved),
            Kind::String(_) => self.string(json, resolved),
            Kind::Enum(enumeration) => self.enumeration(json, node, enumeration),
            Kind::Array(array) => self.array(json, node, resolved, array),
            Kind::Map(map) => self.map(json, node, resolved, map),
            Kind::Object(object) => self.object(json, node, resolved, object),
            Kind::Union(union) => self.union(json, node, union),
        }?;
        // Scalars check their `const` with their other constraints; the rest check it here.
        let checked_already = matches!(
            resolved.kind,
            Kind::Boolean | Kind::Integer(_) | Kind::Number(_) | Kind::String(_)
        );
        if resolved.constant.is_some() && !checked_already {
            self.checker
                .check_const(resolved, || exact.unwrap_or_else(|| value.clone()));
        }
        Some(value)
    }
}

/// What a value whose schema nests unions past [`MAX_NESTED_TRIALS`] is told: the limit,
/// and the definitions that refer back to themselves when there are some (only a schema
/// built in code can hold them: the reader refuses both).
fn nesting_message(model: &ToolModel) -> String {
    let limit = format!(
        "the schema nests unions more than {MAX_NESTED_TRIALS} deep at one value (the limit `decode::MAX_NESTED_UNIONS`)"
    );
    match crate::model::read::cycles_without_progress(model.definitions()).first() {
        Some((_, cycle)) => {
            format!("{limit}: it refers back to itself through {cycle} without reading anything")
        }
        None => limit,
    }
}
