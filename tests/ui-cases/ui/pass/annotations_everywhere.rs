use std::collections::BTreeMap;

use toolgate::Tool;

/// A region.
#[derive(Tool, serde::Deserialize)]
#[tool(annotations = r#"{"title": "Region", "$comment": "ISO 3166"}"#)]
#[allow(dead_code)]
enum Region {
    Eu,
    Us,
}

/// Notes for the reader only.
#[derive(Tool, serde::Deserialize)]
#[tool(no_description, annotations = r#"{"title": "Place"}"#)]
#[allow(dead_code)]
struct Place {
    region: Region,
}

#[derive(Tool, serde::Deserialize)]
#[allow(dead_code)]
struct Search {
    #[tool(annotations = r#"{"title": "Where"}"#)]
    place: Place,
    #[tool(items(description = "A tag.", annotations = r#"{"title": "Tag"}"#))]
    tags: Vec<String>,
    #[tool(values(annotations = r#"{"title": "Score"}"#))]
    scores: BTreeMap<String, u32>,
}

/// A shape, told apart by `kind`, written `anyOf`.
#[derive(Tool, serde::Deserialize)]
#[serde(tag = "kind")]
#[tool(any_of)]
#[allow(dead_code)]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

fn main() {
    let shape = toolgate::model::ToolModel::of::<Shape>("shape", None);
    let shape = shape.json_schema();
    assert!(shape.contains(r#""anyOf""#) && !shape.contains("oneOf"), "{shape}");
    use toolgate::Tool as _;
    let schema = Search::model().json_schema();
    // The field's own title replaces the type's; the type's `$comment` and the elements'
    // annotations are kept; `no_description` leaves the doc comment out.
    for written in [
        r#""title":"Where""#,
        r#""title":"Region","$comment":"ISO 3166""#,
        r#""description":"A tag.","title":"Tag""#,
        r#""title":"Score""#,
    ] {
        assert!(schema.contains(written), "{written} not in {schema}");
    }
    assert!(!schema.contains("Place"), "{schema}");
    assert!(!schema.contains("Notes for the reader"), "{schema}");
}
