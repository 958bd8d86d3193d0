// The importers: a domain's files read into an ImportedDomain, then written as a project.
export type * from './domain.ts';
export type { CarryNote } from './toProject/carry.ts';
export type { ImportResult } from './toProject/index.ts';
export { projectOfDomain } from './toProject/index.ts';
export { TAU2_FILES, readTau2Domain } from './tau2.ts';
export { INTELLAGENT_WIKI, readIntellagentDomain } from './intellagent.ts';
