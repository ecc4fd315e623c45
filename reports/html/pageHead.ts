/**
 * The opening of a report page, to its <body>: one for report.html and compare.html, so both
 * carry the same policy headers (no script, no referrer, their own Content-Security-Policy).
 */
import { esc } from './escape.ts';

export function pageHead(title: string, contentSecurityPolicy: string, style: string): string[] {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(title)}</title>`,
    `<style>${style}</style>`,
    '</head>',
    '<body>',
  ];
}
