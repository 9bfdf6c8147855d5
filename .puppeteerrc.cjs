/**
 * Puppeteer (pulled in by @mermaid-js/mermaid-cli, which renders docs/machines.md in a test) must not
 * download a browser: the tests use Debian's Chromium at /usr/bin/chromium (.ci/run installs it).
 * @type {import('puppeteer').Configuration}
 */
module.exports = { skipDownload: true };
