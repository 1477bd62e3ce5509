// The projects area is one lazy chunk: its three routes import this one module, so the shell carries
// one list of the chunk's dependencies instead of three (the first-screen budget is tight).
export { ContextPage } from './context-page.tsx';
export { ProjectPage } from './project-page.tsx';
export { ProjectsPage } from './projects-page.tsx';
