/** The cookie the project picker keeps its choice in (app/page-project.ts). */
export const PROJECT_COOKIE = 'memtrust-project';
