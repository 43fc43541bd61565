import { describe, expect, it } from 'vitest';
import { isOwnerEmail, isOwnerHomeUser, ownerFromEnv } from './owner';
import type { OwnerIdentity } from './types';

const FALLBACK: OwnerIdentity = { emails: ['git@me.example'], githubHandle: 'fromgit', homeUser: 'osuser' };

describe('ownerFromEnv', () => {
  it('uses the fallback when nothing is set', () => {
    expect(ownerFromEnv({}, FALLBACK)).toEqual(FALLBACK);
  });

  it('overrides field by field', () => {
    expect(ownerFromEnv({ OWNER_EMAILS: ' a@x.example  b@y.example ' }, FALLBACK)).toEqual({
      emails: ['a@x.example', 'b@y.example'],
      githubHandle: 'fromgit',
      homeUser: 'osuser',
    });
    expect(ownerFromEnv({ OWNER_GITHUB_HANDLE: 'octo', OWNER_HOME_USER: 'me' }, FALLBACK)).toEqual({
      emails: ['git@me.example'],
      githubHandle: 'octo',
      homeUser: 'me',
    });
  });

  it('treats a blank variable as not set', () => {
    expect(ownerFromEnv({ OWNER_EMAILS: '  ', OWNER_HOME_USER: '' }, FALLBACK)).toEqual(FALLBACK);
  });

  it('leaves absent optional fields absent', () => {
    expect(ownerFromEnv({}, { emails: [] })).toEqual({ emails: [] });
  });

  it('does not share the fallback array', () => {
    const owner = ownerFromEnv({}, FALLBACK);
    owner.emails.push('x@y.example');
    expect(FALLBACK.emails).toEqual(['git@me.example']);
  });
});

describe('isOwnerEmail', () => {
  const owner: OwnerIdentity = { emails: ['Me@Example.org'], githubHandle: 'Octo' };

  it.each([
    ['me@example.org', true],
    ['ME@EXAMPLE.ORG', true],
    ['me@example.org.evil', false],
    ['xme@example.org', false],
    ['octo@users.noreply.github.com', true],
    ['123+OCTO@users.noreply.github.com', true],
    ['123+octo2@users.noreply.github.com', false],
    ['abc+octo@users.noreply.github.com', false],
    ['+octo@users.noreply.github.com', false],
    ['octo@noreply.github.com', false],
    ['other@users.noreply.github.com', false],
  ])('%s → %s', (email, mine) => {
    expect(isOwnerEmail(email, owner)).toBe(mine);
  });

  it('has no no-reply exception without a handle', () => {
    expect(isOwnerEmail('octo@users.noreply.github.com', { emails: [] })).toBe(false);
  });
});

describe('isOwnerHomeUser', () => {
  it('matches case-insensitively and only when known', () => {
    expect(isOwnerHomeUser('Owner', { emails: [], homeUser: 'owner' })).toBe(true);
    expect(isOwnerHomeUser('owner2', { emails: [], homeUser: 'owner' })).toBe(false);
    expect(isOwnerHomeUser('owner', { emails: [] })).toBe(false);
  });
});
