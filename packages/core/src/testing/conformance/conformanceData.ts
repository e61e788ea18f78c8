import type { JsonObject } from '../../json.js';

/** Keys a store must keep apart and hand back as given: paths, SQL, globs, 1 KB, unicode, NUL. */
export function hostileKeys(): string[] {
  return [
    '../x',
    'x',
    '..',
    '/etc/passwd',
    "'; drop table sessions; --",
    'Robert"); DROP TABLE students;--',
    '%',
    '_',
    'a%b',
    'a_b',
    '*',
    '[x]',
    'back\\slash',
    'line\nbreak',
    'tab\there',
    'a\u0000b',
    'k'.repeat(1024),
    'ключ-🔑-鍵-مفتاح',
    'e\u0301', // é as e + combining accent: never normalised into the next one
    '\u00e9',
    ' spaced ',
    'UPPER',
    'upper',
  ];
}

/** States whose JSON text a store must hand back byte for byte. */
export function roundTripStates(): JsonObject[] {
  return [
    {},
    { a: 1, b: [], c: {}, d: null, e: true, f: false },
    // Key order as written, not sorted: a store must not reorder (as some JSON columns do).
    { zebra: 1, apple: 2, mango: { z: 1, a: 2 }, '10': 'ten', '2': 'two' },
    {
      numbers: [0, -1, 1.5, 0.1, 1e21, 1e-7, 2 ** 53, -(2 ** 53), 123456789.12345679],
      strings: [
        '',
        ' ',
        'quote " and \\ backslash',
        '\u0000\u0001\u001f',
        '</script>',
        '😀 é 東京',
      ],
      unicode: '\u2028\u2029 line separators, \uFEFF bom',
    },
    { deep: nest(60) },
    {
      big: 'x'.repeat(200_000),
      list: Array.from({ length: 2000 }, (_, i) => ({ i, s: `item ${i}` })),
    },
  ];
}

function nest(depth: number): JsonObject {
  let node: JsonObject = { leaf: true };
  for (let i = 0; i < depth; i++) node = { level: i, child: node };
  return node;
}
