//! Typed tools generated at build time from three tool schemas (MCP, OpenAI, Anthropic),
//! decoding arguments as a model sends them: repairs logged, refusals as a retry hint.
//!
//! `cargo run -p toolgate-example-build-schemas`

#![allow(missing_docs)]

// The generated types: `CreateIssue` (and `CreateIssueOutput`, the type of its result from
// the MCP `outputSchema`), `GetWeather`, `SendPayment` and their parts.
include!(concat!(env!("OUT_DIR"), "/tools.rs"));

use toolgate::Tool;

/// Arguments as a model sent them: almost right.
const CALLS: [(&str, &str); 4] = [
    (
        "create_issue",
        r#"{"owner": "toolgate", "repo": "toolgate", "title": "Hints", "assignees": "[\"ada\"]", "milestone": "3"}"#,
    ),
    (
        "get_weather",
        r#"{"location": "Paris, France", "unit": "Celsius"}"#,
    ),
    (
        "send_payment",
        r#"{"amount": "12.5", "to": {"kind": "iban", "iban": "FR7630006000011234567890189"}}"#,
    ),
    ("send_payment", r#"{"amount": 0, "to": {"kind": "cheque"}}"#),
];

/// Decodes one call with its tool's generated type; the answer as one line. (The crate
/// has no dependency on serde: the generated code reaches it through toolgate.)
fn answer(tool: &str, arguments: &str) -> String {
    fn line<T: std::fmt::Debug>(
        decoded: Result<toolgate::Decoded<T>, toolgate::Rejected>,
    ) -> String {
        match decoded {
            Ok(decoded) => {
                let rules: Vec<String> = decoded
                    .repairs
                    .iter()
                    .map(|r| format!("{} {}", r.path, r.rule.as_str()))
                    .collect();
                format!("ok {:?} (repaired: {})", decoded.value, rules.join(", "))
            }
            Err(rejected) => format!("refused: {}", rejected.hint().to_json()),
        }
    }
    match tool {
        "create_issue" => line(CreateIssue::decode(arguments)),
        "get_weather" => line(GetWeather::decode(arguments)),
        "send_payment" => line(SendPayment::decode(arguments)),
        other => format!("no tool {other}"),
    }
}

fn main() {
    for (tool, arguments) in CALLS {
        println!("{tool}: {}", answer(tool, arguments));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_types_decode_model_output() {
        let issue = CreateIssue::decode(CALLS[0].1).unwrap();
        // Optional and nullable: absent, `null` and a value stay three values.
        assert_eq!(
            issue.value.assignees,
            toolgate::Nullable::Value(vec!["ada".to_owned()])
        );
        assert_eq!(issue.value.milestone, toolgate::Nullable::Value(3));
        let weather = GetWeather::decode(CALLS[1].1).unwrap();
        assert_eq!(weather.value.unit, Some(GetWeatherUnit::Celsius));
        let payment = SendPayment::decode(CALLS[2].1).unwrap();
        assert!(matches!(payment.value.to, SendPaymentTo::Iban { .. }));
        // The MCP `outputSchema` is the type of the tool's result, checked before it is sent.
        let result = CreateIssueOutput {
            number: 7,
            url: "https://github.com/toolgate/toolgate/issues/7".to_owned(),
            state: CreateIssueOutputState::Open,
        };
        assert!(result.validate().is_ok());
        let broken = CreateIssueOutput {
            number: 0,
            ..result
        };
        assert_eq!(
            broken.validate().unwrap_err().to_string(),
            "number: 0 is less than the minimum 1"
        );
        assert_eq!(
            <CreateIssue as toolgate::ToolOutput>::Output::name(),
            "create_issue_output"
        );
        let refused = SendPayment::decode(CALLS[3].1).unwrap_err();
        assert_eq!(refused.report.issues().len(), 2);
        assert!(answer("send_payment", CALLS[3].1).starts_with("refused: "));
    }
}
