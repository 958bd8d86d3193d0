// The importers: a domain's files read into an ImportedDomain, then written as a project.
export type * from './domain.ts';
export type { CarryNote } from './toProject/carry.ts';
export type { ImportResult } from './toProject/index.ts';
export { projectOfDomain } from './toProject/index.ts';
export { TAU2_FILES, readTau2Domain } from './tau2.ts';
export { INTELLAGENT_WIKI, readIntellagentDomain } from './intellagent.ts';
export type { DomainKind, FoundDomain, GatheredDomain } from './gather.ts';
export { domainFolders, domainName, findDomain, gatherDomain } from './gather.ts';
export { MAX_IMPORT_BYTES, importTooLarge } from './sizeLimit.ts';
export type { DomainImport } from './importDomain.ts';
export { domainSummary, importDomain, importReportText } from './importDomain.ts';
export type { DomainDrop, DropImport, DroppedFile, ImportReport } from './drop.ts';
export { domainOfDrop, holdsDomain, importDrop, importReportOf } from './drop.ts';
