/**
 * The headers every answer carries. The page runs nothing but its own scripts: the Content
 * Security Policy allows scripts, styles, workers and requests from the server itself and
 * nothing else — no inline script or style, no eval (no 'unsafe-eval', and no
 * 'wasm-unsafe-eval', so pdf.js cannot compile a PDF's PostScript functions either), no
 * plugin, no frame, no other origin. A PDF's text can therefore never run as code even if it
 * reached the page as markup (it does not: the page puts it there as text).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "x-frame-options": "DENY",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
};
