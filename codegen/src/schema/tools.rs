//! The tools of the files being compiled: each read and lowered into the one set of items,
//! and each tool name given to one type only.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use toolgate_core::flavour::{Flavour, Lint};
use toolgate_core::model::read::read_parts;

use super::input::ToolSource;
use super::{display_pointer, lower, SchemaProblem};

/// The items of every tool so far, the tool name of each type, and the warnings of the
/// schemas read.
pub(super) struct ToolLowering<'s> {
    lowering: lower::Lowering<'s>,
    names: ToolNames,
    warnings: Vec<SchemaProblem>,
    /// The flavours each tool is checked against ([`Builder::flavour`](super::Builder::flavour)).
    flavour_lints: &'s [(Flavour, Lint)],
    /// What a flavour lint set to deny found.
    denied: Vec<SchemaProblem>,
}

impl<'s> ToolLowering<'s> {
    pub(super) fn new(style: &'s lower::Style, flavour_lints: &'s [(Flavour, Lint)]) -> Self {
        ToolLowering {
            lowering: lower::Lowering::new(style),
            names: ToolNames::default(),
            warnings: Vec::new(),
            flavour_lints,
            denied: Vec::new(),
        }
    }

    /// Reads one schema (`pointer` is where it is in `file`) and lowers it to a type named
    /// by `rust_name` from the tool's name: the tool's name and the type's, or every problem
    /// (a name another tool has among them).
    pub(super) fn tool(
        &mut self,
        file: &Path,
        pointer: &str,
        name: Option<String>,
        description: Option<String>,
        schema: toolgate_core::model::Json,
        rust_name: impl FnOnce(&str) -> String,
    ) -> Result<(String, String), Vec<SchemaProblem>> {
        let problem = |at: &str, message: String| SchemaProblem {
            file: file.to_owned(),
            pointer: format!("{pointer}{at}"),
            message,
        };
        let model = read_parts(name, description, schema).map_err(|errors| {
            errors
                .0
                .into_iter()
                .map(|e| problem(&e.pointer, e.message))
                .collect::<Vec<_>>()
        })?;
        self.warnings.extend(
            model
                .schema_warnings()
                .iter()
                .map(|w| problem(&w.pointer, w.message.clone())),
        );
        for &(flavour, lint) in self.flavour_lints {
            for loss in model.flavour_losses(flavour) {
                let at = &loss.path;
                match lint {
                    Lint::Allow => {}
                    Lint::Warn => self.warnings.push(problem(at, loss.message)),
                    Lint::Deny => self.denied.push(problem(
                        at,
                        format!("{} (the {flavour} lint denies it)", loss.message),
                    )),
                }
            }
        }
        let clash = self.names.claim(model.name(), file, pointer).err();
        let wanted = rust_name(model.name());
        match (self.lowering.tool(&model, &wanted), clash) {
            (Ok(rust_name), None) => Ok((model.name().to_owned(), rust_name)),
            (Ok(_), Some(clash)) => Err(vec![clash]),
            (Err(errors), clash) => Err(errors
                .into_iter()
                .map(|(at, message)| problem(&at, message))
                .chain(clash)
                .collect()),
        }
    }

    /// Takes note of the names the tools of `sources` declare (their `name`, or their
    /// schema's `title`), before any is lowered: a result type's name is chosen among the
    /// names no tool declares ([`ToolLowering::output_name`]).
    pub(super) fn declare(&mut self, sources: &[ToolSource]) {
        for source in sources {
            let title = || match source.schema.get("title") {
                Some(toolgate_core::model::Json::String(title)) => Some(title.clone()),
                _ => None,
            };
            if let Some(name) = source.name.clone().or_else(title) {
                self.names.declared.insert(name);
            }
        }
    }

    /// The tool name the result type of the tool `tool` reports: `<tool>_output`, or, when a
    /// tool of the files is called that (or another result type has it), the first of
    /// `<tool>_output_2`, `<tool>_output_3`... that nothing declares or has. Only a name no
    /// model ever calls, so it is chosen rather than refused: a tool `x` with an
    /// `outputSchema` beside a tool `x_output` is a valid file.
    pub(super) fn output_name(&self, tool: &str) -> String {
        let base = format!("{tool}_output");
        std::iter::once(base.clone())
            .chain((2..).map(|n| format!("{base}_{n}")))
            .find(|name| !self.names.is_taken(name))
            .expect("an unbounded range has a free number")
    }

    /// `impl ToolOutput` linking a tool's type to the type of its result.
    pub(super) fn link_output(&mut self, tool: &str, output: &str) {
        self.lowering.link_output(tool, output);
    }

    /// The warnings of the schemas read so far (see
    /// [`ToolModel::schema_warnings`](toolgate_core::model::ToolModel::schema_warnings)).
    pub(super) fn take_warnings(&mut self) -> Vec<SchemaProblem> {
        std::mem::take(&mut self.warnings)
    }

    /// What the flavour lints set to deny found in the tools read so far.
    pub(super) fn take_denied(&mut self) -> Vec<SchemaProblem> {
        std::mem::take(&mut self.denied)
    }

    /// The items written.
    pub(super) fn into_items(self) -> Vec<TokenStream> {
        self.lowering.into_items()
    }
}

/// Each tool name given to a type (a result type's `<tool>_output` too) and where its tool
/// is: two types must not report one name. Two tools of one name are refused (no provider
/// takes two tools of one name); a result type's name is chosen free of every name.
#[derive(Default)]
struct ToolNames {
    given: BTreeMap<String, (PathBuf, String)>,
    /// The names the tools of the files declare (see [`ToolLowering::declare`]).
    declared: BTreeSet<String>,
}

impl ToolNames {
    /// Whether a tool declares `name` or a type reports it.
    fn is_taken(&self, name: &str) -> bool {
        self.declared.contains(name) || self.given.contains_key(name)
    }

    /// Takes `name` for the tool at `pointer` in `file`, or says which tool has it.
    fn claim(&mut self, name: &str, file: &Path, pointer: &str) -> Result<(), SchemaProblem> {
        match self.given.get(name) {
            Some((first_file, first_pointer)) => Err(SchemaProblem {
                file: file.to_owned(),
                pointer: pointer.to_owned(),
                message: format!(
                    "the tool name {name:?} is also the name of the tool at {}: {}; two generated types would report it",
                    first_file.display(),
                    display_pointer(first_pointer)
                ),
            }),
            None => {
                self.given
                    .insert(name.to_owned(), (file.to_owned(), pointer.to_owned()));
                Ok(())
            }
        }
    }
}
