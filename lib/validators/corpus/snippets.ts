/**
 * The labelled credentials corpus (docs/credentials.md): snippets written for
 * memtrust in the shapes real memory notes take, with made-up values only.
 *
 * In a snippet, `[[c:VALUE]]` marks a credential and `[[p:VALUE]]` personal
 * data; build.ts strips the markers and records the labels. A snippet without
 * markers is a look-alike: any finding in it is a false positive.
 *
 * Provider tokens are assembled at run time from `T` (never written out), so no
 * token-shaped literal sits in the repository for a push-protection scanner.
 */

export interface TokenMaker {
  gh: () => string;
  ghPat: () => string;
  openai: () => string;
  anthropic: () => string;
  aws: () => string;
  slack: () => string;
  gitlab: () => string;
  google: () => string;
  stripe: () => string;
  jwt: () => string;
  hex: (n: number) => string;
  b64: (n: number) => string;
  alnum: (n: number) => string;
}

export type Snippet = (t: TokenMaker) => string;

/** Each form of docs/credentials.md "Credentials in prose", plus tokens and personal data. */
export const POSITIVES: Record<string, Snippet[]> = {
  'label-colon': [
    () => 'NAS web UI: user `admin`, password: [[c:Gr33nTea-42]]',
    () => 'The router password: [[c:r0uter!Blue]] (changed last spring)',
    () => '- passwd: [[c:Kx7#mPq2z]]',
    () => 'Wi-Fi passphrase = [[c:corn-field-88-sky]]',
    () => 'grafana admin pwd: [[c:Graf4na_admin]]',
    () => 'client_secret: [[c:q8Fz2kLp99aaXw]]',
    () => 'API key: [[c:ak_51Hdemo7788zz]]',
    // Many services issue UUID keys: after a key or token word a UUID is one (real folders, docs/credentials.md §2).
    (t) => `token: ${wrap(`${t.hex(8)}-${t.hex(4)}-4${t.hex(3)}-8${t.hex(3)}-${t.hex(12)}`)}`,
    () => 'API-Key = [[c:demo-KEY-5566-xyz]]',
    () => 'access key: [[c:ACCK9917demo]] for the backup bucket',
    () => 'secret key = "[[c:sk9/Demo+Key/11aa]]"',
    () => 'token: [[c:tkn_7c1d2e3f4a5b6c7d]]',
    () => 'SNMP community: [[c:monit0r-ro]]',
    () => '**Password:** [[c:BlueFish#2024]]',
    () => 'Password (root): [[c:Toor-r00t-99]]',
    () => 'db_password: "[[c:pg-local-5432x]]"',
    () => 'mqtt auth: [[c:mq77-hass-pass]]',
    () => 'The admin password is `[[c:H0me-Lab!x]]`.',
    () => 'vpn secret is "[[c:wg-shared-77x]]"',
    () => 'jenkins token `[[c:11a2b3c4d5e6f7a8b9]]`',
    () => 'Password=[[c:Sql$erver2019]];',
  ],
  'json-yaml': [
    () => '```json\n{ "username": "svc", "password": "[[c:Svc-Acc0unt!]]" }\n```',
    () => '```yaml\nsmtp:\n  user: alerts\n  password: "[[c:smtp-Pa55-xx]]"\n```',
    () => '```yaml\nhomeassistant:\n  api_key: [[c:ha_9f8e7d6c5b4a3921]]\n```',
    () => '```json\n{"apiKey": "[[c:live_77aa88bb99cc]]", "region": "eu-west-1"}\n```',
  ],
  env: [
    () => '`DB_PASSWORD=[[c:Dbpass-2025x]]` is in the compose file',
    () => 'SSHPASS=[[c:Tr0ub4dor3]] sshpass -e ssh pi@nas.lan',
    () => '```bash\nexport GH_TOKEN=[[c:demo1234token5678]]\n```',
    () => '```sh\nPGPASSWORD=[[c:pgS3cret88]] psql -h db -U app\n```',
    () => 'MYSQL_ROOT_PASSWORD=[[c:rootpw-4455]]',
    () => '```env\nSMTP_PASS="[[c:mail-pass-2024]]"\nSMTP_HOST=mail.example.test\n```',
    () => 'REDIS_PASSWD=[[c:r3dis-cache-pw]]',
    () => 'set `APP_SECRET=[[c:a9b8c7d6e5f4]]` before starting',
    () => 'OPENAI_APIKEY=[[c:demo-openai-1122]]',
    () => 'export AWS_SECRET_ACCESS_KEY=[[c:wJalrXUtnFEMI/K7MDENG/bPxRfiCYDEMOKEY]]',
    () => 'NAS_CREDENTIAL=[[c:nas-cred-7788]]',
    () => 'PRIVATE_KEY_PASSPHRASE=[[c:keypass-5511]]',
  ],
  'login-pair': [
    () => 'Login `demo`/`[[c:demo123]]` on the staging site',
    () => 'log in with `guest` / `[[c:guest-2024]]`',
    () => 'Credentials: `ops:[[c:0ps-team-77]]`',
    () => 'creds: admin / [[c:Adm1n!pass]]',
    () => 'Sign in: `kiosk`/`[[c:k1osk-mode]]`',
    () => 'Account `backup:[[c:bkp-9911-x]]` on the NAS',
    () => 'user `jenkins` / `[[c:j3nkins!ci]]`',
    () => '로그인 `admin`/`[[c:관리자1234]]`',
  ],
  'host-pair': [
    () => 'nas.lan `admin/[[c:Nas-Adm1n]]`',
    () => 'ssh root `root:[[c:toor1234]]`',
    () => 'printer at printer.local `admin:[[c:prn-2024x]]`',
    () => 'the switch (admin) `admin/[[c:sw1tch-pw]]`',
  ],
  'command-line': [
    () => "```bash\nsshpass -p '[[c:ZxCv1234]]' ssh root@nas.lan\n```",
    () => '`sshpass -p [[c:pi-rasp-99]] scp file pi@pi.lan:`',
    () => '```\nmysql -u root -p[[c:S3cretPW]] shop\n```',
    () => 'mariadb -uadmin -p[[c:mar1a-db-x]] -h db',
    () => '`./deploy.sh --cipassword [[c:Hunter2Hunter2]]`',
    () => 'run `tool --db-password=[[c:dbpw-6677]] migrate`',
    () => '`vault login --token [[c:hvs-demo-778899]]`',
    () => 'synology-cli --password "[[c:Syn0logy!]]" sync',
    () => '```\ncurl -u admin:[[c:Pa55word99]] http://nas.lan/api\n```',
    () => 'curl --user "bot:[[c:b0t-secret-1]]" https://ci.example.test',
    () => '```\nhtpasswd -b .htpasswd alice [[c:Al1ceSecret]]\n```',
    () => "```\necho '[[c:Sup3rS3cret]]' | sudo -S apt-get update\n```",
    () => "echo '[[c:sudo-pw-44]]' | sudo -kS systemctl restart smb",
    () => "```\necho 'bob:[[c:B0bSecret!]]' | chpasswd\n```",
    () => 'chpasswd <<< "carol:[[c:Car0l-pw-1]]"',
    () => '`docker login -u me --password [[c:dckr-7788-pw]]`',
  ],
  languages: [
    () => '비번 [[c:qwer1234!]]',
    () => '공유기 비밀번호: [[c:home-wifi-77]]',
    () => 'NAS 비번은 [[c:nas2024!!]] 입니다',
    () => '密码：[[c:abc12345]]',
    () => '数据库密码: [[c:Db-mima-2024]]',
    () => 'パスワードは [[c:xyz98765]] です',
    () => 'ルーターのパスワード: [[c:rt-pass-55]]',
    () => 'contraseña: [[c:Clave2024!]]',
    () => 'La contraseña del router es `[[c:rout3r-es]]`',
    () => 'mot de passe : [[c:azerty123]]',
    () => 'Le mot de passe du NAS est « [[c:nas-fr-2024]] »',
    () => 'Passwort: [[c:Geheim123!]]',
    () => 'Das Kennwort ist `[[c:kennw0rt-de]]`',
    () => 'senha: [[c:minhaSenha9]]',
    () => 'A senha do wifi é `[[c:wifi-br-77]]`',
    () => 'пароль: [[c:qwerty123]]',
    () => 'Пароль от роутера `[[c:r0uter-ru]]`',
  ],
  'pw-unquoted': [
    () => 'pw [[c:nasPW-2024]]',
    () => 'router pwd [[c:r0uter77]] (admin)',
    () => 'the nas pw is `[[c:Xk9!mq2z]]`',
  ],
  reset: [
    () => 'Password reset to [[c:Welcome2024!]] after the lockout',
    () => 'Changed the wifi password, set to `[[c:new-wifi-88]]`',
    () => 'root password changed to [[c:R00t-new-1]] on the pi',
  ],
  table: [
    () =>
      '| host | user | password |\n|---|---|---|\n| nas.lan | admin | `[[c:S3cure!pass]]` |\n| pi.lan | pi | `[[c:R4spberry!x]]` |',
    () =>
      '| Service | Login | PW |\n| --- | --- | --- |\n| Grafana | admin | [[c:graf-77-pw]] |\n| Portainer | admin | [[c:port-88-pw]] |',
    () => '| 서비스 | 계정 | 비번 |\n|---|---|---|\n| 공유기 | admin | [[c:rt2024!x]] |',
    () => '| name | api key |\n|:--|:--|\n| weather | [[c:wx7f8e9d0c1b2a3f4e5d6c7b8a]] |',
    () => '| App | Token |\n|---|---|\n| notify | `[[c:ntfy7A8b9C0d1E2f3G4h]]` |',
    () => '| 项目 | 密码 |\n|---|---|\n| 路由器 | [[c:luyou-2024]] |',
  ],
  'connection-string': [
    () => 'Server=db.lan;Database=shop;User Id=app;Password=[[c:App-Db-2024]];',
    () => '`Data Source=sql01;Initial Catalog=crm;Pwd=[[c:Crm$ql-77]];`',
  ],
  'bare-key': [
    (t) => `## API key\n\n${wrap(t.hex(32))}`,
    (t) => `### Weather API key\nregistered on the free plan\n${wrap(t.alnum(40))}`,
    (t) => `The signing key for webhooks is ${wrap(t.alnum(36))}`,
    (t) => `## Tokens\n\n- ${wrap(t.b64(44))}`,
    (t) => `secret for the bot: ${wrap(t.alnum(48))}`,
    (t) => `WireGuard PrivateKey = ${wrap(`${t.b64(43)}=`)}`,
  ],
  tokens: [
    (t) => `GitHub token for the mirror: ${wrap(t.gh())}`,
    (t) => `fine-grained PAT ${wrap(t.ghPat())}`,
    (t) => `OPENAI_API_KEY="${wrap(t.openai())}"`,
    (t) => `anthropic key ${wrap(t.anthropic())}`,
    (t) => `aws_access_key_id = ${wrap(t.aws())}`,
    (t) => `slack bot ${wrap(t.slack())}`,
    (t) => `gitlab ${wrap(t.gitlab())}`,
    (t) => `maps key ${wrap(t.google())}`,
    (t) => `stripe ${wrap(t.stripe())}`,
    (t) => `Authorization: Bearer ${wrap(t.jwt())}`,
    () => 'host key SHA256:[[c:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2sAbCdE]]',
    () => 'DATABASE_URL=postgres://app:[[c:hunter2-Sup3r]]@db.lan:5432/app',
    () => 'mongodb://root:[[c:m0ngo-pw-12]]@mongo.lan/admin',
    () =>
      '-----BEGIN OPENSSH PRIVATE KEY-----\n[[c:b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ]]\n-----END OPENSSH PRIVATE KEY-----',
  ],
  // Context and shape (docs/credentials.md §2): shapes public memory folders taught, in my own words.
  'word-before-value': [
    () => 'passwords: users still on `[[c:Spring-2025x]]`, admins moved',
    () => 'pw reset 2026-05-30 to `[[c:Nq7-reset-44]]`',
    () => 'cPanel password (`[[c:cp-Host-881]]`) for the shop',
    () => 'the camera password after the firmware update is now `[[c:Cam-Fw-5520]]`',
  ],
  'heading-or-label-line': [
    () => '## Credentials\n\n- Old `[[c:oldPw-4411]]` → NEW `[[c:newPw-8832]]`',
    () => '### DB 비밀번호\n\n`[[c:kr-db-Pass77]]`',
    () => '## Passwords\n\n- NAS: `[[c:Nas-Sect-209]]`\n- printer: `[[c:Prn-Sect-318]]`',
    () => 'Router password:\n`[[c:Rt-Label-Ln7]]`',
  ],
  'pair-emphasis-realm': [
    () => 'Proxmox: **root / `[[c:Pve-root-33]]`**',
    () => 'web UI `root@pam` / `[[c:Pam-Realm-88]]`',
    () => 'Account: jdoe / [[c:Jd-acct-551]] / [[p:jdoe@example-mail.com]]',
    () => 'log in (tester / [[c:Tst-login-29]]) and open settings',
  ],
  'pair-in-cell-or-index': [
    () => '| Service | URL | Login |\n|---|---|---|\n| Grafana | http://grafana.lan | admin/[[c:Graf-Cell-19]] |',
    () => '[Demo shop](project_demo.md) — demo account demo/[[c:dmo-Shop-71]], resets nightly',
  ],
  'app-password': [
    (t) => `WP app password: ${wrap(groups4(t))}`,
    (t) => `WordPress application password (n8n user): \`${wrap(groups4(t))}\``,
  ],
  bearer: [(t) => `Authorization: Bearer ${wrap(t.alnum(40))}`, (t) => `call the API with Bearer ${wrap(t.alnum(32))}`],
  'shell-short-names': [(t) => `AK="${wrap(`LTdemo${t.alnum(18)}`)}"`, (t) => `SK="${wrap(t.alnum(30))}"`],
  vietnamese: [() => 'wifi quán: pass chung `[[c:CafeWifi-2026]]`', () => 'mật khẩu: `[[c:Mk-Viet-551]]`'],
  'snmp-command': [
    () => '`snmpwalk -v2c -c [[c:m0n-Comm-41]] 192.0.2.1 system`',
    () => '```\nsnmp-server community [[c:Sw-Rw-2291]] RW\n```',
  ],
  'host-user-pass': [
    () =>
      'Old host notes: the site moved twice, DNS sits at the registrar, mail goes through the relay and FTP=ftp.example.net/deploy/[[c:Ftp-Dpl-66]] is what the build script uses, with SSH by key only.',
  ],
  // From the real tune fold (docs/credentials.md §6), in my own words and values.
  'real-shapes': [
    () => '- Newsletter tool: [[p:owner.news@example-mail.com]] / [[c:Nws-Tool-4471!]]',
    () => 'Video channel @demo.channel signs in with [[p:owner.video@example-mail.com]] / [[c:Vid-App-9023]]',
    (t) => `| **API Key** | \`${wrap(`${t.hex(8)}-${t.hex(4)}-7${t.hex(3)}-8${t.hex(3)}-${t.hex(12)}`)}\` |`,
    (t) => `- 现在用的 API Key \`${wrap(`${t.hex(8)}-${t.hex(4)}-4${t.hex(3)}-9${t.hex(3)}-${t.hex(12)}`)}\`，只读`,
    () => '- 服务器 sudo 密码已记下 ([[c:418207]])',
    () => "PBX default password is **'[[c:SilverLake]]'** until changed",
    () => '- Site password check: on ✅ ([[c:Gatepass7]])',
    () => '- Shop preview (password-protected, open with ?preview=[[c:shoppreview2031]])',
    (t) =>
      `Боевой аккаунт: идентификатор \`48213\`, ключ \`${wrap(`${t.hex(8)}-${t.hex(4)}-4${t.hex(3)}-a${t.hex(3)}-${t.hex(12)}`)}\``,
  ],
  // From the 43 tune folders (docs/credentials.md §2), in my own words and values.
  'tune-43': [
    () =>
      `Setup Code: [[c:${Buffer.from('{"url":"ws://hub.example.net:8080","pairToken":"Lk4-Qz81vT2mXb9WpR7dNc3s"}').toString('base64url')}]]`,
    () => 'Shop consumer key: [[c:ck_Vb72nQx9Lm4TzPa8]]',
    () => 'Set the consumer key (`[[c:ck_Hy63pRt8Ws2Ke5Nm1Qz]]`) in the shop config',
    () => '`sess` cookie: `[[c:Pq92LmZt41vKxW07cBn6Js8eYr3fGd5hT2uA]]`',
    () => '| **App Password** | `[[c:zmvrtkqlpwxbsndh]]` |',
    () => 'HUB_TOKEN=[[c:swap-me-soon]] node hub.js --port 9000',
    () => 'shop consumer key fixed: ck_→[[c:ck_Rt58mWq2Zx7LpV4n]] (right prefix)',
    () => '- Tài khoản shop: pass chung `[[c:shop2027xy]]`, mỗi dòng một tài khoản',
  ],
  // From the 62 tune folders (held-out-2 read after its first run; docs/credentials.md §2), in my own words and values.
  'tune-62': [
    (t) => `2. **Tunnel authtoken saved**: ${wrap(`${t.alnum(20)}_${t.alnum(22)}`)}`,
    () => '1. **VAULT_UNLOCK_PASSWORD** - was stale ([[c:OldVault-2025!]] → [[c:NewVault-8841%]])',
    () => 'workflow Login: [[p:ops.desk@corretora-demo.com.br]] / [[c:Wflow-Desk-2026!]]',
    (t) =>
      `Panel info\nVPS id 998877\n${wrap(`${t.alnum(14)}Q${t.alnum(14)}k${t.alnum(14)}`)}\nassistant: got it, storing that token locally`,
  ],
  // From the 117 tune folders (held-out-4 and held-out-5 spent; docs/credentials.md §2), in my own words and values.
  'tune-117': [(t) => `ou_${t.hex(32)}: the panel password: [[c:Srch-Pnl-6620]] from now on`],
  // From the 147 tune folders (held-out-6 spent; docs/credentials.md §2), in my own words and values.
  'tune-147': [
    () => '- **登录账号**: 13900001111 / [[c:plum2468qa]]',
    (t) => `## API keys we still need\n\n- **Lookup API:** [[c:Kq7${t.alnum(20)}_Zr${t.alnum(4)}_]] (still 401)`,
    (t) => `1. **Lookup API** - signed up, made a key for the bot\n   - Key: \`[[c:Mv2${t.alnum(24)}-]]\``,
    () => '## API Keys\n- Page Search: [[c:3f6c1a2e-9b0d-4e7a-8c5f-1d2e3f4a5b6c]]',
    () => '- **Demo call**: booked (Meeting ID: 555 0100 2233, Passcode: [[c:730418]])',
    () => '- SSH works (password: [[c:tide-harbor]])\n- client folder: /data/[[c:tide-harbor]]/',
    (t) => `Mara: [[c:srch-dev-${t.alnum(6)}Q7k-${t.alnum(28)}]]\n这是密钥\n**12:41** noted`,
  ],
  // From the 177 tune folders (held-out-7 spent; docs/credentials.md §2), in my own words and values.
  'tune-177': [
    () => '- 成功登录网关 (gw.lan, root/[[c:b4e19c07d2]])',
    (t) => `- **VideoGen（生视频）**：\`[[c:sk-vidgen-${t.hex(32)}]]\`，需 VIP`,
  ],
  personal: [
    () => 'The NAS lives at [[p:192.168.1.20]] and the pi at [[p:192.168.1.21]].',
    () => 'k3s nodes: [[p:10.0.10.11]], [[p:10.0.10.12]], [[p:10.0.10.13]]',
    () => 'VPN subnet gateway [[p:172.16.5.1]]',
    () => 'ULA prefix host [[p:fd12:3456:789a:1::42]]',
    () => 'Ask [[p:dana.m@corp.example.net]] about the VPN',
    () => 'Invoices go to [[p:billing-team@example.co.uk]]',
    () => 'Her notes are in [[p:/home/alice]]/notes',
    () => 'Copied from [[p:/Users/bob]]/Desktop/old',
    () => 'Windows profile [[p:C:\\Users\\carol]]\\Documents',
    () => '| host | ip |\n|---|---|\n| nas | [[p:192.168.50.2]] |\n| cam | [[p:192.168.50.9]] |',
  ],
};

function wrap(value: string): string {
  return `[[c:${value}]]`;
}

/** An application password: six groups of four letters and digits, separated by spaces. */
export function groups4(t: TokenMaker): string {
  return Array.from({ length: 6 }, () => t.alnum(4).replace(/^\d/, 'q')).join(' ');
}

/** Look-alikes (docs/credentials.md "Not credentials") and ordinary note text. */
export const NEGATIVES: Snippet[] = [
  // placeholders and references
  () => 'password: <your-password>',
  () => 'password: {{ vault_nas_password }}',
  () => 'token: ${GITHUB_TOKEN}',
  () => 'export GH_TOKEN=$GH_TOKEN',
  () => 'DB_PASSWORD=${DB_PASSWORD:-}',
  () => 'set `API_KEY=%API_KEY%` on Windows',
  () => 'const key = process.env.OPENAI_API_KEY',
  () => 'password: ********',
  () => 'api key: xxxxxxxxxxxxxxxx',
  () => 'token: sk-...',
  () => 'The GitHub token looks like `ghp_abcd...` (shortened)',
  () => 'password: REDACTED',
  () => 'password: <REDACTED>',
  () => 'password = your-password-here',
  () => 'Passwort: <dein-passwort>',
  () => 'SSHPASS=$(sudo grep nas_pw /root/.secrets)',
  () => 'pw: `$(pass show nas/admin)`',
  () => 'The NAS password is in 1Password (item "NAS admin").',
  () => 'the password is in the vault',
  () => 'Root password: stored in the Bitwarden vault, entry homelab-root-01',
  () => 'API key lives in `.env` (never commit it)',
  () => 'Token is in the macOS keychain under `gh-cli-2024`.',
  () => '비밀번호는 1Password에 있음',
  () => 'password: see the vault',
  // short values and plain words
  () => 'password: required',
  () => 'password: optional',
  () => 'auth: basic',
  () => 'pw: none',
  () => 'token: bearer',
  () => 'The password field is required on the login form.',
  () => 'Reset your password from the settings page.',
  () => 'Password policy: at least 12 characters, rotated yearly.',
  () => 'max_tokens: 100000',
  () => 'token_count: 123456',
  () => 'password_file: /run/secrets/db_password',
  () => 'PASSWORD_FILE=/run/secrets/pg',
  () => 'ssh-agent holds the key; no password needed',
  () => 'Use `pwd` to print the current folder',
  () => 'The login page at /login redirects to /dashboard',
  () => 'Login flow: user -> OAuth -> callback',
  () => 'Account settings: https://example.test/account/security',
  () => 'user / group: www-data:www-data',
  () => 'Login via `ssh admin@nas.lan` (key auth only)',
  () => 'Credentials are rotated by the secrets operator every 30 days.',
  () => 'token limit per request is 4096',
  () => 'author: Jane Doe 2nd',
  () => 'secretary: Ms. Park (ext. 2041)',
  () => 'keyboard layout: us-intl',
  () => 'monkey-patch the client in tests',
  // public keys and ids
  (t) => `PublicKey = ${t.b64(43)}=`,
  (t) => `[Peer]\nPublicKey = ${t.b64(43)}=\nAllowedIPs = 0.0.0.0/0`,
  (t) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${t.b64(43)} me@laptop`,
  (t) => `pubkey: ${t.b64(44)}`,
  (t) => `Cloudflare zone id: ${t.hex(32)}`,
  (t) => `account_id = "${t.hex(32)}"`,
  (t) => `Account ID: ${t.hex(32)}`,
  (t) => `tenant id ${t.hex(8)}-${t.hex(4)}-${t.hex(4)}-${t.hex(4)}-${t.hex(12)}`,
  (t) => `client_id: ${t.hex(8)}-${t.hex(4)}-${t.hex(4)}-${t.hex(4)}-${t.hex(12)}`,
  (t) => `Google Drive folder id ${t.alnum(33)}`,
  (t) => `| Token ID | Scope |\n|---|---|\n| ${t.hex(8)} | read |`,
  (t) => `| Key | Meaning |\n|---|---|\n| ctrl-k | search |\n| entry-key-name | ${t.alnum(6)} |`,
  // git SHAs, UUIDs, hashes
  (t) => `Fixed in commit ${t.hex(40)}.`,
  (t) => `verified-at: ${t.hex(40)}`,
  (t) => `sha: ${t.hex(40)} (key loader refactor)`,
  (t) => `see https://github.com/example/repo/commit/${t.hex(40)} for the token refresh`,
  (t) => `revision ${t.hex(12)} of the key rotation script`,
  (t) => `request id ${t.hex(8)}-${t.hex(4)}-4${t.hex(3)}-a${t.hex(3)}-${t.hex(12)}`,
  (t) => `image digest sha256:${t.hex(64)}`,
  (t) => `"integrity": "sha512-${t.b64(86)}=="`,
  (t) => `SHA256:${t.hex(64)} is the checksum of the ISO`,
  (t) => `key: ${['deploy', 'runbook', 'backup', 'nas'][t.hex(1).charCodeAt(0) % 4]}-entry-name-2026-06-23`,
  () => 'key: homelab-network-layout-2026-05-01',
  () => 'key: prefer_small_commits_over_big_ones',
  // e-mail look-alikes and addresses that are not private
  () => 'Clone with git@github.com:example/dotfiles.git',
  () => 'Icons: logo@2x.png and logo@3x.png',
  () => 'Import zpool via zfs-import@tank.service and getty@tty1.service',
  () => 'systemctl enable wg-quick@wg0.service',
  () => 'npm i react@19.2.0 @types/node',
  () => 'Public DNS 1.1.1.1 and 8.8.8.8; version 10.15.7; not an address 110.0.0.1',
  () => 'The ULA range is fc00::/7, link local fe80::1',
  () => 'Docs say /home/user/.config and $HOME/.ssh',
  // sk-learn and friends
  () => 'We use sk-learn and sk-image for the notebook.',
  () => 'Branch name ghp_short is an old experiment',
  () => 'AKIA is the prefix of AWS access key ids',
  () => '-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----',
  () => '-----BEGIN PUBLIC KEY-----',
  // ordinary notes
  () => 'Prefers short answers with the code example first.',
  () => 'The staging cluster is rebuilt every Monday morning.',
  () => '**Why:** the backup job failed twice in March.\n\n**How to apply:** check the logs before rerunning.',
  () => 'Run `npm test -- --run` before pushing; CI uses Node 20.',
  () => '| Service | Port | Notes |\n|---|---|---|\n| grafana | 3000 | dashboards |\n| loki | 3100 | logs |',
  () => '```bash\ndocker compose -f stack.yml up -d\nkubectl get pods -A\n```',
  () => 'Use the `--password-stdin` flag with docker login.',
  () => 'curl -u "$USER:$TOKEN" https://api.example.test',
  () => 'mysql -u root -p shop  # prompts for the password',
  () => 'The token bucket refills 10 tokens per second.',
  () => 'Rotate the API keys quarterly; the owner is the platform team.',
  () => 'Secret scanning is on for every repository.',
  () => '## Keys\n\nKeyboard shortcuts: ctrl-k opens search, ctrl-p the palette.',
  () => '## API key\n\nAsk the platform team for one; they live in the vault.',
  () => '비밀번호 정책: 12자 이상',
  () => '密码必须至少12个字符',
  () => 'パスワードを忘れた場合は管理者に連絡',
  () => 'La contraseña debe tener al menos 12 caracteres.',
  () => 'Le mot de passe est dans le coffre (Bitwarden).',
  () => 'Das Passwort steht im Tresor.',
  () => 'A senha está no cofre do 1Password.',
  () => 'Пароль хранится в менеджере паролей.',
  () => 'Notes in Thai: ตั้งค่าเครือข่ายบ้าน',
  () => 'Password reset emails are sent from no-reply.',
  () => 'sudo -S reads the password from stdin',
  () => 'htpasswd -c .htpasswd alice  # asks for the password',
  // engineering notes: keys written from titles, files, flags and names near token/pass/secret
  (t) => `key: the-nightly-export-skips-archived-rows-${t.hex(4)}`,
  (t) => `key: retry-budget-resets-on-deploy-${t.hex(7)}`,
  () => 'key: release7-checklist-keeps-the-changelog-honest',
  () => 'key: parser-treats-c0-c1-controls-as-text-9f3a',
  () => 'key: docs/design/rate-limiter-v2-draft',
  () => '- Fix: consume the token. Delete `.cache/state/consent_marker` once the job lands.',
  () => 'The refresh token path moved to `state/tokens/<user>.json` (see D-3).',
  () => 'Do not pass `--skip-checks` to the release script.',
  () => 'Tests pass `IS_CI` through to the runner.',
  () => 'The session token is Write-only, so read it back from the cookie jar.',
  () => 'approval token mtime `09:41:07.552` in the log, but the gate stamped later',
  () => 'The auth helper reads `settings.auth.enabled` before anything else.',
  () => 'secret rotation lives in `scripts/ops/rotate-keys.sh`',
  () => 'Secrets are listed in `deploy/secrets.example.yaml`, values come from CI.',
  () => 'The token budget is tracked in `metrics.tokenBudget` per run.',
  () => 'Caveat: the loader keys on `config.json`; a renamed file is silently skipped.',
  () => 'Login happens in `auth/session.mjs`: it reads `login.ts` first.',
  () => 'user `docs/guide.md` / `README.md` are the two entry points',
  () => 'Parse the token with `jwt_decode` and check `exp` (never trust the client).',
  () => 'design-tokens.json = colors18+palette5, type scale in typography.json',
  () => 'Edge function secret: SIGNING_JWK(for sessions), ADMIN_API_KEY.',
  () => '인증 방식은 Auth=이메일+비번 (소셜 로그인 없음)',
  () => 'the webview sets `autoRefreshToken:false`(once) before login',
  () => '```yaml\nenvironment:\n  - ADMIN_PASSWORD=${ADMIN_PASSWORD:-admin}\n```',
  // context and shape look-alikes (docs/credentials.md §2)
  (t) => `Credentials sheet: https://docs.google.com/spreadsheets/d/1${t.alnum(43)}/edit`,
  (t) => `passwords doc: https://docs.google.com/document/d/1${t.alnum(43)}/edit (ask ops for access)`,
  (t) => `| Node | Credential |\n|---|---|\n| Gmail | \`${t.alnum(16)}\` |`,
  (t) => `token contract 0x${t.hex(40)} (ERC-20)`,
  (t) => `key: \`${t.alnum(36)}…\` (truncated)`,
  () => 'export BRAVE_API_KEY=<BRAVE_KEY>',
  () => 'design tokens: `brand-500`, `space-4x`, `radius-md2`',
  () => 'Token pacing: keep `max_rpm_60` for the batch job',
  () => 'approval-token filename: `approve-2026-06-01.tok`',
  () => 'we only store the bcrypt hash of the password: `$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy`',
  () => 'token file: `.secrets/gh-token-2.txt`',
  () => 'Datacenter → node → System → Reset Root Password → `Apply2`',
  () => 'Pass 1: `dedupe_v2` over the rows',
  () => 'Sanity PASS: `14of14` checks',
  () => '## Credentials\n\n- rotate every 90 days\n- owner: `ops-team`\n- file: `~/.config/app/creds.json`',
  () => '## Passwords\n\nSee `docs/security.md` and the policy `pw-policy-v2`.',
  () => 'the guest pass expires on `2026-07-01`',
  () => 'users / groups: `www-data` / `adm`',
  () => 'Bearer tokens are refreshed every hour by `auth-refresh`',
  () => 'AK/SK are issued per project; never paste them here.',
  () => '`snmpwalk -v2c -c public 192.0.2.1 system`',
  () => 'Release v2.3/v2.4 split: src/Button2.tsx moved',
  // real tune fold look-alikes (docs/credentials.md §6), in my own words
  () => 'Rent goes to IBAN DE44 5001 0517 5407 3249 31 every month (app password not needed)',
  () => 'Checkout page uses publishable key pk_live_51Demo0000publishableKeyShownOnCheckoutPage000',
  () => '- Search Console verified via DNS (token `example-site-verification=Zx81demoValue0000abcdEF`)',
  () => 'Mailer API key: see `.env.local` (`MAILER_API_KEY`)',
  () => 'Bot secrets live in `config/.env` (`CHAT_TOKEN`, `ROOM_ID`), never committed',
  () => '- 每次运行大约 tokens: ~300K-2M',
  () => 'Auth check: `loadSessionMember()` then `assertRole()`',
  () => 'the OAuth client talks to store `shop-dev-7x2k9`',
  () => 'lookup in the account gave (`NO_MATCH` / `UNKNOWN_ZONE`)',
  () => 'user table columns: `balance`, `total_spent`, `total_used`',
  () => 'the staging login shares credentials with production (`owner@example.org`)',
  () => 'uploads authenticate with OAuth creds from `.upload-credentials.json` instead',
  () => 'Escrow contract (`0x52908400098527886E0F7030069857D2E4169EE7`) holds the deposits, token side',
  () => '- Seats cost ($6.50/user/month) on the team plan',
  () => '- deploy ran for project `1DemoAppsScriptIdAbCdEfGhIjKlMnOpQrStUvWxYz012345` after the token refresh',
  () => '    @task(3)',
  () => "        self.api_token = response_json['token']",
  () => '- `settle()` moves the tokens out of `_heldTokens[orderId]`',
  () => 'STORE_TEST_TOKEN=shpat_xxx \\',
  () => 'root may log in by key only: password login off/key-only',
  // personal-assistant and homelab notes (docs/credentials.md, "Real stores", second pass)
  () => '- Idea: **Page:** https://notes.example.com/wiki/spaces/HOME/pages/90817263; **Key:** the nightly sync loop',
  () =>
    'Updated [SKILL.md](/opt/assistant/.assistant/workspace/skills/switch-gs108/SKILL.md:3): the key now comes from env',
  () => 'The Grafana token can come from 1Password nicely via `alerts.sources.grafana.token` today.',
  () => 'User: keeps the bot as `sandbox=all` / `confirm=off` for the cron jobs',
  () => 'User: `local-llm/qwen-2.5` and `local-llm/qwen-2.5-coder` are the defaults',
  () => '| Node | 22.3, runs as `agent` user, npm prefix `~/.npm-packages` |',
  () => '- `credentials/` perms fixed: 775→750 after the audit',
  () => 'Set `BACKUP_API_KEY=user:password`, one variable for both parts.',
  () => 'The NAS wants an app secret, not a combined `user:secret` string.',
  () => 'Exporting `GRAFANA_API_SECRET` helped: `alerts list` printed four rules.',
  () => 'Home account granted OAuth scopes: `photos,calendar,tasks` last week.',
  () => '| Secret | Used by |\n|---|---|\n| `DEPLOY_HOOK_TOKEN` | the docs site |\n| `ALERT_ROOM_ID` | alerts |',
  () => 'Register with `./config.sh --url https://git.example.net/home --token RUNNER_TOKEN` as the runner user.',
  () => 'Told him how the root password behaves on `pve.home.example.org`: passwd, then su.',
  () => 'cache 改为 redis (沿用旧 密码 fallback)。jobs/cache/loader.py 不受影响。',
  // the 43 tune folders (docs/credentials.md §2), in my own words
  () => '如果新密钥只支持 `demo-vision-3.1-lite`，需要改成：',
  () => '- Checked: the API key can call `chat-4.2-mini` now',
  () => 'Session shows: **relay-portal/RelayMax-R3.5** (default endpoint)',
  () => '- `oembed.example.org/embed?url=` returns titles after login',
  () => '## Sync 4: export test + after-login (18:05-18:40 UTC)',
  () => 'from the captured login (tester1/tester2 sets)',
  () => '## Key packets (client side)\n\nMove: `K2S_WalkPathStep`, `K2S_TurnAroundNow`',
  () => '### Session key generator\n\n- Output: string "C7A1E2F9-4B3D6E8A-91F0C2D5"',
  () => '- storage key used: `project/pr_Ab12Cd34Ef/file_upload_session/fus_Zy98Xw76Vu/report`',
  () => '- R2 Access Key: `5d0c9e1f2a3b4c5d6e7f8091a2b3c4d5`',
  () => '- Connected account: `ca_Pq72mZx9Lk`, auth config: `ac_Tm3kq9XwPz2L`',
  () => '- Paste proxies (format `ip:port:user:pass:HTTP2`, `:HTTP2` optional)',
  () => '- Session cookie set successfully (`app_auth=ok`)',
  () => '- Image API key connected: studioowner77 account',
  () => 'RELAY_TOKEN=relay_bot_token node relay.js',
  () => '- Key fix: the text is in `card-body__text--clamp-after-5` div',
  // the 62 tune folders (docs/credentials.md §2), in my own words
  () => '- Pool token: `POOLX-4e7a2c` (staking asset)',
  () => '- Token hex: `504f4f4c582d346537613263` (the asset id written in hex)',
  () => '- Payout address: `bc1qw4t8x2m9fz0l3hd7s5c6r8e2k4n9p0u7y3v6q`',
  () => '- Delivery wallet `erd1qzt7l8e0x9w2m4c6r5s3u7y2k8n0p4d6f9h3j5l7q2w4e6r8t0ygsx3lk8`',
  () => '- Keyring password: `APP_KEYRING_PASSWORD` in `.env`',
  () => 'The admin password comes from the `PANEL_ADMIN_PASSWORD` env var (a long random string).',
  () => 'export APP_API_SECRET = PUBLIC_API_KEY (same value both sides)',
  () => 'Portal accepted the username/password but rejected `demo_entity` as entity id.',
  () => '**B) Cloud API key** — `vector-embed-2-large`, cheap and simple',
  () => 'The bot token for `@DemoHelper_bot` was pasted in chat and must be rotated.',
  () => 'Gateway integration: auth by token/header/password, `keyStrategy=issue|fixed|run`, device auth on.',
  () => '- Mailbox ready, password kept in `.env`; app passwords at `myaccount.example.com/apppasswords`',
  () => '- SSH key `id_ed25519` (ops@lab) matched the authorized_keys of the VPS',
  () => '## Partner API Bearer Token（2026-03-16 团队提供）',
  () => '- 套餐 Token Plan：100张图/月额度，接口暂不可用',
  () => '- wallet files do NOT decrypt (made before the password was set/changed)',
  () => '- GitHub search works（Token：ghp_Ab3d...）',
  // unlabelled public folders read for false findings (docs/credentials.md §2), in my own words
  () =>
    '| Key | Paper |\n|---|---|\n| `miller2024tokenizers` | Miller et al. |\n| `okafor2025alignment` | Okafor et al. |',
  () => '- Link: <https://forum.example.org/posts/Ab3dE5fG7hJ9kL2mN/the-secret-of-things-2>',
  () => 'const api = google.drive({ version: "v3", auth: oauth2Client });',
  () => 'Recent results: login flows for MCP/A2A-style agents are maturing',
  () => 'check_gate.py PASS: cosine_at_gate=0.9931, mean_off=0.2781',
  () => '**Required Secret:** `PUBLIC_APP_URL=https://[app-name].example.app`',
  () => 'API_KEY = settings["api_key"]',
  () => 'agent_cost_token_total{job="v6-federal-reports"}',
  () => "DATABASE_URL='postgresql://user:pass@localhost:5432/app' npm run build",
  // the 117 tune folders (held-out-4 and held-out-5 spent; docs/credentials.md §2), in my own words
  (t) => {
    const id = `ou_${t.hex(32)}`;
    return `"sender_id": "${id}",\n"label": "${id}"\n\n${id}: add the search service, its API key is in the vault`;
  },
  (t) => {
    const v = t.alnum(44);
    return `LAUNCH_CONFIG_KEY=${v}\nLAUNCH_ACCOUNT_ID=${v}\nSET value = '${v}'`;
  },
  (t) => `| **16:40** | hub secret rotated, worker back | thread msg_${t.hex(32)} |`,
  () => '## Credentials\n\n<key>StandardOutPath</key>\n<string>/opt/tunnel/logs/client.log</string>',
  () => 'RELAY_PEER=&quot;$PEER&quot; RELAY_SECRET=*** RELAY_URL=&quot;$URL&quot; node relay.js',
  () => "type MemberNoPassword = Omit<Member, 'password'>;",
  () => '- User: 改用模型Bolt/Bolt2-70B 做摘要',
  () => '- Root cause: `sm:flex-col-2` stacked the sidebar under the list',
  () => 'Batching saves tokens (~$2,100-4,800/year) on the nightly job',
  () => 'The bot token is read from the unit file:\nEnvironment=BOLT_HTTP_PORT=9090',
  (t) => {
    const seg = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    return `curl -H "apikey: ${seg({ alg: 'HS256', typ: 'JWT' })}.${seg({ iss: 'demo', role: 'anon' })}.${t.alnum(43)}"`;
  },
  () => '{"username": "tester", "password": "required"}',
  // the 147 tune folders (held-out-6 spent; docs/credentials.md §2), in my own words
  () =>
    'Models (relay · api-key) — 1-4 of 4\n- relay/Orca-R2-0601\n- relay/Orca-R2-Long\n- relay/Heron-4.1\n- relay/Wren-K3-Chat',
  () => '| mailhost | imap.mail.example:993 | **OAuth2/XOAUTH2** | login via the desktop client id |',
  () => 'The report screen uses named keys (`RPT_INK/INK2/PANEL/KEY_INK/BAR_BG/\n  NODE`).',
  (t) => `~/.profile already has: export GH_TOKEN=${t.gh().slice(0, 15)}...`,
  () => 'plugin: channel= {"user_Token":"user_7q2kd81xme","chat_id":"c41"}\nplugin: extracted user_id= user_7q2kd81xme',
  () => '1. `VISION_API_KEY=runner-local` → the image tool falls back to the local runner',
  // the 177 tune folders (held-out-7 spent; docs/credentials.md §2), in my own words
  () =>
    '- Balance: 1.20 → 1.45 SOL\n- Recent token: 9xQz4kPm7TgR2wHs5vNb8cJd3FyLa6Ee\n\n**9xQz4kPm7TgR2wHs5vNb8cJd3FyLa6EeQ**',
  () => '### Q8mZ2rT5vX9kW3nB7pL4\n- 12.5 units, idle\n\nToken: `Q8mZ2rT5vX9kW3nB7pL4`',
  (t) => `App secret and ids from the console:\n企业ID\nww${t.hex(16)}\nBot ID\n${t.alnum(32)}-Q7x`,
  () => 'user: dev@Work-Laptop ~ % sudo pmset -a sleep 0 Password: dev@Work-Laptop ~ % sudo pmset -a disksleep 0',
  () => '- 交付：`clip_12s.mp4` 已上传到网盘并发回链接（token: `Qb7Xk2Lm9Rt4Vw8Zn3Pc6Hs1J`）',
  () => 'BUILT: weekly cron for the tracker. EVAL PASS: 3c9e7a12-5b4d-4e8f-9a1b-2c3d4e5f6a7b. NEXT: review.',
  () => '- Team: Varsity — slug: `demo-team`, token: `7ab3c9e1f042`',
  () => '  - Token 状态：mode=bot，tokenState=ok，3 个 scope',
  () => '- **WEAK TOKEN:** drop5<-8% OR vol1h<2% → SKIP',
  () => '**Pregunta clave:** ¿Dónde dormimos la primera noche del viaje?',
  () => '  - 当前状态：进程在等待终端输入 sudo 密码（提示 `Password:`），需要用户输入后才能继续。',
  () =>
    "2026-02-24 03:03:28,796 [svc] INFO STORE id=5d2c8e1a-7f3b-4a6d-9c0e-1b2a3d4c5e6f key='sweep-report-3c9e7a12-5b4d-4e8f-9a1b-2c3d4e5f6a7b'",
];
