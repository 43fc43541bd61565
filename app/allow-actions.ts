'use server';
/** Owner allowances on the settings page (docs/credentials.md): preview the effect, then save. */
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action, type ActionResult } from '@/lib/core/action-result';
import { freshContext, resetContext } from '@/lib/server';
import { saveAllowances } from '@/lib/service/settings/settings-service';
import { previewAllowances, type AllowPreview } from '@/lib/service/settings/allow-preview';
import { invalidCidrs, splitNetworks } from '@/lib/validators/allow';

const AllowInput = z.object({ allowNetworks: z.string().max(4000), allowHomeUsers: z.string().max(2000) });

function lists(input: z.infer<typeof AllowInput>) {
  return {
    allowNetworks: splitNetworks(input.allowNetworks),
    allowHomeUsers: input.allowHomeUsers.split(/[\s,]+/).filter(Boolean),
  };
}

export const previewAllowancesAction = action(AllowInput, (input): ActionResult<AllowPreview> => {
  const l = lists(input);
  const bad = invalidCidrs(l.allowNetworks);
  if (bad.length > 0) return { ok: false, code: 'bad-network', message: `not a CIDR block: ${bad.join(', ')}` };
  return { ok: true, data: previewAllowances(freshContext(), l) };
});

export const saveAllowancesAction = action(AllowInput, (input): ActionResult<null> => {
  const r = saveAllowances(lists(input));
  if (!r.ok) return r;
  resetContext();
  revalidatePath('/', 'layout');
  return { ok: true, data: null };
});
