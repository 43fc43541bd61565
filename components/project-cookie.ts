/** The cookie the project picker keeps its choice in (lib/server/page-project.ts). */
export const PROJECT_COOKIE = 'memtrust-project';
