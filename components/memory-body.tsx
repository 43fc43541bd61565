import Markdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { Root, Element, ElementContent, Text } from 'hast';
import { MASK_PATTERN } from '@/lib/validators/mask-pattern';
import { MaskedValue, type RevealTarget } from '@/components/masked-value';

/**
 * Turns each inline mask (`⟦credential #2 · 9 chars⟧`, lib/validators/mask-inline.ts)
 * into a <masked-value> element, in prose, table cells and code alike.
 */
function rehypeMasks() {
  const split = (text: string): ElementContent[] | null => {
    const re = new RegExp(MASK_PATTERN.source, 'g');
    const out: ElementContent[] = [];
    let pos = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m.index > pos) out.push({ type: 'text', value: text.slice(pos, m.index) });
      out.push({
        type: 'element',
        tagName: 'masked-value',
        properties: { cls: m[1], n: m[2], length: m[3] },
        children: [],
      });
      pos = m.index + m[0].length;
    }
    if (pos === 0) return null;
    if (pos < text.length) out.push({ type: 'text', value: text.slice(pos) });
    return out;
  };
  const walk = (node: Root | Element) => {
    const next: ElementContent[] = [];
    let changed = false;
    for (const child of node.children as ElementContent[]) {
      if (child.type === 'text') {
        const parts = (child as Text).value.includes('⟦') ? split((child as Text).value) : null;
        if (parts) {
          next.push(...parts);
          changed = true;
          continue;
        }
      } else if (child.type === 'element') walk(child);
      next.push(child);
    }
    if (changed) node.children = next as typeof node.children;
  };
  return (tree: Root) => walk(tree);
}

/**
 * Memory text is untrusted (docs/security.md): rendered server-side as Markdown with
 * raw HTML shown as text, unsafe URL schemes removed, and no remote images
 * (an image would be a request to wherever the memory points).
 */
export function MemoryBody({ text, reveal }: { text: string; reveal?: RevealTarget }) {
  return (
    <div className="prose-memory max-w-none text-sm leading-6 [&_a]:text-teal-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs dark:[&_code]:bg-slate-800 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_p]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-100 [&_pre]:p-3 dark:[&_pre]:bg-slate-800 [&_ul]:list-disc">
      <Markdown
        remarkPlugins={[remarkGfm]}
        skipHtml={false}
        rehypePlugins={[rehypeMasks]}
        urlTransform={(url) => {
          const safe = defaultUrlTransform(url);
          return /^(https?:|mailto:|#|\/)/i.test(safe) ? safe : '';
        }}
        components={{
          // @ts-expect-error a custom element produced by rehypeMasks above
          'masked-value': ({ cls, n, length }: { cls: string; n: string; length: string }) => (
            <MaskedValue
              cls={cls === 'personal' ? 'personal' : 'credential'}
              n={Number(n)}
              length={Number(length)}
              target={reveal}
            />
          ),
          img: ({ alt }) => <span className="text-slate-500">[image: {alt || 'no description'}]</span>,
          a: ({ href, children }) => (
            <a href={href || undefined} rel="noopener noreferrer nofollow" target="_blank">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </Markdown>
    </div>
  );
}
