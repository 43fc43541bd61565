/** Without an index, "already applied?" is read from the audit files (docs/install.md, "Hooks without the index"). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendAudit } from '../audit/audit-log';
import { auditHasOp } from './index-optional';
import type { AuditEvent } from '../../audit/event';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'memtrust-auditop-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const event = (id: string, reason: string | null): AuditEvent => ({
  v: 1,
  id,
  at: '2026-11-22T12:00:00Z',
  machine: 'laptop',
  actor: 'assistant',
  action: 'create',
  memory: 'feedback_x.md',
  from: null,
  to: 'inferred',
  reason,
  findings: [],
  before_sha256: null,
  after_sha256: null,
  recovered: false,
  batch: id,
});

describe('auditHasOp', () => {
  it("finds an event's own id in any machine's file; an id quoted inside a reason does not count", () => {
    expect(auditHasOp(root, 'hook-toolu_1')).toBe(false);
    appendAudit(root, 'laptop', event('op-a', 'mentions "id":"hook-toolu_1" in its text'));
    expect(auditHasOp(root, 'hook-toolu_1')).toBe(false);
    appendAudit(root, 'desktop', event('hook-toolu_1', null));
    expect(auditHasOp(root, 'hook-toolu_1')).toBe(true);
    expect(auditHasOp(root, 'hook-toolu')).toBe(false);
  });
});
