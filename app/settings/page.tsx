import type { Metadata } from 'next';
import { context } from '@/lib/server';
import { discoverRoots } from '@/lib/service/settings/discover';
import { readSettings } from '@/lib/core/settings';
import { SettingsForms } from '@/components/settings-forms';
import { HookStatusSection } from '@/components/hook-status';
import { hookStatus, ourHookEntries } from '@/lib/service/session/hook-install';
import { shellQuote } from '@/lib/hooks/install-entries';
import { projectPath } from '@/lib/core/project';
import { ContextBudgetForm } from '@/components/context-budget-form';
import { DEFAULT_CONTEXT_BUDGET } from '@/lib/trust/context';
import { AllowSettingsForm } from '@/components/allow-settings-form';
import { recordSourceSummaries } from '@/lib/service/records/read';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Settings' };

const ORIGIN: Record<string, string> = {
  env: 'from MEMTRUST_ROOT (the environment wins over saved settings)',
  flag: 'from --root',
  settings: 'from your user settings',
  default: 'the default ~/.claude/claude-memory',
  'claude-home': "the Claude Code home (nothing configured): every project's memory folders, agent memory and stores",
  demo: 'the generated demo root (nothing configured)',
};

export default function SettingsPage() {
  const ctx = context();
  let settings: ReturnType<typeof readSettings> = {};
  let settingsError: string | null = null;
  try {
    settings = readSettings();
  } catch (e) {
    settingsError = (e as Error).message;
  }
  const discovered = discoverRoots().filter((d) => !ctx.config.roots.includes(d));
  const owner = ctx.owner();
  return (
    <div className="max-w-3xl space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      {settingsError ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900">
          Your settings file could not be read: {settingsError}
        </p>
      ) : null}
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Stored in <code className="font-mono text-xs">{ctx.config.settingsPath}</code> — user-level, never inside a
        repository.
      </p>
      <SettingsForms
        roots={[
          ...ctx.sources.map((s) => ({ root: s.root, kind: s.label, error: s.error })),
          // Roots read as records (docs/records.md): named with their layout and shape.
          ...recordSourceSummaries(ctx).map((r) => ({
            root: r.root,
            kind: `${r.label} · layout ${r.layout}, ${r.shape} · ${r.count} records`,
            error: r.error,
          })),
        ]}
        origin={ORIGIN[ctx.config.rootsOrigin] ?? ctx.config.rootsOrigin}
        savedRoots={settings.roots ?? []}
        discovered={discovered}
        owner={{
          emails: owner.emails.join(' '),
          githubHandle: owner.githubHandle ?? '',
          homeUser: owner.homeUser ?? '',
        }}
        envOverrides={!!process.env.MEMTRUST_ROOT}
      />
      <HookStatusSection
        status={hookStatus(process.env, ourHookEntries())}
        installCommand={`${shellQuote(process.execPath)} ${shellQuote(projectPath('lib', 'cli', 'memtrust.cjs'))} hook install --apply`}
      />
      <ContextBudgetForm
        budget={settings.contextBudget ?? DEFAULT_CONTEXT_BUDGET}
        isDefault={settings.contextBudget === undefined}
      />
      <AllowSettingsForm
        allowNetworks={(settings.allowNetworks ?? []).join(' ')}
        allowHomeUsers={(settings.allowHomeUsers ?? []).join(' ')}
        envNetworks={process.env.MEMTRUST_ALLOW_NETWORKS?.trim() || null}
      />
    </div>
  );
}
