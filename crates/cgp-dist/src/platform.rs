//! The platforms `cgp` is packaged for: each one's npm package, Rust target
//! and executable name. One table, so the launcher lists every platform
//! package and each runner of a release workflow builds its own.

/// One platform the packages describe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Platform {
    /// `process.platform` in Node, and the `os` of the npm package.
    pub node_os: &'static str,
    /// `process.arch` in Node, and the `cpu` of the npm package.
    pub node_cpu: &'static str,
    /// `std::env::consts::OS` of a binary built for it.
    pub rust_os: &'static str,
    /// `std::env::consts::ARCH` of a binary built for it.
    pub rust_arch: &'static str,
    /// The Rust target a release workflow builds on its runner.
    pub target: &'static str,
}

/// Every platform; the launcher package depends on one package per entry.
pub const PLATFORMS: [Platform; 5] = [
    Platform {
        node_os: "linux",
        node_cpu: "x64",
        rust_os: "linux",
        rust_arch: "x86_64",
        target: "x86_64-unknown-linux-gnu",
    },
    Platform {
        node_os: "linux",
        node_cpu: "arm64",
        rust_os: "linux",
        rust_arch: "aarch64",
        target: "aarch64-unknown-linux-gnu",
    },
    Platform {
        node_os: "darwin",
        node_cpu: "x64",
        rust_os: "macos",
        rust_arch: "x86_64",
        target: "x86_64-apple-darwin",
    },
    Platform {
        node_os: "darwin",
        node_cpu: "arm64",
        rust_os: "macos",
        rust_arch: "aarch64",
        target: "aarch64-apple-darwin",
    },
    Platform {
        node_os: "win32",
        node_cpu: "x64",
        rust_os: "windows",
        rust_arch: "x86_64",
        target: "x86_64-pc-windows-msvc",
    },
];

impl Platform {
    /// The platform this program was built for, if packages describe it.
    pub fn host() -> Option<&'static Platform> {
        PLATFORMS.iter().find(|platform| {
            platform.rust_os == std::env::consts::OS && platform.rust_arch == std::env::consts::ARCH
        })
    }

    /// `cgp`, or `cgp.exe` on Windows.
    pub fn executable(&self) -> &'static str {
        if self.rust_os == "windows" {
            "cgp.exe"
        } else {
            "cgp"
        }
    }

    /// The npm package holding this platform's binary: `cgp-cli-linux-x64`.
    pub fn npm_package(&self) -> String {
        format!("{}-{}-{}", crate::NPM_NAME, self.node_os, self.node_cpu)
    }

    /// The wheel's platform tag for `binary` built for this platform: for
    /// Linux, `manylinux_2_N_ARCH` with N the newest glibc symbol version the
    /// binary needs (at least 17); for macOS the oldest release Rust's target
    /// supports; `win_amd64` on Windows.
    pub fn wheel_tag(&self, binary: &[u8]) -> String {
        match self.rust_os {
            "linux" => format!(
                "manylinux_2_{}_{}",
                glibc_minor(binary).max(17),
                self.rust_arch
            ),
            "macos" if self.rust_arch == "aarch64" => "macosx_11_0_arm64".to_owned(),
            "macos" => "macosx_10_12_x86_64".to_owned(),
            _ => "win_amd64".to_owned(),
        }
    }
}

/// The largest N of the `GLIBC_2.N` symbol versions named in `binary`.
fn glibc_minor(binary: &[u8]) -> u32 {
    const MARK: &[u8] = b"GLIBC_2.";
    let mut newest = 0;
    let mut rest = binary;
    while let Some(at) = rest.windows(MARK.len()).position(|window| window == MARK) {
        let after = rest.get(at + MARK.len()..).unwrap_or_default();
        let digits: Vec<u8> = after
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .copied()
            .collect();
        if let Some(minor) = std::str::from_utf8(&digits)
            .ok()
            .and_then(|text| text.parse::<u32>().ok())
        {
            newest = newest.max(minor);
        }
        rest = after;
    }
    newest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_platform_is_named_once_and_linux_tags_follow_glibc() {
        let names: std::collections::BTreeSet<String> =
            PLATFORMS.iter().map(Platform::npm_package).collect();
        assert_eq!(names.len(), PLATFORMS.len());
        assert!(names.contains("cgp-cli-linux-x64"));
        let linux = &PLATFORMS[0];
        assert_eq!(
            linux.wheel_tag(b"x GLIBC_2.2.5\0GLIBC_2.34\0GLIBC_2.28\0"),
            "manylinux_2_34_x86_64"
        );
        assert_eq!(linux.wheel_tag(b"GLIBC_2.3\0"), "manylinux_2_17_x86_64");
        assert_eq!(PLATFORMS[4].executable(), "cgp.exe");
        assert_eq!(PLATFORMS[4].wheel_tag(b""), "win_amd64");
    }
}
