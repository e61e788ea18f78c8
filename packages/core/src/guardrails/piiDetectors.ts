import { SECRET_PATTERNS } from '../hooks/redactSecrets.js';

/** The kinds of personal data and secrets `findPii` detects. */
export type PiiKind =
  | 'email'
  | 'phone'
  | 'card_number'
  | 'national_id'
  | 'api_key'
  | 'token'
  | 'internal_url';

/** One detection: where it is in the text and what kind it is. */
export interface PiiMatch {
  readonly kind: PiiKind;
  readonly start: number;
  readonly end: number;
}

interface Detector {
  readonly kind: PiiKind;
  readonly pattern: RegExp;
  /** Confirms a match the pattern alone cannot (a checksum, a digit count). */
  readonly accept?: (match: string) => boolean;
  /** A string every match contains: text without it is not scanned with `pattern` at all. */
  readonly needs?: string;
  /** Every match lies within a run of digits and separators: only those runs are scanned. */
  readonly numeric?: true;
}

// Runs of 7+ digits and separators (a card, a phone or an ID number is one), with the
// characters around them, which the numeric patterns' look-arounds read. Prose has few.
const NUMERIC_RUN = /[+(]?\d[\d ().-]{5,}\d[A-Z]?/g;

// Starts only where a local part can start, so a long word is scanned once, not once per letter.
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}/g;
// 13–19 digits in groups separated by single spaces or dashes; the Luhn check decides.
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;
// A US Social Security number: never area 000, 666 or 9xx, group 00 or serial 0000.
const SSN = /(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])/g;
// A UK National Insurance number (the prefixes HMRC never issues excluded).
const NINO =
  /\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g;
// A Spanish DNI: eight digits and the check letter of their value mod 23.
const DNI = /\b\d{8}-?[A-Z]\b/g;
// A phone number: +country and 8–15 digits in one run, or an optional +country code, an
// optional (area), then digit groups.
const PHONE =
  /(?<![\w+])(?:\+\d{8,15}|(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,4}){1,4})(?![\w-])/g;
// `token: value` / `token=value` (also password, secret, api_key) with a value of 8+ characters.
const TOKEN_VALUE =
  /\b(?:token|access[_-]?token|api[_-]?key|secret|password|passwd)\s*[:=]\s*["']?[^\s"',;]{8,}/gi;
// http(s) URLs on loopback, private ranges, or internal names (*.internal, *.local, *.corp, *.lan, single labels).
const URL = /\bhttps?:\/\/[^\s/?#"'<>]+[^\s"'<>]*/gi;

const DETECTORS: readonly Detector[] = [
  ...SECRET_PATTERNS.map(
    (p): Detector => ({
      kind: p.label === 'token' ? 'token' : 'api_key',
      pattern: p.pattern.global ? p.pattern : new RegExp(p.pattern.source, `${p.pattern.flags}g`),
      ...(p.label === 'jwt' && { needs: 'eyJ' }),
      ...(p.label === 'private-key' && { needs: '-----BEGIN' }),
    }),
  ),
  { kind: 'token', pattern: TOKEN_VALUE },
  { kind: 'internal_url', pattern: URL, accept: isInternalUrl, needs: '://' },
  { kind: 'email', pattern: EMAIL, needs: '@' },
  { kind: 'national_id', pattern: SSN, numeric: true },
  { kind: 'national_id', pattern: NINO },
  { kind: 'national_id', pattern: DNI, accept: dniChecks, numeric: true },
  { kind: 'card_number', pattern: CARD, accept: luhnChecks, numeric: true },
  { kind: 'phone', pattern: PHONE, accept: phoneDigits, numeric: true },
];

/**
 * Finds personal data and secrets in `text`: e-mail addresses, phone numbers (10–15 digits,
 * or 8+ after a `+country` code, so dates and amounts stay), card numbers that pass the Luhn
 * check, national ID numbers (US SSN, UK National Insurance number, Spanish DNI with its
 * check letter), API keys, bearer tokens and `token:` / `password=` values, and URLs of
 * internal hosts (loopback, private IPv4 ranges, `.internal`, `.local`, `.corp`, `.lan`,
 * `.intranet`, single-label names). Matches never overlap: earlier detectors in that list
 * win. Pure and linear in the text.
 */
export function findPii(text: string): PiiMatch[] {
  const found: PiiMatch[] = [];
  const taken = (start: number, end: number): boolean =>
    found.some((m) => start < m.end && m.start < end);
  const scan = (detector: Detector, from: number, to: number): void => {
    const { kind, pattern, accept } = detector;
    const part = from === 0 && to === text.length ? text : text.slice(from, to);
    for (const match of part.matchAll(pattern)) {
      const start = from + match.index;
      const end = start + match[0].length;
      if ((accept === undefined || accept(match[0])) && !taken(start, end))
        found.push({ kind, start, end });
    }
  };
  let runs: (readonly [number, number])[] | undefined;
  for (const detector of DETECTORS) {
    if (detector.needs !== undefined && !text.includes(detector.needs)) continue;
    if (detector.numeric === undefined) {
      scan(detector, 0, text.length);
      continue;
    }
    runs ??= [...text.matchAll(NUMERIC_RUN)].map(
      (m) => [Math.max(0, m.index - 1), Math.min(text.length, m.index + m[0].length + 1)] as const,
    );
    for (const [from, to] of runs) scan(detector, from, to);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** `text` with each match replaced by `[REDACTED:<kind>]`. */
export function redactPii(text: string, matches: readonly PiiMatch[]): string {
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += `${text.slice(at, m.start)}[REDACTED:${m.kind}]`;
    at = m.end;
  }
  return out + text.slice(at);
}

/** The Luhn checksum of a card number's digits. */
export function luhnChecks(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 13 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function dniChecks(candidate: string): boolean {
  const digits = Number(candidate.slice(0, 8));
  return 'TRWAGMYFPDXBNJZSQVHLCKE'[digits % 23] === candidate.at(-1);
}

function phoneDigits(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  if (digits > 15) return false;
  return candidate.startsWith('+')
    ? digits >= 8
    : digits >= 10 && !/^\d{4}-\d{2}-\d{2}/.test(candidate);
}

function isInternalUrl(url: string): boolean {
  const authority = url.replace(/^https?:\/\//i, '').split(/[/?#]/)[0] ?? '';
  const host = (authority.split('@').at(-1) ?? '')
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (host === 'localhost' || host === '::1' || host.endsWith('.localhost')) return true;
  const ip = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (ip) {
    const a = Number(ip[1]);
    const b = Number(ip[2]);
    return (
      a === 10 ||
      a === 127 ||
      (a === 192 && b === 168) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 169 && b === 254)
    );
  }
  if (!host.includes('.')) return host !== '';
  return /\.(?:internal|local|corp|lan|intranet|home\.arpa)$/.test(host);
}
