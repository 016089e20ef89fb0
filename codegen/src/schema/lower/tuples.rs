//! `prefixItems` tuples, lowered to tuple structs.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use toolgate_core::model::ArraySchema;

use super::docs::{doc_attr, doc_reproduces};
use super::{Lowered, Lowering, Scope};

impl Lowering<'_> {
    /// A tuple (`prefixItems`) as a tuple struct named `hint`, when the array holds exactly
    /// its elements; otherwise the value is held as JSON (see `checked.rs`).
    pub(super) fn tuple(
        &mut self,
        scope: &mut Scope<'_>,
        array: &ArraySchema,
        hint: &str,
        pointer: &str,
    ) -> Lowered {
        let length = array.prefix_items.len();
        let exact = array.tuple_length() == Some(length)
            && array.min_items == Some(length as u64)
            && array.max_items.is_none_or(|max| max >= length as u64)
            && !array.unique_items
            && length >= 2;
        if !exact {
            scope.errors.push((
                pointer.to_owned(),
                "the schema compiler writes `prefixItems` as a tuple struct when the array holds exactly its elements (at least two, `items: false`, `minItems` their count, no `uniqueItems`)".to_owned(),
            ));
            return Lowered::any();
        }
        let name = self.types.claim(hint, "");
        let ident = format_ident!("{}", name);
        let slot = self.items.len();
        self.items.push(TokenStream::new());
        let mut elements = Vec::with_capacity(length);
        for (index, element) in array.prefix_items.iter().enumerate() {
            let at = format!("{pointer}/prefixItems/{index}");
            let lowered = self.lower(scope, element, &format!("{name}{index}"), &at, true);
            let ty = lowered.ty;
            let mut keys = lowered.constraints;
            let mut doc = None;
            if let Some(text) = &element.description {
                doc = Some(doc_attr(text));
                if !doc_reproduces(text) {
                    keys.push(quote!(description = #text));
                }
            }
            let tool = (!keys.is_empty()).then(|| quote!(#[tool(#(#keys),*)]));
            elements.push(quote!(#doc #tool pub #ty));
        }
        let derives = self.derives(quote!());
        self.items[slot] = quote! {
            #derives
            pub struct #ident(#(#elements),*);
        };
        Lowered::plain(super::type_path(&name))
    }
}
