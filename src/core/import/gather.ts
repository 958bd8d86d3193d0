import { INTELLAGENT_WIKI } from './intellagent.ts';
import { TAU2_USER_FILES } from './tau2User.ts';
import { TAU2_FILES, TAU2_POLICY_DOCUMENT } from './tau2.ts';
import { INTELLAGENT_VALIDATORS } from './validators.ts';

/*
 * Finding a domain's files among a folder's files, for the CLI (a folder on disk) and the page (a
 * dropped folder, picked files or a zip) alike. Paths are relative to the folder and '/'-separated;
 * nothing here touches a disk: the caller lists what is there and reads what is asked for.
 */

/** The two kinds of domain PolicyLab imports. */
export type DomainKind = 'tau2' | 'intellagent';

/** A domain's files as the readers take them (by the names they know), and where each came from. */
export interface GatheredDomain {
  readonly kind: DomainKind;
  readonly name: string;
  readonly files: Map<string, string>;
  /** The path (relative to the folder) each file was read from, for messages. */
  readonly paths: Map<string, string>;
}

/** tau2's telecom names its policy main_policy.md. */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  [TAU2_FILES.policy]: ['main_policy.md'],
};

const TAU2_DATA = [
  TAU2_FILES.policy,
  TAU2_FILES.tasks,
  TAU2_FILES.dbJson,
  TAU2_FILES.dbToml,
  TAU2_USER_FILES.userDb,
  TAU2_USER_FILES.userDbToml,
];
const TAU2_SRC = [
  TAU2_FILES.environment,
  TAU2_FILES.utils,
  TAU2_FILES.tools,
  TAU2_FILES.dataModel,
  TAU2_FILES.userTools,
  TAU2_USER_FILES.userDataModel,
];

const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);

/**
 * The folders (relative, '' for the folder itself) whose files a domain's reader may take: a tau2
 * domain's data/ and src/ (or the folder itself), a checkout's domain folders with `domain`, an
 * IntellAgent input's root, tools/, data/ and validators/. The CLI lists these; nothing deeper is
 * read.
 */
export function domainFolders(kind: DomainKind, domain?: string): readonly string[] {
  if (kind === 'intellagent') return ['', 'tools', 'data', 'validators'];
  if (domain === undefined) return ['data', 'src', ''];
  return [
    `data/tau2/domains/${domain}`,
    `data/domains/${domain}`,
    `src/tau2/domains/${domain}`,
    `src/domains/${domain}`,
  ];
}

/**
 * Picks a domain's files out of a folder's file list and reads them with `read` (given a path
 * from `paths`). `label` names the folder in the message when none is found; `name` is the
 * domain's name (see `domainName`). Never throws.
 */
export function gatherDomain(
  kind: DomainKind,
  folder: {
    readonly label: string;
    readonly name: string;
    readonly paths: readonly string[];
    readonly read: (path: string) => string;
  },
  domain?: string,
): GatheredDomain | { error: string } {
  const present = new Set(folder.paths);
  const picked = kind === 'tau2' ? pickTau2(present, domain) : pickIntellagent(present);
  if (picked.size === 0) {
    const { label } = folder;
    return {
      error:
        kind === 'intellagent'
          ? `${label} holds none of an IntellAgent input's files (wiki.md, tools/*.py, data/*.csv).`
          : domain === undefined
            ? `${label} holds none of a tau2 domain's files (data/policy.md, data/tasks.json, data/db.json or data/db.toml, src/tools.py, src/data_model.py). For a tau2-bench checkout, add --domain NAME.`
            : `${label} has no domain "${domain}" (looked in data/tau2/domains/${domain} and src/tau2/domains/${domain}).`,
    };
  }
  const files = new Map<string, string>();
  for (const [name, path] of picked) files.set(name, folder.read(path));
  return { kind, name: domain ?? folder.name, files, paths: picked };
}

function pickTau2(present: ReadonlySet<string>, domain?: string): Map<string, string> {
  const folders = domainFolders('tau2', domain);
  const dataDirs = domain === undefined ? ['data', ''] : folders.slice(0, 2);
  const srcDirs = domain === undefined ? ['src', ''] : folders.slice(2);
  const picked = new Map<string, string>();
  for (const [names, dirs] of [
    [TAU2_DATA, dataDirs],
    [TAU2_SRC, srcDirs],
  ] as const)
    for (const name of names)
      for (const dir of dirs) {
        const path = [name, ...(ALIASES[name] ?? [])]
          .map((n) => join(dir, n))
          .find((p) => present.has(p));
        if (path !== undefined) {
          picked.set(name, path);
          break;
        }
      }
  // The policy's fellow documents (telecom's tech_support_manual.md), beside it.
  const policy = picked.get(TAU2_FILES.policy);
  if (policy !== undefined) {
    const dir = policy.includes('/') ? policy.slice(0, policy.lastIndexOf('/') + 1) : '';
    for (const path of [...present].sort()) {
      const rest = path.slice(dir.length);
      if (path.startsWith(dir) && path !== policy && /^[^/]+\.md$/i.test(rest))
        picked.set(`${TAU2_POLICY_DOCUMENT}${rest}`, path);
    }
  }
  return picked;
}

function pickIntellagent(present: ReadonlySet<string>): Map<string, string> {
  const picked = new Map<string, string>();
  if (present.has(INTELLAGENT_WIKI)) picked.set(INTELLAGENT_WIKI, INTELLAGENT_WIKI);
  for (const path of [...present].sort())
    if (
      /^tools\/[^/]+\.py$/.test(path) ||
      /^data\/[^/]+\.csv$/.test(path) ||
      INTELLAGENT_VALIDATORS.test(path)
    )
      picked.set(path, path);
  return picked;
}

/**
 * A domain's name from its folder's path segments: the folder's own name, or for an IntellAgent
 * folder called "input" (as IntellAgent lays its examples out) the one above it.
 */
export function domainName(kind: DomainKind, segments: readonly string[]): string {
  const parts = segments.filter((s) => s !== '');
  const last = parts.at(-1);
  if (kind === 'intellagent' && last === 'input' && parts.length > 1) return parts.at(-2) ?? last;
  return last ?? 'Imported domain';
}

/** A domain found among dropped files: its kind and the folder (a path prefix) it sits in. */
export interface FoundDomain {
  readonly kind: DomainKind;
  /** The domain's folder, relative to the drop's root ('' when the files are at the root). */
  readonly root: string;
}

/**
 * Recognises a tau2-bench domain (two of policy.md, tasks.json, tools.py, data_model.py, or one
 * with db.json or db.toml, in data/, src/ or the folder itself) or an IntellAgent input (wiki.md with tools/*.py or
 * data/*.csv) among a drop's file paths, in the shallowest folder that holds one. Returns
 * undefined when there is none, and an error when two folders at that depth both hold one.
 */
export function findDomain(paths: readonly string[]): FoundDomain | { error: string } | undefined {
  const dirs = new Set<string>(['']);
  for (const path of paths) {
    const parts = path.split('/');
    for (let n = 1; n < parts.length; n++) dirs.add(parts.slice(0, n).join('/'));
  }
  const depth = (dir: string) => (dir === '' ? 0 : dir.split('/').length);
  const found: FoundDomain[] = [];
  for (const root of [...dirs].sort((a, b) => depth(a) - depth(b) || a.localeCompare(b))) {
    if (found.length > 0 && depth(root) > depth(found[0]?.root ?? '')) break;
    const inside = new Set(
      paths.flatMap((p) =>
        root === '' ? [p] : p.startsWith(`${root}/`) ? [p.slice(root.length + 1)] : [],
      ),
    );
    const kind = kindOf(inside);
    if (kind !== undefined) found.push({ kind, root });
  }
  if (found.length > 1)
    return {
      error: `These files hold more than one domain (in ${found.map((f) => `"${f.root}/"`).join(', ')}); import one at a time.`,
    };
  return found[0];
}

function kindOf(present: ReadonlySet<string>): DomainKind | undefined {
  if (
    present.has(INTELLAGENT_WIKI) &&
    [...present].some((p) => /^(tools\/[^/]+\.py|data\/[^/]+\.csv)$/.test(p))
  )
    return 'intellagent';
  const tau2 = pickTau2(present);
  const core = [TAU2_FILES.policy, TAU2_FILES.tasks, TAU2_FILES.tools, TAU2_FILES.dataModel];
  const held = core.filter((name) => tau2.has(name)).length;
  if (held >= 2 || (held === 1 && (tau2.has(TAU2_FILES.dbJson) || tau2.has(TAU2_FILES.dbToml))))
    return 'tau2';
  return undefined;
}
