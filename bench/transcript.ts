/**
 * Origin lookups over big Claude Code transcripts (docs/origin.md "Cost").
 *
 * 1. One lookup in a 200 MB transcript: a generated session (user turns, streamed
 *    assistant lines, tool results of tens of KB, a few lines over the line cap, one
 *    WebFetch then the memory's Write near the end), read by a fresh process in one pass.
 *    Prints wall time, peak RSS and heap beside the same process doing nothing but
 *    reading the bytes (the floor), and the second lookup (cached).
 *    Then the dashboard's way (docs/origin.md "In the dashboard"): the memory page's lookup
 *    from the cache only (the transcript not read yet), the background read in asynchronous
 *    chunks with the longest the event loop was held meanwhile, and the page again.
 * 2. `memtrust scan` of a Claude Code folder whose memories name transcripts: the first
 *    scan (reads them into the cache), the next one (cached), and the same folder with no
 *    transcripts beside it.
 *
 *   npx tsx bench/transcript.ts [--mb 200] [--sessions 10] [--session-mb 20] [--memories 30] [--keep no]
 *
 * Prints numbers; always exits 0. The files are our own invention.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_NOW, cliEnv, flags, fmtMs, intFlag, machineLine, median, note, runCli, table } from './common';

const SESSION = '0b5e2d41-7c3a-4f19-8e62-9a0d1c2b3e4f';

/** Writes a transcript of about `mb` megabytes; the memory's write is in the last turns. */
function generate(file: string, mb: number, cwd: string, memoryFile: string, session = SESSION): number {
  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  let n = 0;
  let t = Date.parse('2026-10-01T08:00:00Z');
  const line = (type: string, rest: Record<string, unknown>, sidechain = false) => {
    n++;
    t += 700;
    const s = `${JSON.stringify({ parentUuid: `p-${n - 1}`, isSidechain: sidechain, userType: 'external', cwd, sessionId: session, version: '2.0.14', gitBranch: 'main', type, uuid: `u-${n}`, timestamp: new Date(t).toISOString(), ...rest })}\n`;
    fs.writeSync(fd, s);
    bytes += Buffer.byteLength(s);
  };
  const filler = (k: number, size: number) => {
    const words = ['const', 'value', 'return', 'function', 'import', 'export', 'await', 'result', 'config', 'module'];
    const out: string[] = [];
    let len = 0;
    for (let i = 0; len < size; i++) {
      const w = `${words[(i * 7 + k) % words.length]}${i % 13 === 0 ? '\n' : ' '}`;
      out.push(w);
      len += w.length;
    }
    return out.join('');
  };
  const target = mb * 1024 * 1024;
  let turn = 0;
  let wroteMemory = false;
  while (bytes < target || !wroteMemory) {
    turn++;
    line('user', { message: { role: 'user', content: `Turn ${turn}: look at module ${turn % 97} and tidy it up` } });
    line('assistant', {
      requestId: `r${turn}`,
      message: { id: `m${turn}`, role: 'assistant', content: [{ type: 'text', text: filler(turn, 600) }] },
    });
    for (let k = 0; k < 6; k++) {
      const id = `toolu_${turn}_${k}`;
      line('assistant', {
        requestId: `r${turn}`,
        message: {
          id: `m${turn}`,
          role: 'assistant',
          content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `${cwd}/src/mod${k}.ts` } }],
        },
      });
      const out = filler(turn + k, 30_000 + ((turn * 131 + k * 17) % 40_000));
      line('user', {
        message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: out }] },
        toolUseResult: { type: 'text', file: { filePath: `${cwd}/src/mod${k}.ts`, content: out } },
      });
    }
    // Now and then a pasted image or a huge output: longer than the line cap, skipped.
    if (turn % 400 === 0)
      line('user', {
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'x', content: 'z'.repeat(5 * 1024 * 1024) }],
        },
      });
    if (turn % 50 === 0)
      fs.writeSync(
        fd,
        `${JSON.stringify({ type: 'summary', summary: `Work up to turn ${turn}`, leafUuid: `u-${n}` })}\n`,
      );
    if (!wroteMemory && bytes > target * 0.95) {
      turn++;
      line('user', { message: { role: 'user', content: 'Read the runbook page and keep what matters' } });
      line('assistant', {
        message: {
          id: 'mw',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_fetch',
              name: 'WebFetch',
              input: { url: 'https://runbook.example.net/deploy', prompt: 'steps' },
            },
          ],
        },
      });
      line('user', {
        message: {
          role: 'user',
          content: [{ tool_use_id: 'toolu_fetch', type: 'tool_result', content: filler(1, 8000) }],
        },
      });
      line('assistant', {
        message: {
          id: 'mw2',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_memwrite',
              name: 'Write',
              input: { file_path: memoryFile, content: 'the runbook says…' },
            },
          ],
        },
      });
      line('user', {
        message: {
          role: 'user',
          content: [{ tool_use_id: 'toolu_memwrite', type: 'tool_result', content: 'File created' }],
        },
      });
      wroteMemory = true;
    }
  }
  fs.closeSync(fd);
  return bytes;
}

const MEMORY = (session: string, name: string) =>
  `---\nname: ${name}\ndescription: deploy steps from the runbook\nmetadata:\n  type: project\n  node_type: memory\n  originSessionId: ${session}\n---\n\nDeploy from the release branch after the smoke tests; the runbook lists the steps.\n`;

/** Child mode: one lookup (and a second, cached), or only reading the bytes; prints JSON. */
async function child(mode: string, root: string, file: string): Promise<void> {
  const { memoryOrigin } = await import('../lib/service/origin/origin');
  const { eachLine } = await import('../lib/origin/lines');
  const owner = { emails: [] };
  const before = process.memoryUsage();
  const t0 = performance.now();
  let result: unknown = null;
  if (mode === 'floor') {
    let lines = 0;
    eachLine(file, () => {
      lines++;
      return true;
    });
    result = { lines };
  } else if (mode === 'page') {
    const { sessionScanAsync } = await import('../lib/service/origin/origin');
    const req = {
      root,
      abs: path.join(root, 'runbook.md'),
      filename: 'runbook.md',
      sessionId: SESSION,
      owner,
      dataDir: null,
      cacheOnly: true,
    };
    const p0 = performance.now();
    const cold = memoryOrigin(req);
    const pageColdMs = performance.now() - p0;
    // A timer every 5 ms: the longest gap between its ticks is the longest a request would wait.
    let last = performance.now();
    let longest = 0;
    const tick = setInterval(() => {
      const t = performance.now();
      longest = Math.max(longest, t - last);
      last = t;
    }, 5);
    const b0 = performance.now();
    await sessionScanAsync(file, owner, null);
    const backgroundMs = performance.now() - b0;
    clearInterval(tick);
    const w0 = performance.now();
    const warm = memoryOrigin(req);
    result = {
      status: `${cold.status}${cold.status === 'unknown' && cold.reading ? ' (reading)' : ''} → ${warm.status}`,
      flags: warm.status === 'known' ? warm.flags : [],
      pageColdMs,
      backgroundMs,
      longestBlockMs: longest,
      pageWarmMs: performance.now() - w0,
    };
  } else {
    const req = {
      root,
      abs: path.join(root, 'runbook.md'),
      filename: 'runbook.md',
      sessionId: SESSION,
      owner,
      dataDir: null,
    };
    const o = memoryOrigin(req);
    const ms1 = performance.now() - t0;
    const t1 = performance.now();
    memoryOrigin(req);
    result = {
      status: o.status,
      flags: o.status === 'known' ? o.flags : [],
      line: o.status === 'known' ? o.write.line : 0,
      cachedMs: performance.now() - t1,
      firstMs: ms1,
    };
  }
  const ms = performance.now() - t0;
  const after = process.memoryUsage();
  console.log(
    JSON.stringify({
      ms,
      result,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      rssStartMb: before.rss / 1048576,
      heapUsedMb: after.heapUsed / 1048576,
      heapTotalMb: after.heapTotal / 1048576,
    }),
  );
}

function runChild(mode: string, root: string, file: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', mode, root, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`child ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
    ms: number;
    result: {
      status?: string;
      flags?: string[];
      line?: number;
      cachedMs?: number;
      firstMs?: number;
      lines?: number;
      pageColdMs?: number;
      backgroundMs?: number;
      longestBlockMs?: number;
      pageWarmMs?: number;
    };
    maxRssMb: number;
    rssStartMb: number;
    heapUsedMb: number;
    heapTotalMb: number;
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1]!, argv[2]!, argv[3]!);
  const f = flags(argv, { mb: '200', sessions: '10', 'session-mb': '20', memories: '30', keep: 'no', reps: '3' });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mt-bench-transcript-'));
  try {
    note(machineLine());
    // 1. One lookup in one big transcript.
    const project = path.join(tmp, 'projects', '-home-dev-shop');
    const root = path.join(project, 'memory');
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'runbook.md'), MEMORY(SESSION, 'runbook'));
    const file = path.join(project, `${SESSION}.jsonl`);
    const tg = performance.now();
    const bytes = generate(file, intFlag(f, 'mb'), '/home/dev/shop', path.join(root, 'runbook.md'));
    note(`generated ${(bytes / 1048576).toFixed(0)} MB in ${fmtMs(performance.now() - tg)}: ${file}`);
    const reps = intFlag(f, 'reps');
    const look: ReturnType<typeof runChild>[] = [];
    const floor: ReturnType<typeof runChild>[] = [];
    const page: ReturnType<typeof runChild>[] = [];
    for (let i = 0; i < reps; i++) {
      floor.push(runChild('floor', root, file));
      look.push(runChild('lookup', root, file));
      page.push(runChild('page', root, file));
    }
    const l = look[0]!.result;
    note(
      `lookup: origin ${l.status}, flags ${JSON.stringify(l.flags)}, write on line ${l.line} of ${floor[0]!.result.lines}`,
    );
    const max = (xs: number[]) => Math.max(...xs);
    console.log(
      table([
        ['one process', 'wall (median)', 'peak RSS (max)', 'RSS at start', 'heap used after', 'heap total after'],
        [
          'read the bytes line by line (floor)',
          fmtMs(median(floor.map((x) => x.ms))),
          `${max(floor.map((x) => x.maxRssMb)).toFixed(0)} MB`,
          `${median(floor.map((x) => x.rssStartMb)).toFixed(0)} MB`,
          `${median(floor.map((x) => x.heapUsedMb)).toFixed(0)} MB`,
          `${median(floor.map((x) => x.heapTotalMb)).toFixed(0)} MB`,
        ],
        [
          'origin lookup (cold)',
          fmtMs(median(look.map((x) => x.result.firstMs ?? 0))),
          `${max(look.map((x) => x.maxRssMb)).toFixed(0)} MB`,
          `${median(look.map((x) => x.rssStartMb)).toFixed(0)} MB`,
          `${median(look.map((x) => x.heapUsedMb)).toFixed(0)} MB`,
          `${median(look.map((x) => x.heapTotalMb)).toFixed(0)} MB`,
        ],
        ['same lookup again (cached)', fmtMs(median(look.map((x) => x.result.cachedMs ?? 0))), '', '', '', ''],
      ]),
    );
    note(`dashboard: origin ${page[0]!.result.status}, flags ${JSON.stringify(page[0]!.result.flags)}`);
    const pm = (k: 'pageColdMs' | 'backgroundMs' | 'longestBlockMs' | 'pageWarmMs') =>
      fmtMs(median(page.map((x) => x.result[k] ?? 0)));
    console.log(
      table([
        ['the dashboard (one process)', 'wall (median)'],
        ['memory page lookup, transcript not read yet (cache only: "reading…")', pm('pageColdMs')],
        ['background read, asynchronous 1 MiB chunks', pm('backgroundMs')],
        ['longest the event loop was held during it', pm('longestBlockMs')],
        ['memory page lookup after it (cached)', pm('pageWarmMs')],
        ['peak RSS (max)', `${max(page.map((x) => x.maxRssMb)).toFixed(0)} MB`],
      ]),
    );
    fs.rmSync(file);

    // 2. memtrust scan of a folder whose memories name transcripts.
    const sessions = intFlag(f, 'sessions');
    const n = intFlag(f, 'memories');
    const proj2 = path.join(tmp, 'projects', '-home-dev-app');
    const root2 = path.join(proj2, 'memory');
    fs.mkdirSync(root2, { recursive: true });
    const ids = Array.from(
      { length: sessions },
      (_, i) => `5e55${String(i).padStart(4, '0')}-1111-4222-8333-444455556666`,
    );
    const index: string[] = ['# Memory', ''];
    for (let i = 0; i < n; i++) {
      fs.writeFileSync(path.join(root2, `note_${i}.md`), MEMORY(ids[i % sessions]!, `note ${i}`));
      index.push(`- [Note ${i}](note_${i}.md) — note`);
    }
    fs.writeFileSync(path.join(root2, 'MEMORY.md'), `${index.join('\n')}\n`);
    let total = 0;
    for (let s = 0; s < sessions; s++)
      total += generate(
        path.join(proj2, `${ids[s]}.jsonl`),
        intFlag(f, 'session-mb'),
        '/home/dev/app',
        path.join(root2, `note_${s}.md`),
        ids[s],
      );
    note(`folder: ${n} memories naming ${sessions} transcripts, ${(total / 1048576).toFixed(0)} MB in all`);
    const runs: string[][] = [['memtrust scan', 'wall', 'origins']];
    const scanOnce = (label: string, env: NodeJS.ProcessEnv) => {
      const r = runCli(['scan'], env, tmp);
      runs.push([label, fmtMs(r.ms), r.lastLine.startsWith('origins:') ? r.lastLine.slice(9) : '—']);
    };
    const envFor = (db: string) =>
      cliEnv({
        MEMTRUST_ROOT: root2,
        MEMTRUST_DB: db,
        MEMTRUST_NOW: BENCH_NOW,
        XDG_CONFIG_HOME: path.join(tmp, 'cfg'),
        XDG_DATA_HOME: path.join(tmp, 'data'),
      });
    const d1 = path.join(tmp, 'db1');
    fs.mkdirSync(d1);
    scanOnce('first scan (transcripts read into the cache)', envFor(path.join(d1, 'index.sqlite')));
    scanOnce('next scan, nothing changed (cached)', envFor(path.join(d1, 'index.sqlite')));
    // The same folder with its transcripts moved away.
    const aside = path.join(tmp, 'aside');
    fs.mkdirSync(aside);
    for (const id of ids) fs.renameSync(path.join(proj2, `${id}.jsonl`), path.join(aside, `${id}.jsonl`));
    const d2 = path.join(tmp, 'db2');
    fs.mkdirSync(d2);
    scanOnce('first scan, no transcripts beside the folder', envFor(path.join(d2, 'index.sqlite')));
    console.log(table(runs));
  } finally {
    if (f.keep !== 'yes') fs.rmSync(tmp, { recursive: true, force: true });
    else note(`kept ${tmp}`);
  }
}

void main();
