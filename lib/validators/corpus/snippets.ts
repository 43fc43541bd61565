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
  (t) => `token: ${t.hex(8)}-${t.hex(4)}-4${t.hex(3)}-8${t.hex(3)}-${t.hex(12)}`,
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
];
