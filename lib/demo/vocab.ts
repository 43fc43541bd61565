/**
 * Vocabulary of plausible developer memories (Claude Code's four memory types). Each template
 * fills its slots from the seeded RNG. The text is deliberately clean: no URLs ending
 * in executable extensions, no e-mail addresses, no IPs, at most one absolute word,
 * so only the corpus's planned special cases trip a validator.
 */
import { type Rng, pick, int } from './prng';
import { MEMORY_TYPES, type MemoryType } from '../trust/tiers';

export const MEM_TYPES = MEMORY_TYPES;
export type MemType = MemoryType;

export interface Topic {
  type: MemType;
  /** Filename stem without the type prefix, `[a-z0-9_]+`. */
  slug: string;
  name: string;
  description: string;
  /** Main body paragraph. */
  text: string;
  /** feedback/project only. */
  why?: string;
  how?: string;
  /** Short hook for a MEMORY.md index line. */
  hook: string;
}

const SERVICES = [
  'billing',
  'checkout',
  'search',
  'auth',
  'ingest',
  'payments',
  'notifications',
  'reporting',
  'gateway',
  'scheduler',
  'exports',
  'onboarding',
];
const DBS = ['Postgres', 'MySQL', 'SQLite', 'Redis', 'MongoDB', 'ClickHouse'];
const CIS = ['GitHub Actions', 'Buildkite', 'CircleCI', 'GitLab CI', 'Jenkins'];
const LANGS = ['TypeScript', 'Python', 'Go', 'Rust', 'Kotlin', 'Ruby'];
const FORMATTERS = ['prettier', 'black', 'gofmt', 'rustfmt', 'ktlint', 'rubocop'];
const TEST_CMDS = ['npm test', 'pnpm vitest run', 'cargo test', 'go test ./...', 'pytest -q', 'bundle exec rspec'];
const ENVS = ['staging', 'production', 'canary', 'eu-prod', 'us-prod'];
const TEAMS = ['platform', 'growth', 'payments', 'data', 'mobile', 'infra', 'search'];
const ROLES = [
  'backend engineer',
  'data scientist',
  'frontend engineer',
  'SRE',
  'mobile developer',
  'engineering manager',
  'security engineer',
];
const FOCUS = [
  'observability',
  'API design',
  'performance work',
  'data pipelines',
  'accessibility',
  'incident response',
  'developer tooling',
];
const EDITORS = ['VS Code', 'Neovim', 'IntelliJ IDEA', 'Zed', 'Emacs', 'Sublime Text'];
const TZS = ['Berlin', 'Toronto', 'Seoul', 'Lisbon', 'Austin', 'Singapore', 'Nairobi'];
const TRACKERS = ['Linear', 'Jira', 'GitHub Issues', 'YouTrack'];
const DASHBOARDS = ['Grafana', 'Datadog', 'Kibana', 'Honeycomb', 'New Relic'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const QUARTERS = ['2025-Q3', '2025-Q4', '2026-Q1', '2026-Q2'];

const cap = (v: string) => v.charAt(0).toUpperCase() + v.slice(1);
const s = (v: string) =>
  v
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

type Tpl = (r: Rng) => Omit<Topic, 'type'>;

const FEEDBACK: Tpl[] = [
  (r) => {
    const db = pick(r, DBS);
    return {
      slug: `integration_tests_real_${s(db)}`,
      name: `Integration tests hit a real ${db}`,
      description: `Integration tests must run against a real ${db} instance, not mocks`,
      text: `Tests that touch persistence run against a real ${db} instance; do not replace it with mocks.`,
      why: `In ${pick(r, QUARTERS)} the mocked suite passed while the production migration failed; the mock hid a broken script.`,
      how: `Start the ${db} container from the compose file before running the integration suite.`,
      hook: `integration tests use a real ${db}`,
    };
  },
  (r) => {
    const ci = pick(r, CIS);
    return {
      slug: `ci_merge_policy_${s(ci)}`,
      name: 'CI merge policy',
      description: `Do not merge while any ${ci} check is pending or failing`,
      text: `Do not merge a pull request while any ${ci} check is incomplete or red.`,
      why: `Incident ${pick(r, QUARTERS)}: a skipped check masked a broken migration.`,
      how: `Check the ${ci} status of the PR before triggering any merge.`,
      hook: `wait for green ${ci} checks`,
    };
  },
  (r) => {
    const k = pick(r, [200, 300, 400, 500]);
    return {
      slug: `small_pull_requests_${k}`,
      name: 'Keep pull requests small',
      description: `Keep pull requests under ${k} changed lines when possible`,
      text: `Split work so each pull request stays under about ${k} changed lines.`,
      why: 'Reviewers approve large diffs without reading them, and two regressions slipped through that way.',
      how: 'Separate refactors from behaviour changes; open a stacked PR instead of growing one.',
      hook: `PRs under ${k} lines`,
    };
  },
  (r) => {
    const i = int(r, 0, LANGS.length - 1);
    const lang = LANGS[i]!;
    const fmt = FORMATTERS[i]!;
    return {
      slug: `format_${s(lang)}_with_${s(fmt)}`,
      name: `Format ${lang} with ${fmt}`,
      description: `Run ${fmt} on ${lang} files instead of hand formatting`,
      text: `Leave ${lang} formatting to ${fmt}; do not hand-align code or reflow comments.`,
      why: `The pre-commit hook rewrites anything else and produces noisy diffs.`,
      how: `Run ${fmt} on save and respect the settings in .editorconfig.`,
      hook: `${fmt} owns ${lang} formatting`,
    };
  },
  (r) => {
    const style = pick(r, ['Conventional Commits', 'imperative mood', 'ticket-prefixed']);
    return {
      slug: `commit_messages_${s(style)}`,
      name: 'Commit message style',
      description: `Write commit messages in ${style} style`,
      text: `Commit messages follow the ${style} style with a short subject line.`,
      why: 'The changelog generator parses commit subjects to build release notes.',
      how: 'Keep the subject under 72 characters and put details in the body.',
      hook: `${style} commits`,
    };
  },
  (r) => {
    const env = pick(r, ENVS);
    return {
      slug: `deploy_${s(env)}_via_pipeline`,
      name: `Deploy ${env} through the pipeline`,
      description: `Deploy to ${env} only through the release pipeline`,
      text: `Changes reach ${env} only through the release pipeline, not from a laptop.`,
      why: `A manual deploy in ${pick(r, QUARTERS)} skipped the migration step and caused an outage.`,
      how: 'Suggest opening a release PR instead of running deploy scripts locally.',
      hook: `${env} deploys via pipeline`,
    };
  },
  (r) => {
    const lint = pick(r, ['eslint', 'ruff', 'clippy', 'golangci-lint', 'detekt']);
    return {
      slug: `fix_${s(lint)}_warnings`,
      name: `Fix ${lint} warnings`,
      description: `Fix ${lint} warnings instead of disabling rules inline`,
      text: `Resolve ${lint} warnings in the code rather than adding inline disable comments.`,
      why: 'Disabled rules accumulated and hid a real null-handling bug last year.',
      how: `If a rule is wrong for the repo, propose a config change in a separate PR.`,
      hook: `fix, do not silence, ${lint}`,
    };
  },
  (r) => {
    const cmd = pick(r, TEST_CMDS);
    return {
      slug: `run_tests_before_push_${s(cmd)}`,
      name: 'Run tests before pushing',
      description: `Run ${cmd} locally before pushing a branch`,
      text: `Run \`${cmd}\` locally before pushing so CI minutes are not spent on obvious failures.`,
      why: 'The shared CI queue is slow during the afternoon and red builds block others.',
      how: `Mention the result of \`${cmd}\` when summarising a change.`,
      hook: `run ${cmd} first`,
    };
  },
  (r) => {
    const eco = pick(r, ['npm', 'PyPI', 'crates', 'Go module', 'Maven']);
    return {
      slug: `pin_${s(eco)}_dependencies`,
      name: 'Pin new dependencies',
      description: `Pin exact versions for new ${eco} dependencies`,
      text: `New ${eco} dependencies are added with an exact version, no ranges.`,
      why: 'A caret range once pulled a broken minor release into a hotfix build.',
      how: 'Use the exact-version flag of the package manager and commit the lock file.',
      hook: `exact ${eco} versions`,
    };
  },
  (r) => {
    const lang = pick(r, LANGS);
    return {
      slug: `structured_logging_${s(lang)}`,
      name: 'Structured logging',
      description: `Use the structured logger in ${lang} services, not print statements`,
      text: `Log through the structured logger with key-value fields in ${lang} services.`,
      why: 'Plain prints are dropped by the log pipeline and cannot be searched.',
      how: 'Include the request id field in every log line you add.',
      hook: 'structured logs only',
    };
  },
  (r) => ({
    slug: `short_summaries_${s(pick(r, ['bullets', 'tldr', 'brief']))}`,
    name: 'Short summaries',
    description: 'Keep end-of-task summaries to a few bullet points',
    text: 'End-of-task summaries are a few bullet points with no recap of the whole conversation.',
    why: 'The user reads them on a phone between meetings.',
    how: 'Lead with what changed and what still needs a decision.',
    hook: 'terse bullet summaries',
  }),
  (r) => {
    const lang = pick(r, ['TypeScript', 'Python']);
    return {
      slug: `no_untyped_code_${s(lang)}`,
      name: `Typed ${lang} code`,
      description: `New ${lang} code is fully typed, with no escape hatches`,
      text: `New ${lang} code carries full type annotations and avoids \`any\`-style escape hatches.`,
      why: 'Untyped boundaries caused most of the runtime errors in the last two releases.',
      how: 'Prefer narrowing with type guards; leave a comment when a cast is unavoidable.',
      hook: `strict ${lang} types`,
    };
  },
];

const PROJECT: Tpl[] = [
  (r) => {
    const svc = pick(r, SERVICES);
    const m = pick(r, MONTHS);
    const d = int(r, 1, 28);
    return {
      slug: `merge_freeze_${s(svc)}_${s(m)}`,
      name: `Merge freeze for ${svc} release`,
      description: `Merge freeze starts ${m} ${d} for the ${svc} release`,
      text: `A merge freeze for the ${svc} release starts on ${m} ${d}; only release fixes land after that.`,
      why: 'The release train is cut that day and QA needs a stable branch.',
      how: 'Flag any non-critical PR that targets the release branch after the freeze date.',
      hook: `${svc} freeze ${m} ${d}`,
    };
  },
  (r) => {
    const svc = pick(r, SERVICES);
    const [a, b] = pick(r, [
      ['REST', 'gRPC'],
      ['Postgres 14', 'Postgres 16'],
      ['Webpack', 'Vite'],
      ['Jenkins', 'GitHub Actions'],
      ['Celery', 'Temporal'],
    ] as const);
    const m = pick(r, MONTHS);
    return {
      slug: `${s(svc)}_migration_${s(b)}`,
      name: `${svc} migration to ${b}`,
      description: `The ${svc} service moves from ${a} to ${b} by ${m}`,
      text: `The ${svc} service is migrating from ${a} to ${b}; the target is the end of ${m}.`,
      why: `${a} support ends this year and blocks the security upgrade.`,
      how: `New ${svc} code targets ${b}; leave ${a} paths untouched unless fixing bugs.`,
      hook: `${svc} moving to ${b}`,
    };
  },
  (r) => {
    const team = pick(r, TEAMS);
    const svc = pick(r, SERVICES);
    return {
      slug: `${s(svc)}_owned_by_${s(team)}`,
      name: `${svc} ownership`,
      description: `The ${team} team owns the ${svc} service`,
      text: `The ${team} team owns ${svc}; schema changes there need their review.`,
      why: 'Unreviewed schema changes broke a downstream export twice.',
      how: `Add the ${team} team as reviewers on PRs that touch ${svc}.`,
      hook: `${team} owns ${svc}`,
    };
  },
  (r) => {
    const svc = pick(r, SERVICES);
    const wd = pick(r, WEEKDAYS);
    return {
      slug: `${s(svc)}_oncall_rotation`,
      name: `${svc} on-call rotation`,
      description: `On-call for ${svc} rotates every ${wd}`,
      text: `The ${svc} on-call rotation hands over every ${wd} at noon.`,
      why: 'Pages during handover were dropped when the rotation day was unclear.',
      how: `Schedule risky ${svc} deploys away from ${wd} afternoons.`,
      hook: `${svc} on-call hands over ${wd}`,
    };
  },
  (r) => {
    const feat = pick(r, [
      'checkout flow',
      'search ranking',
      'invoice export',
      'dark mode',
      'bulk import',
      'audit log',
    ]);
    const flag = `${s(feat)}_v2`;
    return {
      slug: `flag_${flag}`,
      name: `Flag for ${feat}`,
      description: `Feature flag ${flag} gates the new ${feat}`,
      text: `The new ${feat} ships behind the feature flag \`${flag}\`.`,
      why: 'Product wants a staged rollout with a quick kill switch.',
      how: `Guard new ${feat} code paths with \`${flag}\` and keep the old path working.`,
      hook: `${flag} gates ${feat}`,
    };
  },
  (r) => {
    const svc = pick(r, SERVICES);
    const m = pick(r, MONTHS);
    return {
      slug: `${s(svc)}_postmortem_actions`,
      name: `${svc} postmortem actions`,
      description: `Postmortem actions for the ${svc} outage are due in ${m}`,
      text: `Follow-up actions from the ${svc} outage postmortem are due in ${m}.`,
      why: 'Leadership tracks these items in the monthly reliability review.',
      how: `Prefer fixes that close one of the ${svc} postmortem items.`,
      hook: `${svc} postmortem due ${m}`,
    };
  },
  (r) => {
    const v = int(r, 1, 4);
    return {
      slug: `public_api_v${v}_frozen`,
      name: `Public API v${v} frozen`,
      description: `Public API v${v} is frozen; new fields go to v${v + 1}`,
      text: `Version ${v} of the public API is frozen; additions land in v${v + 1}.`,
      why: `Partners pinned v${v} clients and contract tests fail on any change.`,
      how: `Put new endpoints and fields under the v${v + 1} router.`,
      hook: `API v${v} frozen`,
    };
  },
  (r) => {
    const page = pick(r, ['search page', 'checkout page', 'dashboard home', 'settings page']);
    const ms = pick(r, [200, 300, 500, 800]);
    return {
      slug: `perf_budget_${s(page)}_${ms}ms`,
      name: `Performance budget for ${page}`,
      description: `The ${page} must stay under ${ms} ms at p95`,
      text: `The ${page} has a performance budget of ${ms} ms at p95.`,
      why: 'Conversion dropped measurably the last time the budget was exceeded.',
      how: `Run the performance check on changes that touch the ${page}.`,
      hook: `${page} under ${ms} ms`,
    };
  },
  (r) => {
    const region = pick(r, ['EU', 'US', 'APAC', 'Canada']);
    return {
      slug: `data_residency_${s(region)}`,
      name: `${region} data residency`,
      description: `Customer data from ${region} stays in the ${region} cluster`,
      text: `Customer records from ${region} are stored and processed only in the ${region} cluster.`,
      why: 'Contractual data-residency commitments signed this year.',
      how: 'Do not add cross-region replication or exports without legal sign-off.',
      hook: `${region} data stays in ${region}`,
    };
  },
];

const USER: Tpl[] = [
  (r) => {
    const role = pick(r, ROLES);
    const f = pick(r, FOCUS);
    return {
      slug: `role_${s(role)}`,
      name: 'User role',
      description: `User is a ${role} focused on ${f}`,
      text: `The user is a ${role} who spends most of their time on ${f}.`,
      hook: `${role}, ${f}`,
    };
  },
  (r) => {
    const tz = pick(r, TZS);
    return {
      slug: `timezone_${s(tz)}`,
      name: 'Working hours',
      description: `User works from ${tz} and prefers async updates`,
      text: `The user works from ${tz} time and prefers asynchronous written updates over calls.`,
      hook: `based in ${tz}`,
    };
  },
  (r) => {
    const a = pick(r, LANGS);
    const b = pick(
      r,
      LANGS.filter((l) => l !== a),
    );
    return {
      slug: `experience_${s(a)}_${s(b)}`,
      name: 'Language background',
      description: `User is new to ${a} but experienced with ${b}`,
      text: `The user is new to ${a} and experienced with ${b}; comparisons to ${b} help.`,
      hook: `knows ${b}, learning ${a}`,
    };
  },
  (r) => {
    const ed = pick(r, EDITORS);
    return {
      slug: `editor_${s(ed)}`,
      name: 'Editor setup',
      description: `User edits code in ${ed}`,
      text: `The user works in ${ed} with its default keybindings and a light theme.`,
      hook: `uses ${ed}`,
    };
  },
  (r) => ({
    slug: `communication_${s(pick(r, ['concise', 'direct', 'brief']))}`,
    name: 'Communication style',
    description: 'User prefers concise answers without preamble',
    text: 'The user prefers concise, direct answers and dislikes long introductions.',
    hook: 'concise answers',
  }),
];

const REFERENCE: Tpl[] = [
  (r) => {
    const svc = pick(r, SERVICES);
    const d = pick(r, DASHBOARDS);
    return {
      slug: `${s(svc)}_${s(d)}_dashboard`,
      name: `${svc} latency dashboard`,
      description: `${d} dashboard for ${svc} latency and error rate`,
      text: `Latency and error rates for ${svc} are on the ${d} board at https://${s(d)}.example.com/d/${s(svc)}-overview.`,
      hook: `${d} board for ${svc}`,
    };
  },
  (r) => {
    const area = pick(r, ['pipeline', 'mobile', 'billing', 'search', 'infra']);
    const t = pick(r, TRACKERS);
    return {
      slug: `${s(area)}_bugs_in_${s(t)}`,
      name: `${area} bug tracker`,
      description: `${area} bugs are tracked in ${t} project ${area.toUpperCase()}`,
      text: `Bugs for the ${area} area are tracked in the ${t} project ${area.toUpperCase()}.`,
      hook: `${area} bugs in ${t}`,
    };
  },
  (r) => {
    const svc = pick(r, SERVICES);
    return {
      slug: `${s(svc)}_runbook`,
      name: `${svc} runbook`,
      description: `Incident runbook for ${svc}`,
      text: `The incident runbook for ${svc} lives at https://wiki.example.com/runbooks/${s(svc)}.`,
      hook: `${svc} runbook`,
    };
  },
  (r) => {
    const feat = pick(r, ['payments retry', 'search reindex', 'SSO login', 'usage metering']);
    const sys = pick(r, ['Notion', 'Confluence', 'Google Docs']);
    return {
      slug: `${s(feat)}_design_doc`,
      name: `${feat} design doc`,
      description: `Design doc for ${feat} is in ${sys}`,
      text: `The design doc for ${feat} is kept in ${sys} under the architecture space.`,
      hook: `${feat} design in ${sys}`,
    };
  },
  (r) => {
    const svc = pick(r, SERVICES);
    const env = pick(r, ENVS);
    return {
      slug: `${s(svc)}_${s(env)}_error_tracking`,
      name: `${svc} error tracking`,
      description: `Sentry project ${s(svc)}-${s(env)} collects ${svc} errors`,
      text: `Errors from ${svc} in ${env} are collected in the Sentry project ${s(svc)}-${s(env)}.`,
      hook: `Sentry ${s(svc)}-${s(env)}`,
    };
  },
];

const BY_TYPE: Record<MemType, Tpl[]> = { user: USER, feedback: FEEDBACK, project: PROJECT, reference: REFERENCE };

/** Type mix of ordinary memories: feedback and project dominate, as in real folders. */
const TYPE_WEIGHTS: [MemType, number][] = [
  ['feedback', 0.38],
  ['project', 0.3],
  ['reference', 0.17],
  ['user', 0.15],
];

export function pickType(r: Rng): MemType {
  let x = r();
  for (const [t, w] of TYPE_WEIGHTS) {
    x -= w;
    if (x < 0) return t;
  }
  return 'feedback';
}

export function makeTopic(r: Rng, type: MemType): Topic {
  const t = pick(r, BY_TYPE[type])(r);
  return { ...t, type, name: cap(t.name), description: cap(t.description) };
}

export const USER_REASONS = [
  'no longer accurate after the service rewrite',
  'duplicate of a newer memory',
  'project was cancelled',
  'contradicts the current CI configuration',
  'inferred from a one-off debugging session',
  'team ownership changed',
  'deadline passed',
];
