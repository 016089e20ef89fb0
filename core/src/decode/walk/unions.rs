//! The walk through unions (`oneOf`, `anyOf`, type lists): each alternative is tried in a
//! trial decoder, the alternative is chosen, and only that alternative's repairs, defaults
//! and issues are kept.
//!
//! - A fit that needs no repair (defaults aside) is what was meant. `anyOf` takes, among
//!   those, the one that fills the fewest defaults (a value that fits two alternatives as
//!   sent does not get the defaults of one of them by chance), else the fit with the fewest
//!   repairs; ties go to the first alternative.
//! - `oneOf` needs exactly one fit as sent; else exactly one fit after repairs whose repaired
//!   value, sent again, fits exactly one alternative (a repair never hands out a value its
//!   own schema refuses).
//! - A repair that changes the value's JSON type without reading it from text
//!   (`wrap_in_array`, `scalar_to_string`, `number_to_bool`) counts as a fit only where no
//!   alternative takes values of the type sent: `{"b": 1}` for `anyOf[{object, required:
//!   [a]}, array]` is the object missing `a`, not wrapped into the array; `3` for
//!   `anyOf[{integer, minimum: 5}, string]` is below the minimum, not the string `"3"`.
//!   Text that holds a value of another type (`json_string`, `string_to_number`,
//!   `string_to_bool`) is read as ever.
//! - No fit: the issues of the alternative the value was meant for, at their own paths, or
//!   one issue for the union (see [`crate::check::chosen_alternative`]). A string that
//!   folds to exactly one string of a union of literals is repaired by `enum_case`.
//!
//! Every trial spends from budgets shared by the whole decoding, so nested unions cannot take
//! exponential time.

use serde_json::Value;

use super::Decoder;
use crate::check::{admits_within, chosen_alternative, union_literals, JsonKind, Sent};
use crate::decode::{Options, Repair, Rule};
use crate::model::{Json, UnionMode, UnionSchema};
use crate::plan::Node;
use crate::{suggest, Report};

/// What trying one alternative gave.
struct Trial {
    /// The decoded value, when the alternative fits.
    value: Option<Value>,
    report: Report,
    repairs: Vec<Repair>,
}

impl Trial {
    fn fits(&self) -> bool {
        self.value.is_some() && self.report.is_empty()
    }

    /// Repairs made, defaults aside.
    fn repair_count(&self) -> usize {
        self.repairs.iter().filter(|r| r.rule.is_repair()).count()
    }

    fn default_count(&self) -> usize {
        self.repairs.len() - self.repair_count()
    }
}

impl<'m> Decoder<'m> {
    /// Decodes a value of a union (see the module's documentation).
    pub(super) fn union(
        &mut self,
        json: Json,
        node: Node<'m>,
        union: &'m UnionSchema,
    ) -> Option<Value> {
        if !self.may_nest_trial() {
            return None;
        }
        let size = json.size_up_to(super::MAX_TRIAL_NODES + 1);
        let mut trials: Vec<Trial> = Vec::with_capacity(union.variants.len());
        for at in 0..union.variants.len() {
            if !self.spend_trial(size) {
                return None;
            }
            let mut trial = self.trial(self.options.clone());
            let value = trial.decode(json.clone(), node.variant(self.model, union, at));
            let (report, repairs) = trial.finish();
            if self.nesting_exceeded() {
                self.nesting_issue();
                return None;
            }
            let trial = Trial {
                value,
                report,
                repairs,
            };
            // Nothing changed at all: no later alternative can do better.
            let exact = trial.fits() && trial.repairs.is_empty();
            trials.push(trial);
            if exact && union.mode == UnionMode::AnyOf {
                break;
            }
        }
        // A repair that gives the value another JSON type without reading it from text
        // (wrapping it into an array, writing a number as a string, a number as a boolean) is
        // no fit where an alternative takes values of the type sent: the value was meant for
        // that one, whose issues say what is wrong. Text that holds the value
        // (`"{\"type\": \"json\"}"`, `"1"`) is read as ever.
        // Both looked at only when a fit changed the type: most unions never need them.
        let sent_kind = JsonKind::of_json(&json);
        let mut here = None;
        let mut kind_taken = None;
        let mut fits: Vec<usize> = Vec::with_capacity(trials.len());
        for (index, trial) in trials.iter().enumerate() {
            if !trial.fits() {
                continue;
            }
            let retyped = trial
                .value
                .as_ref()
                .is_some_and(|value| JsonKind::of_value(value) != sent_kind);
            if retyped {
                let here = here.get_or_insert_with(|| self.checker.path());
                let read_from_text = trial.repairs.iter().any(|repair| {
                    repair.path == *here
                        && matches!(
                            repair.rule,
                            Rule::JsonString | Rule::StringToNumber | Rule::StringToBool
                        )
                });
                let taken = *kind_taken.get_or_insert_with(|| {
                    union
                        .variants
                        .iter()
                        .any(|variant| admits_within(self.model, variant, sent_kind))
                });
                if !read_from_text && taken {
                    continue;
                }
            }
            fits.push(index);
        }
        let as_sent: Vec<usize> = fits
            .iter()
            .copied()
            .filter(|&i| trials[i].repair_count() == 0)
            .collect();
        let chosen = match union.mode {
            UnionMode::AnyOf => match as_sent.is_empty() {
                false => as_sent
                    .iter()
                    .copied()
                    .min_by_key(|&i| trials[i].default_count()),
                true => fits
                    .iter()
                    .copied()
                    .min_by_key(|&i| (trials[i].repair_count(), trials[i].default_count())),
            },
            UnionMode::OneOf => match (as_sent.as_slice(), fits.as_slice()) {
                ([only], _) => Some(*only),
                ([], []) => None,
                ([], _) => {
                    // How many alternatives each repaired value fits as sent.
                    let mut again = Vec::with_capacity(fits.len());
                    for &index in &fits {
                        let repaired = trials[index].value.as_ref().map_or(Json::Null, Json::from);
                        again.push(self.fits_as_sent(repaired, node, union)?);
                    }
                    let mut sound = (0..fits.len()).filter(|&at| again[at] == 1);
                    match (sound.next(), sound.next()) {
                        (Some(at), None) => Some(fits[at]),
                        _ => {
                            let fitting = match again.as_slice() {
                                [once] => *once,
                                _ => fits.len(),
                            };
                            self.checker.union_issue(union, fitting, json.into_value());
                            return None;
                        }
                    }
                }
                (_, _) => {
                    self.checker
                        .union_issue(union, as_sent.len(), json.into_value());
                    return None;
                }
            },
        };
        if let Some(index) = chosen {
            let trial = trials.swap_remove(index);
            self.repairs.extend(trial.repairs);
            return trial.value;
        }
        self.no_fit(json, union, trials)
    }

    /// How many alternatives of `union` take `json` as sent (no repairs); `None`, with an
    /// issue, when the trial budget ends.
    fn fits_as_sent(
        &mut self,
        json: Json,
        node: Node<'m>,
        union: &'m UnionSchema,
    ) -> Option<usize> {
        let size = json.size_up_to(super::MAX_TRIAL_NODES + 1);
        let strict = Options {
            disabled: u32::MAX,
            ..self.options.clone()
        };
        let mut count = 0;
        for at in 0..union.variants.len() {
            if !self.spend_trial(size) {
                return None;
            }
            let mut trial = self.trial(strict.clone());
            let value = trial.decode(json.clone(), node.variant(self.model, union, at));
            let (report, _) = trial.finish();
            if self.nesting_exceeded() {
                self.nesting_issue();
                return None;
            }
            if value.is_some() && report.is_empty() {
                count += 1;
            }
        }
        Some(count)
    }

    /// No alternative takes the value: a string that folds to one string of a union of
    /// literals is repaired (`enum_case`); else the issues of the alternative it was meant
    /// for, or one issue for the union.
    fn no_fit(&mut self, json: Json, union: &'m UnionSchema, trials: Vec<Trial>) -> Option<Value> {
        let literals = union_literals(self.model, union);
        if let (Some(literals), Json::String(text)) = (&literals, &json) {
            if self.allows(Rule::EnumCase) {
                let mut folded = literals.iter().filter(|literal| {
                    literal
                        .as_str()
                        .is_some_and(|literal| suggest::fold_eq(literal, text))
                });
                if let (Some(one), None) = (folded.next(), folded.next()) {
                    self.repair(Rule::EnumCase, Value::String(text.clone()), one.clone());
                    return Some(one.clone());
                }
            }
        }
        let here = self.checker.path();
        let members: &[(String, Json)] = match &json {
            Json::Object(members) => members,
            _ => &[],
        };
        let sent = Sent {
            kind: JsonKind::of_json(&json),
            keys: members.iter().map(|(key, _)| key.as_str()).collect(),
            strings: members
                .iter()
                .filter_map(|(key, member)| match member {
                    Json::String(text) => Some((key.as_str(), text.as_str())),
                    _ => None,
                })
                .collect(),
        };
        let (reports, mut repairs): (Vec<Report>, Vec<Vec<Repair>>) =
            trials.into_iter().map(|t| (t.report, t.repairs)).unzip();
        let chosen = chosen_alternative(self.model, union, &sent, &reports, &here);
        let kind = sent.kind;
        drop(sent);
        match chosen {
            Some(index) => {
                if let Some(made) = repairs.get_mut(index) {
                    self.repairs.append(made);
                }
                let report = reports.into_iter().nth(index).unwrap_or_default();
                self.checker.absorb(report);
            }
            None => self
                .checker
                .no_alternative_issue(union, kind, json.into_value()),
        }
        None
    }
}
