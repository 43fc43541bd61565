/**
 * A second, held-out set of snippets (docs/credentials.md): written after the
 * rules were tuned on snippets.ts and scored before any rule was changed for
 * it, so its figures say how the rules do on phrasing they were not fitted to.
 * Same marker convention as snippets.ts.
 */
import type { Snippet } from './snippets';

export const HOLDOUT_POSITIVES: Record<string, Snippet[]> = {
  'label-colon': [
    () => 'Proxmox root password: [[c:pve-Root-2025]]',
    () => 'unifi controller — pass: [[c:Un1fi!ctrl]]',
    () => '* Synology DSM: `admin` · password `[[c:dsm7-Adm!n]]`',
    () => 'Portainer password = [[c:p0rtainer#88]]',
    () => 'OctoPrint API key: [[c:0A1B2C3D4E5F6A7B8C9D]]',
    () => 'Plex token: [[c:pLx-9zQ-44aa-77bb]]',
    () => 'HA long-lived token: `[[c:llat.demo.7788aa99bb]]`',
    () => 'secret: "[[c:kube-sealed-0099]]"',
  ],
  env: [
    () => '```\nPOSTGRES_PASSWORD: [[c:pg-compose-42]]\n```',
    () => 'in .envrc: `export RESTIC_PASSWORD=[[c:restic-repo-77]]`',
    () => "BORG_PASSPHRASE='[[c:borg-backup-55!]]'",
    () => 'CF_API_TOKEN=[[c:cfDemoToken9988aa]]',
  ],
  'login-pair': [
    () => 'Router login: `admin` / `[[c:R0uter-2025]]`',
    () => 'test account login `qa-user:[[c:QaPass-123]]`',
    () => 'Credentials for the kiosk: `kiosk` / `[[c:Kiosk!2025]]`',
  ],
  'command-line': [
    () => '`sshpass -p "[[c:Edge-Rtr-9]]" ssh ubnt@[[p:192.168.1.1]]`',
    () => '```\nmysqldump -u backup -p[[c:Bkp-Dump-77]] --all-databases > all.sql\n```',
    () => '`smbclient //nas/share --password=[[c:smb-share-66]] -U guest`',
    () => '```\necho "[[c:Pi-sudo-123]]" | sudo -S reboot\n```',
    () => 'psql ... then `rclone config --obscure-password [[c:rcl0ne-pass]]`',
  ],
  languages: [
    () => '서버 비번: [[c:srv-pass-2025]]',
    () => 'WiFi 密码是 [[c:wifi8888abc]]',
    () => '初期パスワード: [[c:init-pw-2025]]',
    () => 'Contraseña del wifi: [[c:Wifi-Casa-22]]',
    () => 'mot de passe root : `[[c:R00t-fr-99]]`',
    () => 'Router-Passwort: [[c:fritz-box-77]]',
    () => 'senha do roteador: [[c:rot-2025-br]]',
    () => 'пароль от NAS: [[c:nas-ru-2025]]',
  ],
  table: [
    () => '| Device | Username | Password |\n|--------|----------|----------|\n| Camera | admin | [[c:Cam-2025!x]] |',
    () => '| 계정 | 비밀번호 | 비고 |\n|---|---|---|\n| root | [[c:r00t-kr-11]] | 서버 |',
  ],
  'bare-key': [
    (t) => `## OpenWeather key\n${'`'}[[c:${t.hex(32)}]]${'`'}`,
    (t) => `Tailscale auth key for new nodes: [[c:${t.alnum(40)}]]`,
  ],
  personal: [
    () => 'Pi-hole at [[p:10.10.0.2]], router [[p:10.10.0.1]]',
    () => 'mail to [[p:kim.j@example-corp.com]] for access',
  ],
};

export const HOLDOUT_NEGATIVES: Snippet[] = [
  () => 'Proxmox root password: see Bitwarden "pve root"',
  () => 'POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}',
  () => 'BORG_PASSPHRASE is read from ~/.config/borg/passphrase',
  () => 'The HA token must be created in the profile page.',
  () => 'Router login page: http://192.0.2.1/login',
  () => 'Login with your SSO account.',
  () => 'mysqldump -u backup -p --all-databases (prompts)',
  () => 'smbclient //nas/share -U guest%  # no password',
  () => '서버 비번은 팀 금고에 있음',
  () => 'WiFi 密码在路由器背面',
  () => 'パスワードは管理者に聞く',
  () => '| Device | Username | Password |\n|---|---|---|\n| Camera | admin | (in vault) |',
  (t) => `Tailscale node key nodekey:${t.hex(64)}`,
  (t) => `| Key | Value |\n|---|---|\n| cache-ttl-seconds | 3600 |\n| build-${t.hex(6)} | done |`,
  (t) => `git log shows ${t.hex(40)} as the last key change commit`,
  () => 'key: the-deploy-checklist-from-2026-03-14',
  () => 'Bearer tokens expire after 3600 seconds.',
  () => 'passphrase length: 6 words',
  () => 'password: changeme (default, must be changed on first login)',
  () => 'PASSWORD_MIN_LENGTH=12',
  // written 2026-11-28 after the engineering-notes look-alikes (snippets.ts), scored before any rule change for them
  (t) => `key: flaky-upload-test-needs-a-real-clock-${t.hex(4)}`,
  () => 'key: migrate-auth-tables-before-v3-cutover-b71e',
  () => 'The CSRF token lives in `src/server/csrf-token.ts`; rotate it with the session.',
  () => 'Never pass `--force-with-lease=false` here.',
  () => 'api key name is `billing-reader` in the console',
  () => 'Fixed: the secret scanner now skips `fixtures/**/*.snap`.',
  () => 'token refresh runs at `03:15` every night (cron in `ops/cron.d`)',
  () => 'auth: see `docs/auth/overview.md` for the flow',
];
