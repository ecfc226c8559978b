//! The conversation as an SVG sequence diagram, drawn from the model: a host
//! and a provider, and one arrow per variant in the order the envelope lists
//! them, pointing the way its direction says.

use cgp_schema::model::Protocol;
use cgp_types::Direction;

use super::markdown::{self, SitePaths};
use super::views::escape;

/// The conversation page's body: the diagram and a list of the same arrows.
pub(crate) fn conversation_html(protocol: &Protocol, dir: &str) -> String {
    const WIDTH: usize = 640;
    const TOP: usize = 70;
    const STEP: usize = 48;
    let host_x = 120;
    let provider_x = WIDTH - 120;
    let height = TOP + STEP * protocol.variants.len() + 30;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {height}\" width=\"{WIDTH}\" height=\"{height}\" role=\"img\" aria-labelledby=\"conversation-title\">\n<title id=\"conversation-title\">The messages of a connection, host on the left, provider on the right, in the order the envelope lists them</title>\n<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#1f2937\"/></marker></defs>\n"
    );
    for (x, label) in [(host_x, "host"), (provider_x, "provider")] {
        svg.push_str(&format!(
            "<rect x=\"{}\" y=\"10\" width=\"120\" height=\"32\" rx=\"4\" fill=\"#e5e7eb\" stroke=\"#1f2937\"/>\n<text x=\"{x}\" y=\"31\" text-anchor=\"middle\" font-size=\"15\" fill=\"#111827\">{label}</text>\n<line x1=\"{x}\" y1=\"42\" x2=\"{x}\" y2=\"{}\" stroke=\"#6b7280\" stroke-dasharray=\"4 4\"/>\n",
            x - 60,
            height - 10
        ));
    }
    let mut list = String::from("<ol>\n");
    for (index, variant) in protocol.variants.iter().enumerate() {
        let y = TOP + STEP * index + 20;
        let (from, to) = match variant.direction() {
            Some(Direction::ProviderToHost) => (provider_x, host_x),
            _ => (host_x, provider_x),
        };
        let href = format!("{dir}variants/{}.html", variant.tag);
        let tag = escape(&variant.tag);
        svg.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\" fill=\"#111827\">{tag}</text>\n<line x1=\"{from}\" y1=\"{y}\" x2=\"{to}\" y2=\"{y}\" stroke=\"#1f2937\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>\n",
            WIDTH / 2,
            y - 8
        ));
        let direction = variant
            .direction()
            .map(|direction| direction.as_str())
            .unwrap_or("no direction");
        let description = variant
            .annotations
            .description
            .as_deref()
            .map(|text| format!(": {}", describe(text)))
            .unwrap_or_default();
        list.push_str(&format!(
            "<li><a href=\"{href}\"><code>{tag}</code></a> ({direction}){description}</li>\n"
        ));
    }
    svg.push_str("</svg>\n");
    list.push_str("</ol>\n");
    format!(
        "<p>A connection opens with the handshake, carries queries and verify requests with their answers, and ends with shutdown; a provider answers a request it cannot serve with an error. Each arrow is one variant of the envelope; the list below leads to their pages.</p>\n<figure>\n{svg}<figcaption>The envelope's variants and their directions.</figcaption>\n</figure>\n<h2>The messages</h2>\n{list}"
    )
}

/// A variant's description, its Markdown rendered inline; the site has no
/// page for a repository path it names, so such a link keeps its text only.
fn describe(text: &str) -> String {
    struct NoPages;
    impl SitePaths for NoPages {
        fn page_of(&self, _path: &str) -> Option<String> {
            None
        }
    }
    markdown::inline(text, "schema", "", &NoPages)
}
