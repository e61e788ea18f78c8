import { describe, expect, it } from 'vitest';
import { isJsonContentType } from './isJsonContentType.js';

describe('isJsonContentType', () => {
  it('accepts application/json, with an optional UTF-8 charset in any case', () => {
    for (const header of [
      'application/json',
      'Application/JSON',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/json; charset="utf-8"',
    ]) {
      expect(isJsonContentType(header), header).toBe(true);
    }
    expect(isJsonContentType('application/a2a+json')).toBe(false);
  });

  it('accepts the media types given instead', () => {
    const a2a = ['application/json', 'application/a2a+json'];
    expect(isJsonContentType('application/A2A+json; charset=utf-8', a2a)).toBe(true);
    expect(isJsonContentType('application/json', a2a)).toBe(true);
    expect(isJsonContentType('text/plain', a2a)).toBe(false);
  });

  it('refuses what a page can send cross-site without a preflight, and anything else', () => {
    for (const header of [
      undefined,
      '',
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json-patch+json',
      'application/json; charset=latin1',
      'application/json; boundary=x',
      'application/jsonp',
    ]) {
      expect(isJsonContentType(header), String(header)).toBe(false);
    }
  });
});
