import { createHash } from "node:crypto";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text or attribute value made safe for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` are written as `\u003c`, `\u003e` and
 * `\u0026`, so no session text can close the element (`</script>`) or open a comment (`<!--`); U+2028/2029 too,
 * for tools that treat them as line ends. `JSON.parse` of the element's text gives the value back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return scriptSafe(JSON.stringify(value));
}

/** JSON text made safe for a script element, as `jsonForScript` writes it. */
export function scriptSafe(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A Content-Security-Policy source for an inline element's exact text. */
function cspHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The page's policy: nothing may be fetched (no network, no external assets); only the page's own style and script,
 * identified by their hashes, run.
 */
function contentSecurityPolicy(style: string, script?: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspHash(style)}`,
    ...(script === undefined ? [] : [`script-src ${cspHash(script)}`, "img-src data:"]),
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** The document start shared by every report page, up to and including `<body>`. */
export function pageStart(title: string, style: string, script?: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(style, script))}">
<meta name="generator" content="context-kit report">
<title>${escapeHtml(title)} · context-kit report</title>
<style>${style}</style>
</head>
<body>`;
}
