//! The emit stage: tokens for a checked [`Plan`]: `impl ToolArg` (schema, checks, JSON form), `impl Tool` for
//! structs, and the schemars hook. Generated code is small: it calls runtime functions
//! through absolute `::toolgate::` paths, inside `const _: () = { ... };`.

mod checked;
mod enums;
mod fields;
mod structs;
mod tuple;
mod unions;

use proc_macro2::TokenStream;
use quote::quote;

use super::plan::{Body, Plan};

pub(crate) fn emit(plan: &Plan) -> TokenStream {
    let ident = &plan.ident;
    let type_name = &plan.type_name;
    let items = match &plan.body {
        Body::Struct { .. } => structs::emit(plan),
        Body::Enum { variants } => enums::emit(plan, variants),
        Body::Checked(tool) => checked::emit_tool(plan, tool),
        Body::Tuple(elements) => tuple::emit(plan, elements),
        Body::Union {
            tagging,
            variants,
            deny_unknown_fields,
            any_of,
        } => unions::emit(
            ident,
            type_name,
            &fields::type_annotations(plan),
            tagging,
            variants,
            *deny_unknown_fields,
            *any_of,
        ),
    };
    quote! {
        const _: () = {
            #items

            ::toolgate::__impl_json_schema!(#ident, #type_name);
        };
    }
}
