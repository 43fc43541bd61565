/** Memory ids from the browser: `<source-id>:<filename>`; validated here, looked up by the service. */
export function parseMemoryId(id: string): { source: string; filename: string } | null {
  const i = id.indexOf(':');
  if (i <= 0) return null;
  const source = id.slice(0, i);
  const filename = id.slice(i + 1);
  if (!/^[a-z0-9-]{1,40}$/.test(source)) return null;
  if (!/^[^/\\\0:]{1,255}\.md$/.test(filename) || filename.startsWith('.')) return null;
  return { source, filename };
}
