//! Ending the provider when `cgp check` is interrupted. The provider leads a
//! process group of its own, so the terminal's Ctrl-C does not reach it; on
//! SIGINT, SIGTERM or SIGHUP `cgp check` kills that group and exits with
//! 128 + the signal.

use super::Connected;
use crate::usage::Usage;
use std::sync::{Arc, Mutex, PoisonError};

/// The process group to kill on a signal (zero: none), behind a lock that
/// [`starting`] holds while a provider starts.
pub type Armed = Arc<Mutex<u32>>;

/// Watches for the signals from now on; no group is armed yet.
pub fn watch() -> Armed {
    let armed: Armed = Arc::new(Mutex::new(0));
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        // Without the handler the signals keep their default: cgp ends,
        // and the provider ends when it finds its input closed.
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            let watched = Arc::clone(&armed);
            let _ = std::thread::Builder::new()
                .name("cgp-check-signals".into())
                .spawn(move || {
                    if let Some(signal) = signals.forever().next() {
                        // Waits for a provider being started to be armed.
                        let group = *watched.lock().unwrap_or_else(PoisonError::into_inner);
                        if group != 0 {
                            cgp_conformance::stdio::kill_process_group(group);
                        }
                        std::process::exit(128 + signal);
                    }
                });
        }
    }
    armed
}

/// Starts a stdio provider with `start` and arms its group, the signal
/// watcher waiting meanwhile: a signal that arrives while the provider
/// starts kills it once it has started, instead of leaving it behind.
pub fn starting(
    armed: &Mutex<u32>,
    start: impl FnOnce() -> Result<Connected, Usage>,
) -> Result<Connected, Usage> {
    let mut group = armed.lock().unwrap_or_else(PoisonError::into_inner);
    let connected = start();
    if let Ok(Connected {
        group: Some(started),
        ..
    }) = &connected
    {
        *group = *started;
    }
    connected
}

/// The provider has been reaped: its group id may name another group now.
pub fn disarm(armed: &Mutex<u32>) {
    *armed.lock().unwrap_or_else(PoisonError::into_inner) = 0;
}
