/** The few ANSI styles the renderer uses; each is the identity when colour is off. */
export interface Style {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly red: (text: string) => string;
  readonly magenta: (text: string) => string;
}

const plain = (text: string): string => text;

const PLAIN: Style = {
  bold: plain,
  dim: plain,
  cyan: plain,
  green: plain,
  yellow: plain,
  red: plain,
  magenta: plain,
};

// Each style closes with its own reset code (not the full reset `0`), so styles nest.
const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

const ANSI: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  cyan: sgr(36, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  red: sgr(31, 39),
  magenta: sgr(35, 39),
};

/** The ANSI styles when `color` is true, else styles that return their text unchanged. */
export function styleFor(color: boolean): Style {
  return color ? ANSI : PLAIN;
}

/**
 * Whether to colour output written to `out`: only for a TTY, and never when the `NO_COLOR`
 * convention (https://no-color.org) asks for plain text.
 */
export function shouldColor(
  out: { readonly isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const noColor = env['NO_COLOR'];
  return out.isTTY === true && (noColor === undefined || noColor === '');
}
