/**
 * A third set of snippets, held out for the context-and-shape rule (docs/credentials.md §2):
 * the families of shapes public memory folders taught (a password word several words before
 * the value, values under a heading or a label line that names them, pairs in emphasis or
 * after a realm, table cells holding `user/pass`, index lines, app passwords in groups of
 * four, unquoted `Bearer` tokens, short shell names, Vietnamese labels, SNMP communities on
 * command lines, `host/user/pass` assignments) and their look-alikes, each written in
 * phrasing of my own that differs from the tuning snippets of the same family. Written
 * before the rule was changed and scored first. Made-up values only; long keys assembled at
 * run time. Same marker convention as snippets.ts.
 */
import { groups4, type Snippet } from './snippets';

const c = (v: string) => `[[c:${v}]]`;

export const CONTEXT_HOLDOUT_POSITIVES: Record<string, Snippet[]> = {
  'word-before-value': [
    () => `the guest wifi password hasn't changed in months, still \`${c('GuestNet-73')}\``,
    () => `Mailbox pass after the migration → \`${c('mbx-Move-19')}\``,
    () => `SFTP password for the vendor (\`${c('vndr-Sftp-62')}\`) expires in June`,
    () => `Router admin pw was rotated last week; new one is \`${c('Rt-Rot-2207')}\``,
  ],
  'heading-or-label-line': [
    () => `### Passwörter\n\n* Router: \`${c('frtz-Rt-902')}\`\n* NAS: \`${c('Syno-Box-615')}\``,
    () => `## 密码\n\n\`${c('mima-Node-31')}\``,
    () => `Wi-Fi password:\n\n\`${c('Wf-Next-Line-5')}\``,
    () => `**Admin creds**\n- before: \`${c('Bfr-Adm-118')}\`, after: \`${c('Aft-Adm-229')}\``,
  ],
  'pair-emphasis-realm': [
    () => `console: _admin / \`${c('Adm-em-66')}\`_`,
    () => `Proxmox UI as \`svc@pve\` / \`${c('Svc-Pve-14')}\``,
    () => `Login info: mkt-team / ${c('Mkt-Team-802')} / [[p:team@example.com]]`,
    () => `sign in (\`guest\` / \`${c('Gst-Sign-47')}\`) then open the board`,
  ],
  'pair-in-cell-or-index': [
    () => `| Service | URL | Access |\n|---|---|---|\n| NAS | http://nas.lan:5000 | \`admin / ${c('Nas-Cell-73')}\` |`,
    () => `[Kiosk](kiosk.md): the tablet kiosk, kiosk/${c('Kio-Tab-88')}, auto-login on boot`,
  ],
  'app-password': [
    (t) => `wp-admin → Users → Application Passwords → "publisher": ${c(groups4(t))}`,
    (t) => `Application password for the sync bot: \`${c(groups4(t))}\``,
  ],
  bearer: [
    (t) => `every request carries \`Authorization: Bearer ${c(t.alnum(28))}\``,
    (t) => `webhook wants bearer ${c(`tok_${t.alnum(24)}`)} in the header`,
  ],
  'shell-short-names': [(t) => `export SK='${c(t.alnum(30))}'`, (t) => `AK=${c(`LTdemo${t.alnum(18)}`)} ./upload.sh`],
  vietnamese: [
    () => `Tài khoản admin, mật khẩu \`${c('Vn-Admin-662')}\``,
    () => `pass chung cho team \`${c('Team-Pass-319')}\``,
  ],
  'snmp-command': [
    () => `\`snmpget -v 2c -c "${c('Cm-Get-903')}" switch01 sysUpTime.0\``,
    () => `on the Juniper: \`set snmp community ${c('Jnp-Ro-115')} authorization read-only\``,
  ],
  'host-user-pass': [
    () =>
      `Handover from the old admin covered backups, the DNS move and the mail relay; SFTP=files.example.org/upload/${c('Up-Ld-2718')} still works until the June cutover, after which the vendor hosts it.`,
  ],
};

export const CONTEXT_HOLDOUT_NEGATIVES: Snippet[] = [
  (t) => `Passwords sheet: https://docs.google.com/spreadsheets/d/${t.alnum(44)}/edit#gid=0`,
  (t) => `credentials doc (id ${t.alnum(44)}) is shared with the team`,
  (t) => `| Workflow | Credential |\n|---|---|\n| Invoice mail | \`${t.alnum(16)}\` (SMTP account) |`,
  (t) => `Staking token contract: 0x${t.hex(40)} on mainnet`,
  (t) => `API key starts with \`${t.alnum(34)}…\` (cut for the note)`,
  () => 'export SEARCH_API_KEY=<SEARCH_KEY>',
  () => 'Design tokens live in `theme/tokens.css`; spacing scale is 4-8-12.',
  () => 'Token pacing: 1,200 req/min for `model-small-2`, backoff 30s.',
  () => 'The approval-token filename is `approve-2026-05-01.tok`.',
  () =>
    'users table keeps the bcrypt hash of the password: `$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW`',
  () => 'the token file sits at `~/.config/notes-cli/token-v2.json`',
  () => 'In the BIOS menu: Advanced → Reset Root Password → Enter, then reboot.',
  () => 'Pass 2: dedupe rows again, 2026-05-02',
  () => 'Smoke test PASS (14/14), deploy 2026-05-03',
  () => 'Secrets are read from the vault at boot; rotation every 90 days.',
  () => '## Credentials\n\nAll service logins moved to the password manager in May; ask ops.',
  () => 'Password:\n\nmust be 12+ characters with a digit',
  () => 'wifi pass chung: hỏi chị Lan (không ghi ở đây)',
  () => '`snmpwalk -v2c -c public 192.0.2.10 system`',
  () => '| Service | URL | Access |\n|---|---|---|\n| Wiki | https://wiki.example.org | SSO / team group |',
  () => '[Deploy notes](deploy.md): staging/prod split, v2.3/v2.4 rollout',
  () => 'use `Authorization: Bearer $API_TOKEN` from the env',
  () => 'AK/SK pairs are issued per project in the cloud console.',
  () => 'Login: root / key only (password auth disabled)',
  () => 'ported `src/auth/token-refresh.ts` to the new client (2026-05-04)',
];
