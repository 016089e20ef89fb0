//! `impl ToolArg` and `impl Tool` for a tool whose arguments are one JSON value checked
//! against a schema text.

use proc_macro2::TokenStream;
use quote::quote;

use super::fields::{schema_text, tool_impl, type_annotations};
use crate::derive::plan::{CheckedTool, Plan};

/// `impl ToolArg` and `impl Tool` for a tool whose arguments are held as JSON.
pub(super) fn emit_tool(plan: &Plan, tool: &CheckedTool) -> TokenStream {
    let ident = &plan.ident;
    let type_name = &plan.type_name;
    let CheckedTool {
        tool_name,
        text,
        ty,
    } = tool;
    let schema = schema_text(ty, text);
    let description = type_annotations(plan);
    let tool = tool_impl(ident, tool_name, plan);
    quote! {
        #[automatically_derived]
        impl ::toolgate::ToolArg for #ident {
            fn describe(definitions: &mut ::toolgate::model::Definitions) -> ::toolgate::model::Schema {
                definitions.named::<Self>(#type_name, |definitions| #schema #description)
            }

            fn check<'m>(&self, schema: &'m ::toolgate::model::Schema, checker: &mut ::toolgate::check::Checker<'m>) {
                ::toolgate::ToolArg::check(&self.0, schema, checker);
            }

            fn to_json_value(&self) -> ::toolgate::serde_json::Value {
                ::toolgate::ToolArg::to_json_value(&self.0)
            }
        }

        #tool
    }
}
