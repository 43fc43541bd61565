/**
 * Credentials in prose (docs/credentials.md): each form found, each look-alike left
 * alone, values masked in every message. Values are made up.
 */
import { BOUNDED_MS } from '../core/bounded-time';
import { describe, expect, it } from 'vitest';
import { secretCheck } from './secrets';
import { maskSpans, maskValues } from './mask-inline';

const owner = { emails: ['owner@example.org'], homeUser: 'owner' };
const check = (text: string) => secretCheck(Buffer.from(text), owner);
/** The values the check would mask, in order. */
const values = (text: string) => maskSpans(text, owner).map((s) => text.slice(s.start, s.end));

const FOUND: Array<[string, string, string, string]> = [
  // [form, text, value, code]
  ['label colon', 'password: hunter22!', 'hunter22!', 'secret.password'],
  [
    'value given, vault mentioned',
    'The NAS admin password is `Shelf-fake-7qK` until we move it to the vault.',
    'Shelf-fake-7qK',
    'secret.password',
  ],
  ['label equals', 'passphrase = corn-field-88', 'corn-field-88', 'secret.password'],
  ['label in quotes', 'the admin password is `H0me-Lab!x`', 'H0me-Lab!x', 'secret.password'],
  ['pw in backticks', 'NAS pw `Xk9!mq2z`', 'Xk9!mq2z', 'secret.password'],
  ['pw unquoted', 'pw nasPW-2024', 'nasPW-2024', 'secret.password'],
  ['client secret', 'client_secret: q8Fz2kLp99aa', 'q8Fz2kLp99aa', 'secret.password'],
  ['api key spelled API-Key', 'API-Key = demo-KEY-5566', 'demo-KEY-5566', 'secret.password'],
  ['apikey in JSON', '{"apiKey": "live_77aa88bb"}', 'live_77aa88bb', 'secret.password'],
  ['access key', 'access key: ACCK9917demo', 'ACCK9917demo', 'secret.password'],
  ['token', 'token: tkn_7c1d2e3f4a5b', 'tkn_7c1d2e3f4a5b', 'secret.password'],
  ['auth', 'mqtt auth: mq77-hass', 'mq77-hass', 'secret.password'],
  ['SNMP community', 'SNMP community: monit0r-ro', 'monit0r-ro', 'secret.password'],
  ['emphasis around the label', '**Password:** BlueFish#2024', 'BlueFish#2024', 'secret.password'],
  ['qualifier before the colon', 'mot de passe root : `R00t-fr-99`', 'R00t-fr-99', 'secret.password'],
  ['env DB_PASSWORD', 'DB_PASSWORD=Dbpass-2025x', 'Dbpass-2025x', 'secret.env-credential'],
  ['env SSHPASS', 'SSHPASS=Tr0ub4dor3 sshpass -e ssh pi@nas.lan', 'Tr0ub4dor3', 'secret.env-credential'],
  ['env PGPASSWORD', 'PGPASSWORD=pgS3cret88 psql -h db', 'pgS3cret88', 'secret.env-credential'],
  ['env quoted', 'SMTP_PASS="mail-pass-2024"', 'mail-pass-2024', 'secret.env-credential'],
  ['login pair in backticks', 'Login `demo`/`demo123`', 'demo123', 'secret.login-pair'],
  ['login pair glued', 'Credentials: `ops:0ps-team-77`', '0ps-team-77', 'secret.login-pair'],
  ['login pair plain', 'creds: admin / Adm1n!pass', 'Adm1n!pass', 'secret.login-pair'],
  ['pair after a host', 'nas.lan `admin/Nas-Adm1n`', 'Nas-Adm1n', 'secret.login-pair'],
  ['pair after root', 'ssh root `root:toor1234`', 'toor1234', 'secret.login-pair'],
  ['sshpass -p', "sshpass -p 'ZxCv1234' ssh root@host", 'ZxCv1234', 'secret.command-line'],
  ['mysql -p', 'mysql -u root -pS3cretPW shop', 'S3cretPW', 'secret.command-line'],
  ['--password X', 'docker login -u me --password dckr-7788', 'dckr-7788', 'secret.command-line'],
  ['--db-password=X', 'tool --db-password=dbpw-6677 migrate', 'dbpw-6677', 'secret.command-line'],
  ['--cipassword X', './deploy --cipassword Hunter2Hunter2', 'Hunter2Hunter2', 'secret.command-line'],
  ['curl -u', 'curl -u admin:Pa55word99 https://x', 'Pa55word99', 'secret.command-line'],
  ['htpasswd -b', 'htpasswd -b .htpasswd alice Al1ceSecret', 'Al1ceSecret', 'secret.command-line'],
  ['sudo -S', "echo 'Sup3rS3cret' | sudo -S apt update", 'Sup3rS3cret', 'secret.command-line'],
  ['chpasswd', "echo 'bob:B0bSecret!' | chpasswd", 'B0bSecret!', 'secret.command-line'],
  ['Korean 비번', '비번 qwer1234!', 'qwer1234!', 'secret.password'],
  ['Korean 비밀번호 with particle', 'NAS 비밀번호는 nas2024!! 입니다', 'nas2024!!', 'secret.password'],
  ['Chinese 密码', '密码：abc12345', 'abc12345', 'secret.password'],
  ['Japanese パスワード', 'パスワードは xyz98765 です', 'xyz98765', 'secret.password'],
  ['Spanish contraseña', 'contraseña: Clave2024!', 'Clave2024!', 'secret.password'],
  ['French mot de passe', 'Le mot de passe est « nas-fr-2024 »', 'nas-fr-2024', 'secret.password'],
  ['German Passwort', 'Passwort: Geheim123!', 'Geheim123!', 'secret.password'],
  ['Portuguese senha', 'senha: minhaSenha9', 'minhaSenha9', 'secret.password'],
  ['Russian пароль', 'пароль: qwerty123', 'qwerty123', 'secret.password'],
  ['reset to', 'Password reset to Welcome2024! today', 'Welcome2024!', 'secret.password'],
  ['changed to', 'root password changed to `R00t-new-1`', 'R00t-new-1', 'secret.password'],
  ['connection string', 'Server=db;User Id=app;Password=App-Db-2024;', 'App-Db-2024', 'secret.password'],
  ['Pwd in connection string', 'Data Source=sql01;Pwd=Crm$ql-77;', 'Crm$ql-77', 'secret.password'],
  [
    'bare hex key under a heading',
    '## API key\n\n0123456789abcdef0123456789abcdef',
    '0123456789abcdef0123456789abcdef',
    'secret.bare-key',
  ],
  [
    'bare key on a line naming one',
    'webhook signing key aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z',
    'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z',
    'secret.bare-key',
  ],
  [
    'WireGuard private key',
    'PrivateKey = aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9=',
    'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9=',
    'secret.bare-key',
  ], // Context and shape (docs/credentials.md §2): a value no label is tied to.
  ['password word several words before', 'passwords: users still on `Spring-2025x`', 'Spring-2025x', 'secret.password'],
  ['reset with a date between', 'pw reset 2026-05-30 to `Nq7-reset-44`', 'Nq7-reset-44', 'secret.password'],
  ['password in parentheses', 'cPanel password (`cp-Host-881`) for the shop', 'cp-Host-881', 'secret.password'],
  ['value alone under a heading', '### DB 비밀번호\n\n`kr-db-Pass77`', 'kr-db-Pass77', 'secret.password'],
  ['value on the line after a label line', 'Router password:\n`Rt-Label-Ln7`', 'Rt-Label-Ln7', 'secret.password'],
  ['pair in emphasis', 'Proxmox: **root / `Pve-root-33`**', 'Pve-root-33', 'secret.login-pair'],
  ['pair after a realm', 'web UI `root@pam` / `Pam-Realm-88`', 'Pam-Realm-88', 'secret.login-pair'],
  ['account, password, e-mail', 'Account: jdoe / Jd-acct-551 / staff', 'Jd-acct-551', 'secret.login-pair'],
  ['log in (user / pw)', 'log in (tester / Tst-login-29) and open settings', 'Tst-login-29', 'secret.login-pair'],
  [
    'pair on an index line',
    '[Demo shop](project_demo.md) — demo account demo/dmo-Shop-71, resets',
    'dmo-Shop-71',
    'secret.login-pair',
  ],
  [
    'application password',
    'WP app password: Ab3d Ef9h Ij2l Mn7p Qr4t Uv6x',
    'Ab3d Ef9h Ij2l Mn7p Qr4t Uv6x',
    'secret.password',
  ],
  [
    'unquoted Bearer',
    'Authorization: Bearer aB3dE5fG7hJ9kL1mN3pQ5rS7t',
    'aB3dE5fG7hJ9kL1mN3pQ5rS7t',
    'secret.password',
  ],
  ['short shell name AK', 'AK="LTdemo7hJ9kL1mN3pQ5rS7t"', 'LTdemo7hJ9kL1mN3pQ5rS7t', 'secret.env-credential'],
  [
    'short shell name SK',
    "export SK='q7Lm2Np8Rt5Vw1Xz9Kb3Hc6Jd'",
    'q7Lm2Np8Rt5Vw1Xz9Kb3Hc6Jd',
    'secret.env-credential',
  ],
  ['Vietnamese pass chung', 'wifi quán: pass chung `CafeWifi-2026`', 'CafeWifi-2026', 'secret.password'],
  ['Vietnamese mật khẩu', 'Tài khoản admin, mật khẩu `Vn-Admin-662`', 'Vn-Admin-662', 'secret.password'],
  [
    'SNMP community on snmpwalk',
    '`snmpwalk -v2c -c m0n-Comm-41 192.0.2.1 system`',
    'm0n-Comm-41',
    'secret.command-line',
  ],
  ['SNMP community on a switch', 'snmp-server community Sw-Rw-2291 RW', 'Sw-Rw-2291', 'secret.command-line'],
  [
    'service=host/user/password in a paragraph',
    'Mail goes through the relay and FTP=ftp.example.net/deploy/Ftp-Dpl-66 is what the build uses.',
    'Ftp-Dpl-66',
    'secret.login-pair',
  ],
  // The shapes the 26 tuning folders taught (docs/credentials.md §2); values made up.
  [
    'the old value in parentheses',
    '- **Пароль изменён** 2026-01-02 (был: q7Old-Pw-2025)',
    'q7Old-Pw-2025',
    'secret.password',
  ],
  ['an example in parentheses', 'try a simple password (e.g., `Sample99x`) first', 'Sample99x', 'secret.password'],
  ['a PIN after its word', 'staff login PIN `730519`', '730519', 'secret.password'],
  ['a pairing code', '- **Pairing code:** `640217` (front desk)', '640217', 'secret.password'],
  [
    'PINs in the list under a label line',
    '- **PIN scheme (in `staff_credentials`):**\n  - Owner: `910002`',
    '910002',
    'secret.password',
  ],
  [
    'the default of an environment lookup',
    '"password": os.environ.get("SHOP_DB_PASSWORD", "Shop-Dflt-42x"),',
    'Shop-Dflt-42x',
    'secret.env-credential',
  ],
  [
    'random letters near a password word',
    'IMAP via app password (`qwzkrtpmbvhnxdle`)',
    'qwzkrtpmbvhnxdle',
    'secret.password',
  ],
  [
    'an SNMP community name in a community table',
    'configure snmpv3 add community "ro_idx" name mesa-Ro-2291 user v1',
    'mesa-Ro-2291',
    'secret.command-line',
  ],
  [
    'an SNMP community in parentheses',
    '- SNMP communities: read_only (vale-Ro-3381)',
    'vale-Ro-3381',
    'secret.command-line',
  ],
  [
    'a row whose later cell says password',
    '| VPS Secret Key | `HOST7_DEMO_2099` | SSH password (old) |',
    'HOST7_DEMO_2099',
    'secret.table-credential',
  ],
  [
    'a bot token by its form',
    '- Telegram bot: 1234567890:AAExampleExampleExampleExample12345',
    '1234567890:AAExampleExampleExampleExample12345',
    'secret.provider-token',
  ],
  // Found from the 80 tune folders (r63–r80 joined them; docs/credentials.md §2), values made up.
  [
    "a bot token in its API's URL",
    'curl -s "https://api.telegram.example/bot1234567890:AAExampleExampleExampleExample12345/getUpdates"',
    '1234567890:AAExampleExampleExampleExample12345',
    'secret.provider-token',
  ],
  [
    'an sk- key with a short kind, glued to a CJK word',
    '换成直连的模型，密钥sk-cp-q7Rm2Xz_4Lk9Wb3Nt8Vc1Hy6Pd5Sf0Gj2Ka',
    'sk-cp-q7Rm2Xz_4Lk9Wb3Nt8Vc1Hy6Pd5Sf0Gj2Ka',
    'secret.api-key',
  ],
  [
    'an app id and its secret after a Chinese credentials word',
    '- 获取 App 凭据：cli_a1b2c3d4e5f60718 / Qm7TvbWE1ajPnRs84XqdS8JuLmbK3x',
    'Qm7TvbWE1ajPnRs84XqdS8JuLmbK3x',
    'secret.login-pair',
  ],
  [
    'an administrator pair in full-width parentheses',
    '- **ttyd**: systemd 8082端口（admin/ttyd2031）',
    'ttyd2031',
    'secret.login-pair',
  ],
  [
    'a Slack incoming webhook, with or without its host',
    '- Webhook: T0DEMO1234/B0DEMO5678/aB3dE5fG7hJ9kL1mN3pQ5rS7',
    'T0DEMO1234/B0DEMO5678/aB3dE5fG7hJ9kL1mN3pQ5rS7',
    'secret.provider-token',
  ],
];

const TABLE =
  '| host | user | password |\n|---|---|---|\n| nas.lan | admin | `S3cure!pass` |\n| pi.lan | pi | R4spberry!x |';

const CLEAN: Array<[string, string]> = [
  ['placeholder <…>', 'password: <your-password>'],
  ['placeholder {…}', 'password: {{ vault_nas_password }}'],
  ['placeholder ${…}', 'DB_PASSWORD=${DB_PASSWORD}'],
  ['placeholder $VAR', 'export GH_TOKEN=$GH_TOKEN'],
  ['placeholder %VAR%', 'API_KEY=%API_KEY%'],
  ['process.env', 'token = process.env.GH_TOKEN'],
  ['stars', 'password: ********'],
  ['xxx', 'api key: xxxxxxxxxxxx'],
  ['ellipsis', 'token: sk-...'],
  ['REDACTED', 'password: REDACTED'],
  ['your-password', 'password = your-password-here'],
  ['in 1Password', 'The NAS password is in 1Password (item NAS-admin-01).'],
  ['in the vault', 'the password is in the vault'],
  ['keychain', 'Token is in the keychain under gh-cli-2024.'],
  ['.env', 'API key lives in .env (never commit it)'],
  ['command substitution', 'SSHPASS=$(sudo grep nas_pw /root/.secrets)'],
  ['short value', 'password: abc12'],
  ['plain word', 'password: required'],
  ['prose about passwords', 'Reset your password from the settings page.'],
  ['numbers that are limits', 'max_tokens: 100000'],
  ['password file', 'password_file: /run/secrets/db_password'],
  ['pwd command', 'Use `pwd` to print the folder'],
  ['WireGuard public key', 'PublicKey = aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9='],
  ['ssh public key line', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIaB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9 me@laptop'],
  ['pubkey', 'pubkey: aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9+'],
  ['zone id', 'Cloudflare zone id: 0123456789abcdef0123456789abcdef'],
  ['account id', 'account_id = "0123456789abcdef0123456789abcdef"'],
  ['tenant id (UUID)', 'tenant id 123e4567-e89b-12d3-a456-426614174000'],
  ['UUID named an id', 'client_id: 123e4567-e89b-12d3-a456-426614174000'],
  ['git SHA after commit', 'key loader fixed in commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b'],
  ['verified-at SHA', 'verified-at: 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b'],
  ['/commit/ URL', 'token refresh: https://github.com/o/r/commit/3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b'],
  ['sha256: digest', 'key image digest sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'],
  ['integrity hash', '"integrity": "sha512-aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9aB3dE5fG7hJ9kL1mN3pQ5rS=="'],
  ['canonical-file slug key', 'key: some-entry-name-2026-06-23'],
  ['slug under a key heading', '## Keys\n\nkey: prefer_small_commits_over_big_ones_2026'],
  ['path value', 'token_path: /var/lib/app/token'],
  ['URL without credentials', 'auth: https://auth.example.test/login'],
  ['mysql -p prompt', 'mysql -u root -p shop'],
  ['password-stdin', 'docker login --password-stdin'],
  ['Korean vault', '비밀번호는 1Password에 있음'],
  ['typed node key', 'Tailscale node key nodekey:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'],
  // Engineering notes (docs/credentials.md, "Near, not tied"): keys from titles, files, flags, names.
  ['slug key with a short id', 'key: a-pipe-in-a-filename-breaks-the-gate-5c04'],
  ['slug key with versions and a short sha', 'key: parser-keeps-c0-c1-controls-drifted-at-b164ae7'],
  ['slug key with a product name', 'key: context7-outcome-not-tool-mandate'],
  ['lower-case path on a key line', 'key: docs/vision/baseline-v2-thought-compiler'],
  ['file name after a login', 'Login happens in `auth/session.mjs`: it reads `login.ts` first.'],
  ['file pair after user', 'user `docs/guide.md` / `README.md` are the entry points'],
  ['file name near token', 'secret rotation lives in `scripts/ops/rotate-keys.sh`'],
  ['sentence ends between label and quote', 'Fix: consume the token. Delete `.cache/state/consent_marker` after use.'],
  ['a word naming something else after the label', 'The refresh token path moved to `state/tokens/<user>.json`.'],
  ['pass is a verb', 'Do not pass `--skip-checks` or `IS_CI_9` to the script.'],
  ['flag near token', 'the token helper takes `--no-cache`'],
  ['time near token', 'approval token mtime `09:41:07.552` in the log'],
  ['code expression near token', 'require token and `approved===true`'],
  ['dotted name near auth', 'The auth helper reads `settings.auth.enabled` first.'],
  ['camel-case name near token', 'The token budget is tracked in `metrics.tokenBudget`.'],
  ['a name after "token is"', 'The session token is Write-only, so read it back.'],
  ['a key naming a file', 'design-tokens.json = colors18+palette5'],
  ['env names, one with a note', 'function secret: SIGNING_JWK(for sessions), ADMIN_API_KEY.'],
  ['words of another script after auth', 'Supabase project (Auth=이메일+비번)로 로그인'],
  ['a code span ends the value', 'the webview sets `autoRefreshToken:false`(once) before login'],
  ['quoted twice and short', 'wifi password `"4321"` for guests'],
  ['a shell default inside ${…}', '  - ADMIN_PASSWORD=${ADMIN_PASSWORD:-admin}'],
  ['a shell default in a compose line', 'GF_SECURITY_ADMIN_PASSWORD=${GRAFANA_PASSWORD:-changeit} in compose'],
  // Personal-assistant and homelab notes (docs/credentials.md, "Real stores", second pass).
  [
    'a wiki URL path on a key line',
    '- Draft: **Wiki:** https://team.example.org/wiki/spaces/OPS/pages/40213377; **Key:** a short summary',
  ],
  [
    'a file path on a key line',
    'Changed [SKILL.md](/srv/bot/.bot/workspace/skills/router-ax3000/SKILL.md:1) to need the router key',
  ],
  [
    'the product 1Password as a label',
    'The API key can come from 1Password cleanly via `tools.entries.backup.apiKey` now.',
  ],
  [
    'settings quoted as a pair after user',
    'User: runs the helper as `mode=strict` / `prompt=never` for the nightly job',
  ],
  [
    'a model name with a version after user',
    'User: prefers `acme-labs/chat-7.2` over `acme-labs/chat-7.2-mini` for drafts',
  ],
  ['a home path after user', 'Runtime | 24.1, runs as `helper` user, global prefix `~/.node-global` |'],
  ['a permission change after credentials', '- `credentials/` folder mode tightened: 755→700'],
  ['the shape of a key pair', 'The tool wants one `SERVICE_API_KEY=key:secret` variable, not two.'],
  ['the shape of a login near a secret', 'It takes an API secret, not a joined `id:secret`.'],
  ['a label inside a code span, then another span', 'Loading `BACKUP_API_SECRET` worked: `list jobs` returned three.'],
  ['a list of services after an auth label', 'The mail account has OAuth scopes: `calendar,contacts,drive,gmail`.'],
  [
    'secret names in a Secret column',
    '| Secret | Notes |\n|---|---|\n| `BUILD_HOOK_TOKEN` | shared with the site repo |\n| `CHAT_CHANNEL_ID` | this room |',
  ],
  [
    'a placeholder after --token',
    'then run `./register.sh --url https://ci.example.org --token NEW_TOKEN` as that user',
  ],
  [
    'a Chinese clause stop after a word',
    'config 加 `cache.backend` (沿用 mqtt 密码 reset)。tools/sync/runner.py 不用改。',
  ],
  [
    'a host name near a password word',
    'He asked how the sudo password works on `box.lab.example.net`: set it with passwd.',
  ], // Context and shape look-alikes (docs/credentials.md §2), each beside a positive above.
  ['a name after "password for"', 'reset the password for `Svc-Backup01` tomorrow'],
  ['a date after a password word', 'pw reset on `2026-05-30`'],
  ['a sentence ends before the quote', 'Password changed. See `Deploy-Notes-2` for the steps.'],
  [
    'names, files and dates under a Credentials heading',
    '## Credentials\n\n- owner: `ops-team`\n- file: `~/.config/app/creds.json`\n- rotated `2026-05-01`',
  ],
  ['prose on the line after a label line', 'Password:\n\nmust be 12+ characters with a digit'],
  ['versions and files joined by a slash', 'Release v2.3/v2.4 moved src/Button2.tsx'],
  ['group names after users', 'users / groups: `www-data` / `adm`'],
  ['two branches', 'merged `main` / `Feature-2` yesterday'],
  ['six words of four letters', 'WP app password note: keep them safe from bots here'],
  ['a variable after Bearer', 'use `Authorization: Bearer $API_TOKEN` from the env'],
  ['Bearer tokens in prose', 'Bearer tokens are refreshed every hour by `auth-refresh`'],
  ['a slug under a short key name', 'TASK_KEY=nightly-backup-job-2026'],
  ['a question instead of a password', 'wifi pass chung: hỏi chị Lan'],
  ['the default community', '`snmpwalk -v2c -c public 192.0.2.1 system`'],
  ['a repository, not a service', 'REPO=github.com/acme/Widget-2'],
  ['a file on an FTP host', 'FTP=ftp.example.net/pub/README.txt'],
  [
    'a document id on a credentials line',
    'Credentials sheet: https://docs.google.com/spreadsheets/d/1aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9/edit',
  ],
  ['an id named in parentheses', 'credentials doc (id 1aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9) is shared'],
  ['credential ids in a Credential column', '| Node | Credential |\n|---|---|\n| Gmail | `aB3dE5fG7hJ9kL1m` |'],
  ['a contract address', 'token contract 0x52908400098527886E0F7030069857D2E4169EE7 (ERC-20)'],
  ['a key cut short', 'key: `aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z…` (truncated)'],
  [
    'a bcrypt hash',
    'we store the bcrypt hash of the password: `$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy`',
  ],
  ['a placeholder in an export line', 'export BRAVE_API_KEY=<BRAVE_KEY>'],
  ['design tokens', 'design tokens: `brand-500`, `space-4x`, `radius-md2`'],
  ['token pacing', 'Token pacing: keep `max_rpm_60` for the batch job'],
  ['an approval-token filename', 'approval-token filename: `approve-2026-06-01.tok`'],
  ['a path to a token file', 'token file: `.secrets/gh-token-2.txt`'],
  ['a menu name', 'Datacenter → node → System → Reset Root Password → `Apply2`'],
  ['an ordinal pass', 'Pass 1: `dedupe_v2` over the rows'],
  ['a test result', 'Sanity PASS: `14of14` checks'],
  ['a date in parentheses after a password word', 'password changed (20260512) by ops'],
  ['an e-mail then a word after a slash', 'mail me at someone@example-mail.com / or call'],
  ['a setting after a password word, in another clause', 'password reset done. Then ?lang=en-us2 was set'],
  [
    'groups of four that are an IBAN',
    'Rent goes to IBAN DE44 5001 0517 5407 3249 31 every month (app password not needed)',
  ],
  ['a publishable key', 'Checkout page uses publishable key pk_live_51Demo0000publishableKeyShownOnCheckoutPage000'],
  ['an env name after a label', 'Mailer API key: see `.env.local` (`MAILER_API_KEY`)'],
  ['an amount of tokens', '- 每次运行大约 tokens: ~300K-2M'],
  ['a call after auth', 'Auth check: `loadSessionMember()` then `assertRole()`'],
  ['OAuth is no auth label', 'the OAuth client talks to store `shop-dev-7x2k9`'],
  ['two codes after account', 'lookup in the account gave (`NO_MATCH` / `UNKNOWN_ZONE`)'],
  ['column names after user', 'user table columns: `balance`, `total_spent`, `total_used`'],
  [
    'a contract address in parentheses',
    'Escrow contract (`0x52908400098527886E0F7030069857D2E4169EE7`) holds the deposits, token side',
  ],
  [
    'a project id',
    '- deploy ran for project `1DemoAppsScriptIdAbCdEfGhIjKlMnOpQrStUvWxYz012345` after the token refresh',
  ],
  // Look-alikes from the 26 tuning folders' shapes (docs/credentials.md §2), values made up.
  ['a file name in another script', 'в `АГЕНТЫ/` есть файл для ключа `07_РАЗРАБОТЧИК.md`'],
  ['a folder after a secrets word', '`.gitignore` (исключает `.cachedir/`, секреты)'],
  ['a Windows folder', 'The root repo clones at `c:\\temp\\Projects\\` are pull-only, login there'],
  ['a scope after a token word', '| token lacks scopes | `subagents:read` |'],
  ['a profile order after auth', '- **Auth order:** `vendor:default` before `vendor:manual`'],
  ['a variable name after a token word', 'читает токен из `settings.json` (ключ `"example_token"`)'],
  ['a flag after auth in a quoted prompt', 'planner plan --prompt "Fix auth" --files "bot/a.py"'],
  ['a test verdict', '→ integrity + compile → FAIL=rollback, PASS=auto-commit'],
  ['env names of tokens', 'BOT_TOKEN=telegram_bot_token\nCONFIG_BOT_TOKEN = "BOT_TOKEN"'],
  ['a private key placeholder', 'GOOGLE_PRIVATE_KEY=-----BEGIN PRIVATE KEY-----\\n...\\n-----END PRIVATE KEY-----'],
  ['a placeholder in another script', '"OPENAI_API_KEY": "sk-or-v1-твой-ключ",'],
  [
    'a publishable key in a key column',
    '| Project | Publishable Key |\n|---|---|\n| shop | `sb_publishable_4Vq9mp3Ayp_kvInH` |',
  ],
  ['a service id after auth', '### Service IDs\n- shop auth api: `516032ec-ad3b-4388-b152-0ccf16376e23`'],
  ['the account after auth', '- Hosting auth: support-9645 (token verified at ~/.config/host.json)'],
  ['a flow of steps', '| `ft-psk.pcapng` | Auth→Assoc→4-way→data→FT Auth |'],
  ['a standard amendment in a pair', 'User checked the WMM/802.11e default table'],
  ['two model codes', 'MAC binding = local DB + XR240M/XR360M only, login needed'],
  ['two list siblings after user', 'User pasted `panel_fx_22b-6g`, `panel_fx_22b-5g` panels'],
  ['a protocol after auth', '- Guest SSID: Open + User Auth. Auth = EAP-TLSv2 (not PSK)'],
  ['a message in quotes', 'Test button shows "Valid!" or an error on invalid credentials'],
  ['a document id after another label', '**Drive:** key at `sa.json`, Drive Root: `1TomB1LwDkGtiEEl2lFusvclYUUd9IFyn`'],
  ['a URL path on a token line', 'token expired: go to https://github.com/Demo2222/demo-workspace/settings to fix'],
  // Look-alikes from the 62 tune folders (docs/credentials.md §2), values made up.
  ['an asset id after a token label', '- Pool token: `POOLX-4e7a2c` (staking asset)'],
  ['text written in hex', '- Token hex: `504f4f4c582d346537613263`'],
  [
    'a bech32 address on a key line',
    '**Key finding:** the address `bc1qw4t8x2m9fz0l3hd7s5c6r8e2k4n9p0u7y3v6q` is native SegWit',
  ],
  ['a variable name after a password label', '- Keyring password: `APP_KEYRING_PASSWORD` in `.env`'],
  ['a variable set to a variable', '- **APP_API_SECRET = PUBLIC_API_KEY** (same on both sides)'],
  [
    'two words joined near a password word',
    'Portal accepted the username/password but rejected `demo_entity` as entity id.',
  ],
  ['a model name near a key word', '**B) Cloud API key** — `vector-embed-2-large`, cheap and simple'],
  ['a bot handle near a token word', 'The bot token for `@DemoHelper_bot` was pasted in chat and must be rotated.'],
  ['alternatives in a setting', 'auth by token/header/password, device auth on, `keyStrategy=issue|fixed|run`'],
  ['an address without its scheme', 'password kept in `.env`; app passwords at `myaccount.example.com/apppasswords`'],
  ['a key file name', '- Chave SSH `id_ed25519` (ops@lab) reconciled with the VPS'],
  ['a word after Bearer in CJK', '## Partner API Bearer Token（2026-03-16 团队提供）'],
  ['CJK words after a token label', '- 套餐 Token Plan：100张图/月额度，接口暂不可用'],
  ['alternatives after a password word', '- files do NOT decrypt (made before the password was set/changed)'],
  ['a key cut short before a CJK bracket', '- GitHub search works（Token：ghp_Ab3d...）'],
  // Look-alikes from unlabelled public folders read for false findings (docs/credentials.md §2), values made up.
  [
    'citation keys in a Key column',
    '| Key | Paper |\n|---|---|\n| `miller2024tokenizers` | Miller et al. |\n| `okafor2025alignment` | Okafor et al. |',
  ],
  [
    'a post id inside a link on a line naming a secret',
    '- Link: <https://forum.example.org/posts/Ab3dE5fG7hJ9kL2mN/the-secret-of-things-2>',
  ],
  ['a code identifier after auth', 'const api = google.drive({ version: "v3", auth: oauth2Client });'],
  ['two acronyms in a pair', 'Recent results: login flows for MCP/A2A-style agents are maturing'],
  ['a measurement after PASS', 'check_gate.py PASS: cosine_at_gate=0.9931, mean_off=0.2781'],
  ['a slot in a value', '**Required Secret:** `PUBLIC_APP_URL=https://[app-name].example.app`'],
  ['a regex after a password word', '✅ asks for a password (send.*password)'],
  ['code cut at a bracket', 'API_KEY = settings["api_key"]'],
  ['a metric label near a token word', 'agent_cost_token_total{job="v6-federal-reports"}'],
  ['a dummy URL password', "DATABASE_URL='postgresql://user:pass@localhost:5432/app' npm run build"],
  // Look-alikes from the 80 tune folders (r63–r80 joined them; docs/credentials.md §2), values made up.
  [
    "a token that the same note shows as a document's address",
    '- **app_token**: `Qm7TvbWE1ajPnRs84XqdS8JuLmb`\n- **URL**: https://docs.example.cn/base/Qm7TvbWE1ajPnRs84XqdS8JuLmb',
  ],
  [
    'a Google document id after a token word, with its link',
    '- **token**: `1Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe`\nhttps://docs.google.com/spreadsheets/d/1Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe/edit',
  ],
  ['a document token label', '- doc_token: Yr8EeRIqspdKCyxO2ltdXmvnoih'],
  ['a document token in camelCase', '- table config: docToken=Hc4LephCipRXSRy6mH5dqzRloVc, blockId=doxcn7'],
  ['a schema after a secret variable', '  JWT_SECRET: z.string().min(32),'],
  [
    'a placeholder in brackets as a URL password',
    '- remote: `https://someone:[REDACTED_TOKEN]@git.example.org/someone/repo.git`',
  ],
  ['a scope after a token word', '- New API token if Zone:DNS:edit is needed'],
  [
    'a run named a UUID in parentheses',
    '- Price JSON: Key ist `cb7d2554b0ce847cd82f3ac9bd1c0dfca` (currency UUID), nicht der Index',
  ],
  [
    "a JSON message body's text after a credentials page",
    '  "body": "https://console.example.com/apis/credentials?project=_\\n\\nThen enable the Places API"',
  ],
  ['an sk- name of words and numbers', 'see sk-api-pipeline-2024-notes-and-more-words'],
  ['an sk- key with a short kind, a placeholder', 'Format: sk-or-v1-your-key-goes-in-this-place-1, then restart'],
  ['a bot path with no token', 'curl https://api.telegram.example/bot1234567890/getMe'],
  ['a Chinese credentials word before a path', '- 凭据文件：config/app/secret.json'],
  ['a run named a UUID before it', '- Price JSON: the key is the Currency-UUID `cb7d2554b0ce847cd82f3ac9bd1c0dfca`'],
  [
    'an SSH public key on a line naming keys',
    '# Add the laptop\'s public key\nSet-Content -Path authorized_keys -Value "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIRTWbeKz/k18chvGkxjIPym+xwlbhWfINlkAYtFSUyOa ops@laptop"',
  ],
  // Ids, markup and code that sit where credentials do (the 117 tune folders, docs/credentials.md §2).
  [
    'a chat sender id that the record names an id',
    '"sender_id": "ou_5d1e0c9b8a7f6e5d4c3b2a1908f7e6d5",\n\nou_5d1e0c9b8a7f6e5d4c3b2a1908f7e6d5: please set up the search API key too',
  ],
  [
    'a value on a key variable that another variable names an id',
    'APP_CONFIG_KEY=7Xq2Lm9Pz4Rt8Vb3Nc6Hj1Fd5Gs0Za2Ye4Tu7Io9Pqa\nAPP_ACCOUNT_ID=7Xq2Lm9Pz4Rt8Vb3Nc6Hj1Fd5Gs0Za2Ye4Tu7Io9Pqa',
  ],
  [
    'an id at the end of a colon-joined session key, again on a line naming a token',
    '- **Session**: agent:main:chat:direct:Rk82mQz7Lp3Vt9Xw5Nb1Hc4JfT6yU0iO\n- token check passed for Rk82mQz7Lp3Vt9Xw5Nb1Hc4JfT6yU0iO today',
  ],
  [
    'a message id in another cell than the secret word',
    '| 09:05 | rotated the hub secret, agent restarted | thread msg_c4b9a1e07d3f5862b1a94e0c7d25f8a3 |',
  ],
  [
    'a plist line under a credentials heading',
    '## Credentials\n\n<key>ProgramArguments</key>\n<string>/opt/tunnel/bin/client</string>',
  ],
  ['text escaped for HTML after a blank secret', 'RELAY_SECRET=*** RELAY_URL=&quot;$URL&quot; node relay.js'],
  ['a generic type after a password word', "type AccountNoPassword = Omit<Account, 'password'>;"],
  ['a model and its size after a user word', '- User: 换成模型Acme/Acme3-8B 巡检'],
  ['a CSS class after "Root cause"', '- Root cause: `xl:grid-rows-2` cut the third row of cards'],
  ['a yearly amount near a token word', 'Caching cut the token bill (~$1,250-3,900/year)'],
  [
    'an assignment alone beside a key line',
    'The gateway token is read from the unit:\nEnvironment=ACME_LISTEN_PORT=8088',
  ],
  [
    'a value masked with stars, then the next thing on the line',
    '- Search works again (`LOOKUP_API_KEY=*** `created:<` was the broken filter).',
  ],
  [
    'a Google OAuth client id under a client_secret label',
    '- client_secret: 123456789012-abcdefghijklmnopqrstuvwxyz012345',
  ],
  [
    "ids in another clause than the line's key word",
    '- 功能已完成，等拿到 API Key 再联调，模板甲 5b0e7c21d94f4a3b8e6f1c2d3a4b5c6d/模板乙 9f8e7d6c5b4a49382716aa0bb1cc2dd3',
  ],
  ['a word that describes a password', '{"username": "tester", "password": "required"}'],
  ["a plain-word vendor default (the contract's floor)", '- Default AP password: `wavehive` (older firmware)'],
  ["a four-character JSON test password (the contract's floor)", '{"username": "tester", "password": "pw42"}'],
];

/** Found although they sit beside the look-alikes above: the same labels with real values. */
const STILL_FOUND: Array<[string, string, string]> = [
  // Found from the 62 tune folders (docs/credentials.md §2), values made up.
  [
    'a label with a qualifier inside emphasis',
    '2. **Tunnel authtoken saved**: Zq8Lm2Xc4Vb6Nn1Kt7Rw9Yp3',
    'Zq8Lm2Xc4Vb6Nn1Kt7Rw9Yp3',
  ],
  [
    'both sides of a change after a password variable',
    '1. **VAULT_UNLOCK_PASSWORD** - was stale (OldVault-2025! → NewVault-8841%)',
    'OldVault-2025! NewVault-8841%',
  ],
  [
    'an e-mail login with a two-part domain',
    'workflow Login: ops.desk@corretora-demo.com.br / Wflow-Desk-2026!',
    'ops.desk@corretora-demo.com.br Wflow-Desk-2026!',
  ],
  [
    'a key alone on its line beside a line naming one',
    'Panel info\nVPS id 998877\nHq7Lm2Xc4Vb6Nn1Kt7Rw9Yp3Zs5Ad8Fg0Jk\nassistant: got it, storing that token locally',
    'Hq7Lm2Xc4Vb6Nn1Kt7Rw9Yp3Zs5Ad8Fg0Jk',
  ],
  ['token near a quoted value', 'jenkins token `11a2b3c4d5e6f7a8b9`', '11a2b3c4d5e6f7a8b9'],
  ['passphrase of words after a password word', 'wifi passphrase `correct-horse-battery`', 'correct-horse-battery'],
  ['words after a password label', 'passphrase: correct-horse-battery', 'correct-horse-battery'],
  ['words after a French password label', 'mot de passe : correct-horse-battery', 'correct-horse-battery'],
  ['pass with a colon stays a label', 'unifi pass: Un1fi!ctrl', 'Un1fi!ctrl'],
  ['a Korean password word and a value', '데모 계정 (비번 Demo-pass!77)', 'Demo-pass!77'],
  ['quoted twice and long enough', 'wifi password `"Guest-4321"` for guests', '"Guest-4321"'],
  ['a label after a closed ${…}', 'see ${HOME}/notes, password: Tr0ub4dor&3', 'Tr0ub4dor&3'],
  ['a key with dashes but long random parts', 'api key: demo-Kx9f2mQ7pL4zR8wT-live', 'demo-Kx9f2mQ7pL4zR8wT-live'],
  ['mixed-case key with slashes', 'secret key = "sk9/Demo+Key/11aa"', 'sk9/Demo+Key/11aa'],
  [
    'a bare key that is mostly random parts',
    'signing key: ab-x7Kq2mP9vR4tL8wZ3nB6cF1hJ5dS0gY',
    'ab-x7Kq2mP9vR4tL8wZ3nB6cF1hJ5dS0gY',
  ],
  [
    'a key in a URL path with mixed parts',
    'key: https://hooks.example.org/T0AB12CD/B9XY87ZW/q7Lm2Np8Rt5Vw1Xz',
    'org/T0AB12CD/B9XY87ZW/q7Lm2Np8Rt5Vw1Xz',
  ],
  ['a value before a Chinese full stop', '密码 abc12345。下次再改', 'abc12345'],
  ['a dotted value near a password word', 'NAS password `Blue.Fish.42` for guests', 'Blue.Fish.42'],
  ['a password label after 1Password', 'kept in 1Password, but the password: `Fj4!pq-77x` is here too', 'Fj4!pq-77x'],
  ['a login pair with a versioned-looking password', 'Login `ops`/`Ops-7.2!x`', 'Ops-7.2!x'],
  ['a login pair glued, user and password', 'Credentials: `backup:B4ckup-99z`', 'B4ckup-99z'],
  ['a login pair with an equals sign in the password', 'Login `ops`/`p4ss=word9`', 'p4ss=word9'],
  ['a real value in a Secret column', '| Secret | Notes |\n|---|---|\n| `Hx7-q2Lm!9` | the hook |', 'Hx7-q2Lm!9'],
  [
    'a password column keeps names',
    '| Password | Notes |\n|---|---|\n| `OPEN_SESAME_NOW` | kiosk |',
    'OPEN_SESAME_NOW',
  ],
  ['a token flag with a real value', 'run `./register.sh --token AB12CD34EF56` as that user', 'AB12CD34EF56'],
  ['a password flag keeps a name', 'mytool --password ADMIN_PASS_NOW', 'ADMIN_PASS_NOW'],
  ['a list after a password label', 'password: `alpha,beta,gamma`', 'alpha,beta,gamma'],
  ['a label in a code span with a colon and a value', '`BACKUP_API_SECRET`: `q9Wm-44xTz`', 'q9Wm-44xTz'],
  ['a quoted value with a colon after a key label', 'api key: `svc:Kx81-mm2Q`', 'svc:Kx81-mm2Q'],
  [
    'a key in full beside a cut one',
    'key: `aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z` (full)',
    'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z',
  ],
  ['a pair in a Credential column', '| Node | Credential |\n|---|---|\n| NAS | `admin / Nas-Cell-73` |', 'Nas-Cell-73'],
  ['a password for a user, then the value', 'the password for `svc01` is `Svc-Pw-2219`', 'Svc-Pw-2219'],
  [
    'a UUID after token (services issue UUID keys)',
    'token: 123e4567-e89b-12d3-a456-426614174000',
    '123e4567-e89b-12d3-a456-426614174000',
  ],
  [
    'a UUID in a row named API Key',
    '| **API Key** | `5f2c9a10-3b7e-4d21-9c44-0a1b2c3d4e5f` |',
    '5f2c9a10-3b7e-4d21-9c44-0a1b2c3d4e5f',
  ],
  ['a CamelCase word quoted after a password word', "the SIP gateway ships with password 'BlueHarbor'", 'BlueHarbor'],
  ['a PIN in parentheses after a password word', '- 服务器 sudo 密码已记下 (418207)', '418207'],
  ['an e-mail login and its password', '- Newsletter tool: owner@example.org / Nws-Tool-4471!', 'Nws-Tool-4471!'],
  [
    'a value set in the clause of a password word',
    '- Demo site: https://demo.example.org (password-protected, preview: ?preview=demosite2031)',
    'demosite2031',
  ],
  ['a token file and a token', 'token file `.secrets/gh.txt`, token: `tkn_7c1d2e3f4a5b`', 'tkn_7c1d2e3f4a5b'],
  // Beside the look-alikes from the 80 tune folders, values made up.
  [
    "a token whose link is no document's address",
    '- **app_token**: `Qm7TvbWE1ajPnRs84XqdS8JuLmb`\n- **URL**: https://api.example.cn/hooks/Qm7TvbWE1ajPnRs84XqdS8JuLmb',
    'Qm7TvbWE1ajPnRs84XqdS8JuLmb Qm7TvbWE1ajPnRs84XqdS8JuLmb',
  ],
  ['an app token with no link', '- **app_token**: `Qm7TvbWE1ajPnRs84XqdS8JuLmb`', 'Qm7TvbWE1ajPnRs84XqdS8JuLmb'],
  ['a secret that is a call, quoted', "JWT_SECRET: 'k9(Lm)x.Q2r'", 'k9(Lm)x.Q2r'],
  ['a URL password beside a bracket', '`https://someone:p4[ss]Word9@git.example.org/x.git`', 'p4[ss]Word9'],
  [
    'a run with a parenthesis that names no id',
    'API key: `cb7d2554b0ce847cd82f3ac9bd1c0dfca` (rotated)',
    'cb7d2554b0ce847cd82f3ac9bd1c0dfca',
  ],
];

describe('credentials in prose: found, with the value as the masked span', () => {
  it.each(FOUND)('%s', (_form, text, value, code) => {
    const v = check(text);
    expect(v.exit).toBe(1);
    expect(v.findings.map((f) => f.code)).toContain(code);
    expect(v.findings.every((f) => f.class === 'credential')).toBe(true);
    expect(values(text)).toEqual([value]);
    for (const f of v.findings) expect(f.message).not.toContain(value);
  });

  it('every value under a Credentials heading, the old and the new', () => {
    expect(values('## Credentials\n\n- Old `oldPw-4411` → NEW `newPw-8832`')).toEqual(['oldPw-4411', 'newPw-8832']);
    // The heading reaches to the next heading of its level, not past it.
    expect(values('## Credentials\n\n## Build\n\n- Old `oldPw-4411` → NEW `newPw-8832`')).toEqual([]);
  });

  it('a user/password pair in a table cell under a Login column', () => {
    const t = '| Service | URL | Login |\n|---|---|---|\n| Grafana | http://grafana.lan | grafana-ops/Graf-Cell-19 |';
    expect(values(t)).toEqual(['Graf-Cell-19']);
    expect(values(t.replace('Login', 'Notes'))).toEqual([]);
  });

  it('table rows under a password column, each cell its own value', () => {
    expect(values(TABLE)).toEqual(['S3cure!pass', 'R4spberry!x']);
    expect(check(TABLE).findings.map((f) => [f.code, f.line])).toEqual([
      ['secret.table-credential', 3],
      ['secret.table-credential', 4],
    ]);
  });

  it('CRLF lines keep their values and line numbers', () => {
    const text = 'intro\r\npassword: hunter22!\r\nSSHPASS=Tr0ub4dor3\r\n';
    expect(values(text)).toEqual(['hunter22!', 'Tr0ub4dor3']);
    expect(check(text).findings.map((f) => f.line)).toEqual([2, 3]);
  });

  it('every value on a line, not only the first', () => {
    expect(values('creds: pw `Aa11!!bb` and token: tkn_9988zzyy')).toEqual(['Aa11!!bb', 'tkn_9988zzyy']);
  });

  it('a value inside a <redacted> span is never a finding', () => {
    expect(check('password: <redacted>hunter22!</redacted>').exit).toBe(0);
  });
});

describe('look-alikes are not credentials', () => {
  it.each(CLEAN)('%s', (_what, text) => {
    expect(check(text).findings.filter((f) => f.class === 'credential')).toEqual([]);
  });

  it.each(STILL_FOUND)('and still found: %s', (_what, text, value) => {
    expect(values(text)).toEqual(value.split(' '));
  });

  it('a private key block is one finding, its body lines none of their own nor repeated', () => {
    // Made-up base64, shaped as an OpenSSH key body (docs/credentials.md, "Not credentials").
    const body = [
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
      'QyNTUxOQAAACDq7Wm2Xp9Lk4Rt8Vb3Nc6Hj1Fd5Gs0Za2Ye4Tu7Io9PqAAAAJhz31n1c99Z',
    ].join('\n');
    const block = `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n-----END OPENSSH PRIVATE KEY-----`;
    // Pasted under a comment naming the key, and again further down: one finding per block.
    const text = `# 1. Create the private key file\ncat > ~/.ssh/id_demo << 'EOF'\n${block}\nEOF\n\nAgain:\n${block}\n`;
    expect(check(text).findings.map((f) => [f.code, f.line])).toEqual([
      ['secret.private-key', 3],
      ['secret.private-key', 10],
    ]);
    // Still masked from BEGIN to END.
    expect(values(text).every((v) => v.includes(body))).toBe(true);
  });

  it('an anon JWT is a public key, alone or on a line naming a key', () => {
    const seg = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const jwt = (role: string) =>
      `${seg({ alg: 'HS256', typ: 'JWT' })}.${seg({ iss: 'demo', role })}.Zq8mXw2Lp5Vt9Rk3Nb7Hc1Jf4Gs6Da0`;
    expect(check(`-H "apikey: ${jwt('anon')}"`).findings).toEqual([]);
    expect(check(`-H "apikey: ${jwt('service_role')}"`).findings.map((f) => f.code)).toContain('secret.jwt');
  });

  it('token columns holding ids are not keys', () => {
    expect(check('| Token ID | Scope |\n|---|---|\n| 1a2b3c4d | read |').exit).toBe(0);
    expect(check('| Key | Meaning |\n|---|---|\n| ctrl-k | search |').exit).toBe(0);
  });
});

describe('from the 147 tune folders (docs/credentials.md §2, "Not credentials"; made-up values)', () => {
  const key = 'Kq7mZx2Lp9Vt4Rb8Nc3Hj_Wd5Gs1_';
  it('a key ending in - or _ is whole when a part of it is generated; a prefix cut there is not', () => {
    expect(values(`- Key: \`${key}\``)).toEqual([key]);
    expect(values(`"lookup_api_key": "${key}"`)).toEqual([key]);
    expect(check('- Key: `sk-ant-oat01-`').exit).toBe(0);
  });

  it('under a heading or label line naming keys, a service listed with a key or a UUID', () => {
    expect(values(`## API keys\n\n- **Lookup API:** ${key} (still 401)`)).toEqual([key]);
    expect(values('## API Keys\n- Page Search: 3f6c1a2e-9b0d-4e7a-8c5f-1d2e3f4a5b6c')).toEqual([
      '3f6c1a2e-9b0d-4e7a-8c5f-1d2e3f4a5b6c',
    ]);
    // The item names something else, or the value is words joined or cut short.
    expect(check('## API Keys\n- Project ID: 3f6c1a2e-9b0d-4e7a-8c5f-1d2e3f4a5b6c').exit).toBe(0);
    expect(check('## API Keys\n- Lookup API: fix-the-upload-test-2026-b71e').exit).toBe(0);
    expect(check('## API Keys\n- Lookup API: Kq7mZx2Lp9Vt4Rb8Nc3H...').exit).toBe(0);
    expect(check('- 可用模型：opus-9-9-thinking(7 Key), opus-9-9(8 Key)').exit).toBe(0);
    // Code alone on its line under a key heading (a metric with its labels) is no key.
    expect(check('## API keys we need\n\nagent_cost_token_total{job="v6-nightly-reports"}').exit).toBe(0);
  });

  it('a passcode is a PIN; a phone number logs in after a login word', () => {
    expect(values('- Call: booked (Meeting ID: 555 0100 2233, Passcode: 730418)')).toEqual(['730418']);
    expect(values('- **登录账号**: 13900001111 / plum2468qa')).toEqual(['plum2468qa']);
    expect(check('- build 20260301 / rc2468qa shipped').exit).toBe(0);
  });

  it('a list of names under one namespace is no login; one name spelled twice is none', () => {
    expect(
      check('Models (relay · api-key)\n- relay/Orca-R2-0601\n- relay/Orca-R2-Long\n- relay/Wren-K3-Chat').exit,
    ).toBe(0);
    expect(check('| mail | imap.mail.example:993 | **OAuth2/XOAUTH2** | login via the client id |').exit).toBe(0);
    expect(values('Login: **root / Tr4il-Mix-88**')).toEqual(['Tr4il-Mix-88']);
    // A dotted user name before a spaced slash is a login, not a host's path; the second pair too.
    expect(values('## Logins\n- **DEV:** dana.kowal / Qm7rTz2wXp9Lk4Vb, ops / Hd3kW8nQz5Rt1Yc')).toEqual([
      'Qm7rTz2wXp9Lk4Vb',
      'Hd3kW8nQz5Rt1Yc',
    ]);
    expect(check('see docs.example/Qm7rTz2wXp9Lk4Vb for the login').exit).toBe(0);
  });

  it('names joined in capitals are no bare key; a token cut short is none', () => {
    expect(check('The screen uses named keys (`RPT_INK/INK2/PANEL/KEY_INK/BAR_BG/`').exit).toBe(0);
    expect(check(`export GH_TOKEN=gh${'p'}_9Zq4Lm2Xw7R...`).exit).toBe(0);
    expect(check(`- **GitHub Token**: \`github_${'pat'}_11ABCDEFG0ab1c2d3e4f5g6h...\``).exit).toBe(0);
  });

  it("a key pasted alone after a speaker's name, named on the next line", () => {
    const k = 'srch-dev-7QmZ2xLp-9VtRb4Nc3Hj1Wd5Gs0Ya8Ke6Tu';
    expect(values(`Dana: ${k}\nthis is the API key`)).toEqual([k]);
    expect(values(`Dana: ${k}\n这是密钥`)).toEqual([k]);
    // No line naming a key near, or the name says what the run is.
    expect(check(`Dana: ${k}\nsee you tomorrow`).exit).toBe(0);
    expect(check(`sender_id: ${k}\nthis is the API key`).exit).toBe(0);
    expect(check(`pubkey: ${k}\nthe API key pair`).exit).toBe(0);
  });

  it('an id the text shows as an id is none, from 8 characters; words joined found as a password are masked in a path too', () => {
    const text = 'plugin: channel= {"user_Token":"user_7q2kd81xme"}\nplugin: extracted user_id= user_7q2kd81xme';
    expect(check(text).exit).toBe(0);
    const pw = '- SSH works (password: tide-harbor)\n- client folder: /data/tide-harbor/';
    // A folder of the same name still shows the password: masked there too (docs/credentials.md §8).
    expect(check(pw).findings.map((f) => f.line)).toEqual([1, 2]);
    expect(maskValues(pw, { emails: [] }).text).not.toContain('tide-harbor');
    expect(check('1. `VISION_API_KEY=runner-local` → the tool falls back to the local runner').exit).toBe(0);
  });
});

describe('from the 177 tune folders (docs/credentials.md §2, "Not credentials"; made-up values)', () => {
  const addr = '9xQz4kPm7TgR2wHs5vNb8cJd3FyLa6Ee';
  it('a base58 address after token, in a text about coins, is a blockchain address; elsewhere a key', () => {
    expect(check(`- Balance: 1.20 → 1.45 SOL\n- Recent token: ${addr}\n\n**${addr}Q**`).exit).toBe(0);
    expect(check(`Wallet report\nToken: \`${addr}\``).exit).toBe(0);
    // No coin named in the text, or a `0`/`O`/`I`/`l` in the value (not base58): a token.
    expect(values(`- Recent token: ${addr}`)).toEqual([addr]);
    expect(values(`- 1.45 SOL\n- Recent token: ${addr.replace('9', '0')}`)).toEqual([addr.replace('9', '0')]);
  });

  it("a value the text shows as a heading, a list item's name or under an id's label line is a name", () => {
    const v = 'Q8mZ2rT5vX9kW3nB7pL4';
    expect(check(`### ${v}\n- 12.5 units, idle\n\nToken: \`${v}\``).exit).toBe(0);
    expect(check(`- **${v}**: 12.5 units (idle)\n\nToken: \`${v}\``).exit).toBe(0);
    const run = 'Kq7mZx2Lp9Vt4Rb8Nc3Hj1Wd5Gs0Ya8Ke-Q7x';
    expect(check(`App secret and ids from the console:\nBot ID\n${run}`).exit).toBe(0);
    // A heading holding more than the value, or a label line naming a secret, names nothing.
    expect(values(`### Token ${v} rotated\n\nToken: \`${v}\``)).toEqual([v, v]);
    expect(values(`App secret from the console:\nBot secret\n${run}`)).toEqual([run]);
  });

  it("a shell prompt after a terminal's Password: is no value", () => {
    expect(check('user: dev@Work-Laptop ~ % sudo pmset -a sleep 0 Password: dev@Work-Laptop ~ % sudo ls').exit).toBe(0);
    expect(check('ops@build-host:~$ sudo -k; Password: ops@build-host:~$ exit').exit).toBe(0);
    expect(values('Password: Mx7@Qz2kWp9 then log in')).toEqual(['Mx7@Qz2kWp9']);
  });

  it('the token an upload returned, in parentheses, addresses the file', () => {
    const t = 'Qb7Xk2Lm9Rt4Vw8Zn3Pc6Hs1J';
    expect(check(`- 交付：\`clip_12s.mp4\` 已上传到网盘并发回链接（token: \`${t}\`）`).exit).toBe(0);
    expect(check(`- uploaded \`clip.mp4\` to the drive, link sent (token: \`${t}\`)`).exit).toBe(0);
    expect(values(`- 新的机器人（token: \`${t}\`）`)).toEqual([t]);
  });

  it('settings, comparisons, UUIDs named by words and punctuated words are no values', () => {
    expect(check('  - Token 状态：mode=bot，tokenState=ok，3 个 scope').exit).toBe(0);
    expect(check('- **WEAK TOKEN:** drop5<-8% OR vol1h<2% → SKIP').exit).toBe(0);
    expect(check('**Pregunta clave:** ¿Dónde dormimos la primera noche?').exit).toBe(0);
    expect(check('进程在等待终端输入 sudo 密码（提示 `Password:`），需要用户输入').exit).toBe(0);
    expect(check("INFO STORE agent=x key='sweep-report-3c9e7a12-5b4d-4e8f-9a1b-2c3d4e5f6a7b'").exit).toBe(0);
    // A password variable set to a word is still its value; a comparison needs a number after it.
    expect(values('**Injected dev passwords**: `ADMIN_PASSWORD=harbor`')).toEqual(['ADMIN_PASSWORD=harbor']);
    expect(values('password: `ab<cd9e`')).toEqual(['ab<cd9e']);
  });

  it('a UUID after pass is a run id; short hex after token an id; short hex after root/ with a login word a password', () => {
    expect(check('EVAL PASS: 3c9e7a12-5b4d-4e8f-9a1b-2c3d4e5f6a7b. NEXT: review.').exit).toBe(0);
    expect(values('token: 3c9e7a12-5b4d-4e8f-9a1b-2c3d4e5f6a7b')).toEqual(['3c9e7a12-5b4d-4e8f-9a1b-2c3d4e5f6a7b']);
    expect(check('- Team: Varsity — slug: `demo-team`, token: `7ab3c9e1f042`').exit).toBe(0);
    expect(values('token: `7ab3c9e1f042d5b8a9`')).toEqual(['7ab3c9e1f042d5b8a9']);
    expect(values('- 成功登录网关 (gw.lan, root/b4e19c07d2)')).toEqual(['b4e19c07d2']);
    expect(check('- moved to root/b4e19c07d2 after the build').exit).toBe(0);
  });

  it('sk- with a kind of up to 8 letters is a key by its form', () => {
    const k = `sk-vidgen-${'0a1b2c3d4e5f6a7b'.repeat(2)}`;
    expect(values(`- **VideoGen**：\`${k}\`，需 VIP`)).toEqual([k]);
    expect(check('sk-longkinds-0a1b2c3d4e5f6a7b0a1b2c3d4e5f6a7b').exit).toBe(0);
  });

  it('a BEM class or a metric under a passwords heading is no password', () => {
    expect(check('## Passwords\n\n- Key fix: the text is in `card-body__text--clamp-after-5` div').exit).toBe(0);
    expect(check('## Passwords\n\nagent_cost_token_total{job="v6-federal-reports"}').exit).toBe(0);
    expect(values('## Passwords\n\n- NAS: `Card-Body_77x`')).toEqual(['Card-Body_77x']);
  });
});

describe('personal data look-alikes (docs/validators.md)', () => {
  it('systemd instance units and LAN logins are not e-mail; a real address is', () => {
    expect(check('zfs-import@pool.service and getty@tty1.service').exit).toBe(0);
    expect(check('ssh pi@nas.lan or admin@router.local').exit).toBe(0);
    expect(check('ask dana.m@corp.example.net').findings.map((f) => [f.code, f.class])).toEqual([
      ['secret.email', 'personal'],
    ]);
  });

  it('SSH fingerprints: 43 or more base64 characters (the reference fixture has 47), not a hex digest', () => {
    const b64 = 'uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s';
    expect(check(`SHA256:${b64}`).findings.map((f) => f.code)).toEqual(['secret.ssh-fingerprint']);
    expect(check(`SHA256:${b64}AbCd`).findings.map((f) => f.code)).toEqual(['secret.ssh-fingerprint']);
    expect(check(`SHA256:${b64.slice(0, 42)}`).exit).toBe(0);
    expect(check(`SHA256:${'0123456789abcdef'.repeat(4)}`).exit).toBe(0);
  });
});

describe('linear time on hostile lines', () => {
  it('a 1 MiB line of label words and separators is scanned in well under a second', () => {
    for (const unit of [
      'password: ',
      'pw `',
      'login `a`/`',
      '| password |',
      'DB_PASSWORD=',
      'sshpass -p ',
      'key ',
      'user ',
      '비번 ',
      // The checks after every detector (a name's place, an upload's token, a shell prompt).
      'uploaded (token: `Qb7Xk2Lm9Rt4Vw8Zn3Pc6Hs1J`) ',
      'Token: `Q8mZ2rT5vX9kW3nB7pL4` ### Q8mZ2rT5vX9kW3nB7pL4 ',
      'Password: ops@Build-Box ~ % ',
    ]) {
      const text = unit.repeat(Math.ceil((1 << 20) / unit.length)).slice(0, 1 << 20);
      const t = performance.now();
      check(text);
      expect(performance.now() - t, unit).toBeLessThan(BOUNDED_MS);
    }
  });
});
