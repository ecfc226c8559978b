//! The latency `cgp proxy` adds per line: a line's round trip through `cat`
//! directly, and through `cgp proxy -- cat` (the line passes the proxy twice,
//! host to provider and back), one line in flight at a time.

use crate::BenchError;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Round-trip times, sorted, in one setup.
#[derive(Debug, Clone)]
pub struct RoundTrips {
    /// Every round trip, shortest first.
    pub sorted: Vec<Duration>,
}

impl RoundTrips {
    /// The `q` quantile (0..=1), nearest rank.
    pub fn quantile(&self, q: f64) -> Duration {
        if self.sorted.is_empty() {
            return Duration::ZERO;
        }
        let rank = ((self.sorted.len() as f64 * q).ceil() as usize).clamp(1, self.sorted.len());
        self.sorted.get(rank - 1).copied().unwrap_or_default()
    }
}

/// What the proxy adds per pass, at p50 and p99: half the difference of the
/// round trips through it and without it.
#[derive(Debug, Clone)]
pub struct ProxyLatency {
    /// The line length measured, in bytes (line feed included).
    pub line_bytes: usize,
    /// Round trips through `cat`.
    pub direct: RoundTrips,
    /// Round trips through `cgp proxy -- cat`.
    pub proxied: RoundTrips,
}

impl ProxyLatency {
    /// The latency added per pass at quantile `q`.
    pub fn added(&self, q: f64) -> Duration {
        self.proxied
            .quantile(q)
            .saturating_sub(self.direct.quantile(q))
            / 2
    }
}

/// A `query` envelope padded to about `bytes` bytes, with its line feed.
pub fn line_of(bytes: usize) -> Vec<u8> {
    let head = r#"{"type":"query","id":"q1","query":{"goal":""#;
    let tail = r#"","max_frames":5,"max_tokens":1000}"#;
    let pad = bytes.saturating_sub(head.len() + tail.len() + 1);
    let mut line = Vec::with_capacity(bytes);
    line.extend_from_slice(head.as_bytes());
    line.extend(std::iter::repeat_n(b'x', pad));
    line.extend_from_slice(tail.as_bytes());
    line.push(b'\n');
    line
}

fn round_trips(command: &mut Command, line: &[u8], count: usize) -> Result<RoundTrips, BenchError> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|error| format!("cannot start the echo: {error}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let mut back = Vec::with_capacity(line.len());
    let mut times = Vec::with_capacity(count);
    // The first rounds warm the pipes and the proxy's threads.
    for round in 0..count + count / 10 {
        back.clear();
        let started = Instant::now();
        stdin.write_all(line).map_err(|error| error.to_string())?;
        stdin.flush().map_err(|error| error.to_string())?;
        stdout
            .read_until(b'\n', &mut back)
            .map_err(|error| error.to_string())?;
        let elapsed = started.elapsed();
        if back != line {
            return Err("the echo changed the line".into());
        }
        if round >= count / 10 {
            times.push(elapsed);
        }
    }
    drop(stdin);
    let _ = child.wait();
    times.sort();
    Ok(RoundTrips { sorted: times })
}

/// Measures `count` round trips of a `line_bytes` line through `cat` and
/// through `cgp proxy -- cat` (`cgp` the binary under test).
pub fn proxy_latency(
    cgp: &Path,
    line_bytes: usize,
    count: usize,
) -> Result<ProxyLatency, BenchError> {
    let line = line_of(line_bytes);
    let direct = round_trips(&mut Command::new("cat"), &line, count)?;
    let proxied = round_trips(
        Command::new(cgp).args(["proxy", "--findings", "/dev/null", "--", "cat"]),
        &line,
        count,
    )?;
    Ok(ProxyLatency {
        line_bytes,
        direct,
        proxied,
    })
}
