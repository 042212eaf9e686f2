// The Debian archive(s) this machine already uses, read from its own apt sources, so synconf names no mirror host.
// Both formats: deb822 (/etc/apt/sources.list.d/*.sources) and one-line (/etc/apt/sources.list, *.list).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DebianArchive {
  uri: string;
  /** the keyring file the machine's entry names (Signed-By), if it is a file */
  signedBy?: string;
}

interface SourceEntry {
  types: string[];
  uris: string[];
  suites: string[];
  components: string[];
  signedBy?: string;
}

/** The apt source files of this machine (or $SYNCONF_DEBIAN_SOURCES: files separated by ':'). */
export function sourceFiles(): string[] {
  const explicit = process.env.SYNCONF_DEBIAN_SOURCES;
  if (explicit) return explicit.split(':').filter(Boolean);
  const files = ['/etc/apt/sources.list'];
  const parts = '/etc/apt/sources.list.d';
  if (existsSync(parts))
    for (const f of readdirSync(parts).sort()) if (/\.(sources|list)$/.test(f)) files.push(join(parts, f));
  return files.filter((f) => existsSync(f));
}

function parseDeb822(text: string): SourceEntry[] {
  const out: SourceEntry[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields: Record<string, string> = {};
    let last = '';
    for (const line of stanza.split('\n')) {
      if (line.startsWith('#')) continue;
      if (/^\s/.test(line) && last)
        fields[last] += '\n' + line.trim(); // continuation (e.g. an inline key)
      else {
        const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
        if (m) fields[(last = m[1].toLowerCase())] = m[2].trim();
      }
    }
    if (!fields.uris || fields.enabled === 'no') continue;
    const words = (k: string) => (fields[k] ?? '').split(/\s+/).filter(Boolean);
    const signedBy = fields['signed-by'];
    out.push({
      types: words('types'),
      uris: words('uris'),
      suites: words('suites'),
      components: words('components'),
      signedBy: signedBy && !signedBy.includes('\n') ? signedBy : undefined,
    });
  }
  return out;
}

function parseOneLine(text: string): SourceEntry[] {
  const out: SourceEntry[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^(deb(?:-src)?)\s+(?:\[([^\]]*)\]\s+)?(\S+)\s+(\S+)\s*(.*)$/.exec(line);
    if (!m) continue;
    const signedBy = /(?:^|\s)signed-by=(\S+)/.exec(m[2] ?? '')?.[1];
    out.push({ types: [m[1]], uris: [m[3]], suites: [m[4]], components: m[5].split(/\s+/).filter(Boolean), signedBy });
  }
  return out;
}

export function parseSources(file: string, text: string): SourceEntry[] {
  return /^\s*(Types|URIs):/im.test(text) && !file.endsWith('.list') ? parseDeb822(text) : parseOneLine(text);
}

/**
 * The archives serving Debian's main component for a release codename (not -security, -updates, -backports):
 * those carry every release's suites. Entries signed with Debian's archive keyring come first.
 */
export function debianArchives(files = sourceFiles()): DebianArchive[] {
  const entries = files.flatMap((f) => parseSources(f, readFileSync(f, 'utf8')));
  const main = entries.filter(
    (e) => e.types.includes('deb') && e.components.includes('main') && e.suites.some((s) => /^[a-z]+$/.test(s)),
  );
  const byKeyring = main.filter((e) => e.signedBy?.includes('debian-archive-keyring'));
  const chosen = byKeyring.length > 0 ? byKeyring : main;
  const seen = new Set<string>();
  const out: DebianArchive[] = [];
  for (const e of chosen) {
    for (const uri of e.uris) {
      if (seen.has(uri)) continue;
      seen.add(uri);
      out.push({ uri, signedBy: e.signedBy });
    }
  }
  return out;
}
