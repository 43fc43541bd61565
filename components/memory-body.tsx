import Markdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * Memory text is untrusted (CONTRACT §7): rendered server-side as Markdown with
 * raw HTML shown as text, unsafe URL schemes removed, and no remote images
 * (an image would be a request to wherever the memory points).
 */
export function MemoryBody({ text }: { text: string }) {
  return (
    <div className="prose-memory max-w-none text-sm leading-6 [&_a]:text-teal-700 [&_a]:underline [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs dark:[&_code]:bg-slate-800 [&_h1]:text-lg [&_h1]:font-semibold [&_h2]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_p]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-100 [&_pre]:p-3 dark:[&_pre]:bg-slate-800 [&_ul]:list-disc">
      <Markdown
        remarkPlugins={[remarkGfm]}
        skipHtml={false}
        urlTransform={(url) => {
          const safe = defaultUrlTransform(url);
          return /^(https?:|mailto:|#|\/)/i.test(safe) ? safe : '';
        }}
        components={{
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
