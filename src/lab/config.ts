// Makes a freshly generated config.xml loopback-only, for every config generation synconf starts (1.12.1 writes
// version 32, 1.19.2 36, 1.29.5 37). The lab owns every element it depends on, whatever `generate` wrote: each owned
// element ends up exactly once, with the lab's value. That matters for lists: with 22000 taken, 1.12.1's generate
// writes three <listenAddress> elements (tcp://0.0.0.0:N, a relay, quic://0.0.0.0:N) instead of `default`.
// The file is simple and regular, so targeted element edits are plainer than a parse/rebuild round trip (which would
// also reformat it); editMismatches() then reads the edited file with an XML parser, so a faulty edit is caught as
// synconf's fault before the agent starts. After start, loopbackViolations() checks through the REST config API that
// the agent took the settings. An element a generation does not write is added (Syncthing ignores elements it does
// not know). The config `version` attribute is left alone: an older one would trigger a migration.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { LabError } from './errors.js';

export interface LoopbackSettings {
  /** instance name, also used as the device name so recordings do not depend on the host name */
  name: string;
  deviceId: string;
  guiPort: number;
  syncPort: number;
  apiKey: string;
  reconnectionIntervalS: number;
  /** the GUI speaks TLS (gui tls="true"), with the certificate Syncthing makes in its home (https-cert.pem) */
  guiTls?: boolean;
}

/** Where anything that would go out to the internet points instead: the discard port on loopback. */
const NOWHERE = '127.0.0.1:9';

/**
 * Options that keep an instance off the network, by their name in config.xml, which is also their key in
 * GET /rest/config's `options`, with the value that REST answer must show.
 */
const OFF: Record<string, boolean | number> = {
  globalAnnounceEnabled: false,
  localAnnounceEnabled: false,
  relaysEnabled: false,
  natEnabled: false, // also disables STUN
  urAccepted: -1,
  autoUpgradeIntervalH: 0,
  crashReportingEnabled: false,
  startBrowser: false,
  announceLANAddresses: false,
};

/** The attributes of <gui> the lab relies on: its API served, over plain HTTP unless TLS is asked for. */
const guiAttributes = (s: Pick<LoopbackSettings, 'guiTls'>) => ({ enabled: 'true', tls: s.guiTls ? 'true' : 'false' });

/** Every element of config.xml the lab owns, by section, with its one value. */
function ownedElements(s: LoopbackSettings): Record<'gui' | 'options', Record<string, string>> {
  return {
    gui: { address: `127.0.0.1:${s.guiPort}`, apikey: s.apiKey },
    options: {
      listenAddress: `tcp://127.0.0.1:${s.syncPort}`, // a list: 1.12.1 may write three
      ...Object.fromEntries(Object.entries(OFF).map(([k, v]) => [k, String(v)])),
      urURL: `https://${NOWHERE}/`,
      releasesURL: `https://${NOWHERE}/`,
      crashReportingURL: `https://${NOWHERE}/`,
      globalAnnounceServer: `https://${NOWHERE}/`, // a list
      stunServer: NOWHERE, // a list
      stunKeepaliveStartS: '0',
      restartOnWakeup: 'false', // up to 1.2x only; later ones ignore it
      reconnectionIntervalS: String(s.reconnectionIntervalS),
      // With setLowPriority (the default) the monitor's child calls setpgid() and leaves the monitor's process
      // group, so killing the group would miss it. false keeps monitor and child in one group.
      setLowPriority: 'false',
    },
  };
}

export function loopbackConfig(xml: string, s: LoopbackSettings): string {
  const owned = ownedElements(s);
  let out = editSection(xml, 'gui', owned.gui, guiAttributes(s));
  out = editSection(out, 'options', owned.options);
  // The device name defaults to the host name; the instance name makes pending records and recordings stable.
  const own = new RegExp(`(<device id="${s.deviceId}"[^>]*? name=")[^"]*(")`);
  if (!own.test(out))
    throw new LabError(`config.xml has no <device id="${s.deviceId}" name="…"> entry for the instance itself`);
  out = out.replace(own, (_m, a: string, b: string) => a + escapeXml(s.name) + b);
  return out;
}

/**
 * Sets child elements and attributes of the first <section> element. Each child ends up exactly once: the first
 * of its kind gets the value, any further ones are removed, and one is added when there is none.
 */
function editSection(
  xml: string,
  section: string,
  values: Record<string, string>,
  attributes: Record<string, string> = {},
): string {
  const match = new RegExp(`<${section}[\\s>][\\s\\S]*?</${section}>`).exec(xml);
  if (!match) throw new LabError(`config.xml has no <${section}> element: is this a config written by Syncthing 1.x?`);
  let body = setAttributes(match[0], section, attributes);
  for (const [tag, value] of Object.entries(values)) {
    const text = `<${tag}>${escapeXml(value)}</${tag}>`;
    const element = new RegExp(`(\\s*)(?:<${tag}(?:\\s[^>]*)?>[^<]*</${tag}>|<${tag}(?:\\s[^>]*)?/>)`, 'g');
    let first = true;
    body = body.replace(element, (_m, ws: string) => (first ? ((first = false), ws + text) : ''));
    if (first)
      body = body.replace(new RegExp(`(\\s*)</${section}>$`), (_m, ws: string) => `${ws}    ${text}${ws}</${section}>`);
  }
  return xml.slice(0, match.index) + body + xml.slice(match.index + match[0].length);
}

/** Sets attributes of the opening tag of element (replacing one that is there, adding one that is not). */
function setAttributes(element: string, tag: string, attributes: Record<string, string>): string {
  const open = new RegExp(`^<${tag}([^>]*?)(/?)>`).exec(element)!;
  let attrs = open[1];
  for (const [name, value] of Object.entries(attributes)) {
    const text = `${name}="${escapeXml(value)}"`;
    const existing = new RegExp(`\\s${name}="[^"]*"`);
    attrs = existing.test(attrs) ? attrs.replace(existing, () => ` ${text}`) : `${attrs} ${text}`;
  }
  return `<${tag}${attrs}${open[2]}>` + element.slice(open[0].length);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute, // every element a list: lists are what the lab must catch
});

type XmlNode = Record<string, unknown>;

/** The text of each element of a parsed list (an element with attributes is an object with #text). */
function texts(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((v: unknown) =>
    typeof v === 'object' && v !== null ? String((v as XmlNode)['#text'] ?? '') : String(v),
  );
}

/**
 * What the edited config.xml does not hold of the lab's settings (empty when it holds all), read back with an XML
 * parser rather than the edit's own patterns: anything here is a fault of the edit, found before the agent starts.
 */
export function editMismatches(xml: string, s: LoopbackSettings): string[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return [`it is no longer well-formed XML (line ${valid.err.line}: ${valid.err.msg})`];
  const config = (parser.parse(xml) as { configuration?: XmlNode[] }).configuration?.[0];
  if (!config) return ['it has no <configuration> element'];
  const out: string[] = [];
  const owned = ownedElements(s);
  for (const section of ['gui', 'options'] as const) {
    const node = (config[section] as XmlNode[] | undefined)?.[0] ?? {};
    for (const [tag, value] of Object.entries(owned[section])) {
      const found = texts(node[tag]);
      if (found.length !== 1 || found[0] !== value)
        out.push(`${section}/${tag} is ${JSON.stringify(found)}, not ${JSON.stringify([value])}`);
    }
  }
  const gui = (config.gui as XmlNode[] | undefined)?.[0] ?? {};
  for (const [name, value] of Object.entries(guiAttributes(s))) {
    if (gui[`@${name}`] !== value) out.push(`gui@${name} is ${JSON.stringify(gui[`@${name}`])}, not "${value}"`);
  }
  const devices = (config.device as XmlNode[] | undefined) ?? [];
  const own = devices.find((d) => d['@id'] === s.deviceId);
  if (own?.['@name'] !== s.name)
    out.push(`device ${s.deviceId} is named ${JSON.stringify(own?.['@name'])}, not ${JSON.stringify(s.name)}`);
  return out;
}

/**
 * What GET /rest/config shows that is not loopback-only (empty when all is in force). An option the agent does not
 * report at all is a feature that generation lacks, so it cannot be on.
 */
export function loopbackViolations(config: unknown, s: Pick<LoopbackSettings, 'guiPort' | 'syncPort'>): string[] {
  const c = config as { gui?: { address?: unknown }; options?: Record<string, unknown> };
  const out: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const gui = `127.0.0.1:${s.guiPort}`;
  if (!same(c.gui?.address, gui)) out.push(`gui.address is ${JSON.stringify(c.gui?.address)}, not "${gui}"`);
  const listen = [`tcp://127.0.0.1:${s.syncPort}`];
  if (!same(c.options?.listenAddresses, listen))
    out.push(`options.listenAddresses is ${JSON.stringify(c.options?.listenAddresses)}, not ${JSON.stringify(listen)}`);
  const urURL = `https://${NOWHERE}/`;
  if (c.options && 'urURL' in c.options && !same(c.options.urURL, urURL))
    out.push(`options.urURL is ${JSON.stringify(c.options.urURL)}, not "${urURL}"`);
  for (const [key, value] of Object.entries(OFF)) {
    // a release candidate (a version with -rc.) always accepts usage reporting, whatever config.xml says: harmless
    // while its reports go to the discard port on loopback (urURL, checked above), so that is what is checked
    if (key === 'urAccepted' && same(c.options?.urURL, urURL)) continue;
    if (c.options && key in c.options && !same(c.options[key], value))
      out.push(`options.${key} is ${JSON.stringify(c.options[key])}, not ${JSON.stringify(value)}`);
  }
  return out;
}
