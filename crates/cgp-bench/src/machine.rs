//! Where a report was measured: CPU, cores, memory, toolchain, date and load.

use std::process::Command;

/// The machine a report was measured on.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Machine {
    /// The CPU model.
    pub cpu: String,
    /// Cores available to the process.
    pub cores: usize,
    /// Memory, in GiB.
    pub memory_gib: f64,
    /// `rustc --version`.
    pub rustc: String,
    /// The date, `YYYY-MM-DD` (UTC).
    pub date: String,
    /// The 1-minute load average before and after the run.
    pub load: (f64, f64),
}

impl Machine {
    /// Reads what the system says about itself (Linux; unknown elsewhere).
    pub fn detect() -> Self {
        let read = |path: &str| std::fs::read_to_string(path).unwrap_or_default();
        let cpu = read("/proc/cpuinfo")
            .lines()
            .find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == "model name").then(|| value.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown".into());
        let memory_gib = read("/proc/meminfo")
            .lines()
            .find_map(|line| {
                let rest = line.strip_prefix("MemTotal:")?;
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map_or(0.0, |kib| kib / (1024.0 * 1024.0));
        let rustc = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
            .arg("--version")
            .output()
            .ok()
            .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
            .unwrap_or_else(|| "unknown".into());
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs());
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_gib,
            rustc,
            date: civil_date(seconds / 86_400),
            load: (load_average(), 0.0),
        }
    }
}

pub(crate) fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (H. Hinnant's algorithm).
fn civil_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
