//! URIs as `$id` and `$ref` use them: whether one has a scheme, and a reference resolved
//! against a base (RFC 3986, section 5.2, without queries).

/// Whether `uri` starts with a scheme (`http:`, `urn:`).
fn has_scheme(uri: &str) -> bool {
    let Some(colon) = uri.find(':') else {
        return false;
    };
    let scheme = &uri[..colon];
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `reference` (without fragment) resolved against `base` (RFC 3986, section 5.2, without
/// queries): enough to match the `$id`s of one document.
pub(super) fn resolve_uri(base: &str, reference: &str) -> String {
    if reference.is_empty() {
        return base.to_owned();
    }
    if has_scheme(reference) {
        return reference.to_owned();
    }
    // The base's scheme and authority (`http://host`), and its path.
    let (prefix, path) = match base.find(':').filter(|_| has_scheme(base)) {
        Some(colon) => {
            let rest = &base[colon + 1..];
            match rest.strip_prefix("//") {
                Some(authority) => {
                    let end = authority.find('/').unwrap_or(authority.len());
                    (&base[..colon + 3 + end], &authority[end..])
                }
                None => (&base[..=colon], rest),
            }
        }
        None => ("", base),
    };
    if let Some(network) = reference.strip_prefix("//") {
        let scheme = prefix.split(':').next().unwrap_or_default();
        return format!("{scheme}://{network}");
    }
    let merged = if reference.starts_with('/') {
        reference.to_owned()
    } else {
        let directory = path.rfind('/').map_or("", |slash| &path[..=slash]);
        format!("{directory}{reference}")
    };
    format!("{prefix}{}", remove_dot_segments(&merged))
}

fn remove_dot_segments(path: &str) -> String {
    let mut kept: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    for (index, segment) in segments.iter().enumerate() {
        match *segment {
            "." => {}
            ".." => {
                if kept.len() > 1 || (kept.len() == 1 && !kept[0].is_empty()) {
                    kept.pop();
                }
            }
            _ => kept.push(segment),
        }
        let last = index + 1 == segments.len();
        if last && matches!(*segment, "." | "..") {
            kept.push("");
        }
    }
    kept.join("/")
}
