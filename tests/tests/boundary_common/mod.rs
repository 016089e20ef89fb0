//! What the boundary suites share: a Tokio runtime to run a call on, and envelope goldens.

/// Writes an envelope, pretty, as the golden `goldens/<name>.snap`.
macro_rules! golden {
    ($name:expr, $envelope:expr) => {
        insta::with_settings!({snapshot_path => "../../goldens", prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!($name, serde_json::to_string_pretty(&$envelope).unwrap());
        })
    };
}

/// Runs `future` to its end on a one-thread Tokio runtime with its timer.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a Tokio runtime")
        .block_on(future)
}
