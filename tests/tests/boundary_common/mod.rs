//! What the boundary suites share: a Tokio runtime to run a call on, envelope goldens, and
//! a `book_flight` toolbox.

pub mod flights;

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

#[allow(dead_code)] // Not every suite reads events.
/// What the `fmt` subscriber wrote (at `DEBUG`, spans shown when they close) while `run`
/// ran.
pub fn captured_events(run: impl FnOnce()) -> String {
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::DEBUG)
        .with_ansi(false)
        .without_time()
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::with_default(subscriber, run);
    let bytes = captured.0.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}
