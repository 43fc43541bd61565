/**
 * GET /keeper — what the dashboard asks of itself once it listens (lib/server/main.ts): the
 * index keeper starts watching the roots (docs/freshness.md, "Who watches"). Over a complete
 * index its first scan runs once no request is being answered ("The dashboard's first scan"),
 * so a first page asked for meanwhile is rendered at once instead of after a second render
 * of the overview and the scan. Answers 204 and shows nothing.
 */
import { startKeeping } from '@/lib/server';

export const dynamic = 'force-dynamic';

export function GET() {
  startKeeping();
  return new Response(null, { status: 204 });
}
