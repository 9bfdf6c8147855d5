import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { sanitizeHighlighted } from './sanitizeHighlighted';

// The languages bots write most; each brings its usual aliases (js, ts, py, sh, html, yml, rs, …).
const languages = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  python,
  ruby,
  rust,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);

// Guessing tries every language: only for short code, so a growing unlabeled block stays cheap per token.
const guessLimit = 500;
// Below this, a guess is mostly noise (prose scores 1 as SQL).
const guessRelevance = 3;

/** Code as highlighted HTML (sanitized), or null to show it plain: unknown language, or no good guess. */
export function highlight(code: string, language: string): string | null {
  if (language) {
    if (!hljs.getLanguage(language)) return null;
    return sanitizeHighlighted(hljs.highlight(code, { language, ignoreIllegals: true }).value);
  }
  if (code.length > guessLimit) return null;
  const guess = hljs.highlightAuto(code);
  return guess.relevance >= guessRelevance ? sanitizeHighlighted(guess.value) : null;
}
