import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './hash';

const ref = (b: Uint8Array | string) => crypto.createHash('sha256').update(b).digest('hex');

describe('sha256Hex', () => {
  it('matches node:crypto on every length across the padding boundaries', () => {
    const src = crypto.randomBytes(300);
    for (let n = 0; n <= 300; n++) expect(sha256Hex(src.subarray(0, n)), `length ${n}`).toBe(ref(src.subarray(0, n)));
  });

  it('gives the known digests', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes a string as UTF-8, and large inputs on either side of the JavaScript limit', () => {
    expect(sha256Hex('pässwört 密码 ✓')).toBe(ref(Buffer.from('pässwört 密码 ✓', 'utf8')));
    const big = crypto.randomBytes(64 * 1024 + 1);
    expect(sha256Hex(big.subarray(0, 64 * 1024))).toBe(ref(big.subarray(0, 64 * 1024)));
    expect(sha256Hex(big)).toBe(ref(big));
  });

  it('hashes a view into a larger buffer by its own bytes', () => {
    const buf = crypto.randomBytes(200);
    const view = new Uint8Array(buf.buffer, buf.byteOffset + 17, 100);
    expect(sha256Hex(view)).toBe(ref(Buffer.from(view)));
  });
});
