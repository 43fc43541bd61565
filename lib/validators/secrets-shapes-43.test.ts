/**
 * Forms of context and value shape taught by the 43 tune folders of the real-folder evaluation
 * (docs/credentials.md §2; bench/real-credentials/README.md), each written here in made-up words
 * and values: found where the context and the shape agree, left alone where the value is a
 * name, an id, a path, a time or a format. The corpus (corpus/snippets.ts) holds the same shapes.
 */
import { describe, expect, it } from 'vitest';
import { secretCheck } from './secrets';
import { maskSpans } from './mask-inline';

const owner = { emails: ['owner@example.org'], homeUser: 'owner' };
const credentialCodes = (text: string) =>
  secretCheck(Buffer.from(text), owner)
    .findings.filter((f) => f.class === 'credential')
    .map((f) => f.code);
const values = (text: string) => maskSpans(text, owner).map((s) => text.slice(s.start, s.end));
const b64url = (s: string) => Buffer.from(s).toString('base64url');

const PAIRING_BLOB = b64url('{"url":"ws://hub.example.net:8080","pairToken":"Qm7-dT2xVb9LkW4pZs8NcR1y"}');
const CONFIG_BLOB = b64url('{"url":"ws://hub.example.net:8080","theme":"dark","lang":"en-GB"}');

const FOUND: Array<[string, string, string]> = [
  ['a setup code that embeds its token (base64 JSON)', `Setup Code: ${PAIRING_BLOB}`, PAIRING_BLOB],
  ['consumer key after its label', 'OAuth consumer key: ck_Qz81vLmT20xaPw', 'ck_Qz81vLmT20xaPw'],
  [
    'a key word in the clause, the value in parentheses',
    'Set the consumer key (`ck_R7tYw2pLq9ZxK4mB3n`) in settings.json',
    'ck_R7tYw2pLq9ZxK4mB3n',
  ],
  [
    'a session cookie with a key shape',
    '`sid` cookie: `Zx81QmTr55vLpW02nBk7Hs9aYc3dFe6gJ4uQ`',
    'Zx81QmTr55vLpW02nBk7Hs9aYc3dFe6gJ4uQ',
  ],
  [
    'an app password of sixteen generated letters',
    'Mail app password: qwvbtrplxkzmdnse (for the relay)',
    'qwvbtrplxkzmdnse',
  ],
  [
    'words set as the value of a token variable in a command',
    'RELAY_TOKEN=swap-me-later node relay.js',
    'swap-me-later',
  ],
  ['old → new after a key label', 'consumer key fixed: ck_→ck_Pa93mZxQ71vLwT (right prefix)', 'ck_Pa93mZxQ71vLwT'],
  ['`pass` and one word, then the value (Vietnamese)', '- Tài khoản kho: pass chung `kho2025abc`', 'kho2025abc'],
  ['`pass` as a noun with an adjective', 'wifi pass mới `cafe8899x`', 'cafe8899x'],
];

const NOT_FOUND: Array<[string, string]> = [
  ['a model with its version after a key word (zh)', '如果新密钥只支持 `demo-vision-3.1-lite`，需要改成：'],
  ['a model with its version after "API key"', '- Confirmed: the API key can call `chat-4.2-mini`'],
  ['a provider/model pair with a version', 'Session shows: **relay-portal/RelayMax-R3.5** (default endpoint)'],
  ['a host before the slash: a URL', '- `oembed.example.org/embed?url=` returns titles after login'],
  ['a time range after a login word', '## Sync 4: export test + after-login (18:05-18:40 UTC)'],
  ['two numbered siblings after a login word', 'from the captured login (tester1/tester2 sets)'],
  [
    '`Key` as an adjective in a heading',
    '## Key packets (client side)\n\nMove: `K2S_WalkPathStep`, `K2S_TurnAroundNow`',
  ],
  ['`key` in a compound of a heading', '### Session key generator\n\n- Output: string "C7A1E2F9-4B3D6E8A-91F0C2D5"'],
  [
    'a storage path of ids on a key line',
    '- storage key used: `project/pr_Ab12Cd34Ef/file_upload_session/fus_Zy98Xw76Vu/report`',
  ],
  ['an access key id in hex', '- R2 Access Key: `5d0c9e1f2a3b4c5d6e7f8091a2b3c4d5`'],
  ['an auth config id', '- Connected account: `ca_Pq72mZx9Lk`, auth config: `ac_Tm3kq9XwPz2L`'],
  ['the fields of a format', '- Paste proxies (format `ip:port:user:pass:HTTP2`, `:HTTP2` optional)'],
  ['a setting with a flag value', '- Session cookie set successfully (`app_auth=ok`)'],
  ['a setting with a flag value after `Auth`', '- Auth cookie set successfully (`app_auth=ok`)'],
  ['the account a key is connected as', '- Image API key connected: studioowner77 account'],
  ['a base64 JSON with no credential field', `Setup Code: ${CONFIG_BLOB}`],
  ['words naming a variable', 'RELAY_TOKEN=relay_bot_token node relay.js'],
  [
    'a code span closed after a quoted password word: the next span is not its value',
    '- the field is `auth.type = "password"` (commit `a1b2c3d4`)',
  ],
  ['a key word with a CSS class quoted', '- Key fix: the text is in `card-body__text--clamp-after-5` div'],
];

describe('forms of the 43 tune folders: found', () => {
  it.each(FOUND)('%s', (_form, text, value) => {
    expect(values(text)).toContain(value);
  });
});

describe('forms of the 43 tune folders: names, ids and formats left alone', () => {
  it.each(NOT_FOUND)('%s', (_form, text) => {
    expect(credentialCodes(text)).toEqual([]);
  });
});
