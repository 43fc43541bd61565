/**
 * Personal data that depends on who the owner is (docs/validators.md): e-mail
 * addresses and home paths of other people.
 *
 * E-mails are found by hand from each `@` rather than by one regex: a pattern
 * like `[\w.]+@…` re-scans a long run of word characters from every start and
 * goes quadratic on a 1 MiB line. Growing left and right from `@` stops at the
 * next `@` either way, so every character is visited at most twice.
 */
import { maskEmail, maskHomePath, type HomeStyle } from './mask';
import { isOwnerEmail, isOwnerHomeUser } from './owner';
import { isAllowedHomeUser } from './allow';
import type { SecretCandidate } from './secrets-patterns';
import type { OwnerIdentity } from './types';
import { execNear } from './scan-text';
import { asciiSet, includesAfter } from './text-chars';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOCAL_CHARS = asciiSet(`${ALNUM}._%+-`);
const DOMAIN_CHARS = asciiSet(`${ALNUM}.-`);
/**
 * `/[A-Za-z0-9._%+-]/.test(text.charAt(i))` and `/[A-Za-z0-9.-]/…` on the char code: both
 * classes are ASCII, and one UTF-16 unit is in one exactly when its code is.
 */
const isLocalChar = (c: number) => c < 128 && LOCAL_CHARS[c] === 1;
const isDomainChar = (c: number) => c < 128 && DOMAIN_CHARS[c] === 1;

/** Asset names such as `icon@2x.png` or `logo@dark.svg` look like addresses but end in a file type, not a TLD. */
const ASSET_EXTENSION = /\.(?:png|jpe?g|gif|svg|webp|avif|ico|bmp|tiff?)$/i;
const SCALE_SUFFIX = /^\d+(?:\.\d+)?x\./i;
/** systemd instance units (`zfs-import@pool.service`, `getty@tty1.service`) end in a unit type, not a TLD. */
/** `pi@nas.lan`, `admin@router.local`: a login on a LAN host, not a mailbox (no such public TLD). */
const LAN_DOMAIN = /\.(?:lan|local|localdomain|internal|home\.arpa|intranet)$/i;
const SYSTEMD_UNIT = /\.(?:service|socket|timer|target|mount|automount|path|slice|scope|device|swap)$/i;

function isDomain(domain: string): boolean {
  const labels = domain.split('.');
  const tld = labels[labels.length - 1] ?? '';
  return (
    labels.length >= 2 &&
    labels.every((l) => /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(l)) &&
    /^[A-Za-z]{2,24}$/.test(tld)
  );
}

/**
 * `scheme://user@host` is URL userinfo, not an address: credentials in URLs are
 * the URL detector's business (and a bare user name is no credential). The
 * scheme may start only at the start of a run, which keeps this one linear pass.
 */
const URL_AUTHORITY = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s/?#]*/g;

function authorityRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  // `://` starts at most 31 characters after a match's start (a letter and 30 more).
  for (
    let m = execNear(URL_AUTHORITY, text, 0, '://', 31);
    m !== null;
    m = execNear(URL_AUTHORITY, text, m.index + m[0].length, '://', 31)
  ) {
    ranges.push([m.index, m.index + m[0].length]);
  }
  return ranges;
}

export function emailCandidates(text: string, owner: OwnerIdentity): SecretCandidate[] {
  const out: SecretCandidate[] = [];
  if (!text.includes('@')) return out;
  const authorities = authorityRanges(text);
  let a = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    // Both lists are in text order, so one pointer walks the URL ranges.
    while (a < authorities.length && (authorities[a]?.[1] ?? 0) <= at) a++;
    if ((authorities[a]?.[0] ?? Infinity) <= at) continue;
    let start = at;
    while (start > 0 && isLocalChar(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && isDomainChar(text.charCodeAt(end))) end++;
    // Sentence punctuation around an address is not part of it: `(…john@x.org.)`.
    while (start < at && text.charCodeAt(start) === 46 /* . */) start++;
    while (end > at + 1 && (text.charCodeAt(end - 1) === 46 /* . */ || text.charCodeAt(end - 1) === 45) /* - */) end--;
    const local = text.slice(start, at);
    const domain = text.slice(at + 1, end);
    if (local === '' || local.endsWith('.') || !isDomain(domain)) continue;
    // `git@github.com:org/repo` is an SSH remote: `git` is a service account, not a person.
    if (local.toLowerCase() === 'git') continue;
    if (
      ASSET_EXTENSION.test(domain) ||
      SCALE_SUFFIX.test(domain) ||
      SYSTEMD_UNIT.test(domain) ||
      LAN_DOMAIN.test(domain)
    )
      continue;
    const email = `${local}@${domain}`;
    if (isOwnerEmail(email, owner)) continue;
    out.push({ start, end, code: 'secret.email', message: `e-mail address ${maskEmail(email)}`, tier: 3 });
  }
  return out;
}

/**
 * Folder names that are not a person: documentation placeholders and shared
 * system folders. Reporting `/home/user/` from a how-to would only teach the
 * owner to ignore the check.
 */
const NOT_A_PERSON = new Set([
  'user',
  'username',
  'yourname',
  'your-name',
  'your_name',
  'you',
  'me',
  'name',
  'someone',
  'example',
  'shared',
  'public',
  'default',
  'default user',
  'all users',
  'linuxbrew',
]);

const UNIX_HOME = /(?<![\w.~-])\/(Users|home)\//g;
const WINDOWS_HOME = /(?<![A-Za-z])[A-Za-z]:\\{1,2}Users\\{1,2}/gi;
const NAME_RUN = /^[A-Za-z0-9._-]+/;
/** Windows names may hold spaces, so a name ends at the next backslash (within a sane length). */
const WINDOWS_NAME = /^([^\\/:*?"<>|\r\n]{1,64}?)\\/;

function homeName(rest: string, windows: boolean): string | null {
  const spaced = windows ? WINDOWS_NAME.exec(rest)?.[1]?.trim() : undefined;
  const name = (spaced ?? NAME_RUN.exec(rest)?.[0] ?? '').replace(/\.+$/, '');
  if (name === '' || name.startsWith('.') || NOT_A_PERSON.has(name.toLowerCase())) return null;
  return name;
}

const unixStyle = (m: RegExpExecArray): HomeStyle => (m[1] === 'Users' ? 'macos' : 'linux');
const windowsStyle = (): HomeStyle => 'windows';

export function homePathCandidates(text: string, owner: OwnerIdentity): SecretCandidate[] {
  const out: SecretCandidate[] = [];
  // Every UNIX_HOME match holds `/Users/` or `/home/` as written (that regex is
  // case-sensitive), and every WINDOWS_HOME match holds a backslash. Most files hold
  // neither: a native substring search costs less than a regex pass with a look-behind
  // (the part after the slash searched, the slash tested before it: includesAfter).
  if (includesAfter(text, 0x2f, 'Users/') || includesAfter(text, 0x2f, 'home/'))
    scanHomes(text, owner, out, UNIX_HOME, unixStyle);
  if (text.includes('\\')) scanHomes(text, owner, out, WINDOWS_HOME, windowsStyle);
  return out;
}

/**
 * A module-level function, not a closure made per file
 * (docs/performance-validators.md, "Both scanners: fast paths").
 */
function scanHomes(
  text: string,
  owner: OwnerIdentity,
  out: SecretCandidate[],
  re: RegExp,
  styleOf: (m: RegExpExecArray) => HomeStyle,
): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const after = m.index + m[0].length;
    const style = styleOf(m);
    // 66 covers the longest Windows name plus its separator; the rest of the line never matters.
    const name = homeName(text.slice(after, after + 66), style === 'windows');
    if (name === null || isOwnerHomeUser(name, owner) || isAllowedHomeUser(name, owner)) continue;
    out.push({
      start: m.index,
      end: after + name.length,
      code: 'secret.home-path',
      message: `home path of another user ${maskHomePath(style)}`,
      tier: 3,
    });
  }
}
