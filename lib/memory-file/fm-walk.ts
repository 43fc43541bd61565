/**
 * Iterative checks over a composed YAML document. Nothing here calls toJS:
 * aliases are reported, never expanded, so an alias bomb costs one node each.
 */
import type { Document } from 'yaml';
import { isAlias, isCollection, isMap, isPair, isScalar } from './yaml-lazy';
import { fileLineOf, type LineIndex } from './lines';
import type { FmError, FmMap, FmValue } from './types';

/** Text a key or scalar stands for: the source for plain scalars, the unquoted value otherwise. */
export function scalarText(node: unknown): string | null {
  if (!isScalar(node)) return null;
  if (node.value === null && (node.type === 'PLAIN' || node.type === undefined)) return null;
  return typeof node.source === 'string' ? node.source : String(node.value);
}

function startOf(node: unknown): number {
  if (isScalar(node) || isAlias(node) || isCollection(node)) return node.range?.[0] ?? 0;
  return 0;
}

/** Anchors, aliases, tags and duplicate keys anywhere in the tree. */
export function findNodeErrors(doc: Document.Parsed, index: LineIndex): FmError[] {
  const errors: FmError[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined) continue;
    if (isPair(node)) {
      stack.push(node.value, node.key);
      continue;
    }
    const line = fileLineOf(index, startOf(node));
    if (isAlias(node)) {
      errors.push({ code: 'yaml-alias', message: 'YAML aliases are not allowed', line });
      continue;
    }
    if (!isScalar(node) && !isCollection(node)) continue;
    if (node.anchor) errors.push({ code: 'yaml-anchor', message: 'YAML anchors are not allowed', line });
    if (node.tag) errors.push({ code: 'yaml-tag', message: 'YAML tags are not allowed', line });
    if (!isCollection(node)) continue;
    const seen = new Set<string>();
    for (const item of node.items) {
      stack.push(item);
      if (!isMap(node) || !isPair(item)) continue;
      const key = scalarText(item.key) ?? (isScalar(item.key) ? '' : null);
      if (key === null) continue;
      if (seen.has(key)) {
        const line = fileLineOf(index, startOf(item.key));
        errors.push({ code: 'duplicate-key', message: `duplicate key: ${displayKey(key)}`, line });
      }
      seen.add(key);
    }
  }
  return errors.sort((a, b) => a.line - b.line);
}

/**
 * A key as it may be shown in a finding. Keys are user text and could carry a
 * token: short lowercase keys (every real key) are shown, anything else is
 * described by its length only, because findings reach logs and the audit trail.
 */
export function displayKey(key: string): string {
  return /^[a-z0-9_-]{1,20}$/.test(key) ? key : `(a key of ${[...key].length} characters)`;
}

/** Plain data for an unknown key's value; maps get a null prototype so `__proto__` is inert. */
export function toFmValue(root: unknown): FmValue {
  if (!isCollection(root)) return scalarText(root);
  const out: FmValue[] | FmMap = isMap(root) ? (Object.create(null) as FmMap) : [];
  const work: Array<{ node: unknown; into: FmValue[] | FmMap }> = [{ node: root, into: out }];
  while (work.length > 0) {
    const { node, into } = work.pop() ?? { node: null, into: out };
    if (!isCollection(node)) continue;
    for (const item of node.items) {
      const value: unknown = isPair(item) ? item.value : item;
      const child: FmValue = isCollection(value)
        ? isMap(value)
          ? (Object.create(null) as FmMap)
          : []
        : scalarText(value);
      if (Array.isArray(into)) into.push(child);
      else if (isPair(item)) into[scalarText(item.key) ?? ''] = child;
      if (child !== null && typeof child === 'object') work.push({ node: value, into: child });
    }
  }
  return out;
}
