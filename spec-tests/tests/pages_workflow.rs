//! The workflow that publishes the site to GitHub Pages cannot run here, so
//! the pinned actionlint (from the Go module proxy, under `target/peers`)
//! checks it against what GitHub Actions accepts, and this test checks that it
//! publishes what `cargo xtask site` builds.

use std::process::Command;

const WORKFLOW: &str = ".github/workflows/pages.yml";

#[test]
#[ignore = "full tier"]
fn the_pages_workflow_passes_actionlint_and_publishes_the_site() {
    let root = cgp_test_support::repo();
    let text = std::fs::read_to_string(root.join(WORKFLOW)).expect("the workflow");
    assert!(text.contains("run: cargo xtask site"), "it builds the site");
    assert!(
        text.contains(&format!("path: {}", cgp_codegen::site::SITE_DIR)),
        "it uploads {}",
        cgp_codegen::site::SITE_DIR
    );
    assert!(
        text.contains("actions/deploy-pages@"),
        "it deploys to Pages"
    );
    let actionlint =
        spec_tests::peers::ensure_actionlint().unwrap_or_else(|error| panic!("{error}"));
    let output = Command::new(actionlint)
        .arg("-no-color")
        .arg(WORKFLOW)
        .current_dir(&root)
        .output()
        .expect("actionlint runs");
    assert!(
        output.status.success(),
        "actionlint rejects {WORKFLOW}:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
