// Drives the system's Chromium through playwright-core over the built site:
// every page over a loopback static server (no console error, no request
// leaving the site, every internal link and anchor resolving, lang, title,
// heading order, no serious or critical axe-core violation), the search box
// from file:// (a member leads to its type; every member name lists every
// type that has it), the version switcher, and a screenshot of each kind of
// page. Usage: node site_browser.cjs <chromium> <site dir> <expectations.json>
// <screenshot dir>. Prints one JSON summary; exits 1 with the problems.
"use strict";
const fs = require("fs");
const path = require("path");
const http = require("http");
const { pathToFileURL } = require("url");
const { chromium } = require("playwright-core");

const [chromiumPath, siteDir, expectationsPath, shotsDir] = process.argv.slice(2);
const expected = JSON.parse(fs.readFileSync(expectationsPath, "utf8"));
const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const problems = [];
const problem = (text) => problems.push(text);

function walk(dir, prefix, out) {
  for (const name of fs.readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const rel = prefix + name;
    if (fs.statSync(full).isDirectory()) walk(full, rel + "/", out);
    else out.push(rel);
  }
  return out;
}
const files = walk(siteDir, "", []);
const pages = files.filter((file) => file.endsWith(".html"));

const TYPES = { ".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript" };
function serve() {
  const server = http.createServer((request, response) => {
    const rel = decodeURIComponent(new URL(request.url, "http://x").pathname).replace(/^\/+/, "");
    const file = path.join(siteDir, rel || "index.html");
    if (!file.startsWith(path.resolve(siteDir)) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      response.writeHead(404);
      response.end();
      return;
    }
    response.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    response.end(fs.readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function main() {
  const server = await serve();
  const base = `http://127.0.0.1:${server.address().port}/`;
  const siteUrl = pathToFileURL(path.resolve(siteDir)).href + "/";
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Nothing leaves the site: any request elsewhere is refused and reported.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(base) || url.startsWith(siteUrl)) return route.continue();
    problem(`a request left the site: ${url}`);
    return route.abort();
  });
  const page = await context.newPage();
  let current = "";
  page.on("console", (message) => {
    if (message.type() === "error") problem(`${current}: console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problem(`${current}: page error: ${error.message}`));

  const ids = new Map();
  const links = [];
  let axeChecked = 0;
  for (const rel of pages) {
    current = rel;
    const response = await page.goto(base + rel, { waitUntil: "load" });
    if (!response || !response.ok()) problem(`${rel}: not served`);
    const facts = await page.evaluate(() => ({
      lang: document.documentElement.getAttribute("lang"),
      title: document.title.trim(),
      headings: Array.from(document.querySelectorAll("main h1, main h2, main h3, main h4, main h5, main h6")).map((h) => Number(h.tagName[1])),
      ids: Array.from(document.querySelectorAll("[id], a[name]")).map((e) => e.id || e.getAttribute("name")),
      links: Array.from(document.querySelectorAll("a[href]")).map((a) => new URL(a.getAttribute("href"), document.baseURI).href),
    }));
    if (!facts.lang) problem(`${rel}: no lang on <html>`);
    if (!facts.title) problem(`${rel}: no title`);
    if (facts.headings[0] !== 1) problem(`${rel}: the first heading of main is h${facts.headings[0]}, not h1`);
    if (facts.headings.filter((level) => level === 1).length !== 1) problem(`${rel}: not exactly one h1`);
    for (let i = 1; i < facts.headings.length; i++) {
      if (facts.headings[i] > facts.headings[i - 1] + 1) {
        problem(`${rel}: heading h${facts.headings[i]} follows h${facts.headings[i - 1]}`);
        break;
      }
    }
    ids.set(rel, new Set(facts.ids));
    for (const link of facts.links) links.push([rel, link]);
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ["violations"] });
      return result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id} (${v.impact}) at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
    });
    axeChecked++;
    for (const violation of violations) problem(`${rel}: axe: ${violation}`);
  }

  // Every internal link and anchor resolves.
  let internal = 0;
  for (const [from, href] of links) {
    if (!href.startsWith(base)) {
      if (!/^(https?:|mailto:)/.test(href)) problem(`${from}: a link to ${href}`);
      continue;
    }
    internal++;
    const url = new URL(href);
    const target = decodeURIComponent(url.pathname).replace(/^\/+/, "") || "index.html";
    if (!files.includes(target)) {
      problem(`${from}: a link to ${target}, which the site does not have`);
      continue;
    }
    const anchor = decodeURIComponent(url.hash.replace(/^#/, ""));
    if (anchor && !(ids.get(target) || new Set()).has(anchor)) {
      problem(`${from}: a link to ${target}#${anchor}, which has no such anchor`);
    }
  }

  // The search box, from file://, reached from the keyboard.
  current = "search";
  await page.goto(siteUrl + "index.html", { waitUntil: "load" });
  let reached = false;
  for (let i = 0; i < 6 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement && document.activeElement.id === "search");
  }
  if (!reached) problem("the search box cannot be reached with Tab from the top of the page");
  const results = async (query) => {
    await page.fill("#search", query);
    return page.$$eval("#search-results a", (as) => as.map((a) => ({ text: a.textContent, href: a.getAttribute("href") })));
  };
  const [firstHit] = await results(expected.first_hit.query);
  if (!firstHit || !firstHit.href.includes(expected.first_hit.page)) {
    problem(`searching ${expected.first_hit.query} shows ${JSON.stringify(firstHit)} first, not ${expected.first_hit.page}`);
  } else {
    await page.click("#search-results a >> nth=0");
    await page.waitForLoadState("load");
    const heading = await page.textContent("main h1");
    if (heading.trim() !== expected.first_hit.heading) problem(`the first hit for ${expected.first_hit.query} leads to ${heading}`);
  }
  await page.goto(siteUrl + "index.html", { waitUntil: "load" });
  let searched = 0;
  for (const [member, owners] of Object.entries(expected.members)) {
    const hrefs = (await results(member)).map((hit) => hit.href);
    searched++;
    for (const owner of owners) {
      if (!hrefs.some((href) => href.startsWith(owner + "#member-"))) problem(`searching ${member} does not list ${owner}`);
    }
  }

  // The version switcher lists every published version, on every kind of page.
  for (const rel of Object.values(expected.screenshots)) {
    current = rel;
    await page.goto(siteUrl + rel, { waitUntil: "load" });
    const listed = await page.$$eval("#versions a", (as) => as.map((a) => a.textContent.trim()));
    for (const version of expected.published) {
      if (!listed.includes(version)) problem(`${rel}: the version switcher does not list ${version}`);
    }
  }

  // A screenshot of each kind of page.
  fs.mkdirSync(shotsDir, { recursive: true });
  for (const [kind, rel] of Object.entries(expected.screenshots)) {
    await page.goto(base + rel, { waitUntil: "load" });
    await page.screenshot({ path: path.join(shotsDir, `${kind}.png`) });
  }

  await browser.close();
  server.close();
  console.log(JSON.stringify({ pages: pages.length, internal_links: internal, axe_checked: axeChecked, members_searched: searched, problems }, null, 1));
  process.exit(problems.length === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
